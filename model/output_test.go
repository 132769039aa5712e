package model_test

import (
	"bytes"
	"encoding/csv"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/umlab/umlab/model"
)

func TestFrames(t *testing.T) {
	rep, err := model.Fit(synthRows(0.01), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cal := rep.CalibrationFrame()
	if cal.Err != nil {
		t.Fatal(cal.Err)
	}
	want := []string{"policy", "size_bytes", "f_ms", "g_ms", "median_ape_pct", "max_ape_pct", "points"}
	if !slices.Equal(cal.Names(), want) || cal.Nrow() != len(rep.Calibration) {
		t.Errorf("calibration frame: %v, %d rows", cal.Names(), cal.Nrow())
	}
	if got := cal.Col("f_ms").Float()[3]; got != rep.Calibration[3].F {
		t.Errorf("f_ms[3] = %g, want %g", got, rep.Calibration[3].F)
	}
	for name, df := range map[string]struct {
		n, rows int
		err     error
	}{
		"points":     {rep.PointsFrame().Ncol(), rep.PointsFrame().Nrow(), rep.PointsFrame().Err},
		"crossovers": {rep.CrossoverFrame().Ncol(), rep.CrossoverFrame().Nrow(), rep.CrossoverFrame().Err},
		"fastest":    {rep.FastestFrame().Ncol(), rep.FastestFrame().Nrow(), rep.FastestFrame().Err},
	} {
		if df.err != nil || df.n == 0 || df.rows == 0 {
			t.Errorf("%s frame: %d columns, %d rows, %v", name, df.n, df.rows, df.err)
		}
	}
	// The points carry their 95 % intervals after the estimates.
	pts := rep.PointsFrame()
	if names := pts.Names(); !slices.Equal(names[len(names)-4:], []string{"measured_ms_lo", "measured_ms_hi", "ape_pct_lo", "ape_pct_hi"}) {
		t.Errorf("points frame columns %v: want the intervals' bounds last", names)
	}
	for i, p := range rep.Points {
		lo, hi := pts.Col("measured_ms_lo").Float()[i], pts.Col("measured_ms_hi").Float()[i]
		if lo != p.MeasuredCI.Lo || hi != p.MeasuredCI.Hi || !(lo <= p.MeasuredMs && p.MeasuredMs <= hi) {
			t.Errorf("point %d: measured %g, interval [%g, %g] in the frame, %v in the report", i, p.MeasuredMs, lo, hi, p.MeasuredCI)
		}
	}
	if n := rep.CrossoverFrame().Nrow(); n != 6*len(sizes) {
		t.Errorf("crossover rows %d, want %d", n, 6*len(sizes))
	}
}

// WriteCSV keeps every digit (gota's writer rounds to six decimals) and
// writes NaN as an empty field.
func TestWriteCSVPrecision(t *testing.T) {
	rep, err := model.FromParams([]model.Param{
		{Policy: "a", SizeBytes: 64 * kib, F: 1.5e-7, G: 0.1 + 0.2},
		{Policy: "b", SizeBytes: 64 * kib, F: 2, G: 1.0 / 3},
	}, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rep.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 || strings.Join(recs[0], ",") != "policy,size_bytes,f_ms,g_ms,median_ape_pct,max_ape_pct,points" {
		t.Fatalf("csv: %q", recs)
	}
	for i, want := range []float64{1.5e-7, 0.1 + 0.2} {
		got, err := strconv.ParseFloat(recs[1][2+i], 64)
		if err != nil || got != want {
			t.Errorf("field %q, want %v exactly", recs[1][2+i], want)
		}
	}
	if recs[1][4] != "" || recs[2][1] != "65536" {
		t.Errorf("row %q, %q", recs[1], recs[2])
	}
	buf.Reset()
	if err := model.WriteFrameCSV(&buf, rep.CrossoverFrame()); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "size_bytes,policy_a,policy_b,kind,parallel,r_star,faster_below,faster_above\n65536,a,b,") {
		t.Errorf("crossover csv:\n%s", buf.String())
	}
}

func TestWriteTable(t *testing.T) {
	rep, err := model.Fit(paperRows(), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rep.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	s := buf.String()
	for _, want := range []string{
		"Section VIII-B), GB200",
		"explicit_copy     1 GiB  60.085",
		"Aggregate median APE over sizes ≥ 16 MiB: 0.09 %",
		"Fastest policy predicted: 2 of 2",
		"host_mapped faster below R* = 1.06",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("table lacks %q:\n%s", want, s)
		}
	}
	if math.IsNaN(rep.MedianAPE) {
		t.Error("median APE is NaN")
	}
}

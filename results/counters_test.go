package results

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/go-gota/gota/dataframe"
)

// CounterFrame is the DataFrame of counter rows: every column of
// counters.csv, then migrated_bytes, migrated_per_useful and
// pcie_per_useful.
func CounterFrame(rows []CounterRow) dataframe.DataFrame {
	fields := make([]Field[CounterRow], 0, len(counterColumns)+len(counterDerived))
	for _, c := range counterColumns {
		fields = append(fields, c.Field)
	}
	return Build(rows, append(fields, counterDerived...)...)
}

// CounterTable loads a results directory with its counters.csv, summarises
// the trials (with the metadata's peaks and throttle reasons) and joins the
// counter passes: one row per configuration.
func CounterTable(dir string) (dataframe.DataFrame, error) {
	rows, meta, err := LoadDir(dir)
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	counters, err := LoadCounters(dir)
	if err != nil {
		return dataframe.DataFrame{}, fmt.Errorf("results: %s has no counter passes (run with --counters): %w", dir, err)
	}
	sum := Summarize(rows, SummaryOptions{
		PeakMemoryGBps: meta.Device.PeakMemoryGBps, PeakHostLinkGBps: meta.Device.PeakHostLinkGBps,
		ThrottleReasons: meta.Device.ThrottleReasons,
	})
	return JoinCounters(sum, counters)
}

func sampleCounterRows() []CounterRow {
	base := NewRow()
	base.Group, base.Benchmark, base.Mode, base.RunID, base.Host = "managed", "stream", "managed_cold", "run-9", "h"
	base.SizeBytes, base.FootprintBytes, base.UsefulBytes, base.ActiveElements, base.StrideElements = 1000, 1000, 2000, 125, 1
	a := NewCounterRow(base)
	a.Collected, a.Scope, a.Windows = true, ScopeTimed, 2
	a.HtoDBytes, a.DtoHBytes, a.DtoDBytes, a.GPUPageFaults, a.GPUFaultGroups = 268435456, 1<<53, 0, 4097, 123456
	a.CPUPageFaults, a.ThrashingEvents, a.ThrashingBytes, a.Records = 0, 1, 2<<20, 9999
	a.ThrottlingEvents, a.RemoteMapEvents, a.RemoteMapBytes, a.Dropped, a.Incomplete = 0, 0, 0, 0, 0
	a.PassKernelMs, a.PassTotalMs = 1.5e-7, 12.345678901234567
	a.PCIeTXBytes, a.PCIeRXBytes = 0, 270000000
	a.Config.Placement = "pref=gpu0;last=gpu0;by=gpu0;read_mostly=false"
	a.Config.Note = `lost, "quoted"; records`
	a.Config.OversubPct = 37.5
	b := NewCounterRow(base)
	b.Config.Mode, b.Config.Note = "managed_prefetch", "counters not collected: CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED"
	b.Config.StrideElements, b.Config.PageIntervalBytes, b.Config.ReusePasses = 16, 65536, 4
	b.Config.Direction, b.Config.Policy, b.Config.Phase, b.Config.Pattern = "h2d", "managed", "alternating", "strided"
	return []CounterRow{a, b}
}

// sameCounterRow compares rows with NaN equal to NaN.
func sameCounterRow(t *testing.T, got, want CounterRow) {
	t.Helper()
	for _, c := range counterColumns {
		g, w := c.Value(&got), c.Value(&want)
		gf, gok := g.(float64)
		wf, wok := w.(float64)
		if gok && wok && math.IsNaN(gf) && math.IsNaN(wf) {
			continue
		}
		if g != w {
			t.Errorf("column %s: %v, want %v", c.Name, g, w)
		}
	}
}

func TestCounterCSVRoundTrip(t *testing.T) {
	rows := sampleCounterRows()
	var buf bytes.Buffer
	if err := WriteCounterCSV(&buf, rows); err != nil {
		t.Fatal(err)
	}
	if s := buf.String(); !strings.Contains(s, ",268435456,9007199254740992,") || !strings.Contains(s, "0.00000015") {
		t.Errorf("integers or small floats not written exactly:\n%s", s)
	}
	back, err := ReadCounterCSV(&buf, "counters.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(rows) {
		t.Fatalf("%d rows back", len(back))
	}
	for i := range rows {
		sameCounterRow(t, back[i], rows[i])
	}
	// Every configuration column survives, so keys match the summary's.
	for i := range rows {
		if ConfigKey(back[i].Config) != ConfigKey(rows[i].Config) {
			t.Errorf("row %d: config key %q, want %q", i, ConfigKey(back[i].Config), ConfigKey(rows[i].Config))
		}
	}
}

func TestCounterCSVErrors(t *testing.T) {
	head := strings.Join(CounterColumns(), ",")
	for name, in := range map[string]string{
		"empty":          "",
		"unknown column": "group,benchmark,mode,size_bytes,pass,zorp\n",
		"missing pass":   "group,benchmark,mode,size_bytes\n",
		"twice":          "group,benchmark,mode,size_bytes,pass,pass\n",
		"bad number":     "group,benchmark,mode,size_bytes,pass,um_htod_bytes\nmanaged,stream,managed_cold,1024,counters,lots\n",
		"bad bool":       "group,benchmark,mode,size_bytes,pass,counters_collected\nmanaged,stream,managed_cold,1024,counters,maybe\n",
		"short line":     head + "\nmanaged,stream\n",
	} {
		_, err := ReadCounterCSV(strings.NewReader(in), "c.csv")
		if !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: %v, want ErrMalformed", name, err)
		}
	}
	// A minimal file: absent counts are NaN.
	rows, err := ReadCounterCSV(strings.NewReader("group,benchmark,mode,size_bytes,pass\nmanaged,stream,managed_cold,1024,counters\n"), "c.csv")
	if err != nil || len(rows) != 1 || !math.IsNaN(rows[0].HtoDBytes) || rows[0].Config.SizeBytes != 1024 {
		t.Errorf("minimal file: %v %+v", err, rows)
	}
}

func TestCounterAppenderResumes(t *testing.T) {
	dir := t.TempDir()
	rows := sampleCounterRows()
	a, err := OpenCounterAppender(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Append(rows[0]); err != nil {
		t.Fatal(err)
	}
	a.Close()
	if _, err := OpenCounterAppender(dir, false); !errors.Is(err, ErrResultsExist) {
		t.Errorf("reopening without resume: %v", err)
	}
	// An interrupted write leaves a partial line; resume drops it.
	f, _ := os.OpenFile(filepath.Join(dir, CountersName), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("managed,str")
	f.Close()
	a, err = OpenCounterAppender(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Rows()) != 1 {
		t.Fatalf("resumed with %d rows", len(a.Rows()))
	}
	if err := a.Append(rows[1]); err != nil {
		t.Fatal(err)
	}
	a.Close()
	back, err := LoadCounters(dir)
	if err != nil || len(back) != 2 {
		t.Fatalf("%v, %d rows", err, len(back))
	}
	sameCounterRow(t, back[1], rows[1])
	if _, err := LoadCounters(t.TempDir()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("no counters.csv: %v", err)
	}
}

func TestCounterFrameAndJoin(t *testing.T) {
	rows := sampleCounterRows()
	df := CounterFrame(rows)
	if df.Err != nil {
		t.Fatal(df.Err)
	}
	if df.Nrow() != 2 || df.Ncol() != len(counterColumns)+len(counterDerived) {
		t.Fatalf("frame %dx%d", df.Nrow(), df.Ncol())
	}
	if got := df.Col(ColMigratedPerUseful).Float()[0]; got != rows[0].MigratedPerUseful() {
		t.Errorf("migrated per useful %v", got)
	}

	// Trials of three configurations: the first two have counter rows
	// (the first twice, from a resumed run: the last wins).
	var trials []Row
	for _, cr := range rows {
		for i := 0; i < 3; i++ {
			tr := cr.Config
			tr.Trial, tr.KernelMs, tr.GBps, tr.Verified = int64(i), 2, 1000, true
			trials = append(trials, tr)
		}
	}
	third := rows[0].Config
	third.SizeBytes = 2048
	third.KernelMs, third.GBps, third.Verified = 4, 500, true
	trials = append(trials, third)
	sum := Summarize(trials, SummaryOptions{})
	stale := rows[0]
	stale.HtoDBytes = 1
	joined, err := JoinCounters(sum, []CounterRow{stale, rows[0], rows[1]})
	if err != nil {
		t.Fatal(err)
	}
	if joined.Nrow() != 3 {
		t.Fatalf("%d joined rows", joined.Nrow())
	}
	for _, c := range []string{ColMedianGBps, ColUMHtoDBytes, ColCountersCollected, ColMigratedPerUseful, ColCounterNote, ColCounterPlacement, ColUsefulBytes} {
		if !slicesContains(joined.Names(), c) {
			t.Errorf("joined frame lacks %s: %v", c, joined.Names())
		}
	}
	htod := joined.Col(ColUMHtoDBytes).Float()
	collected := joined.Col(ColCountersCollected).Records()
	if htod[0] != 268435456 || !math.IsNaN(htod[1]) || !math.IsNaN(htod[2]) {
		t.Errorf("joined htod %v", htod)
	}
	if collected[0] != "true" || collected[1] != "false" || collected[2] != "false" {
		t.Errorf("joined collected %v", collected)
	}
	if note := joined.Col("counter_note").Records()[1]; !strings.Contains(note, "NOT_SUPPORTED") {
		t.Errorf("note %q", note)
	}
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func TestCounterTableFromDirectory(t *testing.T) {
	dir := t.TempDir()
	rows := sampleCounterRows()
	var trials []Row
	for _, cr := range rows {
		tr := cr.Config
		tr.KernelMs, tr.GBps, tr.Verified = 2, 1000, true
		trials = append(trials, tr)
	}
	app, err := OpenAppender(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	app.Append(trials...)
	app.Close()
	if _, err := CounterTable(dir); !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "--counters") {
		t.Errorf("without counters.csv: %v", err)
	}
	ca, err := OpenCounterAppender(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	ca.Append(rows...)
	ca.Close()
	df, err := CounterTable(dir)
	if err != nil {
		t.Fatal(err)
	}
	if df.Nrow() != 2 || df.Col(ColUMHtoDBytes).Float()[0] != 268435456 {
		t.Errorf("table %v", df)
	}
}

// TestCounterColumnsCoverTheConfiguration guards the column table: every
// configuration column must round-trip, or keys stop matching.
func TestCounterColumnsCoverTheConfiguration(t *testing.T) {
	names := CounterColumns()
	for _, c := range ConfigColumns {
		if !slicesContains(names, c) {
			t.Errorf("counters.csv lacks configuration column %s", c)
		}
	}
	var r CounterRow
	for _, c := range counterColumns {
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("column %s: %v", c.Name, p)
				}
			}()
			c.set(&r, c.Value(&r))
		}()
	}
}

// set assigns v, of the column's kind, to the row's field.
func (c counterCol) set(r *CounterRow, v any) {
	if p := c.ptr(r); reflect.TypeOf(p).Elem() == reflect.TypeOf(v) {
		setField(p, v)
		return
	}
	panic(fmt.Sprintf("results: column %s: a %T is not of its kind", c.Name, v))
}

package results

import (
	"bytes"
	"encoding/csv"
	"errors"
	"math"
	"strings"
	"testing"
)

func TestCSVRoundTrip(t *testing.T) {
	sparse := NewRow()
	sparse.Group, sparse.Benchmark, sparse.Mode, sparse.SizeBytes = "hbm", "triad", "explicit", 64
	third := fullRow()
	third.KernelMs, third.GBps = 1.0/3, 2.0/3
	want := []Row{fullRow(), sparse, third}

	var buf bytes.Buffer
	if err := WriteCSV(&buf, want); err != nil {
		t.Fatal(err)
	}
	got, err := ReadCSV(bytes.NewReader(buf.Bytes()), "rt.csv")
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, got, want)
	if got[0].KernelMs != 1.5e-7 {
		t.Errorf("1.5e-7 ms came back as %v", got[0].KernelMs)
	}
	if got[2].KernelMs != 1.0/3 {
		t.Errorf("1/3 came back as %v", got[2].KernelMs)
	}

	// The file itself: header in schema order, NaN written as an empty field.
	recs, err := csv.NewReader(bytes.NewReader(buf.Bytes())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(recs[0], ",") != strings.Join(Names(Columns), ",") {
		t.Errorf("header %v, want %v", recs[0], Names(Columns))
	}
	for i, c := range Columns {
		if c.Kind == Float && recs[2][i] != "" {
			t.Errorf("NaN %s written as %q, want an empty field", c.Name, recs[2][i])
		}
	}
	if i := colIndex(ColKernelMs); recs[1][i] != "1.5e-07" {
		t.Errorf("kernel_ms 1.5e-7 written as %q", recs[1][i])
	}
}

func colIndex(name string) int {
	for i, c := range Columns {
		if c.Name == name {
			return i
		}
	}
	panic(name)
}

func TestWriteCSVNoRows(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteCSV(&buf, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), strings.Join(Names(Columns), ",")+"\n"; got != want {
		t.Errorf("WriteCSV(nil) = %q, want only the header", got)
	}
	rows, err := ReadCSV(&buf, "empty.csv")
	if err != nil || len(rows) != 0 {
		t.Errorf("ReadCSV of a header-only file: %d rows, %v", len(rows), err)
	}
}

func TestReadCSVSubsetAndOrder(t *testing.T) {
	in := "size_bytes , gbps,mode,group,benchmark,verified,trial,note\n" +
		"1024,12.5,explicit,hbm,triad,true,3,\n" +
		"2048,,managed_cold,managed,stream,false,,\"x, y\"\n" +
		"4096,NaN,managed_cold,managed,stream,,0,\n"
	rows, err := ReadCSV(strings.NewReader(in), "subset.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 {
		t.Fatalf("%d rows, want 3", len(rows))
	}
	r := rows[0]
	if r.Group != "hbm" || r.Benchmark != "triad" || r.Mode != "explicit" || r.SizeBytes != 1024 ||
		r.GBps != 12.5 || !r.Verified || r.Trial != 3 {
		t.Errorf("row 0 = %+v", r)
	}
	if !math.IsNaN(r.KernelMs) || !math.IsNaN(r.OversubPct) {
		t.Errorf("absent float columns should be NaN: kernel_ms %v, oversub_pct %v", r.KernelMs, r.OversubPct)
	}
	if r.FootprintBytes != 0 || r.Placement != "" || r.Waived {
		t.Errorf("absent columns should be empty: %+v", r)
	}
	if !math.IsNaN(rows[1].GBps) || rows[1].Verified || rows[1].Trial != 0 || rows[1].Note != "x, y" {
		t.Errorf("row 1 = %+v", rows[1])
	}
	if !math.IsNaN(rows[2].GBps) {
		t.Errorf("gbps \"NaN\" read as %v", rows[2].GBps)
	}
}

func TestReadCSVErrors(t *testing.T) {
	const head = "group,benchmark,mode,size_bytes,gbps,verified\n"
	const good = "hbm,triad,explicit,1024,1.5,true\n"
	cases := []struct {
		name, in string
		want     []string // substrings of the error
	}{
		{"field count", head + good + "hbm,triad,explicit,1024,1.5\n", []string{"bad.csv:3:", "5 fields, header has 6"}},
		{"too many fields", head + good + good + "hbm,triad,explicit,1024,1.5,true,x\n", []string{"bad.csv:4:", "7 fields"}},
		{"text in int", head + "hbm,triad,explicit,1GiB,1.5,true\n", []string{"bad.csv:2:", "size_bytes", `"1GiB" is not an integer`}},
		{"text in float", head + good + "hbm,triad,explicit,1024,fast,true\n", []string{"bad.csv:3:", "gbps", `"fast" is not a number`}},
		{"text in bool", head + "hbm,triad,explicit,1024,1.5,yes\n", []string{"bad.csv:2:", "verified", `"yes" is not true or false`}},
		{"unknown column", "group,benchmark,mode,size_bytes,speed\n", []string{"bad.csv:1:", `unknown column "speed"`}},
		{"missing header", good + good, []string{"bad.csv:1:", "unknown column", "header line missing"}},
		{"duplicate column", "group,benchmark,mode,size_bytes,gbps,gbps\n", []string{"bad.csv:1:", `"gbps" appears twice`}},
		{"empty file", "", []string{"bad.csv", "empty file"}},
		{"only blank lines", "\n\n", []string{"bad.csv", "empty file"}},
		{"missing required", "group,benchmark,size_bytes\nhbm,triad,1\n", []string{"bad.csv:1:", `required column "mode" missing`}},
		{"missing size", "group,benchmark,mode\n", []string{"bad.csv:1:", `"size_bytes"`}},
		{"bare quote", head + good + "hb\"m,triad,explicit,1024,1.5,true\n", []string{"bad.csv", "line 3"}},
		{"bare quote in later field", head + "hbm,tri\"ad,explicit,1024,1.5,true\n", []string{"bad.csv", "line 2"}},
		{"unterminated quote", head + good + "\"hbm,triad,explicit,1024,1.5,true\n", []string{"bad.csv", "line 3"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var rows []Row
			var err error
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("ReadCSV panicked: %v", p)
					}
				}()
				rows, err = ReadCSV(strings.NewReader(c.in), "bad.csv")
			}()
			if err == nil {
				t.Fatalf("no error; read %d rows", len(rows))
			}
			if !errors.Is(err, ErrMalformed) {
				t.Errorf("error %q does not wrap ErrMalformed", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

package results

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gota/gota/series"
)

// fullRow returns a row with every field set to a distinct, awkward value.
func fullRow() Row {
	return Row{
		Group: "managed", Benchmark: "stream", Mode: "managed_cold", Pattern: "streaming",
		Policy: "host_mapped", Phase: "gpu_only", Direction: "h2d",
		SizeBytes: 1 << 40, FootprintBytes: 3<<30 + 7, UsefulBytes: 123456789012,
		ActiveElements: 42, StrideElements: 16, PageIntervalBytes: 4096,
		OversubPct:  87.5,
		ReusePasses: 32, Repetition: 2, Trial: 24, Warmups: 5,
		KernelMs: 1.5e-7, PrefetchMs: 1.0 / 3, TransferMs: math.Pi, CPUMs: 1e300,
		TotalMs: 0, GBps: 4.9e-324,
		Verified: true, Placement: "pref=gpu0;last=gpu0;by=gpu0", Waived: true,
		Note: "a note, with a comma, \"quotes\"\nand a newline", Platform: "H200",
		GPUUUID: "GPU-1234", Host: "node-1", RunID: "20261129-120000", Source: "Table III",
		Reported: true,
	}
}

// sameRow reports the first column in which a and b differ, treating NaN as
// equal to NaN and comparing other floats exactly.
func sameRow(a, b Row) (string, bool) {
	for _, c := range Columns {
		va, _ := a.Value(c.Name)
		vb, _ := b.Value(c.Name)
		if fa, ok := va.(float64); ok {
			fb := vb.(float64)
			if math.IsNaN(fa) && math.IsNaN(fb) {
				continue
			}
			if fa != fb {
				return c.Name, false
			}
			continue
		}
		if va != vb {
			return c.Name, false
		}
	}
	return "", true
}

func checkRows(t *testing.T, got, want []Row) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d rows, want %d", len(got), len(want))
	}
	for i := range want {
		if col, ok := sameRow(got[i], want[i]); !ok {
			g, _ := got[i].Value(col)
			w, _ := want[i].Value(col)
			t.Errorf("row %d column %s: got %#v, want %#v", i, col, g, w)
		}
	}
}

func TestColumnsMatchRow(t *testing.T) {
	seen := map[string]bool{}
	r := fullRow()
	for _, c := range Columns {
		if seen[c.Name] {
			t.Errorf("column %q declared twice", c.Name)
		}
		seen[c.Name] = true
		v, err := r.Value(c.Name)
		if err != nil {
			t.Errorf("Value(%q): %v", c.Name, err)
			continue
		}
		var ok bool
		switch c.Kind {
		case String:
			_, ok = v.(string)
		case Int:
			_, ok = v.(int64)
		case Float:
			_, ok = v.(float64)
		case Bool:
			_, ok = v.(bool)
		}
		if !ok {
			t.Errorf("column %q: Value is %T, not of its declared kind %d", c.Name, v, c.Kind)
		}
		if c.Name != strings.ToLower(c.Name) || strings.ContainsAny(c.Name, " -") {
			t.Errorf("column %q is not snake_case", c.Name)
		}
	}
	for _, c := range ConfigColumns {
		if !seen[c] {
			t.Errorf("config column %q is not in the schema", c)
		}
	}
	if _, err := r.Value("no_such_column"); err == nil {
		t.Error("Value of an unknown column: no error")
	}
	if err := r.set("no_such_column", 1); err == nil {
		t.Error("set of an unknown column: no error")
	}
}

func TestNewRowIsNaN(t *testing.T) {
	r := NewRow()
	for _, c := range Columns {
		v, _ := r.Value(c.Name)
		switch x := v.(type) {
		case float64:
			if !math.IsNaN(x) {
				t.Errorf("NewRow().%s = %v, want NaN", c.Name, x)
			}
		case int64:
			if x != 0 {
				t.Errorf("NewRow().%s = %v, want 0", c.Name, x)
			}
		}
	}
}

func TestFrameRoundTrip(t *testing.T) {
	sparse := NewRow() // every float NaN, strings empty, ints 0, bools false
	sparse.Group, sparse.Benchmark, sparse.Mode = "hbm", "triad", "explicit"
	sparse.SizeBytes = 64
	odd := fullRow()
	odd.Placement = "NaN" // gota treats the string "NaN" as missing
	odd.Verified, odd.Waived, odd.Reported = false, false, false
	odd.TotalMs = math.Inf(1)
	odd.OversubPct = math.NaN()
	want := []Row{fullRow(), sparse, odd}

	df := Frame(want)
	if df.Err != nil {
		t.Fatal(df.Err)
	}
	if r, c := df.Dims(); r != 3 || c != len(Columns) {
		t.Fatalf("Frame dims %d×%d, want 3×%d", r, c, len(Columns))
	}
	for i, name := range df.Names() {
		if name != Columns[i].Name {
			t.Fatalf("frame column %d is %q, want %q", i, name, Columns[i].Name)
		}
		want := map[Kind]series.Type{String: series.String, Int: series.Int, Float: series.Float, Bool: series.Bool}[Columns[i].Kind]
		if got := df.Col(name).Type(); got != want {
			t.Errorf("frame column %q has type %s, want %s", name, got, want)
		}
	}
	if got := df.Col(ColKernelMs).Elem(1).Float(); !math.IsNaN(got) {
		t.Errorf("NaN kernel_ms became %v in the frame", got)
	}
	got, err := Rows(df)
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, got, want)
}

func TestFrameEmpty(t *testing.T) {
	df := Frame(nil)
	if df.Err != nil {
		t.Fatal(df.Err)
	}
	if r, c := df.Dims(); r != 0 || c != len(Columns) {
		t.Fatalf("Frame(nil) dims %d×%d, want 0×%d", r, c, len(Columns))
	}
	rows, err := Rows(df)
	if err != nil || len(rows) != 0 {
		t.Fatalf("Rows(Frame(nil)) = %d rows, %v", len(rows), err)
	}
}

func TestRowsErrors(t *testing.T) {
	df := Frame([]Row{fullRow()})
	if _, err := Rows(df.Drop(ColGBps)); err == nil || !strings.Contains(err.Error(), ColGBps) {
		t.Errorf("Rows without %s: err = %v, want one naming the column", ColGBps, err)
	}
	bad := df.Select([]string{"no_such"}) // sets df.Err
	if bad.Err == nil {
		t.Fatal("Select of an unknown column set no error")
	}
	if _, err := Rows(bad); err == nil {
		t.Error("Rows of a frame with an error: no error")
	}
	// A string in an int column cannot become a row.
	txt := df.Mutate(series.New([]string{"lots"}, series.String, ColSizeBytes))
	if _, err := Rows(txt); err == nil || !strings.Contains(err.Error(), ColSizeBytes) {
		t.Errorf("Rows with text in %s: err = %v", ColSizeBytes, err)
	}
}

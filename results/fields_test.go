package results

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// changed returns r with column col set to another value of its kind.
func changed(r Row, col string) Row {
	switch p := fieldPtr[col](&r).(type) {
	case *string:
		*p += "x"
	case *int64:
		*p++
	case *float64:
		if math.IsNaN(*p) {
			*p = 0
		} else {
			*p = math.NaN()
		}
	case *bool:
		*p = !*p
	}
	return r
}

// ConfigID tells configurations apart exactly as ConfigKey does, column by
// column: a column of ConfigColumns changes both, any other changes
// neither.
func TestConfigID(t *testing.T) {
	base := NewRow()
	base.Group, base.SizeBytes, base.OversubPct = "oversub", 1<<20, 50
	for _, c := range Columns {
		r := changed(base, c.Name)
		config := slices.Contains(ConfigColumns, c.Name)
		if got := ConfigKey(r) != ConfigKey(base); got != config {
			t.Errorf("column %s: ConfigKey changes %v, want %v", c.Name, got, config)
		}
		if got := r.ConfigID() != base.ConfigID(); got != config {
			t.Errorf("column %s: ConfigID changes %v, want %v", c.Name, got, config)
		}
	}
	a, b := NewRow(), NewRow()
	b.OversubPct = math.Float64frombits(math.Float64bits(math.NaN()) | 1) // another NaN
	if ConfigKey(a) != ConfigKey(b) || a.ConfigID() != b.ConfigID() {
		t.Error("two NaN oversubscriptions differ")
	}
}

// The one table of fields covers every column with a pointer of its kind.
func TestFieldTable(t *testing.T) {
	r := NewRow()
	for i, c := range Columns {
		var kind Kind
		switch fieldAt[i](&r).(type) {
		case *string:
			kind = String
		case *int64:
			kind = Int
		case *float64:
			kind = Float
		case *bool:
			kind = Bool
		default:
			t.Fatalf("column %s has no field", c.Name)
		}
		if kind != c.Kind {
			t.Errorf("column %s: field of kind %d, schema says %d", c.Name, kind, c.Kind)
		}
	}
	if len(fieldPtr) != len(Columns) {
		t.Errorf("%d fields for %d columns", len(fieldPtr), len(Columns))
	}
}

// RowWriter writes what WriteCSV writes, and RowReader reads it back.
func TestRowWriter(t *testing.T) {
	rows := []Row{NewRow(), NewRow()}
	rows[0].Group, rows[0].Note, rows[0].GBps, rows[0].SizeBytes, rows[0].Verified = "hbm", `a, "quoted" note`, 1.0/3, 1<<30, true
	rows[1].Group, rows[1].OversubPct, rows[1].Placement = "oversub", 150, " leading space"
	var want, got strings.Builder
	if err := WriteCSV(&want, rows); err != nil {
		t.Fatal(err)
	}
	w, err := NewRowWriter(&got)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		if err := w.Write(&rows[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("RowWriter wrote\n%s\nWriteCSV\n%s", got.String(), want.String())
	}
	back, err := ReadCSV(strings.NewReader(got.String()), "t")
	if err != nil || len(back) != 2 || back[0].Note != rows[0].Note || back[1].Placement != "leading space" { // the reader trims fields
		t.Errorf("read back %v: %+v", err, back)
	}
}

// A trial that appears twice is refused with both lines, wherever the
// second copy is (next to the first, or after other configurations).
func TestDuplicateTrial(t *testing.T) {
	head := "group,benchmark,mode,size_bytes,trial,run_id,gbps\n"
	for _, c := range []struct{ csv, want string }{
		{"hbm,triad,explicit,1,0,r,1\nhbm,triad,explicit,1,0,r,2\n", "t:3: malformed results CSV: trial 0 (repetition 0) of this configuration and run is already on line 2"},
		{"hbm,triad,explicit,1,0,r,1\nhbm,copy,explicit,1,0,r,1\nhbm,triad,explicit,1,1,r,1\nhbm,triad,explicit,1,0,r,1\n", "t:5: malformed results CSV: trial 0 (repetition 0) of this configuration and run is already on line 2"},
	} {
		if _, err := ReadCSV(strings.NewReader(head+c.csv), "t"); err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
	ok := "hbm,triad,explicit,1,0,r,1\nhbm,triad,explicit,1,0,s,1\nhbm,triad,explicit,2,0,r,1\n"
	if rows, err := ReadCSV(strings.NewReader(head+ok), "t"); err != nil || len(rows) != 3 {
		t.Errorf("other runs and sizes: %v, %d rows", err, len(rows))
	}
}

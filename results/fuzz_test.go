package results

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The readers' fuzz targets. CI runs each briefly, e.g.
//
//	go test ./results -run '^$' -fuzz '^FuzzReadCSV$' -fuzztime 10s
//
// Each checks what a reader promises for any input: no panic; an error
// that names the file and is short (a bad value is named, never echoed
// whole); and for what is accepted, that writing it back and reading it
// again gives the same rows.

const maxErrBytes = 400

// seedCSV is a valid results.csv of two trials, one with a note.
func seedCSV() []byte {
	var b bytes.Buffer
	rows := trials("hbm", "explicit", 64<<20, 1.5, 2)
	rows[1].Note = "a\tb\nc"
	WriteCSV(&b, rows)
	return b.Bytes()
}

func checkErr(t *testing.T, err error, name string) {
	t.Helper()
	if err == nil {
		return
	}
	msg := err.Error()
	if !strings.Contains(msg, name) {
		t.Fatalf("error does not name %s: %.200s", name, msg)
	}
	if len(msg) > maxErrBytes {
		t.Fatalf("error of %d bytes: %.200s…", len(msg), msg)
	}
}

func FuzzReadCSV(f *testing.F) {
	f.Add(seedCSV())
	f.Add([]byte("group,benchmark,mode,size_bytes\nhbm,triad,explicit,1\n"))
	f.Add([]byte("group,benchmark,mode,size_bytes,kernel_ms\nhbm,triad,explicit,1,+Inf\n"))
	f.Add([]byte("group,benchmark,mode,size_bytes,trial\nhbm,triad,explicit,1,0\nhbm,triad,explicit,1,0\n"))
	f.Add([]byte("group,bench"))
	f.Add([]byte("\x00\x00\x00\x00"))
	f.Add([]byte("group,benchmark,mode,size_bytes,note\nhbm,triad,explicit,1,\"\x1b[31m\"\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		rows, err := ReadCSV(bytes.NewReader(b), "fuzz.csv")
		checkErr(t, err, "fuzz.csv")
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := WriteCSV(&out, rows); err != nil {
			t.Fatal(err)
		}
		again, err := ReadCSV(&out, "again.csv")
		if err != nil {
			t.Fatalf("what was read cannot be read back: %v", err)
		}
		if len(again) != len(rows) || (len(rows) > 0 && ConfigKey(again[0]) != ConfigKey(rows[0])) {
			t.Fatalf("round trip: %d rows, then %d", len(rows), len(again))
		}
	})
}

func FuzzReadCounterCSV(f *testing.F) {
	var seed bytes.Buffer
	c := NewCounterRow(trials("managed", "cold", 64<<20, 1)[0])
	c.HtoDBytes, c.Collected, c.Scope = 64<<20, true, ScopeTimed
	WriteCounterCSV(&seed, []CounterRow{c, c})
	f.Add(seed.Bytes())
	f.Add([]byte("group,benchmark,mode,size_bytes,pass,um_htod_bytes\nmanaged,triad,cold,1,counters,Inf\n"))
	f.Add([]byte("group,benchmark,mode,size_bytes,pass\n"))
	f.Add([]byte(strings.Repeat(",", 1000)))
	f.Fuzz(func(t *testing.T, b []byte) {
		rows, err := ReadCounterCSV(bytes.NewReader(b), "fuzz-counters.csv")
		checkErr(t, err, "fuzz-counters.csv")
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := WriteCounterCSV(&out, rows); err != nil {
			t.Fatal(err)
		}
		again, err := ReadCounterCSV(&out, "again.csv")
		if err != nil || len(again) != len(rows) {
			t.Fatalf("round trip: %d rows, then %d, %v", len(rows), len(again), err)
		}
	})
}

func FuzzReadMetadata(f *testing.F) {
	f.Add([]byte(`{"run_id":"r","platform":"H200","kind":"measured","device":{"name":"NVIDIA H200"},"notes":["a"]}`))
	f.Add([]byte(`{"config":{"hbm":{"Trials":25}},"group_times":[{"group":"hbm","start":"2026-01-01T00:00:00Z"}]}`))
	f.Add([]byte(`{"run_id":"\u001b[2J\u202e"}`))
	f.Add([]byte(`[[[[[[[[`))
	f.Add([]byte{0})
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(t.TempDir(), MetaName)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := ReadMetadata(path)
		checkErr(t, err, path)
		if err != nil {
			return
		}
		if err := WriteMetadata(path, m); err != nil {
			t.Fatal(err)
		}
		again, err := ReadMetadata(path)
		// An empty list of notes reads back as none (omitempty): equal.
		if err != nil || again.RunID != m.RunID || !slices.Equal(again.Notes, m.Notes) {
			t.Fatalf("round trip: %v", err)
		}
	})
}

// FuzzResume: whatever results.csv holds, OpenAppender with resume either
// refuses it (an error naming it) or continues it: the rows it reports are
// on disk, and a row appended after them reads back.
func FuzzResume(f *testing.F) {
	seed := seedCSV()
	f.Add(seed)
	f.Add(seed[:len(seed)-7])    // a torn last line
	f.Add([]byte("group,bench")) // a torn header
	f.Add([]byte("group,benchmark,mode,size_bytes\n"))
	f.Add([]byte("\n\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, CSVName)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		a, err := OpenAppender(dir, true)
		checkErr(t, err, CSVName)
		if err != nil {
			return
		}
		defer a.Close()
		before := len(a.Rows())
		next := trials("hbm", "explicit", 1<<40, 1)
		next[0].RunID = "fuzz-resume"
		if err := a.Append(next...); err != nil {
			t.Fatal(err)
		}
		rows, _, err := LoadDir(dir)
		if err != nil {
			if errors.Is(err, ErrMalformed) && before == 0 {
				t.Fatalf("resumed file unreadable: %v", err)
			}
			t.Fatalf("after resume and append: %v", err)
		}
		if len(rows) != before+1 || rows[len(rows)-1].RunID != "fuzz-resume" {
			t.Fatalf("after resume and append: %d rows, want %d", len(rows), before+1)
		}
	})
}

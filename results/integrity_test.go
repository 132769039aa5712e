package results

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestReadCSVRejectsImpossibleValues(t *testing.T) {
	const head = "group,benchmark,mode,size_bytes,trial,run_id,kernel_ms,gbps,oversub_pct,note\n"
	cases := []struct{ name, line, want string }{
		{"negative time", "hbm,triad,explicit,1024,0,r,-1,1,,", "column kernel_ms: -1 is impossible"},
		{"infinite time", "hbm,triad,explicit,1024,0,r,+Inf,1,,", "column kernel_ms: +Inf is impossible"},
		{"infinite rate", "hbm,triad,explicit,1024,0,r,1,Inf,,", "column gbps: +Inf is impossible"},
		{"negative rate", "hbm,triad,explicit,1024,0,r,1,-3,,", "column gbps: -3"},
		{"negative size", "hbm,triad,explicit,-1024,0,r,1,1,,", "column size_bytes: -1024 is impossible"},
		{"negative trial", "hbm,triad,explicit,1024,-1,r,1,1,,", "column trial: -1"},
		{"negative percent", "oversub,streaming,managed,1024,0,r,1,1,-5,", "column oversub_pct: -5"},
		{"control byte", "hbm,tri\x07ad,explicit,1024,0,r,1,1,,", "column benchmark: control character U+0007"},
		{"escape in note", "hbm,triad,explicit,1024,0,r,1,1,,\x1b[31m", "column note: control character U+001B"},
		{"duplicated trial", "hbm,triad,explicit,1024,0,r,1,1,,\nhbm,triad,explicit,1024,0,r,2,1,,", "bad.csv:3:"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadCSV(strings.NewReader(head+c.line+"\n"), "bad.csv")
			if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "bad.csv:") {
				t.Errorf("got %v, want ErrMalformed with file:line and %q", err, c.want)
			}
		})
	}
	// Tabs and newlines in the note are text; two runs may share a trial index.
	ok := head + "hbm,triad,explicit,1024,0,r,1,1,,\"a\tb\nc\"\nhbm,triad,explicit,1024,0,s,1,1,,\n"
	if _, err := ReadCSV(strings.NewReader(ok), "ok.csv"); err != nil {
		t.Errorf("valid file refused: %v", err)
	}
}

func TestCheckNotMixed(t *testing.T) {
	a, b := NewRow(), NewRow()
	b.Simulated = true
	if err := CheckNotMixed([]Row{a, a}, "x"); err != nil {
		t.Error(err)
	}
	if err := CheckNotMixed([]Row{b, b}, "x"); err != nil {
		t.Error(err)
	}
	if err := CheckNotMixed([]Row{a, b}, "x"); !errors.Is(err, ErrMixedSimulated) {
		t.Errorf("mixed rows: %v", err)
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "m.json")
	if err := WriteFileAtomic(p, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(p, []byte("two"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "two" {
		t.Errorf("content %q", b)
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Errorf("temporary files left: %v", es)
	}
	// A directory that cannot be written: an error, the old file intact.
	os.Chmod(dir, 0o500)
	defer os.Chmod(dir, 0o755)
	if os.Geteuid() != 0 {
		if err := WriteFileAtomic(p, []byte("three"), 0o644); err == nil {
			t.Error("write into a read-only directory succeeded")
		}
		if b, _ := os.ReadFile(p); string(b) != "two" {
			t.Errorf("content after a failed write %q", b)
		}
	}
}

func TestLockDir(t *testing.T) {
	dir := t.TempDir()
	l, err := LockDir(dir, "umbench run --out x")
	if err != nil {
		t.Fatal(err)
	}
	_, err = LockDir(dir, "second")
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "PID "+strconv.Itoa(os.Getpid())) || !strings.Contains(err.Error(), "umbench run --out x") {
		t.Errorf("second lock: %v", err)
	}
	l.Unlock()
	l2, err := LockDir(dir, "third")
	if err != nil {
		t.Fatalf("lock after unlock: %v", err)
	}
	l2.Unlock()
}

func TestReadLimits(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink("/dev/zero", filepath.Join(dir, CSVName)); err != nil {
		t.Skip(err)
	}
	if _, _, err := LoadDir(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("results.csv → /dev/zero: %v", err)
	}
	if _, err := OpenAppender(dir, true); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("resume with results.csv → /dev/zero: %v", err)
	}
	os.Remove(filepath.Join(dir, CSVName))
	os.Symlink("/dev/zero", filepath.Join(dir, MetaName))
	if _, err := ReadMetadata(filepath.Join(dir, MetaName)); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("meta.json → /dev/zero: %v", err)
	}
	big := filepath.Join(dir, "big")
	f, _ := os.Create(big)
	f.Truncate(MaxMetaBytes + 1)
	f.Close()
	if _, err := ReadFileLimited(big, MaxMetaBytes); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Errorf("oversized file: %v", err)
	}
}

func TestHeaderOnlyDoesNotBlock(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	WriteCSV(&buf, nil)
	os.WriteFile(filepath.Join(dir, CSVName), buf.Bytes(), 0o644)
	a, err := OpenAppender(dir, false)
	if err != nil {
		t.Fatalf("header-only results.csv blocked a new run: %v", err)
	}
	a.Close()
}

func TestSetAsidePartialAndTorn(t *testing.T) {
	dir := t.TempDir()
	a, err := OpenAppender(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	whole := trials("hbm", "explicit", 64, 1, 2, 3)
	cut := trials("hbm", "explicit", 128, 1, 2, 3)[:2]
	a.Append(whole...)
	a.Append(cut...)
	a.Close()
	// A torn line at the end.
	f, _ := os.OpenFile(filepath.Join(dir, CSVName), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("hbm,copy,expl")
	f.Close()
	a, err = OpenAppender(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if b, _ := os.ReadFile(filepath.Join(dir, TornName)); string(b) != "hbm,copy,expl\n" {
		t.Errorf("torn bytes kept as %q", b)
	}
	n, err := a.SetAsidePartial(ConfigKey, func(rows []Row) bool { return len(rows) == 3 })
	if err != nil || n != 1 {
		t.Fatalf("SetAsidePartial = %d, %v; want 1 configuration", n, err)
	}
	if a.Done(cut[0]) || !a.Done(whole[0]) {
		t.Error("partial configuration still counts as done, or the whole one does not")
	}
	rows, _, err := LoadDir(dir)
	if err != nil || len(rows) != 3 {
		t.Errorf("results.csv after: %d rows, %v", len(rows), err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, PartialName))
	aside, err := ReadCSV(bytes.NewReader(b), PartialName)
	if err != nil || len(aside) != 2 {
		t.Errorf("%s: %d rows, %v", PartialName, len(aside), err)
	}
	// Appending after the rewrite goes to the new file.
	if err := a.Append(trials("hbm", "explicit", 128, 1, 2, 3)...); err != nil {
		t.Fatal(err)
	}
	if rows, _, _ := LoadDir(dir); len(rows) != 6 {
		t.Errorf("after re-measuring: %d rows, want 6", len(rows))
	}
}

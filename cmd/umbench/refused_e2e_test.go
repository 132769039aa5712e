package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/umlab/umlab/results"
)

// A run refused because its directory is in use touches nothing there,
// also as a fleet worker (which annotates its directory when it ends): the
// running run keeps every row in the file it writes, and none is
// relabelled with the refused run's mode.
func TestE2ERefusedRunTouchesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	first := start(t, []string{"UMLAB_SIM_KERNEL_DELAY=20ms", "UMBENCH_FLEET_MODE=isolated"}, runArgs(dir)...)
	first.waitFor(t, "[1/4]")
	st0, err := os.Stat(filepath.Join(dir, results.CSVName))
	if err != nil {
		t.Fatal(err)
	}
	meta0, _ := os.ReadFile(filepath.Join(dir, results.MetaName))
	for _, extra := range [][]string{nil, {"--resume"}} {
		second := start(t, []string{"UMBENCH_FLEET_MODE=concurrent", "UMBENCH_FLEET_PEERS=4"}, runArgs(dir, extra...)...)
		if code := second.wait(t); code != 2 {
			t.Fatalf("second run %v: exit %d, want 2\n%s", extra, code, second.errText())
		}
		if strings.Contains(second.errText(), "warning") {
			t.Errorf("the refused run tried to annotate the directory:\n%s", second.errText())
		}
	}
	st1, err := os.Stat(filepath.Join(dir, results.CSVName))
	if err != nil || !os.SameFile(st0, st1) {
		t.Fatalf("results.csv was replaced under the running run (%v)", err)
	}
	if meta1, _ := os.ReadFile(filepath.Join(dir, results.MetaName)); string(meta1) != string(meta0) {
		t.Errorf("meta.json changed under the running run")
	}
	if code := first.wait(t); code != 0 {
		t.Fatalf("the first run: exit %d\n%s", code, first.errText())
	}
	if n := checkWhole(t, dir); n != 12 {
		t.Errorf("the first run kept %d of 12 rows", n)
	}
	rows, _, _ := results.LoadDir(dir)
	for _, r := range rows {
		if !strings.Contains(r.Note, "fleet=isolated") || strings.Contains(r.Note, "concurrent") {
			t.Fatalf("row relabelled: note %q", r.Note)
		}
	}
}

// A planted .umbench.lock or results.csv link is refused by run; its
// target is left as it was.
func TestE2EPlantedLinksRefused(t *testing.T) {
	for _, name := range []string{results.LockName, results.CSVName} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			os.MkdirAll(dir, 0o755)
			target := filepath.Join(t.TempDir(), "precious")
			os.WriteFile(target, []byte("keep\n"), 0o644)
			os.Symlink(target, filepath.Join(dir, name))
			p := start(t, nil, runArgs(dir, "--resume")...)
			if code := p.wait(t); code != 2 {
				t.Fatalf("a run through a planted %s: exit %d, want 2 (refused)", name, code)
			}
			if !strings.Contains(p.errText(), "symbolic link") {
				t.Errorf("stderr does not name the link:\n%s", p.errText())
			}
			if b, _ := os.ReadFile(target); string(b) != "keep\n" {
				t.Errorf("written through the link: %q", b)
			}
		})
	}
}

// A FIFO named results.csv hangs neither a reading command nor a resume.
func TestE2EFIFONotRead(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	os.MkdirAll(dir, 0o755)
	if err := syscall.Mkfifo(filepath.Join(dir, results.CSVName), 0o644); err != nil {
		t.Skip(err)
	}
	for _, args := range [][]string{{"summary", dir}, runArgs(dir, "--resume")} {
		p := start(t, nil, args...)
		if code := p.wait(t); code == 0 || !strings.Contains(p.errText(), "FIFO") {
			t.Errorf("%v: exit %d\n%s", args, code, p.errText())
		}
	}
}

// --out deleted while the run writes it: the run stops with an error that
// says so, instead of measuring on into a file no name leads to.
func TestE2EOutDeletedMidRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	p := start(t, []string{"UMLAB_SIM_KERNEL_DELAY=20ms"}, runArgs(dir)...)
	p.waitFor(t, "[1/4]")
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if code := p.wait(t); code == 0 {
		t.Fatalf("a run whose --out was deleted succeeded:\n%s", p.errText())
	}
	if !strings.Contains(p.errText(), "removed or replaced") || strings.Contains(p.errText(), "are kept in") {
		t.Errorf("stderr does not say results.csv is gone, or says the results are kept:\n%s", p.errText())
	}
}

// report --out never replaces a run's own data, a link, a FIFO or a
// device: each is refused (exit 2) before the report is made.
func TestReportOutRefused(t *testing.T) {
	run1 := filepath.Join(t.TempDir(), "run1")
	rows := []results.Row{results.NewRow()}
	rows[0].Group, rows[0].Benchmark, rows[0].Mode, rows[0].SizeBytes, rows[0].Verified = "hbm", "triad", "explicit", 1<<20, true
	if err := results.WriteDir(run1, rows, results.Metadata{RunID: "r1"}); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "precious")
	os.WriteFile(target, []byte("keep\n"), 0o644)
	os.Symlink(target, filepath.Join(run1, "link.html"))
	outs := []string{filepath.Join(run1, results.CSVName), filepath.Join(run1, results.MetaName), filepath.Join(run1, "link.html"), run1}
	if syscall.Mkfifo(filepath.Join(run1, "fifo.html"), 0o644) == nil {
		outs = append(outs, filepath.Join(run1, "fifo.html"))
	}
	if syscall.Mknod(filepath.Join(run1, "null.html"), syscall.S_IFCHR|0o666, 1<<8|3) == nil {
		outs = append(outs, filepath.Join(run1, "null.html")) // a private /dev/null twin, never the system's
	}
	before, _ := os.ReadFile(filepath.Join(run1, results.CSVName))
	for _, out := range outs {
		code, _, errs := umbench(t, "report", "--dataset", "paper-gb200", "--out", out)
		if code != 2 || !strings.Contains(errs, filepath.Base(out)) {
			t.Errorf("report --out %s: exit %d\n%s", out, code, errs)
		}
	}
	if after, _ := os.ReadFile(filepath.Join(run1, results.CSVName)); string(after) != string(before) {
		t.Error("the run's results.csv changed")
	}
	if b, _ := os.ReadFile(target); string(b) != "keep\n" {
		t.Errorf("written through the link: %q", b)
	}
	if fi, _ := os.Lstat(filepath.Join(run1, "link.html")); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced by a regular file")
	}
}

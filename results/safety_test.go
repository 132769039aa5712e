package results

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// victim is a file outside the results directory that a planted link
// points at: it must come out of every test as it went in.
func victim(t *testing.T) (path string, check func()) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "precious")
	const content = "root-owned data\n"
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, func() {
		t.Helper()
		if b, err := os.ReadFile(path); err != nil || string(b) != content {
			t.Errorf("the link's target was written through: %q, %v", b, err)
		}
	}
}

// Planted symbolic links in a results directory are refused, never
// written through: the lock, results.csv (new run and resume),
// results.torn.txt, results.partial.csv, counters.csv, meta.json.
func TestPlantedLinksRefused(t *testing.T) {
	for _, name := range []string{LockName, CSVName, CountersName, MetaName} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			target, check := victim(t)
			if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
			var err error
			switch name {
			case LockName:
				_, err = LockDir(dir, "umbench run")
			case CSVName:
				if _, err = OpenAppender(dir, false); err == nil {
					t.Error("new run: wrote through results.csv")
				}
				_, err = OpenAppender(dir, true)
			case CountersName:
				_, err = OpenCounterAppender(dir, true)
			case MetaName:
				err = WriteMetadata(filepath.Join(dir, MetaName), Metadata{RunID: "x"})
			}
			if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "symbolic link") || !strings.Contains(err.Error(), name) {
				t.Errorf("got %v, want a refusal naming %s as a symbolic link", err, name)
			}
			check()
			if fi, err := os.Lstat(filepath.Join(dir, name)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Errorf("the link itself was replaced: %v", err)
			}
		})
	}
	t.Run("torn and partial", func(t *testing.T) {
		dir := t.TempDir()
		a, err := OpenAppender(dir, false)
		if err != nil {
			t.Fatal(err)
		}
		a.Append(trials("hbm", "explicit", 64, 1, 2, 3)...)
		a.Append(trials("hbm", "explicit", 128, 1)...)
		a.Close()
		target, check := victim(t)
		os.Symlink(target, filepath.Join(dir, PartialName))
		a, err = OpenAppender(dir, true)
		if err != nil {
			t.Fatal(err)
		}
		_, err = a.SetAsidePartial(ConfigKey, func(rows []Row) bool { return len(rows) == 3 })
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("set aside into a planted %s: %v", PartialName, err)
		}
		a.Close()
		f, _ := os.OpenFile(filepath.Join(dir, CSVName), os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString("hbm,tri")
		f.Close()
		os.Symlink(target, filepath.Join(dir, TornName))
		if _, err := OpenAppender(dir, true); !errors.Is(err, ErrNotRegular) {
			t.Errorf("keep a torn line in a planted %s: %v", TornName, err)
		}
		check()
	})
	t.Run("directory", func(t *testing.T) {
		real := t.TempDir()
		link := filepath.Join(t.TempDir(), "out")
		os.Symlink(real, link)
		for _, out := range []string{link, link + "/", link + "/."} {
			if _, err := LockDir(out, "umbench run"); err == nil || !strings.Contains(err.Error(), "symbolic link") {
				t.Errorf("--out %s naming a link: %v", out, err)
			}
		}
		if es, _ := os.ReadDir(real); len(es) != 0 {
			t.Errorf("wrote into the link's target: %v", es)
		}
	})
}

// A lock file with a second hard link (to a file of someone else's) is
// refused, not truncated.
func TestLockRefusesHardLink(t *testing.T) {
	dir := t.TempDir()
	target, check := victim(t)
	if err := os.Link(target, filepath.Join(dir, LockName)); err != nil {
		t.Skip(err)
	}
	if _, err := LockDir(dir, "umbench run"); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "hard links") {
		t.Errorf("hard-linked lock: %v", err)
	}
	check()
}

// A refused second LockDir writes nothing: the holder's record stays.
func TestRefusedLockTouchesNothing(t *testing.T) {
	dir := t.TempDir()
	l, err := LockDir(dir, "umbench run --out first")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Unlock()
	before, _ := os.ReadFile(filepath.Join(dir, LockName))
	if _, err := LockDir(dir, "umbench run --out second"); !errors.Is(err, ErrLocked) {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(filepath.Join(dir, LockName))
	if !bytes.Equal(before, after) || !strings.Contains(string(after), "first") {
		t.Errorf("the lock file changed: %q → %q", before, after)
	}
	if err := Locked(dir); !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "first") {
		t.Errorf("Locked: %v", err)
	}
	if err := Locked(t.TempDir()); err != nil {
		t.Errorf("Locked on a directory without a lock: %v", err)
	}
}

// mknull makes a character device like /dev/null (1, 3) at path, or
// skips: a test must never aim a writer at the system's own /dev/null (as
// root, a writer that fails to refuse it would replace it).
func mknull(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mknod(path, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Skipf("mknod (needs root): %v", err)
	}
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}

// within fails the test when f takes longer than d (a reader hung on a
// FIFO).
func within(t *testing.T, d time.Duration, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		t.Fatalf("%s did not return within %s (blocked on a FIFO?)", what, d)
		return nil
	}
}

// A FIFO named like a results file hangs no reader and no writer: each
// refuses it at once, naming it.
func TestFIFOsRefusedAtOnce(t *testing.T) {
	for _, name := range []string{CSVName, MetaName, CountersName, LockName, PartialName} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if name == PartialName {
				a, _ := OpenAppender(dir, false)
				a.Append(trials("hbm", "explicit", 64, 1)...)
				a.Close()
			}
			mkfifo(t, filepath.Join(dir, name))
			var calls []func() error
			switch name {
			case CSVName:
				calls = []func() error{
					func() error { _, _, err := LoadDir(dir); return err },
					func() error { _, err := OpenAppender(dir, true); return err },
					func() error { _, err := OpenAppender(dir, false); return err },
				}
			case MetaName:
				os.WriteFile(filepath.Join(dir, CSVName), []byte("group,benchmark,mode,size_bytes\n"), 0o644)
				calls = []func() error{
					func() error { _, err := ReadMetadata(filepath.Join(dir, MetaName)); return err },
					func() error { _, _, err := LoadDir(dir); return err },
					func() error { return WriteMetadata(filepath.Join(dir, MetaName), Metadata{}) },
				}
			case CountersName:
				calls = []func() error{
					func() error { _, err := LoadCounters(dir); return err },
					func() error { _, err := OpenCounterAppender(dir, true); return err },
				}
			case LockName:
				calls = []func() error{func() error { _, err := LockDir(dir, "x"); return err }}
			case PartialName:
				calls = []func() error{func() error {
					a, err := OpenAppender(dir, true)
					if err != nil {
						return err
					}
					defer a.Close()
					_, err = a.SetAsidePartial(ConfigKey, func([]Row) bool { return false })
					return err
				}}
			}
			for i, call := range calls {
				err := within(t, 5*time.Second, name, call)
				if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "FIFO") || !strings.Contains(err.Error(), name) {
					t.Errorf("call %d: %v, want a refusal naming the FIFO %s", i, err, name)
				}
			}
		})
	}
}

// Files that are not results files are refused before they fill memory
// or the terminal: a sparse 2 GiB file, a NUL-filled header, a line of a
// megabyte, too many fields.
func TestReadersBounded(t *testing.T) {
	dir := t.TempDir()
	sparse := filepath.Join(dir, CSVName)
	f, _ := os.Create(sparse)
	f.Truncate(2 << 30)
	f.Close()
	if _, _, err := LoadDir(dir); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), CSVName) {
		t.Errorf("2 GiB sparse results.csv: %v", err)
	}
	// 64 MiB of NULs (sparse, within the size limit): one endless header line.
	os.Truncate(sparse, 64<<20)
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	_, _, err := LoadDir(dir)
	runtime.ReadMemStats(&ms1)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), CSVName+":1:") || !strings.Contains(err.Error(), "65536") {
		t.Errorf("NUL-filled header: %v", err)
	}
	if n := len(err.Error()); n > 300 {
		t.Errorf("the error is %d bytes long", n)
	}
	if grew := ms1.TotalAlloc - ms0.TotalAlloc; grew > 8<<20 {
		t.Errorf("reading a NUL-filled header allocated %d MiB", grew>>20)
	}
	// A long bad value is named, not echoed.
	long := "group,benchmark,mode,size_bytes\nhbm,triad,explicit," + strings.Repeat("9x", 20000) + "\n"
	_, err = ReadCSV(strings.NewReader(long), "long.csv")
	if !errors.Is(err, ErrMalformed) || len(err.Error()) > 300 || !strings.Contains(err.Error(), "long.csv:2:") {
		t.Errorf("a 40 kB bad value: %d bytes of error: %.300v", len(err.Error()), err)
	}
	head := strings.Repeat("x,", 30000) + "group\n"
	if _, err := ReadCounterCSV(strings.NewReader(head), "c.csv"); err == nil || len(err.Error()) > 300 {
		t.Errorf("a header of 30,000 columns: %.300v", err)
	}
	// /dev/zero through a link: refused before reading.
	os.Remove(sparse)
	os.Symlink("/dev/zero", sparse)
	if _, _, err := LoadDir(dir); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "character device") {
		t.Errorf("results.csv → /dev/zero: %v", err)
	}
}

// Atomic writes honour the umask, and replace only regular files.
func TestWriteFileAtomicUmaskAndTypes(t *testing.T) {
	dir := t.TempDir()
	old := syscall.Umask(0o077)
	err := WriteFileAtomic(filepath.Join(dir, "m.json"), []byte("{}"), 0o644)
	syscall.Umask(old)
	if err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(filepath.Join(dir, "m.json")); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v under umask 077, want -rw-------", fi.Mode().Perm())
	}
	target, check := victim(t)
	os.Symlink(target, filepath.Join(dir, "link"))
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	mkfifo(t, filepath.Join(dir, "fifo"))
	for _, name := range []string{"link", "sub", "fifo"} {
		if err := WriteFileAtomic(filepath.Join(dir, name), []byte("x"), 0o644); !errors.Is(err, ErrNotRegular) {
			t.Errorf("%s replaced: %v", name, err)
		}
	}
	check()
	if fi, err := os.Lstat(filepath.Join(dir, "link")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link became a regular file")
	}
	mknull(t, filepath.Join(dir, "null"))
	if err := WriteFileAtomic(filepath.Join(dir, "null"), []byte("x"), 0o644); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "character device") {
		t.Errorf("a device: %v", err)
	}
	if fi, _ := os.Lstat(filepath.Join(dir, "null")); fi.Mode()&os.ModeCharDevice == 0 {
		t.Error("the device was replaced")
	}
}

// CheckOutput, the check a command makes before writing its output file
// (umbench report --out), refuses a run's own data and anything that is
// not a regular file.
func TestCheckOutput(t *testing.T) {
	run := t.TempDir()
	if err := WriteDir(run, trials("hbm", "explicit", 64, 1, 2, 3), Metadata{RunID: "r"}); err != nil {
		t.Fatal(err)
	}
	target, check := victim(t)
	os.Symlink(target, filepath.Join(run, "link.html"))
	mkfifo(t, filepath.Join(run, "fifo.html"))
	refused := map[string]error{
		filepath.Join(run, CSVName):      ErrRunData,
		filepath.Join(run, MetaName):     ErrRunData,
		filepath.Join(run, CountersName): ErrRunData,
		filepath.Join(run, LockName):     ErrRunData,
		filepath.Join(run, "link.html"):  ErrNotRegular,
		filepath.Join(run, "fifo.html"):  ErrNotRegular,
		run:                              ErrNotRegular,
	}
	if syscall.Mknod(filepath.Join(run, "null.html"), syscall.S_IFCHR|0o666, 1<<8|3) == nil {
		refused[filepath.Join(run, "null.html")] = ErrNotRegular
	}
	for p, want := range refused {
		if err := WriteOutput(p, []byte("<html>")); !errors.Is(err, want) || !strings.Contains(err.Error(), filepath.Base(p)) {
			t.Errorf("%s: %v, want %v", p, err, want)
		}
	}
	check()
	if rows, _, err := LoadDir(run); err != nil || len(rows) != 3 {
		t.Errorf("the run's data changed: %d rows, %v", len(rows), err)
	}
	for _, ok := range []string{filepath.Join(run, "report.html"), filepath.Join(run, "report.html")} {
		if err := WriteOutput(ok, []byte("<html>")); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

// A header cut short by a crash is repaired by one resume: the torn bytes
// are kept aside and the file starts afresh.
func TestTornHeaderOneResume(t *testing.T) {
	for _, torn := range []string{"group,bench", "group,benchmark,mode,size_bytes,foot"} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, CSVName), []byte(torn), 0o644)
		if _, err := OpenAppender(dir, false); !errors.Is(err, ErrResultsExist) {
			t.Errorf("%q without --resume: %v", torn, err)
		}
		a, err := OpenAppender(dir, true)
		if err != nil {
			t.Fatalf("%q: one resume: %v", torn, err)
		}
		if err := a.Append(trials("hbm", "explicit", 64, 1)...); err != nil {
			t.Fatal(err)
		}
		a.Close()
		if rows, _, err := LoadDir(dir); err != nil || len(rows) != 1 {
			t.Errorf("%q: after one resume: %d rows, %v", torn, len(rows), err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, TornName)); string(b) != torn+"\n" {
			t.Errorf("torn header kept as %q", b)
		}
	}
}

// A results.csv removed or replaced under a running appender stops it with
// ErrReplaced instead of losing rows to a file no name leads to.
func TestAppendAfterReplaced(t *testing.T) {
	dir := t.TempDir()
	a, err := OpenAppender(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if err := a.Append(trials("hbm", "explicit", 64, 1)...); err != nil {
		t.Fatal(err)
	}
	WriteFileAtomic(filepath.Join(dir, CSVName), []byte("replaced\n"), 0o644)
	if err := a.Append(trials("hbm", "explicit", 128, 1)...); !errors.Is(err, ErrReplaced) {
		t.Errorf("append after results.csv was replaced: %v", err)
	}
	c, err := OpenCounterAppender(t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	os.Remove(c.path)
	if err := c.Append(NewCounterRow(trials("hbm", "explicit", 64, 1)[0])); !errors.Is(err, ErrReplaced) {
		t.Errorf("append after counters.csv was removed: %v", err)
	}
}

// Infinite and negative counts are refused with the file and line.
func TestCounterValuesChecked(t *testing.T) {
	head := "group,benchmark,mode,size_bytes,pass,um_htod_bytes,pass_kernel_ms\n"
	for _, line := range []string{"managed,triad,cold,1024,counters,+Inf,1", "managed,triad,cold,1024,counters,1,-2",
		"managed,triad,cold,1024,counters,Infinity,1", "managed,triad,cold,-5,counters,1,1"} {
		_, err := ReadCounterCSV(strings.NewReader(head+"managed,triad,cold,1024,counters,1,1\n"+line+"\n"), "counters.csv")
		if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "counters.csv:3:") || !strings.Contains(err.Error(), "impossible") {
			t.Errorf("%s: %v", line, err)
		}
	}
}

func TestScreenUnverified(t *testing.T) {
	rows := trials("hbm", "explicit", 64<<20, 1, 2, 3, 4, 5)
	rows[1].Verified, rows[3].Verified = false, false
	waived := trials("host", "system", 64<<20, 1)[0]
	waived.Verified, waived.Waived = false, true
	paper := trials("hbm", "explicit", 1<<30, 7)[0]
	paper.Verified, paper.Source = false, "paper Table 2"
	all := append(append(rows, waived), paper)
	kept, u := ScreenUnverified(all)
	if len(kept) != 5 || u.Trials != 2 || len(u.Configs) != 1 {
		t.Fatalf("kept %d, left out %d in %d configurations", len(kept), u.Trials, len(u.Configs))
	}
	for _, r := range kept {
		if !r.Verified && !r.Waived && r.Source == "" {
			t.Errorf("an unverified trial was kept: %+v", r)
		}
	}
	if n, of := u.Of(rows[0]); n != 2 || of != 5 {
		t.Errorf("Of = %d of %d, want 2 of 5", n, of)
	}
	if s := u.String(); !strings.Contains(s, "2 unverified trials") || !strings.Contains(s, "hbm triad explicit 64 MiB (2 of 5)") {
		t.Errorf("String: %s", s)
	}
	back := u.Restore(kept)
	if len(back) != len(all) {
		t.Fatalf("Restore: %d rows, want %d", len(back), len(all))
	}
	for i := range all {
		if back[i].GBps != all[i].GBps || back[i].Verified != all[i].Verified {
			t.Errorf("Restore: row %d out of place", i)
		}
	}
	if _, u := ScreenUnverified(kept); u.String() != "" || u.Trials != 0 {
		t.Errorf("nothing to leave out: %q", u)
	}
}

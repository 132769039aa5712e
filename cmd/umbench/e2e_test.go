package main

// End-to-end tests: the umbench binary on the simulated GPU, interrupted,
// killed, hung, run twice at once, and out of disk space.

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/umlab/umlab/results"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// binary builds umbench once for the end-to-end tests.
func binary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the umbench binary")
	}
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "umbench-e2e-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "umbench")
		args := []string{"build", "-o", binPath}
		if raceEnabled { // under go test -race the binary's signal handling and child are checked too
			args = append(args, "-race")
		}
		out, err := exec.Command("go", append(args, ".")...).CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// proc is a running umbench whose stderr is watched line by line.
type proc struct {
	cmd    *exec.Cmd
	mu     sync.Mutex
	stderr bytes.Buffer
	lines  chan string
	done   chan struct{}
}

func start(t *testing.T, env []string, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	cmd.Env = append(append(os.Environ(), "UMLAB_SIMULATE=1"), env...)
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = io.Discard
	p := &proc{cmd: cmd, lines: make(chan string, 1000), done: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(errPipe)
		for sc.Scan() {
			p.mu.Lock()
			p.stderr.WriteString(sc.Text() + "\n")
			p.mu.Unlock()
			select {
			case p.lines <- sc.Text():
			default:
			}
		}
		close(p.done)
	}()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return p
}

// waitFor waits for a stderr line containing s.
func (p *proc) waitFor(t *testing.T, s string) {
	t.Helper()
	timeout := time.After(60 * time.Second)
	for {
		select {
		case l := <-p.lines:
			if strings.Contains(l, s) {
				return
			}
		case <-p.done:
			t.Fatalf("umbench ended before printing %q:\n%s", s, p.errText())
		case <-timeout:
			t.Fatalf("no %q within a minute:\n%s", s, p.errText())
		}
	}
}

func (p *proc) errText() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

// wait returns the exit code (-1 when killed by a signal). It reads stderr
// to its end before it waits for the process: Wait closes the pipe, and
// called first it could drop what the process wrote last (a refusal's
// message, as a run on a busy directory once lost).
func (p *proc) wait(t *testing.T) int {
	t.Helper()
	timeout := time.After(60 * time.Second)
	select {
	case <-p.done:
	case <-timeout:
		t.Fatalf("umbench did not exit within a minute:\n%s", p.errText())
	}
	waited := make(chan error, 1)
	go func() { waited <- p.cmd.Wait() }()
	select {
	case <-waited:
	case <-timeout:
		t.Fatalf("umbench closed its stderr but did not exit within a minute:\n%s", p.errText())
	}
	return p.cmd.ProcessState.ExitCode()
}

// runArgs: quick hbm, 2 benchmarks × 2 sizes × 3 trials = 4 configurations, 12 rows.
func runArgs(dir string, more ...string) []string {
	return append([]string{"run", "--quick", "--groups", "hbm", "--trials", "3", "--warmups", "1", "--out", dir}, more...)
}

// checkWhole reads dir's rows and checks that every configuration is whole
// (3 trials, each once), returning the row count.
func checkWhole(t *testing.T, dir string) int {
	t.Helper()
	rows, _, err := results.LoadDir(dir) // refuses duplicated trials
	if err != nil {
		t.Fatal(err)
	}
	per := map[string]int{}
	for _, r := range rows {
		if !r.Simulated {
			t.Fatal("a row of a simulated run is not marked simulated")
		}
		per[results.ConfigKey(r)]++
	}
	for k, n := range per {
		if n != 3 {
			t.Errorf("configuration %s has %d rows, want 3", k, n)
		}
	}
	return len(rows)
}

// resumedRows resumes the run of args to its end and returns dir's rows
// (LoadDir refuses duplicated trials).
func resumedRows(t *testing.T, dir string, args []string) []results.Row {
	t.Helper()
	r := start(t, nil, append(slices.Clone(args), "--resume")...)
	if code := r.wait(t); code != 0 {
		t.Fatalf("resume: exit %d\n%s", code, r.errText())
	}
	rows, _, err := results.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func resumeToEnd(t *testing.T, dir string) {
	t.Helper()
	p := start(t, nil, runArgs(dir, "--resume")...)
	if code := p.wait(t); code != 0 {
		t.Fatalf("resume: exit %d\n%s", code, p.errText())
	}
	if n := checkWhole(t, dir); n != 12 {
		t.Errorf("after resuming: %d rows, want exactly 12", n)
	}
}

func TestE2EInterruptAndResume(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			p := start(t, []string{"UMLAB_SIM_KERNEL_DELAY=4ms"}, runArgs(dir)...)
			p.waitFor(t, "[1/4]")
			p.cmd.Process.Signal(sig)
			code := p.wait(t)
			want := 130
			if sig == syscall.SIGKILL {
				want = -1
			}
			if code != want {
				t.Fatalf("exit %d after %v, want %d\n%s", code, sig, want, p.errText())
			}
			if sig != syscall.SIGKILL && !strings.Contains(p.errText(), "--resume") {
				t.Errorf("the interrupted run does not say how to continue:\n%s", p.errText())
			}
			n := checkWhole(t, dir)
			if n < 3 || n >= 12 {
				t.Errorf("%d rows after the %v, want the finished configurations (3 to 9)", n, sig)
			}
			resumeToEnd(t, dir)
		})
	}
}

// A second Ctrl-C exits at once, even while a kernel is running.
func TestE2ESecondInterruptExitsAtOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	p := start(t, []string{"UMLAB_SIM_KERNEL_DELAY=4ms"}, runArgs(dir)...)
	p.waitFor(t, "[1/4]")
	p.cmd.Process.Signal(syscall.SIGINT)
	p.waitFor(t, "Interrupt again")
	t0 := time.Now()
	p.cmd.Process.Signal(syscall.SIGINT)
	if code := p.wait(t); code != 130 {
		t.Fatalf("exit %d, want 130\n%s", code, p.errText())
	}
	if time.Since(t0) > 5*time.Second {
		t.Errorf("the second interrupt took %s", time.Since(t0))
	}
	if !strings.Contains(p.errText(), "again: exiting now") {
		t.Errorf("stderr:\n%s", p.errText())
	}
	checkWhole(t, dir)
	resumeToEnd(t, dir)
}

// A hung kernel: the watchdog fires, the process exits non-zero, finished
// configurations are kept and the hang is named.
func TestE2EHungKernel(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	p := start(t, []string{"UMLAB_SIM_HANG_AFTER=150"}, runArgs(dir, "--kernel-timeout", "300ms")...)
	code := p.wait(t)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, p.errText())
	}
	for _, want := range []string{"did not return within", "in configuration \"hbm", "is kept in"} {
		if !strings.Contains(p.errText(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, p.errText())
		}
	}
	checkWhole(t, dir)
	m, err := results.ReadMetadata(filepath.Join(dir, results.MetaName))
	if err != nil || !strings.Contains(strings.Join(m.Notes, "\n"), "did not return") {
		t.Errorf("meta.json: %v %q", err, m.Notes)
	}
	resumeToEnd(t, dir)
}

// A hang while managed data are brought home before a cold trial, outside
// every timed region (the third HomeFillHost never returns): the watchdog
// names the call and the managed configuration, the finished configurations
// are kept whole, and --resume finishes the group with the configurations
// and row count of a run that never hung.
func TestE2EHungHome(t *testing.T) {
	args := func(dir string, more ...string) []string {
		return append([]string{"run", "--quick", "--groups", "managed", "--rewrite", "home", "--trials", "3", "--warmups", "1", "--out", dir}, more...)
	}
	dir := filepath.Join(t.TempDir(), "out")
	p := start(t, []string{"UMLAB_SIM_HANG_HOME_AFTER=2"}, args(dir, "--kernel-timeout", "300ms")...)
	if code := p.wait(t); code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, p.errText())
	}
	for _, want := range []string{"did not return within", "HomeFillHost in configuration \"managed stream managed_cold", "is kept in"} {
		if !strings.Contains(p.errText(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, p.errText())
		}
	}
	kept := checkWhole(t, dir)
	if kept == 0 {
		t.Error("no configuration kept before the hang")
	}
	m, err := results.ReadMetadata(filepath.Join(dir, results.MetaName))
	if err != nil || !strings.Contains(strings.Join(m.Notes, "\n"), "HomeFillHost") {
		t.Errorf("meta.json: %v %q", err, m.Notes)
	}
	if n := len(m.GroupTimes); n != 1 || m.GroupTimes[0].Group != "managed" || !m.GroupTimes[0].Stopped {
		t.Errorf("meta.json group times %+v, want managed's, stopped inside it", m.GroupTimes)
	}
	hungSpan := m.GroupTimes[0]
	if hungSpan.Parts == nil {
		t.Error("the hung segment's span has no parts")
	}
	// A resumed process killed outright (no last write of meta.json) still
	// leaves the first segment's group time for the next resume.
	killed := start(t, []string{"UMLAB_SIM_KERNEL_DELAY=20ms"}, args(dir, "--resume")...)
	killed.waitFor(t, "managed managed_cold 1 MiB")
	killed.cmd.Process.Signal(syscall.SIGKILL)
	killed.wait(t)
	if p := start(t, nil, args(dir, "--resume")...); p.wait(t) != 0 {
		t.Fatalf("resume: %s", p.errText())
	}
	if m, err = results.ReadMetadata(filepath.Join(dir, results.MetaName)); err != nil {
		t.Fatal(err)
	} else if len(m.GroupTimes) < 2 || !reflect.DeepEqual(m.GroupTimes[0], hungSpan) || m.GroupTimes[len(m.GroupTimes)-1].Segment != m.RunID || m.GroupTimes[len(m.GroupTimes)-1].Stopped {
		t.Errorf("after a killed segment and a resume: group times %+v, want the hung segment's span first and this run's, whole, last", m.GroupTimes)
	}
	whole := filepath.Join(t.TempDir(), "whole")
	if p := start(t, nil, args(whole)...); p.wait(t) != 0 {
		t.Fatalf("uninterrupted run: %s", p.errText())
	}
	got, want := checkWhole(t, dir), checkWhole(t, whole)
	if got != want || got <= kept {
		t.Errorf("after the resume: %d rows (%d kept before the hang), want the uninterrupted run's %d", got, kept, want)
	}
	keys := func(dir string) map[string]bool {
		rows, _, err := results.LoadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		k := map[string]bool{}
		for _, r := range rows {
			k[results.ConfigKey(r)] = true
		}
		return k
	}
	a, b := keys(dir), keys(whole)
	for k := range b {
		if !a[k] {
			t.Errorf("after the resume: configuration %s missing", k)
		}
	}
	if len(a) != len(b) {
		t.Errorf("after the resume: %d configurations, want %d", len(a), len(b))
	}
}

// An allocation that fails while a trial reallocates its data (the default
// rewrite; UMLAB_SIM_FAIL_ALLOC_AFTER): the run stops non-zero naming the
// configuration and the failure, keeps the finished configurations whole,
// and --resume ends with the configurations of a run that never failed.
func TestE2EReallocationFails(t *testing.T) {
	args := func(dir string, more ...string) []string {
		return append([]string{"run", "--quick", "--groups", "managed", "--trials", "3", "--warmups", "1", "--out", dir}, more...)
	}
	dir := filepath.Join(t.TempDir(), "out")
	p := start(t, []string{"UMLAB_SIM_FAIL_ALLOC_AFTER=30"}, args(dir)...)
	if code := p.wait(t); code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, p.errText())
	}
	for _, want := range []string{"umkit: managed ", "injected failure", "finished configurations are kept in"} {
		if !strings.Contains(p.errText(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, p.errText())
		}
	}
	if !strings.Contains(p.errText(), ": trial ") && !strings.Contains(p.errText(), ": warm-up ") {
		t.Errorf("the failure is not inside a trial's reallocation:\n%s", p.errText())
	}
	kept := checkWhole(t, dir)
	if kept == 0 {
		t.Error("no configuration kept before the failure")
	}
	if p := start(t, nil, args(dir, "--resume")...); p.wait(t) != 0 {
		t.Fatalf("resume: %s", p.errText())
	}
	whole := filepath.Join(t.TempDir(), "whole")
	if p := start(t, nil, args(whole)...); p.wait(t) != 0 {
		t.Fatalf("uninterrupted run: %s", p.errText())
	}
	if got, want := checkWhole(t, dir), checkWhole(t, whole); got != want || got <= kept {
		t.Errorf("after the resume: %d rows (%d kept before the failure), want the uninterrupted run's %d", got, kept, want)
	}
}

// Device memory the driver keeps after a prefetched buffer is freed
// (UMLAB_SIM_DRIVER_KEEPS, as an H200 did under oversub's capacity): the
// reallocation before every trial absorbs 110 MiB and the quick oversub
// group runs to its end; 600 MiB is more than it may take, and the run
// stops with the guard's refusal naming the configuration, the finished
// configurations kept.
func TestE2EDriverKeepsMemory(t *testing.T) {
	args := func(dir string) []string {
		return []string{"run", "--quick", "--groups", "oversub", "--trials", "3", "--warmups", "1", "--out", dir}
	}
	dir := filepath.Join(t.TempDir(), "absorbed")
	if p := start(t, []string{"UMLAB_SIM_DRIVER_KEEPS=110MiB"}, args(dir)...); p.wait(t) != 0 {
		t.Fatalf("110 MiB kept: %s", p.errText())
	}
	whole := filepath.Join(t.TempDir(), "whole")
	if p := start(t, nil, args(whole)...); p.wait(t) != 0 {
		t.Fatalf("nothing kept: %s", p.errText())
	}
	if got, want := checkWhole(t, dir), checkWhole(t, whole); got != want {
		t.Errorf("110 MiB kept: %d rows, want the %d of a run on a driver that keeps nothing", got, want)
	}
	dir = filepath.Join(t.TempDir(), "refused")
	p := start(t, []string{"UMLAB_SIM_DRIVER_KEEPS=600MiB"}, args(dir)...)
	if code := p.wait(t); code != 1 {
		t.Fatalf("600 MiB kept: exit %d, want 1\n%s", code, p.errText())
	}
	for _, want := range []string{"oversub streaming managed_prefetch 90%", "refusing managed allocation", "finished configurations are kept in"} {
		if !strings.Contains(p.errText(), want) {
			t.Errorf("600 MiB kept: stderr lacks %q:\n%s", want, p.errText())
		}
	}
	if checkWhole(t, dir) == 0 {
		t.Error("600 MiB kept: no configuration kept before the refusal")
	}
}

// A kernel that reports success and does nothing: the run stops with a
// verification error naming the configuration, keeps what it finished, and
// a resume measures the rest. The hbm group checks every trial; handoff
// checks each block's accumulated data at its end, so the lost kernel's
// whole block is measured again. (Launches that only prepare state, such
// as hbm's untimed lead-in before each timed kernel, are not checked: the
// timed kernel overwrites what they wrote.)
func TestE2EDroppedKernel(t *testing.T) {
	handoff := []string{"run", "--quick", "--groups", "handoff", "--sizes", "1MiB", "--trials", "3", "--warmups", "1"}
	for _, c := range []struct {
		name      string
		args      []string
		drop      string
		wantRows  int
		wantLabel string
	}{
		{"hbm", []string{"run", "--quick", "--groups", "hbm", "--trials", "3", "--warmups", "1"}, "502", 12, "hbm triad 1 MiB"},
		{"handoff", handoff, "400", 60, "handoff managed 1 MiB alternating R sweep"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			args := append(slices.Clone(c.args), "--out", dir)
			p := start(t, []string{"UMLAB_SIM_DROP_LAUNCH=" + c.drop}, args...)
			if code := p.wait(t); code != 1 {
				t.Fatalf("exit %d, want 1\n%s", code, p.errText())
			}
			for _, want := range []string{"verification failed", c.wantLabel, "finished configurations are kept in"} {
				if !strings.Contains(p.errText(), want) {
					t.Errorf("stderr lacks %q:\n%s", want, p.errText())
				}
			}
			kept, _, err := results.LoadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(kept) == 0 || len(kept) >= c.wantRows {
				t.Errorf("%d rows kept, want the configurations finished before the lost kernel (1 to %d)", len(kept), c.wantRows-1)
			}
			rows := resumedRows(t, dir, args)
			if len(rows) != c.wantRows {
				t.Errorf("after resuming: %d rows, want %d", len(rows), c.wantRows)
			}
			for _, row := range rows {
				if !row.Verified {
					t.Errorf("%s trial %d is not marked verified", describe(row), row.Trial)
				}
			}
		})
	}
}

// Two runs on one directory: the second is refused with the first's PID.
func TestE2ETwoRunsOneDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	first := start(t, []string{"UMLAB_SIM_KERNEL_DELAY=20ms"}, runArgs(dir)...)
	first.waitFor(t, "[1/4]")
	for _, extra := range [][]string{nil, {"--resume"}} {
		second := start(t, nil, runArgs(dir, extra...)...)
		if code := second.wait(t); code != 2 {
			t.Fatalf("a second run on a directory in use: exit %d, want 2\n%s", code, second.errText())
		}
		if want := fmt.Sprintf("PID %d", first.cmd.Process.Pid); !strings.Contains(second.errText(), want) {
			t.Errorf("refusal does not name %s:\n%s", want, second.errText())
		}
	}
	first.cmd.Process.Signal(syscall.SIGINT)
	first.wait(t)
	resumeToEnd(t, dir)
}

// Out of disk space mid-run: a non-zero exit, and what is on disk is whole.
func TestE2EFullDisk(t *testing.T) {
	mnt := t.TempDir()
	if err := exec.Command("mount", "-t", "tmpfs", "-o", "size=12k", "tmpfs", mnt).Run(); err != nil {
		t.Skipf("cannot mount a small tmpfs (needs root): %v", err)
	}
	defer exec.Command("umount", mnt).Run()
	dir := filepath.Join(mnt, "out")
	p := start(t, nil, "run", "--quick", "--groups", "hbm,managed", "--trials", "3", "--warmups", "1", "--out", dir)
	code := p.wait(t)
	if code == 0 {
		t.Fatalf("a run on a full disk succeeded:\n%s", p.errText())
	}
	if !strings.Contains(p.errText(), "no space left") {
		t.Errorf("stderr does not say the disk is full:\n%s", p.errText())
	}
	// Moved to a disk with room, the run resumes: the torn line is kept
	// aside, the cut configuration measured again whole.
	moved := filepath.Join(t.TempDir(), "out")
	if out, err := exec.Command("cp", "-r", dir, moved).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	r := start(t, nil, "run", "--quick", "--groups", "hbm,managed", "--trials", "3", "--warmups", "1", "--out", moved, "--resume")
	if code := r.wait(t); code != 0 {
		t.Fatalf("resume after the full disk: exit %d\n%s", code, r.errText())
	}
	if n := checkWhole(t, moved); n != 18*3 {
		t.Errorf("after resuming: %d rows, want 54", n)
	}
	if b, err := os.ReadFile(filepath.Join(moved, results.TornName)); err != nil || len(b) == 0 {
		t.Errorf("the torn line was not kept: %v", err)
	}
}

// Oversubscription beyond 90 % runs in a watched child: a hang there ends
// the child, the parent reports its fate and the results stay.
func TestE2ERiskySweepInChild(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	args := []string{"run", "--quick", "--groups", "oversub", "--trials", "2", "--warmups", "1",
		"--allow-oversubscription", "--oversub-pcts", "50,95", "--out", dir}
	p := start(t, nil, args...)
	if code := p.wait(t); code != 0 {
		t.Fatalf("exit %d\n%s", code, p.errText())
	}
	if !strings.Contains(p.errText(), "measuring in a child process") {
		t.Errorf("no child process:\n%s", p.errText())
	}
	rows, _, err := results.LoadDir(dir)
	if err != nil || len(rows) == 0 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}

	// The child hangs: its watchdog fires, the parent says how it ended.
	dir2 := filepath.Join(t.TempDir(), "out")
	args[len(args)-1] = dir2
	p = start(t, []string{"UMLAB_SIM_HANG_AFTER=40"}, append(args, "--kernel-timeout", "300ms")...)
	if code := p.wait(t); code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, p.errText())
	}
	for _, want := range []string{"did not return within", "the child process (PID", "failed (exit status 1", "--resume"} {
		if !strings.Contains(p.errText(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, p.errText())
		}
	}
	// Interrupted: the parent forwards the signal, the child stops cleanly.
	dir3 := filepath.Join(t.TempDir(), "out")
	args[len(args)-1] = dir3
	p = start(t, []string{"UMLAB_SIM_KERNEL_DELAY=5ms"}, args...)
	p.waitFor(t, "[1/")
	p.cmd.Process.Signal(syscall.SIGTERM)
	if code := p.wait(t); code != 130 {
		t.Fatalf("exit %d after SIGTERM, want 130\n%s", code, p.errText())
	}
}

// The handoff group killed in the middle of its sweeps (SIGKILL: nothing
// runs on the way out), then resumed: every block finished before the kill
// is kept, the one in flight is measured again whole, and each sweep round
// ends up holding every R once.
func TestE2EHandoffKilledMidSweep(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	args := []string{"run", "--quick", "--groups", "handoff", "--sizes", "1MiB", "--trials", "3", "--warmups", "1", "--out", dir}
	p := start(t, []string{"UMLAB_SIM_KERNEL_DELAY=2ms"}, args...)
	p.waitFor(t, "[8/20]") // 4 policies × (cpu_only, gpu_only, R = 1, 4, 32): 20 configurations
	p.cmd.Process.Signal(syscall.SIGKILL)
	if code := p.wait(t); code != -1 {
		t.Fatalf("exit %d after SIGKILL\n%s", code, p.errText())
	}
	before, _, err := results.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(before) < 8*3 || len(before) >= 20*3 {
		t.Fatalf("%d rows after the kill, want the finished blocks' (24 to 57)", len(before))
	}
	rows := resumedRows(t, dir, args)
	if len(rows) != 20*3 {
		t.Fatalf("after resuming: %d rows, want exactly 60", len(rows))
	}
	run := map[string]string{} // configuration and trial → the run that measured it
	rounds := map[string][]int64{}
	for _, row := range rows {
		run[fmt.Sprintf("%s|%d", results.ConfigKey(row), row.Trial)] = row.RunID
		if row.Phase == "alternating" {
			rk := fmt.Sprintf("%s|%s|%d", row.Policy, row.RunID, row.Trial)
			rounds[rk] = append(rounds[rk], row.ReusePasses)
		}
	}
	for _, b := range before {
		if got := run[fmt.Sprintf("%s|%d", results.ConfigKey(b), b.Trial)]; got != b.RunID {
			t.Errorf("%s trial %d: finished before the kill, but the resumed run holds run %q's", describe(b), b.Trial, got)
		}
	}
	for k, rs := range rounds {
		if len(rs) != 3 {
			t.Errorf("round %s ran R %v, want 1, 4 and 32 once each", k, rs)
		}
	}
}

func describe(r results.Row) string {
	return fmt.Sprintf("%s %s R=%d", r.Policy, r.Phase, r.ReusePasses)
}

// A run with --time-limit stops before its next configuration or handoff
// block, exits with status 3 and says how to continue; runs resumed under
// the same limit finish the suite with the rows of an uninterrupted run and
// nothing set aside. In a child process (a risky sweep) the parent reports
// the same status. Kernels take 2 ms of real time, so that the run takes
// several times the limit on the wall clock as on the simulated one.
func TestE2ETimeLimit(t *testing.T) {
	slow := []string{"UMLAB_SIM_KERNEL_DELAY=2ms"}
	args := func(dir string, more ...string) []string {
		return append([]string{"run", "--quick", "--groups", "managed,handoff", "--trials", "2", "--warmups", "1", "--out", dir}, more...)
	}
	ref := filepath.Join(t.TempDir(), "ref")
	if p := start(t, nil, args(ref)...); p.wait(t) != 0 {
		t.Fatalf("reference run failed:\n%s", p.errText())
	}
	want, _, err := results.LoadDir(ref)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	segments := 0
	for more := []string{"--time-limit", "2s"}; ; segments++ {
		if segments == 15 {
			t.Fatal("15 segments under a 2 s limit did not finish the run")
		}
		p := start(t, slow, args(dir, more...)...)
		code := p.wait(t)
		if code == 0 {
			break
		}
		if code != 3 || !strings.Contains(p.errText(), "time limit") || !strings.Contains(p.errText(), "--resume") {
			t.Fatalf("segment %d: exit %d, want 3 with how to continue\n%s", segments, code, p.errText())
		}
		more = []string{"--time-limit", "2s", "--resume"}
	}
	if segments == 0 {
		t.Fatal("the run under a 2 s limit never stopped at it")
	}
	if _, err := os.Stat(filepath.Join(dir, results.PartialName)); err == nil {
		t.Error("a segment stopped inside a configuration: rows were set aside as partial")
	}
	got, _, err := results.LoadDir(dir) // refuses duplicated trials
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Errorf("after %d segments: %d rows, want the uninterrupted run's %d", segments+1, len(got), len(want))
	}
	// In a child process.
	child := filepath.Join(t.TempDir(), "child")
	p := start(t, nil, "run", "--quick", "--groups", "oversub", "--trials", "2", "--warmups", "1",
		"--allow-oversubscription", "--oversub-pcts", "50,95", "--time-limit", "1ns", "--out", child)
	if code := p.wait(t); code != 3 || !strings.Contains(p.errText(), "measuring in a child process") ||
		!strings.Contains(p.errText(), "stopped at the time limit") {
		t.Errorf("risky sweep under a time limit: exit %d, want 3 from the child\n%s", code, p.errText())
	}
}

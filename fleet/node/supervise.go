package node

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/umlab/umlab/fleet"
	"github.com/umlab/umlab/results"

	"golang.org/x/sys/unix"
)

// Worker is one child process of a node-level run: one GPU.
type Worker struct {
	GPU  int      // GPU ordinal, for reports
	UUID string   // the GPU's UUID, when known
	Path string   // the program
	Args []string // its arguments (without the program name)
	Env  []string // added to this process's environment
	Out  string   // its results directory; its stdout.log and stderr.log go there too
	CPUs []int    // the CPUs it is pinned to from its first instruction (nil: not pinned)
}

// Worker states, as written to workers.json.
const (
	StatePending     = "pending"     // not started yet
	StateRunning     = "running"     // started, not finished
	StateOK          = "ok"          // exited with status 0
	StateFailed      = "failed"      // exited non-zero, died from a signal, or could not start
	StateTimedOut    = "timed_out"   // ran past the per-worker timeout and was stopped
	StateStalled     = "stalled"     // wrote nothing on stderr for the stall limit and was stopped
	StateInterrupted = "interrupted" // the supervisor was interrupted while it ran
	StateNotStarted  = "not_started" // the supervisor was interrupted before it started
)

// Outcome is what happened to one worker.
type Outcome struct {
	GPU        int       `json:"gpu"`
	UUID       string    `json:"gpu_uuid,omitempty"`
	CPUs       string    `json:"cpus,omitempty"` // the CPUs it was pinned to, e.g. "0-15"
	Out        string    `json:"out"`
	Command    []string  `json:"command"`
	State      string    `json:"state"`
	ExitCode   int       `json:"exit_code"` // -1 when it did not exit normally
	Error      string    `json:"error,omitempty"`
	Start      time.Time `json:"start,omitzero"`
	End        time.Time `json:"end,omitzero"`
	Seconds    float64   `json:"seconds"`
	StderrTail string    `json:"stderr_tail,omitempty"` // the end of its stderr (all of it is in StderrLog)
	StderrLog  string    `json:"stderr_log,omitempty"`
	StdoutLog  string    `json:"stdout_log,omitempty"`
	// Refused: it measured nothing and its directory is as it was (another
	// process held it, or it exited with ExitRefused).
	Refused bool `json:"refused,omitempty"`
}

// outcome is the worker's outcome before it has run.
func (w Worker) outcome() Outcome {
	return Outcome{GPU: w.GPU, UUID: w.UUID, Out: w.Out, Command: append([]string{w.Path}, w.Args...),
		ExitCode: -1, CPUs: fleet.FormatCPUs(w.CPUs)}
}

// OK reports whether the worker finished successfully.
func (o Outcome) OK() bool { return o.State == StateOK }

// ExitRefused is the exit status of umbench refusing its command line or
// its results directory (in use, holding another run's results, a changed
// setting on --resume) before it measures anything.
const ExitRefused = 2

// tailLines is how many last lines of stderr an outcome keeps.
const tailLines = 20

// SuperviseOptions tune Supervise. Zero values take the defaults.
type SuperviseOptions struct {
	Concurrent bool          // start every worker at once (default: one at a time)
	Timeout    time.Duration // stop a worker that runs longer (0: no limit)
	// Stall stops a worker silent on stderr this long (umbench run prints a
	// line per configuration when stderr is not a terminal); 0: no limit.
	Stall time.Duration
	Grace time.Duration // from SIGTERM (a worker keeps what it finished) to SIGKILL; default 10 s
	Log   io.Writer     // the workers' stderr, live, each line prefixed "gpuN| " (nil: none)
	// Update is called with every outcome so far when a worker starts or ends.
	Update func([]Outcome)
}

// Supervise runs the workers, one at a time or all at once, and returns
// an outcome per worker, in the order given. A worker that fails, times out
// or stalls is stopped (SIGTERM to its process group, then SIGKILL after
// the grace period) and recorded with the end of its stderr; the others
// still run. When ctx is cancelled, running workers are stopped the same way
// and those not started are marked so.
func Supervise(ctx context.Context, workers []Worker, o SuperviseOptions) []Outcome {
	if o.Grace <= 0 {
		o.Grace = 10 * time.Second
	}
	out := make([]Outcome, len(workers))
	var mu sync.Mutex
	for i, w := range workers {
		out[i] = w.outcome()
		out[i].State = StatePending
	}
	update := func(i int, oc Outcome) {
		mu.Lock()
		defer mu.Unlock()
		out[i] = oc
		if o.Update != nil {
			o.Update(append([]Outcome(nil), out...))
		}
	}
	logMu := &sync.Mutex{}
	run := func(i int) {
		if ctx.Err() != nil {
			oc := out[i]
			oc.State, oc.Error = StateNotStarted, "interrupted before it started"
			update(i, oc)
			return
		}
		runWorker(ctx, workers[i], o, logMu, func(oc Outcome) { update(i, oc) })
	}
	if o.Concurrent {
		var wg sync.WaitGroup
		for i := range workers {
			wg.Go(func() { run(i) })
		}
		wg.Wait()
	} else {
		for i := range workers {
			run(i)
		}
	}
	return out
}

// runWorker runs one worker to its end, reporting its outcome when it
// starts and when it ends.
func runWorker(ctx context.Context, w Worker, o SuperviseOptions, logMu *sync.Mutex, report func(Outcome)) {
	// The worker's parent-death signal follows the thread that forks it:
	// this goroutine keeps that thread until the worker has exited.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	oc := w.outcome()
	oc.Start = time.Now().UTC()
	fail := func(err error) {
		oc.State, oc.Error, oc.End = StateFailed, err.Error(), time.Now().UTC()
		report(oc)
	}
	if err := results.Locked(w.Out); err != nil {
		oc.Refused = true
		fail(fmt.Errorf("not started: %w", err))
		return
	}
	for _, d := range []string{filepath.Dir(w.Out), w.Out} {
		if err := results.MakeDir(d); err != nil {
			fail(err)
			return
		}
	}
	oc.StdoutLog, oc.StderrLog = filepath.Join(w.Out, "stdout.log"), filepath.Join(w.Out, "stderr.log")
	stdout, err := openLog(oc.StdoutLog, oc.Command)
	if err != nil {
		fail(err)
		return
	}
	defer stdout.Close()
	stderr, err := openLog(oc.StderrLog, oc.Command)
	if err != nil {
		fail(err)
		return
	}
	defer stderr.Close()

	tail := &tailBuffer{max: 16 << 10}
	alive := make(chan struct{}, 1)
	writers := []io.Writer{stderr, tail, pulse(alive)}
	if o.Log != nil {
		writers = append(writers, &prefixWriter{w: o.Log, mu: logMu, prefix: fmt.Sprintf("gpu%d| ", w.GPU)})
	}
	cmd := workerCommand(w, stdout, io.MultiWriter(writers...))
	if err := startPinned(cmd, w.CPUs); err != nil {
		fail(fmt.Errorf("starting %s: %w", w.Path, err))
		return
	}
	oc.State = StateRunning
	report(oc)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	exited, waitErr := watch(ctx, done, alive, o, &oc)
	if !exited {
		waitErr = terminate(cmd.Process.Pid, done, o.Grace, &oc)
	}
	finish(&oc, cmd, waitErr, tail.lastLines(tailLines))
	oc.Refused = oc.State == StateFailed && oc.ExitCode == ExitRefused
	report(oc)
}

// workerCommand is the worker's process: its own process group, so that
// signals reach its children too, and killed (SIGKILL) when the thread
// that started it ends: a supervisor that dies, even by SIGKILL, leaves no
// worker running orphaned and holding its directory's lock. runWorker
// keeps that thread for itself until the worker has exited.
func workerCommand(w Worker, stdout, stderr io.Writer) *exec.Cmd {
	cmd := exec.Command(w.Path, w.Args...)
	cmd.Env = append(os.Environ(), w.Env...)
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.WaitDelay = 2 * time.Second // a grandchild holding stderr open must not block Wait
	return cmd
}

// watch waits for the worker to exit (exited, with Wait's error), or
// until it runs past the timeout, stalls (no output on alive for the stall
// limit) or ctx ends; then oc says which, and the caller stops it.
func watch(ctx context.Context, done <-chan error, alive <-chan struct{}, o SuperviseOptions, oc *Outcome) (exited bool, waitErr error) {
	var deadline <-chan time.Time
	if o.Timeout > 0 {
		t := time.NewTimer(o.Timeout)
		defer t.Stop()
		deadline = t.C
	}
	var stallC <-chan time.Time
	var stall *time.Timer
	if o.Stall > 0 {
		stall = time.NewTimer(o.Stall)
		defer stall.Stop()
		stallC = stall.C
	}
	for {
		select {
		case err := <-done:
			return true, err
		case <-alive:
			if stall != nil {
				stall.Reset(o.Stall)
			}
		case <-deadline:
			oc.State, oc.Error = StateTimedOut, fmt.Sprintf("ran longer than the worker timeout, %s, and was stopped", o.Timeout)
			return false, nil
		case <-stallC:
			oc.State, oc.Error = StateStalled, fmt.Sprintf("wrote nothing for %s (stalled) and was stopped", o.Stall)
			return false, nil
		case <-ctx.Done():
			oc.State, oc.Error = StateInterrupted, "interrupted: stopped with SIGTERM"
			return false, nil
		}
	}
}

// finish records how the worker ended: time, exit code, the end of its
// stderr, and its state when it exited by itself.
func finish(oc *Outcome, cmd *exec.Cmd, waitErr error, tail string) {
	oc.End = time.Now().UTC()
	oc.Seconds = oc.End.Sub(oc.Start).Seconds()
	if cmd.ProcessState != nil {
		oc.ExitCode = cmd.ProcessState.ExitCode()
	}
	oc.StderrTail = tail
	if oc.State == StateRunning {
		if waitErr == nil {
			oc.State = StateOK
		} else {
			oc.State, oc.Error = StateFailed, describeExit(waitErr)
		}
	} else if waitErr != nil && !strings.Contains(oc.Error, "did not exit") {
		oc.Error += " (" + describeExit(waitErr) + ")"
	}
}

// terminate stops a worker's process group: SIGTERM, then SIGKILL after
// grace. A process stuck in the kernel (a GPU driver call that never
// returns) may survive SIGKILL; after another grace period it is given up
// on and recorded as such, so that the other workers can go on.
func terminate(pid int, done <-chan error, grace time.Duration, oc *Outcome) error {
	unix.Kill(-pid, unix.SIGTERM)
	select {
	case err := <-done:
		return err
	case <-time.After(grace):
	}
	unix.Kill(-pid, unix.SIGKILL)
	oc.Error += fmt.Sprintf("; still running %s after SIGTERM, so sent SIGKILL", grace)
	select {
	case err := <-done:
		return err
	case <-time.After(grace):
		oc.Error += fmt.Sprintf("; did not exit %s after SIGKILL (process %d is stuck, probably in the GPU driver)", grace, pid)
		return nil
	}
}

func describeExit(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if st, ok := ee.Sys().(syscall.WaitStatus); ok && st.Signaled() {
			return "ended by " + unix.SignalName(st.Signal())
		}
		return fmt.Sprintf("exit status %d", ee.ExitCode())
	}
	return err.Error()
}

// startPinned starts cmd with its CPU affinity set to cpus from its first
// instruction: the child of fork inherits the affinity of the forking
// thread, so the calling goroutine locks its thread, narrows that thread's
// affinity, starts the command and restores it.
func startPinned(cmd *exec.Cmd, cpus []int) error {
	if len(cpus) == 0 {
		return cmd.Start()
	}
	runtime.LockOSThread()
	var old unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		runtime.UnlockOSThread()
		return fmt.Errorf("reading CPU affinity: %w", err)
	}
	set := setOf(cpus)
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		runtime.UnlockOSThread()
		return fmt.Errorf("pinning to CPUs %s: %w", fleet.FormatCPUs(cpus), err)
	}
	err := cmd.Start()
	if unix.SchedSetaffinity(0, &old) == nil {
		runtime.UnlockOSThread()
	} // else the thread stays locked and ends with its goroutine
	return err
}

// openLog opens a worker log for appending, with a line that marks the
// start of this attempt.
func openLog(path string, command []string) (*os.File, error) {
	f, err := results.AppendFile(path, 0o644)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(f, "=== %s umbench fleet worker: %s\n", time.Now().UTC().Format(time.RFC3339), strings.Join(command, " "))
	return f, nil
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append([]byte(nil), t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

// lastLines returns the last n lines, without a trailing newline; carriage
// returns (a progress bar) end lines too.
func (t *tailBuffer) lastLines(n int) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimRight(strings.ReplaceAll(string(t.b), "\r", "\n"), "\n")
	keep := slices.DeleteFunc(strings.Split(s, "\n"), func(l string) bool { return strings.TrimSpace(l) == "" })
	if len(keep) > n {
		keep = keep[len(keep)-n:]
	}
	return strings.Join(keep, "\n")
}

// pulse signals (without blocking) on every write.
type pulse chan<- struct{}

func (p pulse) Write(b []byte) (int, error) {
	select {
	case p <- struct{}{}:
	default:
	}
	return len(b), nil
}

// prefixWriter writes whole lines to w, each with a prefix; writers that
// share mu never interleave within a line.
type prefixWriter struct {
	w      io.Writer
	mu     *sync.Mutex
	prefix string
	buf    []byte
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.buf = append(p.buf, bytes.ReplaceAll(b, []byte("\r"), []byte("\n"))...)
	for {
		i := bytes.IndexByte(p.buf, '\n')
		if i < 0 {
			break
		}
		line := p.buf[:i+1]
		if len(bytes.TrimSpace(line)) > 0 {
			p.mu.Lock()
			io.WriteString(p.w, p.prefix)
			p.w.Write(line)
			p.mu.Unlock()
		}
		p.buf = p.buf[i+1:]
	}
	return len(b), nil
}

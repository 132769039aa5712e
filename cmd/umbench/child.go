package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/umlab/umlab/umkit"
)

// envChild marks the child process that runs a dangerous sweep.
const envChild = "UMBENCH_RISKY_CHILD"

// risky reports whether a plan can hang the driver: oversubscription
// beyond 90 % (only with --allow-oversubscription).
func risky(p umkit.Plan) bool {
	o, ok := umkit.DefinitionOf[umkit.OversubConfig](p)
	return ok && o.AllowOversubscription && slices.ContainsFunc(o.Percents, func(pct float64) bool { return pct > 90 })
}

// hangGrace is how long the parent waits for a child that reported a hang
// to exit before it kills it.
var hangGrace = 30 * time.Second

// childDrain bounds the wait, after the child exits, for the rest of its
// stderr.
const childDrain = 10 * time.Second

// childExecutable is the program the child runs; tests replace it.
var childExecutable = os.Executable

// runInChild runs this umbench run command line again in a watched child
// process, so that a driver hang takes the child, not the parent: the
// parent forwards SIGINT and SIGTERM, kills a child that reported a hang
// and has not exited hangGrace later (stuck in the driver) and says how it
// ended. What the child finished is already synced in --out.
func runInChild(args []string, dir string, stdout, stderr io.Writer) error {
	exe, err := childExecutable()
	if err != nil {
		return fmt.Errorf("finding the umbench binary for the child process: %w", err)
	}
	cmd := exec.Command(exe, append(append([]string{"run"}, args...), "--out="+dir)...)
	cmd.Env = append(os.Environ(), envChild+"=1")
	cmd.Stdout = stdout
	// The child's stderr comes through a pipe of our own, not StderrPipe:
	// Wait closes that one when the child exits, which can drop the last
	// lines the child wrote (its error message) before they are read.
	errPipe, errW, err := os.Pipe()
	if err != nil {
		return err
	}
	defer errPipe.Close()
	cmd.Stderr = errW
	err = cmd.Start()
	errW.Close() // the child holds the write end now: the reader ends when the child does
	if err != nil {
		return fmt.Errorf("starting the child process: %w", err)
	}
	var hungAt atomic.Pointer[time.Time]
	lines := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(errPipe)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			if strings.Contains(sc.Text(), umkit.ErrHung.Error()) {
				now := time.Now()
				hungAt.Store(&now)
			}
			fmt.Fprintln(stderr, sc.Text())
		}
		close(lines)
	}()
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	stalled := false
	for {
		select {
		case s := <-sigs:
			cmd.Process.Signal(s) // the child stops at a safe point, or at once the second time
		case <-tick.C:
			if h := hungAt.Load(); h != nil && time.Since(*h) > hangGrace && !stalled {
				stalled = true
				fmt.Fprintf(stderr, "umbench: the child process (PID %d) reported a hang and has not exited in %s: killing it\n", cmd.Process.Pid, hangGrace)
				cmd.Process.Kill()
			}
		case err := <-waited:
			select {
			case <-lines: // everything the child wrote is forwarded
			case <-time.After(childDrain): // a process the child started still holds its stderr
			}
			return childFate(err, cmd.Process.Pid, stalled, dir)
		}
	}
}

// childFate turns the child's exit into the parent's error.
func childFate(err error, pid int, stalled bool, dir string) error {
	if err == nil {
		return nil
	}
	kept := fmt.Sprintf("every configuration it finished is kept in %s (continue with: umbench run --out %s --resume)", dir, dir)
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return fmt.Errorf("the child process: %w; %s", err, kept)
	}
	ws, _ := ee.Sys().(syscall.WaitStatus)
	switch {
	case stalled:
		return fmt.Errorf("the child process (PID %d) hung in the driver and was killed: check the GPU (nvidia-smi) before resuming; %s", pid, kept)
	case ws.Signaled():
		return fmt.Errorf("the child process (PID %d) was killed by %v; %s", pid, ws.Signal(), kept)
	case ws.ExitStatus() == 3:
		return fmt.Errorf("%w: the child process (PID %d) stopped before its next configuration; %s", errTimeLimit, pid, kept)
	case ws.ExitStatus() == 130:
		return fmt.Errorf("%w: the child process (PID %d) stopped; %s", errInterrupted, pid, kept)
	case ws.ExitStatus() == 2:
		return usagef("the child process (PID %d) refused the command line (see above)", pid)
	default:
		return fmt.Errorf("the child process (PID %d) failed (exit status %d, see above); %s", pid, ws.ExitStatus(), kept)
	}
}

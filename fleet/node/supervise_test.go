package node_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/umlab/umlab/fleet"
	"github.com/umlab/umlab/fleet/node"
)

func shWorker(t *testing.T, gpu int, script string) node.Worker {
	return node.Worker{GPU: gpu, Path: "/bin/sh", Args: []string{"-c", script}, Out: filepath.Join(t.TempDir(), "gpu")}
}

// syncBuffer is a bytes.Buffer safe for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A failing worker and a hanging worker are reported with their GPU and
// the end of their stderr; the others complete, one at a time or at once.
func TestSuperviseFailingAndHanging(t *testing.T) {
	for _, concurrent := range []bool{false, true} {
		name := map[bool]string{false: "isolated", true: "concurrent"}[concurrent]
		t.Run(name, func(t *testing.T) {
			ws := []node.Worker{
				shWorker(t, 0, `echo "[1/1] hbm triad" >&2; echo measured`),
				shWorker(t, 1, `echo "umbench: no usable GPU: cuda: CUDA_ERROR_NO_DEVICE" >&2; exit 3`),
				shWorker(t, 2, `echo "[1/9] started" >&2; sleep 60`),
				shWorker(t, 3, `echo "[1/1] hbm copy" >&2`),
			}
			var log syncBuffer
			var updates int
			start := time.Now()
			outs := node.Supervise(context.Background(), ws, node.SuperviseOptions{
				Concurrent: concurrent, Timeout: 1500 * time.Millisecond, Grace: 300 * time.Millisecond, Log: &log,
				Update: func([]node.Outcome) { updates++ },
			})
			if el := time.Since(start); el > 20*time.Second {
				t.Errorf("supervision took %s", el)
			}
			want := []string{node.StateOK, node.StateFailed, node.StateTimedOut, node.StateOK}
			for i, o := range outs {
				if o.GPU != i || o.State != want[i] {
					t.Errorf("worker %d: GPU %d state %s (%s), want GPU %d %s", i, o.GPU, o.State, o.Error, i, want[i])
				}
			}
			if o := outs[1]; o.ExitCode != 3 || !strings.Contains(o.StderrTail, "no usable GPU") || o.Error != "exit status 3" {
				t.Errorf("failing worker: exit %d, error %q, tail %q", o.ExitCode, o.Error, o.StderrTail)
			}
			if o := outs[2]; !strings.Contains(o.Error, "worker timeout") || !strings.Contains(o.StderrTail, "started") {
				t.Errorf("hanging worker: error %q, tail %q", o.Error, o.StderrTail)
			}
			if b, err := os.ReadFile(outs[0].StdoutLog); err != nil || !strings.Contains(string(b), "measured") {
				t.Errorf("stdout log of GPU 0: %q, %v", b, err)
			}
			if b, err := os.ReadFile(outs[1].StderrLog); err != nil || !strings.Contains(string(b), "CUDA_ERROR_NO_DEVICE") {
				t.Errorf("stderr log of GPU 1: %q, %v", b, err)
			}
			for _, line := range []string{"gpu0| [1/1] hbm triad", "gpu1| umbench: no usable GPU", "gpu3| [1/1] hbm copy"} {
				if !strings.Contains(log.String(), line) {
					t.Errorf("live log lacks %q:\n%s", line, log.String())
				}
			}
			if updates < 2*len(ws) {
				t.Errorf("%d updates, want one at each start and end", updates)
			}
		})
	}
}

// A worker that prints nothing for the stall limit is stopped; one that
// ignores SIGTERM is killed after the grace period.
func TestSuperviseStallAndKill(t *testing.T) {
	ws := []node.Worker{
		shWorker(t, 0, `echo a >&2; sleep 0.2; echo b >&2; sleep 0.2; echo c >&2; sleep 60`),
		shWorker(t, 1, `trap "" TERM; echo stubborn >&2; while :; do sleep 0.1; done`),
	}
	outs := node.Supervise(context.Background(), ws, node.SuperviseOptions{
		Concurrent: true, Stall: 700 * time.Millisecond, Grace: 300 * time.Millisecond,
	})
	if o := outs[0]; o.State != node.StateStalled || !strings.HasSuffix(o.StderrTail, "c") {
		t.Errorf("stalled worker: %s %q tail %q", o.State, o.Error, o.StderrTail)
	}
	if o := outs[1]; o.State != node.StateStalled || !strings.Contains(o.Error, "sent SIGKILL") {
		t.Errorf("stubborn worker: %s %q", o.State, o.Error)
	}
}

// Cancelling the context stops the running worker and skips the rest.
func TestSuperviseInterrupted(t *testing.T) {
	ws := []node.Worker{shWorker(t, 0, `sleep 60`), shWorker(t, 1, `true`)}
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	outs := node.Supervise(ctx, ws, node.SuperviseOptions{Grace: 300 * time.Millisecond})
	if outs[0].State != node.StateInterrupted || outs[1].State != node.StateNotStarted {
		t.Errorf("states %s, %s; want interrupted, not_started", outs[0].State, outs[1].State)
	}
}

// A worker runs on its CPUs from its first instruction.
func TestSupervisePinned(t *testing.T) {
	w := shWorker(t, 0, `grep Cpus_allowed_list /proc/self/status`)
	w.CPUs = []int{0}
	outs := node.Supervise(context.Background(), []node.Worker{w}, node.SuperviseOptions{})
	b, err := os.ReadFile(outs[0].StdoutLog)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "Cpus_allowed_list:\t0\n") || outs[0].CPUs != "0" {
		t.Errorf("worker pinned to CPU 0 saw %q (outcome CPUs %q)", b, outs[0].CPUs)
	}
	if c := node.CurrentCPUs(); c == "0" && len(fleetAllCPUs(t)) > 1 {
		t.Errorf("the supervisor's own affinity changed to %s", c)
	}
}

func fleetAllCPUs(t *testing.T) []int {
	c, err := fleet.ParseCPUs(node.CurrentCPUs())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCPUs(t *testing.T) {
	c, err := fleet.ParseCPUs("0-3, 8,10-11")
	if err != nil || fleet.FormatCPUs(c) != "0-3,8,10-11" {
		t.Errorf("round trip: %v %v", fleet.FormatCPUs(c), err)
	}
	for _, bad := range []string{"", "a", "3-1", "-1"} {
		if _, err := fleet.ParseCPUs(bad); err == nil {
			t.Errorf("ParseCPUs(%q) accepted", bad)
		}
	}
	if o, all, err := fleet.ParseGPUs("all"); !all || o != nil || err != nil {
		t.Errorf("all: %v %v %v", o, all, err)
	}
	if o, _, err := fleet.ParseGPUs("3,0-1,1"); err != nil || len(o) != 3 || o[0] != 0 || o[2] != 3 {
		t.Errorf("3,0-1,1: %v %v", o, err)
	}
	gpus := []node.GPU{
		{Ordinal: 0, CPUs: []int{0, 1, 2, 3, 4, 5, 6, 7}},
		{Ordinal: 1, CPUs: []int{0, 1, 2, 3, 4, 5, 6, 7}},
		{Ordinal: 2, CPUs: []int{8, 9, 10, 11, 12, 13, 14, 15}},
		{Ordinal: 3},
	}
	iso := node.AssignCPUs(gpus, false)
	con := node.AssignCPUs(gpus, true)
	got := func(s [][]int) (out []string) {
		for _, c := range s {
			out = append(out, fleet.FormatCPUs(c))
		}
		return out
	}
	if g := strings.Join(got(iso), " "); g != "0-7 0-7 8-15 " {
		t.Errorf("isolated: %q", g)
	}
	if g := strings.Join(got(con), " "); g != "0-3 4-7 8-15 " {
		t.Errorf("concurrent: %q", g)
	}
}

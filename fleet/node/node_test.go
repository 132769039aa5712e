package node_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/umlab/umlab/fleet"
	"github.com/umlab/umlab/fleet/internal/fleettest"
	"github.com/umlab/umlab/fleet/node"
	"github.com/umlab/umlab/results"
)

// TestMain lets the test binary stand in for umbench run: re-executed with
// FLEET_FAKE_WORKER=1 it writes synthetic results for --gpu to --out, fails
// for the GPU in FLEET_FAKE_FAIL and hangs, after writing, for the GPU in
// FLEET_FAKE_HANG.
func TestMain(m *testing.M) {
	if os.Getenv("FLEET_FAKE_WORKER") == "1" {
		os.Exit(fakeWorker(os.Args[1:]))
	}
	if dir := os.Getenv("FLEET_FAKE_SUPERVISOR"); dir != "" {
		os.Exit(fakeSupervisor(dir))
	}
	os.Exit(m.Run())
}

func fakeWorker(args []string) int {
	gpu, out := -1, ""
	for i := 0; i+1 < len(args); i++ {
		switch args[i] {
		case "--gpu":
			gpu, _ = strconv.Atoi(args[i+1])
		case "--out":
			out = args[i+1]
		}
	}
	if args[0] != "run" || gpu < 0 || out == "" || os.Getenv("FLEET_FAKE_REFUSE") == "1" {
		fmt.Fprintln(os.Stderr, "fake worker: bad arguments", args)
		return 2
	}
	fmt.Printf("mode=%s peers=%s cpus=%s affinity=%s\n", os.Getenv(fleet.EnvMode), os.Getenv(fleet.EnvPeers),
		os.Getenv(fleet.EnvCPUs), node.CurrentCPUs())
	if strconv.Itoa(gpu) == os.Getenv("FLEET_FAKE_FAIL") {
		fmt.Fprintln(os.Stderr, "umbench: no usable GPU: cuda: CUDA_ERROR_ECC_UNCORRECTABLE")
		return 1
	}
	host, _ := os.Hostname()
	scale := 1 + 0.003*float64(gpu%3-1) // noise well within 1 %
	if gpu == 1 {
		scale = 0.9 // 10 % slower
	}
	fmt.Fprintf(os.Stderr, "[1/3] hbm triad explicit 1 GiB\n")
	fleettest.WritePart(fleettest.Exit{}, filepath.Dir(filepath.Dir(out)), fleettest.Spec{Host: host, Index: gpu, Scale: scale})
	if strconv.Itoa(gpu) == os.Getenv("FLEET_FAKE_HANG") {
		time.Sleep(time.Hour)
	}
	return 0
}

func runFakeNode(t *testing.T, concurrent bool) (string, node.Report, error) {
	t.Setenv("FLEET_FAKE_WORKER", "1")
	t.Setenv("FLEET_FAKE_FAIL", "3")
	t.Setenv("FLEET_FAKE_HANG", "4")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	host, _ := os.Hostname()
	var gpus []node.GPU
	for i := 0; i < 5; i++ {
		gpus = append(gpus, node.GPU{Ordinal: i, UUID: fleettest.UUIDOf(host, i), CPUs: []int{0}})
	}
	rep, err := node.RunNode(context.Background(), node.NodeOptions{
		Executable: exe, Args: []string{"run", "--quick=true"}, Root: root, GPUs: gpus, Concurrent: concurrent,
		Timeout: 3 * time.Second, Grace: 500 * time.Millisecond, Command: "umbench run --gpus all",
	})
	return root, rep, err
}

// A node-level run with fake workers: one fails, one hangs; both are
// reported with their GPU, the others finish, and every worker's outcome
// is in workers.json.
func TestRunNode(t *testing.T) {
	for _, concurrent := range []bool{false, true} {
		mode := map[bool]string{false: fleet.Isolated, true: fleet.Concurrent}[concurrent]
		t.Run(mode, func(t *testing.T) {
			root, rep, err := runFakeNode(t, concurrent)
			var fe *node.FailedError
			if !errors.As(err, &fe) || len(fe.Failed) != 2 || fe.Failed[0].GPU != 3 || fe.Failed[1].GPU != 4 {
				t.Fatalf("error %v; want a FailedError for GPUs 3 and 4", err)
			}
			if !strings.Contains(err.Error(), "GPU 3 failed") || !strings.Contains(err.Error(), "GPU 4 timed_out") {
				t.Errorf("error message: %v", err)
			}
			host, _ := os.Hostname()
			saved, err := node.ReadReport(filepath.Join(root, host, node.ReportName))
			if err != nil {
				t.Fatal(err)
			}
			if saved.Mode != mode || saved.Successful != 3 || saved.Failed != 2 || len(saved.Workers) != 5 || rep.Failed != 2 {
				t.Errorf("workers.json: mode %s, %d ok, %d failed, %d workers", saved.Mode, saved.Successful, saved.Failed, len(saved.Workers))
			}
			w3 := saved.Workers[3]
			if w3.State != node.StateFailed || !strings.Contains(w3.StderrTail, "CUDA_ERROR_ECC_UNCORRECTABLE") {
				t.Errorf("GPU 3: %s, tail %q", w3.State, w3.StderrTail)
			}
			if w4 := saved.Workers[4]; w4.State != node.StateTimedOut {
				t.Errorf("GPU 4: %s", w4.State)
			}
			// The worker knew its mode and ran on the CPU it was given.
			b, _ := os.ReadFile(saved.Workers[0].StdoutLog)
			if want := fmt.Sprintf("mode=%s peers=5 cpus=0 affinity=0", mode); !strings.Contains(string(b), want) {
				t.Errorf("worker 0 printed %q, want %q", b, want)
			}
			// Rows and metadata say how they were measured, even those of
			// the worker that hung after writing.
			tok := "fleet=isolated"
			if concurrent {
				tok = "fleet=concurrent:5"
			}
			for _, g := range []int{0, 4} {
				rows, meta, err := results.LoadDir(filepath.Join(root, host, fmt.Sprintf("gpu%d", g)))
				if err != nil {
					t.Fatal(err)
				}
				if rows[0].Note != tok {
					t.Errorf("GPU %d row note %q, want %q", g, rows[0].Note, tok)
				}
				if n := meta.Notes[len(meta.Notes)-1]; !strings.HasPrefix(n, "fleet: "+mode) {
					t.Errorf("GPU %d metadata note %q", g, n)
				}
			}
			// The node's results compare: GPU 1 (10 % slower) is flagged.
			parts, _, err := fleet.Load([]string{root}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(parts) != 4 || parts[0].Mode != mode {
				t.Fatalf("%d parts (mode %q), want 4 %s", len(parts), parts[0].Mode, mode)
			}
			cmp, err := fleet.Compare(parts, fleet.CompareOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range cmp {
				if c.Outlier != (c.GPU == "gpu1") {
					t.Errorf("%s %s: dev %.2f%% flags %v", c.Part, c.Label, c.DevPct, c.Flags)
				}
			}
		})
	}
}

package node_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/umlab/umlab/fleet/node"
	"github.com/umlab/umlab/results"
)

// A second supervisor on a node directory in use is refused before it
// starts a worker or writes anything; a worker whose directory another
// process holds is not started and its directory is left as it was.
func TestSecondSupervisorRefused(t *testing.T) {
	t.Setenv("FLEET_FAKE_WORKER", "1")
	exe, _ := os.Executable()
	root, host := t.TempDir(), "node1"
	opts := node.NodeOptions{Executable: exe, Args: []string{"run"}, Root: root, Host: host,
		GPUs: []node.GPU{{Ordinal: 0}}, Grace: 300 * time.Millisecond, Command: "first"}
	held, err := results.LockDir(node.NodeDir(root, host), "umbench run --gpus all (first)")
	if err != nil {
		t.Fatal(err)
	}
	_, err = node.RunNode(context.Background(), opts)
	if !errors.Is(err, results.ErrLocked) || !strings.Contains(err.Error(), "first") {
		t.Errorf("second supervisor: %v, want ErrLocked naming the first", err)
	}
	if es, _ := os.ReadDir(node.NodeDir(root, host)); len(es) != 1 {
		t.Errorf("the refused supervisor wrote %v", es)
	}
	held.Unlock()

	// The worker's own directory is held (a plain umbench run on it).
	w := node.WorkerDir(root, host, 0)
	wl, err := results.LockDir(w, "umbench run --out gpu0")
	if err != nil {
		t.Fatal(err)
	}
	defer wl.Unlock()
	_, err = node.RunNode(context.Background(), opts)
	rep, _ := node.ReadReport(filepath.Join(node.NodeDir(root, host), node.ReportName))
	if err == nil || len(rep.Workers) != 1 || !rep.Workers[0].Refused || !strings.Contains(rep.Workers[0].Error, "in use") {
		t.Fatalf("worker on a held directory: %v; workers.json %+v", err, rep.Workers)
	}
	if es, _ := os.ReadDir(w); len(es) != 1 {
		t.Errorf("the worker's directory was touched: %v", es)
	}
}

// A worker that refuses to run (exit status 2: its directory holds another
// run's results, or a changed setting) is not annotated: the rows it did
// not write keep their mode.
func TestRefusedWorkerNotAnnotated(t *testing.T) {
	t.Setenv("FLEET_FAKE_WORKER", "1")
	exe, _ := os.Executable()
	root, host := t.TempDir(), hostname() // the fake worker writes below its own host name
	opts := node.NodeOptions{Executable: exe, Args: []string{"run"}, Root: root, Host: host,
		GPUs: []node.GPU{{Ordinal: 0}, {Ordinal: 1}}, Grace: 300 * time.Millisecond}
	if _, err := node.RunNode(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	t.Setenv("FLEET_FAKE_REFUSE", "1")
	opts.Concurrent = true
	_, err := node.RunNode(context.Background(), opts)
	if err == nil {
		t.Fatal("refusing workers reported success")
	}
	for g := range 2 {
		rows, _, err := results.LoadDir(node.WorkerDir(root, host, g))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if r.Note != "fleet=isolated" {
				t.Fatalf("GPU %d relabelled by a refused worker: %q", g, r.Note)
			}
		}
	}
}

// Planted links below the results root are refused: a node directory
// that is a link, a worker's stdout.log that is a link. A host name with
// "/" stays one directory below the root.
func TestNodePathsStayInRoot(t *testing.T) {
	root, elsewhere := t.TempDir(), t.TempDir()
	os.Symlink(elsewhere, filepath.Join(root, "node1"))
	_, err := node.RunNode(context.Background(), node.NodeOptions{Executable: "/bin/true", Root: root, Host: "node1",
		GPUs: []node.GPU{{Ordinal: 0}}})
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("node directory planted as a link: %v", err)
	}
	if es, _ := os.ReadDir(elsewhere); len(es) != 0 {
		t.Errorf("wrote through the link: %v", es)
	}
	for _, host := range []string{"../../escape", "a/b", "..", "/etc"} {
		d := node.WorkerDir(root, host, 0)
		if rel, err := filepath.Rel(root, d); err != nil || rel == ".." || strings.HasPrefix(rel, "../") || strings.Count(rel, "/") != 1 {
			t.Errorf("host %q: worker directory %s is not two levels below the root", host, d)
		}
	}
	w := shWorker(t, 0, `echo measured`)
	os.MkdirAll(w.Out, 0o755)
	target, content := filepath.Join(elsewhere, "precious"), "keep\n"
	os.WriteFile(target, []byte(content), 0o644)
	os.Symlink(target, filepath.Join(w.Out, "stdout.log"))
	outs := node.Supervise(context.Background(), []node.Worker{w}, node.SuperviseOptions{})
	if outs[0].State != node.StateFailed || !strings.Contains(outs[0].Error, "symbolic link") {
		t.Errorf("planted stdout.log: %s %q", outs[0].State, outs[0].Error)
	}
	if b, _ := os.ReadFile(target); string(b) != content {
		t.Errorf("written through stdout.log: %q", b)
	}
}

func hostname() string {
	h, _ := os.Hostname()
	return h
}

// fakeSupervisor supervises one worker that records its PID in dir and
// sleeps; the test kills this process with SIGKILL.
func fakeSupervisor(dir string) int {
	w := node.Worker{GPU: 0, Path: "/bin/sh", Out: filepath.Join(dir, "gpu0"),
		Args: []string{"-c", `echo $$ > "$0"/../worker.pid.tmp && mv "$0"/../worker.pid.tmp "$0"/../worker.pid; exec sleep 300`, filepath.Join(dir, "gpu0")}}
	node.Supervise(context.Background(), []node.Worker{w}, node.SuperviseOptions{})
	return 0
}

// alive reports whether pid runs (a zombie waiting to be reaped does not).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(f) > 0 && f[0] != "Z"
}

// A supervisor killed with SIGKILL takes its workers with it: none is left
// running orphaned, holding its directory's lock.
func TestSupervisorKilledEndsWorkers(t *testing.T) {
	dir := t.TempDir()
	exe, _ := os.Executable()
	sup := exec.Command(exe, "-test.run=^$")
	sup.Env = append(os.Environ(), "FLEET_FAKE_SUPERVISOR="+dir)
	if err := sup.Start(); err != nil {
		t.Fatal(err)
	}
	defer sup.Process.Kill()
	var pid int
	for deadline := time.Now().Add(20 * time.Second); pid == 0 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		b, _ := os.ReadFile(filepath.Join(dir, "worker.pid"))
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	if pid == 0 || !alive(pid) {
		t.Fatalf("the worker did not start (pid %d)", pid)
	}
	sup.Process.Signal(syscall.SIGKILL)
	sup.Wait()
	for deadline := time.Now().Add(5 * time.Second); alive(pid) && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
	}
	if alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("worker %d still runs after its supervisor was killed", pid)
	}
}

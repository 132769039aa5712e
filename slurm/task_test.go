// Package slurm_test runs slurm/umbench.sbatch's task step on this machine,
// without Slurm: the SLURM_* variables a task sees are set by hand and
// umbench is a stand-in script. .ci/slurm.sh runs the whole job on a
// two-node cluster; these tests pin what a task does with its processes
// and paths.
package slurm_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// task runs the task step with a stand-in umbench (script) and uname
// printing host, after plant (if not nil) prepared the results root; it
// returns the root and the step's stderr.
func task(t *testing.T, host, script string, plant func(root string), env ...string) (root string, stderr string) {
	t.Helper()
	bin := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/bash\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write("umbench", script)
	write("uname", "printf '%s\\n' \"$UNAME_N\"\n")
	root = filepath.Join(t.TempDir(), "results")
	if plant != nil {
		plant(root)
	}
	cmd := exec.Command("bash", "umbench.sbatch", "task")
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "UNAME_N="+host, "UMBENCH="+filepath.Join(bin, "umbench"),
		"UMBENCH_TASK_TIMEOUT=", "UMBENCH_TASK_GRACE=",
		"UMBENCH_RESULTS="+root, "UMBENCH_ARGS=run", "SLURM_PROCID=0", "SLURM_LOCALID=0", "SLURM_NODEID=0",
		"CUDA_VISIBLE_DEVICES=", "SLURM_STEP_GPUS=", "SLURM_JOB_GPUS=", "UMBENCH_FLEET_MODE=", "UMBENCH_CONTAINER=")
	cmd.Env = append(cmd.Env, env...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("the task did not end within a minute:\n%s", errb.String())
	}
	return root, errb.String()
}

func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(f) > 0 && f[0] != "Z"
}

func pids(t *testing.T, dir string) []int {
	t.Helper()
	var out []int
	for _, n := range []string{"umbench.pid", "child.pid"} {
		b, err := os.ReadFile(filepath.Join(dir, n))
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid == 0 {
			t.Fatalf("the stand-in umbench did not record %s: %v", n, err)
		}
		out = append(out, pid)
	}
	return out
}

// When UMBENCH_TASK_TIMEOUT passes, every process of the task ends: an
// umbench that only stops at a safe point (here: never, as inside a hung
// kernel with --kernel-timeout 0) and the child it started are killed
// after the grace period, instead of running on orphaned and holding the
// directory's lock.
func TestTaskTimeoutEndsTheProcessTree(t *testing.T) {
	pidDir := t.TempDir()
	hung := `trap '' TERM INT
sleep 300 & echo $! >` + pidDir + `/child.pid
echo $$ >` + pidDir + `/umbench.pid
echo "[1/4] hbm triad (hung)" >&2
while :; do sleep 0.2; done
`
	start := time.Now()
	root, stderr := task(t, "n1", hung, nil, "UMBENCH_TASK_TIMEOUT=1s", "UMBENCH_TASK_GRACE=1")
	ps := pids(t, pidDir)
	deadline := time.Now().Add(5 * time.Second)
	for (alive(ps[0]) || alive(ps[1])) && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	for i, p := range ps {
		if alive(p) {
			for _, q := range ps {
				exec.Command("kill", "-9", strconv.Itoa(q)).Run()
			}
			t.Fatalf("%s (PID %d) still runs after the task's timeout:\n%s", []string{"umbench", "its child"}[i], p, stderr)
		}
	}
	b, err := os.ReadFile(filepath.Join(root, "n1", "task0", "task.json"))
	if err != nil || !strings.Contains(string(b), `"state": "timed_out"`) {
		t.Errorf("task.json: %s %v", b, err)
	}
	if el := time.Since(start); el > 30*time.Second {
		t.Errorf("the task took %s for a 1 s limit and a 1 s grace", el)
	}
}

// A host name with "/" stays one directory below the results root.
func TestTaskHostNameStaysInRoot(t *testing.T) {
	root, stderr := task(t, "../../escape", `echo ran; exit 0`, nil)
	b, err := os.ReadFile(filepath.Join(root, ".._.._escape", "task0", "task.json"))
	if err != nil || !strings.Contains(string(b), `"state": "ok"`) {
		t.Fatalf("task.json under the root: %v\n%s", err, stderr)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(filepath.Dir(root)), "escape")); err == nil {
		t.Error("a directory was made outside the results root")
	}
}

// Planted links in a task's directory are not written through: stdout.log
// and stderr.log (the task is refused, the links stay), task.json and its
// old temporary name (task.json is replaced, as a link, by the new file),
// the host directory itself (refused).
func TestTaskPlantedLinks(t *testing.T) {
	for _, name := range []string{"stdout.log", "stderr.log", "task.json", "task.json.tmp", "n1"} {
		t.Run(name, func(t *testing.T) {
			victim := filepath.Join(t.TempDir(), "precious")
			os.WriteFile(victim, []byte("keep\n"), 0o644)
			link := ""
			root, stderr := task(t, "n1", "echo measured", func(root string) {
				dir := filepath.Join(root, "n1", "task0")
				if name == "n1" {
					os.MkdirAll(root, 0o755)
					link = filepath.Join(root, "n1")
					os.Symlink(filepath.Dir(victim), link)
					return
				}
				os.MkdirAll(dir, 0o755)
				link = filepath.Join(dir, name)
				os.Symlink(victim, link)
			})
			if b, _ := os.ReadFile(victim); string(b) != "keep\n" {
				t.Errorf("the link's target was written: %q\n%s", b, stderr)
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(victim), "task0")); err == nil {
				t.Error("a task directory was made through the link")
			}
			refused := name == "stdout.log" || name == "stderr.log" || name == "n1"
			if _, err := os.Stat(filepath.Join(root, "n1", "task0", "task.json")); refused == (err == nil) && name != "n1" {
				t.Errorf("task.json written: %v (refused: %v)\n%s", err == nil, refused, stderr)
			}
			if refused && !strings.Contains(stderr, "symbolic link") {
				t.Errorf("the refusal does not say why:\n%s", stderr)
			}
			if fi, err := os.Lstat(link); name != "task.json" && (err != nil || fi.Mode()&os.ModeSymlink == 0) {
				t.Errorf("the planted link was removed: %v", err)
			}
		})
	}
}

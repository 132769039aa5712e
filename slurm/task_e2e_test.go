package slurm_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/umlab/umlab/results"
)

// The real umbench on the simulated GPU, hung in a kernel with the
// watchdog off (--kernel-timeout 0): when UMBENCH_TASK_TIMEOUT passes, the
// task ends it, and its directory's lock is free for the resume.
func TestTaskTimeoutEndsHungUmbench(t *testing.T) {
	if testing.Short() {
		t.Skip("builds umbench")
	}
	bin := filepath.Join(t.TempDir(), "umbench")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/umbench").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// UMBENCH overrides the stand-in: task() puts its own umbench first in PATH only.
	root, stderr := task(t, "n1", "exit 99", nil, "UMBENCH="+bin, "UMBENCH_ARGS=run --quick --groups hbm --kernel-timeout 0",
		"UMLAB_SIMULATE=1", "UMLAB_SIM_HANG_AFTER=20", "UMBENCH_TASK_TIMEOUT=4s", "UMBENCH_TASK_GRACE=2")
	dir := filepath.Join(root, "n1", "task0")
	b, err := os.ReadFile(filepath.Join(dir, "task.json"))
	if err != nil || !strings.Contains(string(b), `"state": "timed_out"`) {
		t.Fatalf("task.json: %s %v\n%s", b, err, stderr)
	}
	deadline := time.Now().Add(5 * time.Second)
	for results.Locked(dir) != nil && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if err := results.Locked(dir); err != nil {
		var pid int
		b, _ := os.ReadFile(filepath.Join(dir, results.LockName))
		fmt.Sscanf(string(b), "PID %d", &pid)
		if pid > 0 {
			syscall.Kill(pid, syscall.SIGKILL) // the orphan this test made
		}
		t.Fatalf("umbench (PID %d) still holds its directory after the task's timeout: %v", pid, err)
	}
}

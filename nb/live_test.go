package nb

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// The session mark of UMLAB_REFRESH is read as results reads a run's
// files: a FIFO planted in its place (which no process writes) is not
// read, which would block the notebook forever; the directory is measured
// again and gets a regular mark.
func TestRefreshDoesNotReadAFIFO(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "hbm")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, sessionFile), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvRefresh, "1")
	t.Setenv("GONB_TMP_DIR", "/tmp/gonb_session1")
	done := make(chan error, 1)
	go func() { done <- refresh(dir) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("refresh blocked on a FIFO in place of its session mark")
	}
	st, err := os.Lstat(filepath.Join(dir, sessionFile))
	if err != nil || !st.Mode().IsRegular() {
		t.Fatalf("session mark after refresh: %v, %v", st, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, sessionFile)); string(b) != "/tmp/gonb_session1" {
		t.Errorf("session mark %q", b)
	}
	kept := filepath.Join(dir, "results.csv")
	if err := os.WriteFile(kept, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := refresh(dir); err != nil { // the same session: kept
		t.Fatal(err)
	}
	if _, err := os.Stat(kept); err != nil {
		t.Errorf("the same session cleared its directory again: %v", err)
	}
}

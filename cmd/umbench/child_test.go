package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRunInChildForwardsAllStderr: everything the child writes to stderr
// reaches the parent's, its last line (where a failing child says why)
// included, however soon after it the child exits; and its exit status is
// the parent's error.
func TestRunInChildForwardsAllStderr(t *testing.T) {
	// The child writes its lines in one burst, more than a pipe holds,
	// and exits; the parent forwards them more slowly, so that the last
	// of them are still in the pipe when the child has gone.
	tmp := t.TempDir()
	var said strings.Builder
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&said, "line %d of what the child says\n", i)
	}
	said.WriteString("the last line: why it failed\n")
	if err := os.WriteFile(filepath.Join(tmp, "said"), []byte(said.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(tmp, "child.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ncat "+filepath.Join(tmp, "said")+" >&2\nexit 7\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	saved := childExecutable
	defer func() { childExecutable = saved }()
	childExecutable = func() (string, error) { return script, nil }
	for i := 0; i < 2; i++ {
		var stdout bytes.Buffer
		var stderr slowWriter // a terminal the parent writes to more slowly than the child wrote
		err := runInChild(nil, t.TempDir(), &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error(), "exit status 7") {
			t.Fatalf("trial %d: error %v, want the child's exit status 7", i, err)
		}
		if got := strings.Count(stderr.String(), "of what the child says\n"); got != 5000 || !strings.HasSuffix(stderr.String(), "the last line: why it failed\n") {
			t.Fatalf("trial %d: %d of 5000 lines forwarded, last line %q", i, got, lastLine(stderr.String()))
		}
	}
}

// slowWriter is a bytes.Buffer that pauses for a millisecond every 50
// writes.
type slowWriter struct {
	bytes.Buffer
	n int
}

func (w *slowWriter) Write(p []byte) (int, error) {
	if w.n++; w.n%50 == 0 {
		time.Sleep(time.Millisecond)
	}
	return w.Buffer.Write(p)
}

func lastLine(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return s[strings.LastIndex(s, "\n")+1:]
}

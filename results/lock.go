package results

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/umlab/umlab/internal/sanitize"
)

// LockName is the lock file of a results directory.
const LockName = ".umbench.lock"

// ErrLocked is returned by LockDir when another process holds the directory.
var ErrLocked = errors.New("results directory is in use")

// Lock is a held lock on a results directory.
type Lock struct{ f *os.File }

// LockDir takes an exclusive OS file lock (flock) on dir/.umbench.lock,
// creating dir if needed, and records this process's PID and command in it.
// The kernel releases the lock when the process exits, however it exits; a
// second LockDir on the same directory (from any process, this one
// included) fails with ErrLocked naming the holder's PID and command, and
// writes nothing. dir must be a directory, not a symbolic link, and the
// lock file a regular file of one link: a link planted as .umbench.lock is
// refused, never truncated through.
func LockDir(dir, command string) (*Lock, error) {
	d, err := makeDir(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	f, err := openIn(d, LockName, filepath.Join(dir, LockName), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		who := sanitize.Terminal(holderOf(f, 512))
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			if who == "" {
				who = "a process that has not yet written its PID"
			}
			return nil, fmt.Errorf("%w: %s is held by %s; wait for that run to end or choose another --out", ErrLocked, dir, who)
		}
		return nil, fmt.Errorf("results: lock %s: %w", dir, err)
	}
	f.Truncate(0)
	fmt.Fprintf(f, "PID %d\ncommand %q\nsince %s\n", os.Getpid(), command, time.Now().UTC().Format(time.RFC3339))
	f.Sync()
	return &Lock{f: f}, nil
}

// Locked reports whether another process holds dir's lock (the error
// names it, as LockDir's does); a directory without a lock file is not
// locked, and nothing is created or written.
func Locked(dir string) error {
	d, err := openDir(dir, true)
	if err != nil {
		return nil
	}
	defer d.Close()
	f, err := openIn(d, LockName, filepath.Join(dir, LockName), os.O_RDONLY, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); errors.Is(err, syscall.EWOULDBLOCK) {
		return fmt.Errorf("%w: %s is held by %s", ErrLocked, dir, sanitize.Terminal(holderOf(f, 512)))
	}
	return nil
}

// Unlock releases the lock. The lock file stays (removing it would race
// with a process that has just opened it).
func (l *Lock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	l.f.Truncate(0)
	err := l.f.Close() // closing the last descriptor releases the flock
	l.f = nil
	return err
}

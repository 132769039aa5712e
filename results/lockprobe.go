package results

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Held reports whether a process holds dir's lock (a run still writing
// there), and what the lock file says of it. It takes nothing and creates
// nothing: a directory without a lock file is not held, and a lock file
// that cannot be opened for reading is reported as an error.
func Held(dir string) (holder string, held bool, err error) {
	f, err := os.OpenFile(filepath.Join(dir, LockName), os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, os.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return "", false, errors.New("results: " + f.Name() + " is not a regular file")
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err != nil {
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return "", false, err
		}
		return holderOf(f, 4096), true, nil
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return "", false, nil
}

// holderOf is what the lock file f says of its holder (the first max
// bytes), on one line.
func holderOf(f *os.File, max int) string {
	b := make([]byte, max)
	n, _ := f.ReadAt(b, 0)
	return strings.ReplaceAll(strings.TrimSpace(string(b[:n])), "\n", ", ")
}

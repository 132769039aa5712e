package results

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// Every file umlab writes in a results directory is opened relative to the
// directory (openat) and without following a symbolic link, and must be a
// regular file with one link: a link planted where results.csv or
// .umbench.lock should be, or a FIFO or device in its place, is refused
// instead of written through.

// ErrNotRegular is wrapped by the errors of every reader and writer given a
// path that names a symbolic link (writers only), a device, a FIFO, a
// socket, a directory or a file with other hard links.
var ErrNotRegular = errors.New("not a regular file")

// refusal is an error that matches a sentinel (errors.Is) without
// repeating its text: the message already says what was refused and why.
type refusal struct {
	msg      string
	sentinel error
}

func (r refusal) Error() string        { return r.msg }
func (r refusal) Is(target error) bool { return target == r.sentinel }

func refuse(sentinel error, format string, a ...any) error {
	return refusal{fmt.Sprintf(format, a...), sentinel}
}

// kindOf names a file type for errors.
func kindOf(mode uint32) string {
	switch mode & unix.S_IFMT {
	case unix.S_IFLNK:
		return "a symbolic link"
	case unix.S_IFIFO:
		return "a FIFO"
	case unix.S_IFCHR:
		return "a character device"
	case unix.S_IFBLK:
		return "a block device"
	case unix.S_IFSOCK:
		return "a socket"
	case unix.S_IFDIR:
		return "a directory"
	}
	return "a special file"
}

// notRegular is the error for path, whose type is mode.
func notRegular(path string, mode uint32, what string) error {
	if what == "write" {
		what = "write through"
	}
	return refuse(ErrNotRegular, "results: %s is %s, not a regular file: refusing to %s it", path, kindOf(mode), what)
}

// makeDir creates dir (and its parents) as needed and opens it for the *at
// calls. dir itself must be a directory, not a symbolic link to one; the
// parents are the caller's path and may be links.
func makeDir(dir string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(filepath.Clean(dir)), 0o755); err != nil {
		return nil, err
	}
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	return openDir(dir, true)
}

// openDir opens dir for the *at calls; with noFollow its last element must
// not be a symbolic link.
func openDir(dir string, noFollow bool) (*os.File, error) {
	dir = filepath.Clean(dir) // "link/" would follow link whatever the flags say
	flag := unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC
	if noFollow {
		flag |= unix.O_NOFOLLOW
	}
	fd, err := unix.Open(dir, flag, 0)
	if err != nil {
		var st unix.Stat_t
		if unix.Lstat(dir, &st) == nil && st.Mode&unix.S_IFMT != unix.S_IFDIR {
			if st.Mode&unix.S_IFMT == unix.S_IFLNK && !noFollow {
				return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
			}
			return nil, refuse(ErrNotRegular, "results: %s is %s, not a directory: refusing to write in it (name the directory itself)", dir, kindOf(st.Mode))
		}
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	return os.NewFile(uintptr(fd), dir), nil
}

// openIn opens name in the directory d (path is its full name, for
// errors) without following a symbolic link and without blocking on a
// FIFO. An existing file must be a regular file with one link; flag is as
// os.OpenFile's, and a new file gets perm less the umask.
func openIn(d *os.File, name, path string, flag int, perm os.FileMode) (*os.File, error) {
	what := "write"
	if flag&(os.O_WRONLY|os.O_RDWR) == 0 {
		what = "read"
	}
	fd, err := unix.Openat(int(d.Fd()), name, flag|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		var st unix.Stat_t
		if (err == unix.ELOOP || err == unix.ENXIO || err == unix.EISDIR) &&
			unix.Fstatat(int(d.Fd()), name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil {
			return nil, notRegular(path, st.Mode, what)
		}
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		unix.Close(fd)
		return nil, notRegular(path, st.Mode, what)
	}
	if st.Nlink > 1 && what == "write" {
		unix.Close(fd)
		return nil, refuse(ErrNotRegular, "results: %s has %d hard links: refusing to write to a file that other names share", path, st.Nlink)
	}
	if err := unix.SetNonblock(fd, false); err != nil {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "fcntl", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}

// replaceable checks that name in d is absent or a regular file, so that
// renaming over it replaces one of umlab's files and nothing else.
func replaceable(d *os.File, name, path string) error {
	var st unix.Stat_t
	err := unix.Fstatat(int(d.Fd()), name, &st, unix.AT_SYMLINK_NOFOLLOW)
	if err == unix.ENOENT {
		return nil
	}
	if err != nil {
		return &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return notRegular(path, st.Mode, "replace")
	}
	return nil
}

// sameFile reports whether path still names the open file f: false when
// it was removed, or replaced by another file, since f was opened.
func sameFile(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Lstat(path)
	return err == nil && os.SameFile(a, b)
}

// MakeDir creates dir (and its parents) as needed, and checks that dir is
// a directory and not a symbolic link to one: the directories umlab makes
// below a root it was given (a node's, a worker's) are never links planted
// to lead elsewhere.
func MakeDir(dir string) error {
	d, err := makeDir(dir)
	if err != nil {
		return err
	}
	return d.Close()
}

// AppendFile opens path (a log) for appending, creating it with perm less
// the umask. Like every file umlab writes, it is opened without following
// a symbolic link, without blocking on a FIFO, and must be a regular file
// of one link; the last element of its directory must not be a link.
func AppendFile(path string, perm os.FileMode) (*os.File, error) {
	d, err := openDir(filepath.Dir(path), true)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return openIn(d, filepath.Base(path), path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, perm)
}

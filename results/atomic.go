package results

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// WriteFileAtomic replaces path with data so that a reader (or a crash)
// sees either the old file or the whole new one, never a part: it writes a
// temporary file in the same directory, syncs it, renames it over path and
// syncs the directory. The new file has perm less the umask. Only a
// regular file is replaced: a symbolic link, device, FIFO or directory at
// path is refused and left as it was.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	base := filepath.Base(path)
	if base == "." || base == "/" || base == ".." {
		return fmt.Errorf("results: write %s: not a file name", path)
	}
	d, err := openDir(filepath.Dir(path), false)
	if err != nil {
		return fmt.Errorf("results: write %s: %w", path, err)
	}
	defer d.Close()
	if err := replaceable(d, base, path); err != nil {
		return err
	}
	var f *os.File
	var tmp string
	for range 100 {
		tmp = "." + base + ".tmp-" + strconv.FormatUint(rand.Uint64(), 36)
		f, err = openIn(d, tmp, filepath.Join(filepath.Dir(path), tmp), os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if !os.IsExist(err) {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("results: write %s: %w", path, err)
	}
	if _, err = f.Write(data); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = unix.Renameat(int(d.Fd()), tmp, int(d.Fd()), base)
	}
	if err != nil {
		unix.Unlinkat(int(d.Fd()), tmp, 0)
		return fmt.Errorf("results: write %s: %w", path, err)
	}
	d.Sync()
	return nil
}

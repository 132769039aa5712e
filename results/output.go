package results

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
)

// RunFiles are the files of a results directory that belong to its run:
// no command but that run (and resume, merge and annotate, which work
// under its lock) may write them.
var RunFiles = []string{CSVName, MetaName, CountersName, PartialName, TornName, LockName}

// ErrRunData is wrapped by CheckOutput's error for a path that names one
// of a run's own files.
var ErrRunData = errors.New("a results directory's own data")

// CheckOutput says whether a command may write its own output (a report, a
// table, a figure) at path: nothing there yet, or a regular file that is
// not one of RunFiles. It refuses a symbolic link (even one to a regular
// file: what it leads to is not the command's), a device, a FIFO, a socket
// and a directory, and a run's own files (results.csv, meta.json, ...).
// It reads nothing and writes nothing.
func CheckOutput(path string) error {
	if slices.Contains(RunFiles, filepath.Base(path)) {
		return fmt.Errorf("results: %s is %w (%s): write the output elsewhere", path, ErrRunData, filepath.Base(path))
	}
	d, err := openDir(filepath.Dir(path), false)
	if err != nil {
		return err
	}
	defer d.Close()
	return replaceable(d, filepath.Base(path), path)
}

// WriteOutput writes a command's output file: CheckOutput, then an atomic
// replace (WriteFileAtomic) with permissions 0644 less the umask.
func WriteOutput(path string, data []byte) error {
	if err := CheckOutput(path); err != nil {
		return err
	}
	return WriteFileAtomic(path, data, 0o644)
}

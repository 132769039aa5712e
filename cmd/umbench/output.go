package main

import (
	"io"
	"os"

	"github.com/umlab/umlab/internal/sanitize"
)

// checkedWriter remembers the first write error of a command's output
// (stdout on a full disk, a closed pipe), so that the command exits
// non-zero instead of reporting success with its output lost.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	c.err = err
	return n, err
}

// screened is a command's output or error through sanitize.Writer, which
// remembers whether it is a terminal (for the progress bar).
type screened struct {
	*sanitize.Writer
	tty bool
}

func screen(w io.Writer) io.Writer {
	return screened{sanitize.NewWriter(w), isTerminal(w)}
}

// isTerminal reports whether w is a terminal (a character device), seen
// through screen.
func isTerminal(w io.Writer) bool {
	switch x := w.(type) {
	case screened:
		return x.tty
	case *checkedWriter:
		return isTerminal(x.w)
	case *os.File:
		st, err := x.Stat()
		return err == nil && st.Mode()&os.ModeCharDevice != 0
	}
	return false
}

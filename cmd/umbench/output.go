package main

import "io"

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

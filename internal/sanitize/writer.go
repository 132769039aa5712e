package sanitize

import (
	"io"
	"unicode/utf8"
)

// Writer passes text to an underlying writer with what Terminal escapes
// escaped, except line feeds, tabs and carriage returns (a command's own
// line structure and progress bar): wrapped around a command's standard
// output and error, it defangs every escape sequence and bidi override a
// data file could put in any message, whatever the code path. A character
// split between two Writes is escaped as a whole (the first part waits for
// the next Write; a process that ends mid-character loses at most 3 bytes
// of it).
type Writer struct {
	w    io.Writer
	tail []byte // the start of a UTF-8 sequence cut off by the last Write
}

// NewWriter returns a Writer writing to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write escapes p and writes it; it returns len(p) when the underlying
// write succeeds.
func (s *Writer) Write(p []byte) (int, error) {
	b := append(s.tail, p...)
	s.tail = nil
	if n := incomplete(b); n > 0 {
		s.tail = append([]byte(nil), b[len(b)-n:]...)
		b = b[:len(b)-n]
	}
	if _, err := s.w.Write(appendEscaped(make([]byte, 0, len(b)), b, true)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// incomplete returns how many bytes at the end of b start a UTF-8
// sequence that the next Write may complete.
func incomplete(b []byte) int {
	for n := 1; n <= min(3, len(b)); n++ {
		if tail := b[len(b)-n:]; utf8.RuneStart(tail[0]) {
			if utf8.FullRune(tail) {
				return 0
			}
			return n
		}
	}
	return 0
}

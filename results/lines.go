package results

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"strings"
)

// lines reads the records of a CSV file as encoding/csv does (commas,
// quotes, empty lines skipped, \r\n read as \n, a \r before the end
// dropped), faster: a line without a quote is split at its commas, and
// only from the first line with a quote on is the rest handed to
// encoding/csv. Results files rarely quote anything (a note with a comma),
// and splitting is a quarter of what encoding/csv costs on them.
type lines struct {
	name string // the file's, for errors
	br   *bufio.Reader
	cr   *csv.Reader // nil until a quote is met
	n    int         // lines read before cr's input
	raw  []byte
	rec  []string
	last int // the line of the last record
}

func newLines(r io.Reader, name string) *lines {
	return &lines{name: name, br: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next record's fields (reused by the next call) or
// io.EOF; line says where the record starts.
func (l *lines) next() ([]string, error) {
	if l.cr != nil {
		return l.slow()
	}
	for {
		raw, err := l.readLine()
		quoted := bytes.IndexByte(raw, '"') >= 0
		if err != nil && !(quoted && len(raw)-lengthNL(raw) > MaxLineBytes) {
			return nil, err
		}
		if quoted { // a line too long too: encoding/csv names a bad quote in it first
			rest := newLineLimiter(io.MultiReader(bytes.NewReader(bytes.Clone(raw)), l.br), l.name)
			rest.line = l.n + 1
			l.cr = csv.NewReader(rest)
			l.cr.FieldsPerRecord, l.cr.ReuseRecord = -1, true
			return l.slow()
		}
		l.n++
		line := normal(raw)
		if len(line) == lengthNL(line) {
			continue // an empty line
		}
		s := string(line[:len(line)-lengthNL(line)])
		l.rec = l.rec[:0]
		for {
			i := strings.IndexByte(s, ',')
			if i < 0 {
				l.rec = append(l.rec, s)
				break
			}
			l.rec = append(l.rec, s[:i])
			s = s[i+1:]
		}
		l.last = l.n
		return l.rec, nil
	}
}

// slow reads a record with encoding/csv, its lines counted after those
// read before it.
func (l *lines) slow() ([]string, error) {
	rec, err := l.cr.Read()
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		pe.StartLine += l.n
		pe.Line += l.n
	}
	if err != nil {
		return nil, err
	}
	line, _ := l.cr.FieldPos(0)
	l.last = line + l.n
	return rec, nil
}

// readLine reads one line with its newline, or io.EOF at the end; a line
// longer than MaxLineBytes is an error that wraps ErrTooLarge, as
// lineLimiter's, returned with what was read of the line.
func (l *lines) readLine() ([]byte, error) {
	line, err := l.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		l.raw = append(l.raw[:0], line...)
		for err == bufio.ErrBufferFull && len(l.raw) <= MaxLineBytes {
			line, err = l.br.ReadSlice('\n')
			l.raw = append(l.raw, line...)
		}
		line = l.raw
	}
	if len(line)-lengthNL(line) > MaxLineBytes {
		return line, refuse(ErrTooLarge, "%s:%d: a line longer than %d bytes, the limit (a results file's lines are a few hundred)",
			l.name, l.n+1, MaxLineBytes)
	}
	if len(line) > 0 && err == io.EOF {
		err = nil
	}
	return line, err
}

// normal is a line as encoding/csv reads it: \r\n as \n, and a \r at the
// end of the file (a line without \n) dropped.
func normal(line []byte) []byte {
	n := len(line)
	switch {
	case n > 0 && line[n-1] != '\n' && line[n-1] == '\r':
		return line[:n-1]
	case n >= 2 && line[n-2] == '\r' && line[n-1] == '\n':
		line[n-2] = '\n'
		return line[:n-1]
	}
	return line
}

func lengthNL(b []byte) int {
	if len(b) > 0 && b[len(b)-1] == '\n' {
		return 1
	}
	return 0
}

package results

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
)

// lines reads what encoding/csv reads: the same records, starting on the
// same lines, and the same errors where it has one.
func FuzzLines(f *testing.F) {
	for _, s := range []string{
		"a,b,c\n1,2,3\n", "a,b\r\n1,2\r\n\r\n\n3,4", "a\n\"x,y\",2\n", "a,b\n1,\"two\nlines\"\n3,4\n",
		"a,b\n1,x\"y\n", "a,b\n\"1\"x,2\n", "a,b\n\"open\n", "a\r", "\n\na,b\n1,2\r", "", "a,,b\n,,\n",
		"h\n1\n\"q\"\n2\n", "a\n" + strings.Repeat("x", 70<<10) + "\n1\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cr := csv.NewReader(newLineLimiter(strings.NewReader(s), "f"))
		cr.FieldsPerRecord = -1
		ls := newLines(strings.NewReader(s), "f")
		for i := 0; ; i++ {
			want, werr := cr.Read()
			got, gerr := ls.next()
			if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
				t.Fatalf("record %d: error %v, encoding/csv %v", i, gerr, werr)
			}
			if werr != nil {
				return
			}
			line, _ := cr.FieldPos(0)
			if !slices.Equal(got, want) || ls.last != line {
				t.Fatalf("record %d: %q on line %d, encoding/csv %q on line %d", i, got, ls.last, want, line)
			}
		}
	})
}

// A quote anywhere hands the rest of the file to encoding/csv; its errors
// keep the file's line numbers.
func TestLinesSlowPath(t *testing.T) {
	ls := newLines(bytes.NewReader([]byte("a,b\n1,2\n\"x\",3\n4,5\"\n")), "f")
	var n int
	var err error
	for ; err == nil; n++ {
		_, err = ls.next()
	}
	var pe *csv.ParseError
	if !errors.As(err, &pe) || pe.Line != 4 || errors.Is(err, io.EOF) {
		t.Errorf("after %d records: %v, want a bare quote on line 4", n, err)
	}
}

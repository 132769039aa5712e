package nb

import (
	"fmt"
	"strings"

	"github.com/umlab/umlab/internal/sanitize"
)

// Text escapes a string from data (a file, a dataset, an error) for
// notebook Markdown or HTML: line breaks become spaces, control and bidi
// characters visible escapes (sanitize.Terminal), HTML special characters
// entities, and the characters that would end a code span or a table cell
// or start emphasis or a link are replaced, so that no data can inject
// markup or script into a notebook or reorder its text.
func Text(s string) string {
	s = strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
	s = sanitize.HTML(sanitize.Terminal(s))
	return strings.NewReplacer("|", "&#124;", "`", "&#96;", "*", "&#42;", "_", "&#95;", "[", "&#91;", "]", "&#93;").Replace(s)
}

// escapeArgs applies Text to the strings, errors and Stringers among
// format arguments; numbers pass unchanged.
func escapeArgs(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case string:
			out[i] = Text(v)
		case error:
			out[i] = Text(v.Error())
		case fmt.Stringer:
			out[i] = Text(v.String())
		default:
			out[i] = a
		}
	}
	return out
}

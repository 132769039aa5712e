package nb

import (
	"fmt"
	"html"
	"strings"
)

// Text escapes a string from data (a file, a dataset, an error) for
// notebook Markdown or HTML: HTML special characters become entities, and
// the characters that would end a code span, a table cell or a line are
// replaced, so that no data can inject markup or script into a notebook.
func Text(s string) string {
	s = html.EscapeString(s)
	return strings.NewReplacer("|", "&#124;", "`", "&#96;", "*", "&#42;", "_", "&#95;", "[", "&#91;", "]", "&#93;",
		"\r", " ", "\n", " ").Replace(s)
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

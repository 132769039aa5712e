package sanitize

import (
	"fmt"
	"html"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Terminal returns s with every character that could move the cursor,
// change colours, reorder the line or hide text written as a visible Go
// escape: C0 and C1 controls and DEL (\x1b, \n, \t included), Unicode
// format characters (bidi overrides and isolates such as U+202E, zero-width
// characters, U+FEFF), U+2028 and U+2029, and invalid UTF-8 bytes. Other
// text, accents and scripts included, is unchanged.
func Terminal(s string) string {
	if clean(s) {
		return s
	}
	return string(appendEscaped(nil, []byte(s), false))
}

// clean reports whether Terminal would leave s unchanged.
func clean(s string) bool { return utf8.ValidString(s) && strings.IndexFunc(s, unsafe) < 0 }

// appendEscaped appends b to dst with what Terminal escapes escaped;
// keepLines keeps line feeds, tabs and carriage returns (for Writer).
func appendEscaped(dst, b []byte, keepLines bool) []byte {
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		switch {
		case keepLines && (r == '\n' || r == '\t' || r == '\r'):
			dst = append(dst, b[0])
		case r == utf8.RuneError && n == 1:
			dst = append(dst, escape(rune(b[0]))...)
		case unsafe(r):
			dst = append(dst, escape(r)...)
		default:
			dst = append(dst, b[:n]...)
		}
		b = b[n:]
	}
	return dst
}

// unsafe reports whether a terminal would act on r instead of showing it.
func unsafe(r rune) bool {
	return unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
}

func escape(r rune) string {
	if r < 0x100 {
		return fmt.Sprintf(`\x%02x`, r)
	}
	if r < 0x10000 {
		return fmt.Sprintf(`\u%04x`, r)
	}
	return fmt.Sprintf(`\U%08x`, r)
}

// markdownSpecial are the characters escaped with a backslash by Markdown:
// CommonMark's inline syntax (links, images, code, emphasis, raw HTML,
// entities, escapes) and GitHub's table cell separator.
const markdownSpecial = "\\`*_[]()<>|#!~&"

// Markdown returns s as literal text for a Markdown document or table
// cell: Terminal's escapes first, then a backslash before every character
// of markdownSpecial (which CommonMark renders as the character itself),
// so that no link, image, HTML tag, emphasis or extra table cell can form.
func Markdown(s string) string { return markdownEscaper.Replace(Terminal(s)) }

var markdownEscaper = func() *strings.Replacer {
	var pairs []string
	for _, r := range markdownSpecial {
		pairs = append(pairs, string(r), `\`+string(r))
	}
	return strings.NewReplacer(pairs...)
}()

// HTML returns s escaped for HTML text or a quoted attribute value
// (html.EscapeString: < > & ' "), as umlab's HTML writers already do.
func HTML(s string) string { return html.EscapeString(s) }

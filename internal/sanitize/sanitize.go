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
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unsafe(r):
			b.WriteString(escape(r))
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// clean reports whether Terminal would leave s unchanged.
func clean(s string) bool {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || unsafe(r) {
			return false
		}
		i += n
	}
	return true
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
func Markdown(s string) string {
	s = Terminal(s)
	if !strings.ContainsAny(s, markdownSpecial) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(markdownSpecial, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// HTML returns s escaped for HTML text or a quoted attribute value
// (html.EscapeString: < > & ' "), as umlab's HTML writers already do.
func HTML(s string) string { return html.EscapeString(s) }

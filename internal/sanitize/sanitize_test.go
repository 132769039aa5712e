package sanitize

import (
	"strings"
	"testing"
	"unicode"
)

func TestTerminal(t *testing.T) {
	cases := []struct{ in, want string }{
		{"H200 NVL", "H200 NVL"},
		{"Grace–Hopper GH200 é 日本", "Grace–Hopper GH200 é 日本"},
		{"\x1b[2J\x1b[31mPASS\x1b[0m", `\x1b[2J\x1b[31mPASS\x1b[0m`},
		{"node\u202egpj.exe", `node\u202egpj.exe`}, // right-to-left override
		{"a\u2066b\u2069c\u200fd", `a\u2066b\u2069c\u200fd`},
		{"line1\nforged: ok\r", `line1\x0aforged: ok\x0d`},
		{"osc\x1b]8;;http://x\x07link", `osc\x1b]8;;http://x\x07link`},
		{"c1\u009b31m", `c1\x9b31m`},
		{"bad\xffutf8", `bad\xffutf8`},
		{"zw\u200bsp\ufeff", `zw\u200bsp\ufeff`},
		{"sep\u2028x", `sep\u2028x`},
	}
	for _, c := range cases {
		if got := Terminal(c.in); got != c.want {
			t.Errorf("Terminal(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// Nothing Terminal returns holds a character a terminal acts on.
func FuzzTerminal(f *testing.F) {
	for _, s := range []string{"plain", "\x1b[31m", "\u202e", "\xff\xfe", "a\nb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Terminal(s)
		for _, r := range out {
			if unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029' || r == '\ufffd' && !strings.ContainsRune(s, '\ufffd') {
				t.Fatalf("Terminal(%q) = %q keeps %U", s, out, r)
			}
		}
		if clean(s) && out != s {
			t.Fatalf("clean text changed: %q → %q", s, out)
		}
	})
}

func TestMarkdown(t *testing.T) {
	cases := []struct{ in, want string }{
		{"GH200", "GH200"},
		{`<img src=x onerror="alert(1)">`, `\<img src=x onerror="alert\(1\)"\>`},
		{"a | b", `a \| b`},
		{"[click](javascript:alert(1))", `\[click\]\(javascript:alert\(1\)\)`},
		{"![i](http://x/y.png)", `\!\[i\]\(http://x/y.png\)`},
		{"<javascript:alert(1)>", `\<javascript:alert\(1\)\>`},
		{"**bold** _it_ `code`", `\*\*bold\*\* \_it\_ \` + "`code\\`"},
		{"&lt; # ~~x~~", `\&lt; \# \~\~x\~\~`},
		{"row\n| forged | row |", `row\\x0a\| forged \| row \|`},
		{"rtl\u202e", `rtl\\u202e`},
	}
	for _, c := range cases {
		if got := Markdown(c.in); got != c.want {
			t.Errorf("Markdown(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// Whatever a cell holds, it stays one cell: every | is escaped, no line
// break remains, and no < or [ starts a tag or link.
func FuzzMarkdown(f *testing.F) {
	for _, s := range []string{"a|b", "<img onerror=x>", "[a](javascript:b)", "\\|", "x\ny"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Markdown(s)
		for i := 0; i < len(out); i++ {
			switch out[i] {
			case '\\':
				i++ // an escape and what it escapes
			case '|', '<', '>', '[', ']', '(', ')', '`', '*', '_', '\n', '\r', '&', '!':
				t.Fatalf("Markdown(%q) = %q: unescaped %q at %d", s, out, out[i], i)
			}
		}
	})
}

func TestHTML(t *testing.T) {
	if got := HTML(`<img src=x onerror='a("b")'>&`); got != "&lt;img src=x onerror=&#39;a(&#34;b&#34;)&#39;&gt;&amp;" {
		t.Errorf("HTML: %s", got)
	}
}

func TestWriter(t *testing.T) {
	var b strings.Builder
	w := NewWriter(&b)
	msg := "GPU \x1b[2Jnode\u202e1\n\tok\r[##..] 1/2\n"
	// Written in pieces, one cutting the 3-byte U+202E in two.
	cut := strings.Index(msg, "\u202e") + 1
	for _, part := range []string{msg[:cut], msg[cut:]} {
		if n, err := w.Write([]byte(part)); err != nil || n != len(part) {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	if want := "GPU \\x1b[2Jnode\\u202e1\n\tok\r[##..] 1/2\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

// Whatever is written, in whatever pieces, no character a terminal acts
// on but \n, \t and \r comes out.
func FuzzWriter(f *testing.F) {
	f.Add("a\x1b[31mb\u202ec\n", 3)
	f.Add("\xe2\x80", 1)
	f.Fuzz(func(t *testing.T, s string, cut int) {
		var b strings.Builder
		w := NewWriter(&b)
		if cut < 0 || cut > len(s) {
			cut = len(s) / 2
		}
		w.Write([]byte(s[:cut]))
		w.Write([]byte(s[cut:]))
		for _, r := range b.String() {
			if r != '\n' && r != '\t' && r != '\r' && unsafe(r) {
				t.Fatalf("%q in pieces at %d gave %q", s, cut, b.String())
			}
		}
	})
}

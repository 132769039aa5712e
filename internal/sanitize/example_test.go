package sanitize_test

import (
	"fmt"

	"github.com/umlab/umlab/internal/sanitize"
)

func Example() {
	label := "gpu0\x1b[2J\u202e" // a label from meta.json: clear screen, right-to-left override
	fmt.Println(sanitize.Terminal(label))
	fmt.Println("| " + sanitize.Markdown("H200 | [x](javascript:alert(1))") + " |")
	fmt.Println(sanitize.HTML(`<img src=x onerror="alert(1)">`))
	// Output:
	// gpu0\x1b[2J\u202e
	// | H200 \| \[x\]\(javascript:alert\(1\)\) |
	// &lt;img src=x onerror=&#34;alert(1)&#34;&gt;
}

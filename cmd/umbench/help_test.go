package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// The README's command-line section spells every flag as the commands
// define it (--flag), and names no flag that does not exist.
func TestReadmeFlagsExist(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	from := strings.Index(readme, "## The command line")
	to := strings.Index(readme[from+1:], "\n## ")
	if from < 0 || to < 0 {
		t.Fatal("README: no \"## The command line\" section")
	}
	section := readme[from : from+1+to]
	defined := map[string]bool{"help": true, "version": true}
	for _, c := range newRoot().Commands() {
		c.Flags().VisitAll(func(f *pflag.Flag) { defined[f.Name] = true })
	}
	flags := regexp.MustCompile(`(^|[\s\[(|`+"`"+`])--([a-z][a-z0-9-]*)`).FindAllStringSubmatch(section, -1)
	if len(flags) < 20 {
		t.Fatalf("README's command-line section names %d flags; the parse is wrong", len(flags))
	}
	for _, m := range flags {
		if !defined[m[2]] {
			t.Errorf("README's command-line section names --%s, which no command defines", m[2])
		}
	}
	if m := regexp.MustCompile(`(?m)[\s\[]-[a-z]{2,}[\s\]=]`).FindString(section); m != "" {
		t.Errorf("README's command-line section spells a flag with one dash: %q", m)
	}
}

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
)

// usageError marks a command-line mistake (exit code 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// errInterrupted is returned when a run was stopped by a signal.
var errInterrupted = errors.New("interrupted")

// errTimeLimit is returned when a child process stopped at its
// --time-limit; like umkit.ErrTimeLimit, it exits with status 3.
var errTimeLimit = errors.New("stopped at the time limit")

// commands are umbench's commands, in the order help lists them.
var commands = []func() *cobra.Command{
	newInfoCmd, newListCmd, newRunCmd, newSummaryCmd, newModelCmd, newDecomposeCmd, newCountersCmd,
	newAdviseCmd, newDatasetsCmd, newMergeCmd, newCompareCmd, newReproduceCmd, newReportCmd, newCheckCmd,
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run executes a command line and returns the exit code. Its output and
// errors go through sanitize's Writer (screen), so that no string from a
// data file, on any code path, drives the terminal.
func run(args []string, stdout, stderr io.Writer) int {
	out := &checkedWriter{w: screen(stdout)}
	stderr = screen(stderr)
	root := newRoot()
	root.SetArgs(args)
	root.SetOut(out)
	root.SetErr(stderr)
	err := root.ExecuteContext(context.WithValue(context.Background(), argsKey{}, args))
	if err == nil && out.err != nil {
		err = fmt.Errorf("writing the output: %w", out.err)
	}
	return exitCode(err, stderr)
}

func newRoot() *cobra.Command {
	cobra.EnableCommandSorting = false
	root := &cobra.Command{
		Use:   "umbench",
		Short: "umbench measures how CUDA Unified Memory behaves on this machine.",
		Long: "umbench measures how CUDA Unified Memory behaves on this machine. Without a GPU:\n" +
			"umbench run --simulate --quick (made-up numbers), umbench datasets (measured runs to read).",
		Version:           version(),
		SilenceErrors:     true,
		SilenceUsage:      true,
		CompletionOptions: cobra.CompletionOptions{HiddenDefaultCmd: false},
		Args: func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("unknown command %q; commands are %s", args[0], commandNames(c))
			}
			return nil
		},
		RunE: func(c *cobra.Command, _ []string) error {
			c.Help()
			return usagef("name a command")
		},
		PersistentPreRunE: func(c *cobra.Command, _ []string) error { return vetFlags(c) },
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		if m := singleDash.FindStringSubmatch(err.Error()); m != nil && c.Flags().Lookup(m[1]) != nil {
			return usagef("-%s: flags take two dashes: --%s", m[1], m[1])
		}
		return usagef("%v (umbench %s --help lists the flags)", err, c.Name())
	})
	for _, f := range commands {
		root.AddCommand(f())
	}
	setHelp(root)
	return root
}

// singleDash finds a long flag typed with one dash in pflag's error
// ("unknown shorthand flag: 'q' in -quick").
var singleDash = regexp.MustCompile(`in -([a-z][a-z0-9-]+)(=.*)?$`)

func commandNames(root *cobra.Command) string {
	var n []string
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() && c.Name() != "help" && c.Name() != "completion" {
			n = append(n, c.Name())
		}
	}
	return strings.Join(n, ", ")
}

// version is what umbench --version prints: the module version, the commit
// and the Go version the binary was built with.
func version() string {
	b := results.ReadBuild()
	commit := "commit unknown (built with -buildvcs=false)"
	if b.Commit != "" {
		commit = "commit " + b.Commit
		if b.Modified {
			commit += " (modified work tree)"
		}
	}
	return fmt.Sprintf("umbench %s, %s, %s", b.Module, commit, b.GoVersion)
}

func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, "umbench:", err)
	var ue usageError
	switch {
	case errors.As(err, &ue):
		return 2
	case errors.Is(err, errInterrupted):
		return 130
	case errors.Is(err, errTimeLimit), errors.Is(err, umkit.ErrTimeLimit):
		return 3
	}
	return 1
}

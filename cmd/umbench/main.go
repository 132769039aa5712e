package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/umlab/umlab/umkit"
)

// usageError marks a command-line mistake (exit code 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

var commands = []struct {
	name, summary string
	run           func(args []string, stdout, stderr io.Writer) error
}{
	{"info", "show the GPU, driver and Unified Memory capabilities, and what will be waived", cmdInfo},
	{"list", "list the benchmarks with their descriptions", cmdList},
	{"run", "run benchmarks; results are appended to --out as each configuration finishes", cmdRun},
	{"summary", "summarise a results directory or dataset: medians, spread, quality flags", cmdSummary},
	{"model", "calibrate and validate the reuse model T = F + R·G on handoff data", cmdModel},
	{"decompose", "split measured times into compute, access, fault, migration, eviction and sync (with counter passes where present)", cmdDecompose},
	{"counters", "show a --counters run's counter passes beside its medians: bytes migrated, page faults, PCIe bytes", cmdCounters},
	{"advise", "rank placement policies for a working set and reuse count", cmdAdvise},
	{"datasets", "list the embedded datasets (the paper's figures and measured runs)", cmdDatasets},
	{"merge", "merge per-node and per-GPU results directories into one, reporting what differs", cmdMerge},
	{"compare", "compare each GPU's medians with the fleet median and flag outliers", cmdCompare},
	{"reproduce", "check every finding of the paper on a run: paper figure, measured figure, verdict and reason", cmdReproduce},
	{"report", "write one self-contained HTML report of a run: provenance, summary, figures, model, claims", cmdReport},
	{"check", "check this GPU (or a results directory) against a baseline: pass, warn or fail per configuration", cmdCheck},
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "umbench measures how CUDA Unified Memory behaves on this machine.")
	fmt.Fprintln(w, "\nUsage: umbench <command> [flags]\n\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'umbench <command> -h' for a command's flags.")
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run executes a command line and returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			out := &checkedWriter{w: stdout}
			err := c.run(args[1:], out, stderr)
			if err == nil && out.err != nil {
				err = fmt.Errorf("writing the output: %w", out.err)
			}
			return exitCode(err, stderr)
		}
	}
	fmt.Fprintf(stderr, "umbench: unknown command %q; commands are %s\n", args[0], commandNames())
	return 2
}

func commandNames() string {
	var n []string
	for _, c := range commands {
		n = append(n, c.name)
	}
	return strings.Join(n, ", ")
}

// errInterrupted is returned when a run was stopped by a signal.
var errInterrupted = errors.New("interrupted")

// errTimeLimit is returned when a child process stopped at its
// --time-limit; like umkit.ErrTimeLimit, it exits with status 3.
var errTimeLimit = errors.New("stopped at the time limit")

func exitCode(err error, stderr io.Writer) int {
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintln(stderr, "umbench:", err)
		return 2
	case errors.Is(err, errInterrupted):
		fmt.Fprintln(stderr, "umbench:", err)
		return 130
	case errors.Is(err, errTimeLimit), errors.Is(err, umkit.ErrTimeLimit):
		fmt.Fprintln(stderr, "umbench:", err)
		return 3
	default:
		fmt.Fprintln(stderr, "umbench:", err)
		return 1
	}
}

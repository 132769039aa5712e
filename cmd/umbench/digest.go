package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/umlab/umlab/results"
)

// digestPerGroup is how many configurations of each group the digest at
// the end of a run shows.
const digestPerGroup = 2

// writeDigest ends a run: where the results are, the wall time by group,
// each group's headline medians with intervals, and the next command.
func writeDigest(w io.Writer, dir string, meta results.Metadata, took time.Duration) error {
	rows, _, err := results.LoadDir(dir)
	if err != nil {
		return err
	}
	banner(w, rows)
	fmt.Fprintf(w, "done in %s; results in %s\n", took.Round(time.Second), dir)
	printGroupTimes(w, meta.GroupTimes, false)
	sum := results.ReadingOrder(results.Summarize(rows, meta.Device.SummaryOptions()))
	if head := results.Headlines(sum, digestPerGroup); len(head) > 0 {
		fmt.Fprintln(w, "\nheadlines (each group's largest size: highest and lowest median GB/s, 95 % intervals):")
		writeSummary(w, head, rows, newTrialCounts(meta))
	}
	self := selfCommand()
	fmt.Fprintf(w, "\nnext: %s summary %s\n      (every configuration: add --all; the paper's claims: %s reproduce %s)\n", self, dir, self, dir)
	if self != "umbench" {
		fmt.Fprintln(w, "(to type umbench instead: go install ./cmd/umbench, with $(go env GOPATH)/bin on your PATH)")
	}
	return nil
}

// selfCommand is how the user can run umbench again: "umbench", or "go run
// ./cmd/umbench" for a binary go run built into a temporary directory.
func selfCommand() string {
	exe, err := os.Executable()
	if err != nil {
		return "umbench"
	}
	if strings.Contains(exe, string(filepath.Separator)+"go-build") {
		return "go run ./cmd/umbench"
	}
	return "umbench"
}

// printGroupTimes says where a run's wall time went: each group's span
// and, with parts, what it was spent on; a merged directory's parts each
// on their own (they may have run at once: spans are never added up).
func printGroupTimes(w io.Writer, ts []results.GroupTime, parts bool) {
	names, spans := results.ByPart(ts)
	for _, part := range names {
		head := "wall time by group"
		if part != "" {
			head += ", " + part
		}
		if s := results.FormatGroupWall(spans[part]); s != "" {
			fmt.Fprintln(w, wrap(head+": "+s, results.TableWidth, "  "))
		}
		if s := results.FormatGroupParts(spans[part]); s != "" && parts {
			fmt.Fprintln(w, "spent on:")
			for _, l := range strings.Split(s, "\n") {
				fmt.Fprintln(w, wrap("  "+l, results.TableWidth, "    "))
			}
		}
	}
}

// Command calibrate measures a GPU model's run-to-run variation for the
// node check and writes it as the check package's data (check/prior_*.json):
//
//	go run ./check/internal/calibrate -gpu "NVIDIA H200" \
//		-source "..." -node DIR,DIR,... -hosts DIR,DIR,... > check/prior_h200.json
//
// -node names runs of one suite made back to back on one node, -hosts one
// run of the same suite on each of other nodes (check.Calibrate).
// check/internal/calibrate/h200.sh makes the H200's from the repository.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/umlab/umlab/check"
	"github.com/umlab/umlab/results"
)

func main() {
	gpu := flag.String("gpu", "", "the device name the runs measured, e.g. \"NVIDIA H200\"")
	source := flag.String("source", "", "where the runs come from, for the Prior's Source")
	node := flag.String("node", "", "comma-separated results directories: processes on one node")
	hosts := flag.String("hosts", "", "comma-separated results directories: one process on each other node")
	flag.Parse()
	if err := run(*gpu, *source, *node, *hosts); err != nil {
		fmt.Fprintln(os.Stderr, "calibrate:", err)
		os.Exit(1)
	}
}

func run(gpu, source, node, hosts string) error {
	if gpu == "" || node == "" {
		return fmt.Errorf("-gpu and -node are required")
	}
	n, err := load(node)
	if err != nil {
		return err
	}
	if len(n) < 3 {
		return fmt.Errorf("-node names %d runs: at least 3 are needed to measure a spread", len(n))
	}
	h, err := load(hosts)
	if err != nil {
		return err
	}
	return check.Calibrate(gpu, source, n, h).WriteJSON(os.Stdout)
}

func load(list string) ([][]results.Row, error) {
	var out [][]results.Row
	for _, dir := range strings.Split(list, ",") {
		if dir = strings.TrimSpace(dir); dir == "" {
			continue
		}
		rows, _, err := results.LoadDir(dir)
		if err != nil {
			return nil, err
		}
		out = append(out, rows)
	}
	return out, nil
}

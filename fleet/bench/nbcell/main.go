// Command nbcell does what a notebook cell does before its first figure:
// it loads the data of some benchmark groups, in bundled mode, as one
// process (GoNB runs each cell as one). fleet/bench/fleet.sh times it two
// ways: nb.Load as it is, and the load that datasets.Cover allows, which
// picks the local datasets from the index and reads only those.
//
//	go run ./fleet/bench/nbcell -way load hbm host
//	go run ./fleet/bench/nbcell -way cover hbm host
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/nb"
	"github.com/umlab/umlab/results"
)

func main() {
	way := flag.String("way", "load", "load (nb.Load) or cover (datasets.Cover, then the picks and the published datasets)")
	flag.Parse()
	os.Setenv(nb.EnvMode, nb.Bundled)
	rows, err := data(*way, flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "nbcell:", err)
		os.Exit(1)
	}
	fmt.Println(len(rows), "rows")
}

func data(way string, groups []string) ([]results.Row, error) {
	if way == "load" {
		return nb.Load(groups...)
	}
	var out []results.Row
	keep := func(rows []results.Row, want []string) {
		for _, r := range rows {
			if slices.Contains(want, r.Group) {
				out = append(out, r)
			}
		}
	}
	for _, e := range datasets.Index() {
		if e.Kind == datasets.Published {
			rows, _, err := datasets.Load(e.Name)
			if err != nil {
				return nil, err
			}
			keep(rows, groups)
		}
	}
	for _, p := range datasets.Cover(datasets.Query{Prefix: "h200-"}, groups...) {
		rows, _, err := datasets.Load(p.Name)
		if err != nil {
			return nil, err
		}
		keep(rows, p.Groups)
	}
	return out, nil
}

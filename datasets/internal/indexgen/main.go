// Command indexgen writes datasets/index.json, the index of the embedded
// datasets (datasets.Entry), from their files: go generate ./datasets.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/umlab/umlab/datasets"
)

func main() {
	idx, err := datasets.BuildIndex()
	if err == nil {
		var b []byte
		if b, err = json.MarshalIndent(idx, "", "  "); err == nil {
			err = os.WriteFile("index.json", append(b, '\n'), 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "indexgen:", err)
		os.Exit(1)
	}
}

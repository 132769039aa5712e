package nb_test

import (
	"fmt"
	"os"

	"github.com/umlab/umlab/nb"
	"github.com/umlab/umlab/plots"
)

// Loading the managed-memory rows in bundled mode, as a notebook cell does
// (nb.Data is the same, failing the cell instead of returning an error).
// Outside a notebook the display functions print nothing.
func ExampleLoad() {
	os.Setenv("UMLAB_NOTEBOOK_MODE", "bundled")
	rows, err := nb.Load("managed")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(plots.Platforms(rows)[:3])
	nb.Show(plots.Bars(plots.Nearest(rows, 256<<20), "gbps", plots.Options{}))
	// Output:
	// [GB200 GH200 GB10]
}

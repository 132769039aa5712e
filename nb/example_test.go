package nb_test

import (
	"fmt"
	"os"

	"github.com/umlab/umlab/nb"
	"github.com/umlab/umlab/plots"
	"github.com/umlab/umlab/umkit"
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

// Measuring chosen sizes and counts on the simulated GPU the tests use (a
// notebook on a GPU host leaves Mode empty and measures live): the local
// rows are marked as simulated in the sources, and a second call reads them
// back from the cache, keyed by the options and the GPU.
func ExampleOptions() {
	dir, _ := os.MkdirTemp("", "nb-example")
	defer os.RemoveAll(dir)
	os.Setenv("UMLAB_CACHE_DIR", dir)
	o := nb.Options{Groups: []string{"managed"}, Sizes: []int64{256 << 20}, Trials: umkit.N(3), Warmups: umkit.N(0), Mode: "simulated"}
	rows, err := o.Load()
	if err != nil {
		fmt.Println(err)
		return
	}
	n := 0
	for _, r := range rows {
		if r.Platform == nb.Local() {
			n++
		}
	}
	src := nb.Sources()[len(nb.Sources())-1]
	fmt.Println(n, "local rows of kind", src.Kind)
	// Output:
	// 21 local rows of kind simulated
}

package plots_test

import (
	"fmt"
	"log"
	"os"

	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/plots"
)

// save writes a figure to testdata/<name>.png, where the golden-image tests
// compare it with testdata/<name>_golden.png.
func save(name string, fig *plots.Figure) {
	png, err := fig.PNG()
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("testdata/"+name+".png", png, 0o644); err != nil {
		log.Fatal(err)
	}
}

// Bandwidth of the streaming kernel against working-set size, one line per
// managed-memory state, one panel per platform. The paper reports 256 MiB
// only; the H200 rows are a sweep with five trials per size, drawn as the
// median with a min–max bar.
func ExampleBandwidthVsSize() {
	rows := append(paperRows(), localRows()...)
	fig, err := plots.BandwidthVsSize(plots.Where(plots.Where(rows, "group", "managed"), "platform", "GB200", "H200"), plots.Options{})
	if err != nil {
		log.Fatal(err)
	}
	save("bandwidth_vs_size", fig)
	fmt.Println(len(fig.Panels), "panels:", fig.LegendNames())
	// Output:
	// 1 panels: [explicit managed_cold managed_prefetch managed_reuse]
}

// The placement experiment of the paper's Figs. 3 and 4: one group of bars
// per memory state at 256 MiB, one bar per platform, on a linear axis.
func ExampleBars() {
	rows := plots.Where(paperRows(), "group", "managed")
	fig, err := plots.Bars(rows, "gbps", plots.Options{Title: "Streaming kernel, 256 MiB"})
	if err != nil {
		log.Fatal(err)
	}
	save("bars", fig)
	fmt.Println(fig.LegendNames())
	// Output:
	// [GB200 GH200 GB10]
}

// Useful bandwidth against stride (the paper's Figs. 5 and 6).
func ExampleStrideSweep() {
	fig, err := plots.StrideSweep(paperRows(), plots.Options{})
	if err != nil {
		log.Fatal(err)
	}
	save("stride_sweep", fig)
	fmt.Println(len(fig.Panels), "panels:", fig.LegendNames())
	// Output:
	// 2 panels: [explicit managed_cold managed_prefetch]
}

// Bandwidth beyond the GPU-memory boundary (the paper's Fig. 7).
func ExampleOversubscription() {
	fig, err := plots.Oversubscription(paperRows(), plots.Options{})
	if err != nil {
		log.Fatal(err)
	}
	save("oversubscription", fig)
	fmt.Println(fig.LegendNames())
	// Output:
	// [managed_prefetch managed_reuse paper: range stated in the text]
}

// The handoff reuse sweep with the reuse model fitted to it (the paper's
// Fig. 8 and Table III).
func ExampleHandoffReuse() {
	rows := paperRows()
	fig, err := plots.HandoffReuse(rows, model.AllModels(model.FitEach(rows, model0)), plots.Options{})
	if err != nil {
		log.Fatal(err)
	}
	save("handoff_reuse", fig)
	fmt.Println(fig.LegendNames())
	// Output:
	// [explicit_copy host_mapped managed managed_prefetch measured (median) model F + R·G]
}

// The paper's Table III, fitted from the handoff rows: F = T(R=1) − G and
// the errors over R = 2 and 32.
func ExampleModelTable() {
	df := plots.ModelTable(model.AllModels(model.FitEach(paperRows(), model0)))
	for _, r := range df.Maps() {
		fmt.Printf("%-16s F = %6.2f ms  G = %.3f ms/pass\n", r["policy"], r["f_ms"], r["g_ms_per_pass"])
	}
	// Output:
	// explicit_copy    F =  60.09 ms  G = 0.415 ms/pass
	// host_mapped      F =  55.08 ms  G = 5.119 ms/pass
	// managed          F = 271.69 ms  G = 0.415 ms/pass
	// managed_prefetch F =  79.41 ms  G = 0.489 ms/pass
}

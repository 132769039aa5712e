package datasets_test

import (
	"fmt"
	"log"

	"github.com/go-gota/gota/dataframe"

	"github.com/umlab/umlab/datasets"
)

func ExampleList() {
	for _, in := range datasets.List() {
		if in.Kind == datasets.Published {
			fmt.Println(in.Name, in.Platform)
		}
	}
	// Output:
	// paper-gb10 GB10
	// paper-gb200 GB200
	// paper-gh200 GH200
}

func ExampleLoad() {
	rows, meta, err := datasets.Load("paper-gb200")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(meta.Device.DriverVersion, meta.Device.Toolkit)
	for _, r := range rows {
		if r.Group == "managed" && r.Benchmark == "stream" && r.SizeBytes == 256<<20 {
			fmt.Printf("%-21s %7.1f GB/s  (%s)\n", r.Mode, r.GBps, r.Source)
		}
	}
	// Output:
	// 580.178.04 13.2.78
	// explicit               4582.0 GB/s  (V-C)
	// managed_cold             14.1 GB/s  (V-C)
	// managed_prefetch       4606.0 GB/s  (V-C)
	// managed_reuse          4504.0 GB/s  (V-C)
	// advise_preferred_gpu     14.4 GB/s  (VI-A)
	// advise_accessed_by      272.0 GB/s  (VI-A)
	// advise_preferred_cpu     10.6 GB/s  (VI-A)
}

// The platform column puts datasets side by side.
func ExampleLoadManyFrame() {
	df, err := datasets.LoadManyFrame("paper-gb200", "paper-gh200")
	if err != nil {
		log.Fatal(err)
	}
	cold := df.Filter(
		dataframe.F{Colname: "benchmark", Comparator: "==", Comparando: "strided"},
	).Filter(
		dataframe.F{Colname: "mode", Comparator: "==", Comparando: "managed_cold"},
	).Arrange(dataframe.Sort("platform"), dataframe.Sort("stride_elements"))
	if cold.Err != nil {
		log.Fatal(cold.Err)
	}
	platform, stride, gbps := cold.Col("platform"), cold.Col("stride_elements"), cold.Col("gbps")
	for i := 0; i < cold.Nrow(); i++ {
		fmt.Printf("%s stride %4s: %g GB/s\n", platform.Elem(i), stride.Elem(i), gbps.Elem(i).Float())
	}
	// Output:
	// GB200 stride    1: 8.6 GB/s
	// GB200 stride 1024: 0.01 GB/s
	// GH200 stride    1: 8.27 GB/s
	// GH200 stride 1024: 0.008 GB/s
}

// Table III's reuse model predicts the time of alternating CPU updates and
// R GPU passes: host-mapped memory pays least up front, but from R = 2 on
// explicit placement is faster.
func ExampleModelParameters() {
	params, err := datasets.ModelParameters("paper-gb200")
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range params {
		fmt.Printf("%-16s F %6.2f ms  G %5.3f ms/pass  R=2 %6.2f ms  R=32 %6.2f ms\n",
			p.Policy, p.F, p.G, p.Time(2), p.Time(32))
	}
	// Output:
	// explicit_copy    F  60.07 ms  G 0.415 ms/pass  R=2  60.90 ms  R=32  73.35 ms
	// host_mapped      F  55.09 ms  G 5.119 ms/pass  R=2  65.33 ms  R=32 218.90 ms
	// managed          F 271.69 ms  G 0.415 ms/pass  R=2 272.52 ms  R=32 284.97 ms
	// managed_prefetch F  79.37 ms  G 0.489 ms/pass  R=2  80.35 ms  R=32  95.02 ms
}

// One resolver for every command and notebook: a dataset's name, a results
// directory, or the newest measured dataset of a kind.
func ExampleResolve() {
	_, m, name, err := datasets.Resolve("paper-gb200")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(name, m.Platform, m.Kind)
	_, _, newest, err := datasets.Resolve("newest:handoff")
	if err != nil {
		log.Fatal(err)
	}
	want, _ := datasets.NewestOf(datasets.Query{Group: "handoff"})
	fmt.Println(newest == want)
	// Output:
	// paper-gb200 GB200 published
	// true
}

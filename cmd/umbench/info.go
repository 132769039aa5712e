package main

import (
	"cmp"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/umlab/umlab/cuda"
	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
)

func newInfoCmd() *cobra.Command {
	var gpu int
	var sim bool
	c := &cobra.Command{
		Use:   "info",
		Short: "the GPU, driver and Unified Memory capabilities, and what will be waived",
		Args:  noArgs,
	}
	c.Flags().IntVar(&gpu, "gpu", 0, "GPU ordinal")
	c.Flags().BoolVar(&sim, "simulate", false, "show the simulated GPU that run --simulate uses ("+EnvSimulate+"=1 does the same)")
	c.RunE = func(c *cobra.Command, _ []string) error {
		if gpu < 0 {
			return usagef("--gpu %d: a GPU ordinal is 0 or more", gpu)
		}
		open, _, err := deviceOpener(sim)
		if err != nil {
			return err
		}
		dev, err := openGPU(open, gpu)
		if err != nil {
			return err
		}
		defer dev.Close()
		fit, done := fitted(c.OutOrStdout(), false) // notes such as the simulated GPU's are long prose
		defer done()
		writeInfo(fit, umkit.Describe(dev, "", "", umkit.Plan{}), dev.Info())
		return nil
	}
	return c
}

// writeInfo prints the device facts, the run's notes and the benchmarks
// the device cannot run.
func writeInfo(out io.Writer, m results.Metadata, info umkit.DeviceInfo) {
	if m.Kind == results.KindSimulated {
		fmt.Fprintf(out, "*** %s ***\n", results.SimulatedBanner)
	}
	d := m.Device
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(w, "device\t%s (GPU %d, %s)\n", d.Name, d.Index, d.UUID)
	fmt.Fprintf(w, "compute capability\t%s, %d SMs\n", d.ComputeCapability, d.SMs)
	fmt.Fprintf(w, "memory\t%s total, %s free, peak %.0f GB/s\n", results.FormatBytes(int64(d.MemoryBytes)), results.FormatBytes(int64(d.FreeMemoryBytes)), d.PeakMemoryGBps)
	fmt.Fprintf(w, "driver\t%s (CUDA %d.%d); kernels need %s or newer\n", orUnknown(d.DriverVersion), d.CUDADriverVersion/1000, d.CUDADriverVersion%1000/10, cuda.MinDriverBranch)
	if d.PCIeGeneration > 0 {
		fmt.Fprintf(w, "host link\tPCIe Gen%d x%d (%.0f GB/s per direction raw)\n", d.PCIeGeneration, d.PCIeWidth, d.PeakHostLinkGBps)
	}
	fmt.Fprintf(w, "NUMA node / CPUs\t%d / %s\n", d.NUMANode, orUnknown(d.CPUAffinity))
	fmt.Fprintf(w, "clocks\tSM %d MHz (max %d), memory %d MHz\n", d.SMClockMHz, d.MaxSMClockMHz, d.MemClockMHz)
	fmt.Fprintf(w, "managed memory\t%t\n", d.ManagedMemory)
	fmt.Fprintf(w, "concurrent managed access\t%t\n", d.ConcurrentManagedAccess)
	fmt.Fprintf(w, "pageable memory access\t%t (via host page tables: %t)\n", d.PageableMemoryAccess, d.PageableUsesHostPageTables)
	fmt.Fprintf(w, "host native atomics\t%t\n", d.HostNativeAtomics)
	fmt.Fprintf(w, "direct managed access from host\t%t\n", d.DirectManagedAccessFromHost)
	fmt.Fprintf(w, "can map host memory\t%t\n", d.CanMapHostMemory)
	for _, n := range m.Notes {
		fmt.Fprintf(w, "note\t%s\n", n)
	}
	w.Flush()
	fmt.Fprintln(out, "\nwaived on this system:")
	none := true
	for _, b := range umkit.Registry {
		if ok, why := b.Supported(info); !ok {
			fmt.Fprintf(out, "  %-20s %s\n", b.Name, why)
			none = false
		}
	}
	if none {
		fmt.Fprintln(out, "  nothing: every benchmark can run")
	}
}

func orUnknown(s string) string { return cmp.Or(s, "unknown") }

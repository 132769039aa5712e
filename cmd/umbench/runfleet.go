package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/umlab/umlab/fleet"
	"github.com/umlab/umlab/fleet/node"
)

// discoverGPUs lists a node run's GPUs and the CPUs nearest each;
// workerExecutable is what each worker runs. Tests replace both.
var (
	discoverGPUs     = node.Discover
	workerExecutable = os.Executable
)

// fleetOnly are the flags of umbench run that belong to the supervisor and
// are not passed on to its workers (which get --gpu and --out of their own).
var fleetOnly = map[string]bool{"gpus": true, "concurrent": true, "worker-timeout": true, "worker-stall": true, "gpu": true, "out": true}

// runFleet is umbench run --gpus: one worker process per GPU, supervised.
func runFleet(c *cobra.Command, gpus, out string, concurrent bool, timeout, stall time.Duration) error {
	stdout, stderr := c.OutOrStdout(), c.ErrOrStderr()
	ords, all, err := fleet.ParseGPUs(gpus)
	if err != nil {
		return usageError{err.Error()}
	}
	var wargs []string
	c.Flags().Visit(func(f *pflag.Flag) {
		if !fleetOnly[f.Name] {
			wargs = append(wargs, "--"+f.Name+"="+f.Value.String())
		}
	})
	exe, err := workerExecutable()
	if err != nil {
		return fmt.Errorf("finding the umbench binary to run workers: %w", err)
	}
	if all {
		ords = nil
	}
	list, warns, err := discoverGPUs(ords)
	if err != nil {
		return orNoGPU(err)
	}
	for _, w := range warns {
		fmt.Fprintln(stderr, "umbench: warning:", w)
	}
	host, _ := os.Hostname()
	mode, how := fleet.Isolated, "one at a time (isolated)"
	if concurrent {
		mode, how = fleet.Concurrent, "all at once (concurrent)"
	}
	dir := node.NodeDir(out, host)
	fmt.Fprintf(stderr, "umbench: %d GPU(s) on %s, %s, one worker each; results in %s\n", len(list), host, how, dir)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	start := time.Now()
	rep, err := node.RunNode(ctx, node.NodeOptions{
		Executable: exe, Args: append([]string{"run"}, wargs...), Root: out, Host: host, GPUs: list,
		Concurrent: concurrent, Timeout: timeout, Stall: stall, Log: stderr, Warnings: warns,
		Command: commandLine(c),
	})
	if len(rep.Workers) > 0 {
		writeWorkers(stdout, rep.Workers)
	}
	writeFailed(stderr, err)
	if ctx.Err() != nil {
		return fmt.Errorf("%w: finished configurations are kept in %s; continue with: umbench run --gpus %s --out %s --resume",
			errInterrupted, dir, gpus, out)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "done in %s (%s); results in %s, worker outcomes in %s\ncompare the GPUs with: umbench compare %s\n",
		time.Since(start).Round(time.Second), mode, dir, filepath.Join(dir, node.ReportName), out)
	return nil
}

// writeFailed says how each failed worker ended, with its stderr's tail.
func writeFailed(stderr io.Writer, err error) {
	var fe *node.FailedError
	if !errors.As(err, &fe) {
		return
	}
	for _, o := range fe.Failed {
		fmt.Fprintf(stderr, "umbench: GPU %d (%s) %s: %s\n", o.GPU, orUnknown(o.UUID), o.State, o.Error)
		if o.StderrTail != "" {
			fmt.Fprintf(stderr, "  last lines of its stderr (all of it in %s):\n", o.StderrLog)
			for _, l := range strings.Split(o.StderrTail, "\n") {
				fmt.Fprintln(stderr, "  | "+l)
			}
		}
	}
}

func writeWorkers(w io.Writer, outs []node.Outcome) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "gpu\tgpu_uuid\tcpus\tstate\ttime\tresults")
	for _, o := range outs {
		d := ""
		if o.Seconds > 0 {
			d = (time.Duration(o.Seconds * float64(time.Second))).Round(time.Second).String()
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", o.GPU, orUnknown(o.UUID), orUnknown(o.CPUs), o.State, d, o.Out)
	}
	tw.Flush()
}

// fleetWorker prepares a fleet worker's run (fleet.EnvMode set by a
// supervisor or a Slurm task): it pins the process to the CPUs it was
// given and returns what annotates the results directory at the end.
func fleetWorker(stderr io.Writer) (func(dir string), error) {
	a, ok, err := fleet.AnnotationFromEnv()
	if err != nil {
		return nil, usageError{err.Error()}
	}
	if !ok {
		return func(string) {}, nil
	}
	if a.CPUs != "" {
		want, _ := fleet.ParseCPUs(a.CPUs)
		if node.CurrentCPUs() != fleet.FormatCPUs(want) {
			if err := node.PinProcess(want); err != nil {
				fmt.Fprintln(stderr, "umbench: warning:", err)
			}
		}
	}
	return func(dir string) {
		if err := fleet.Annotate(dir, a); err != nil {
			fmt.Fprintln(stderr, "umbench: warning: recording the fleet mode in", dir+":", err)
		}
	}, nil
}

package umkit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"strings"
	"time"

	"github.com/umlab/umlab/results"
)

// runner carries what every group needs: the device, the identity stamped on
// every row, and where finished configurations go.
type runner struct {
	groups   *groupClock // nil outside Run
	dev      Device
	info     DeviceInfo
	runID    string
	host     string
	platform string
	skip     func(results.Row) bool    // configuration already measured (resume)
	skipRep  func(results.Row) bool    // handoff: this repetition of the configuration already measured (resume)
	emit     func([]results.Row) error // one finished configuration
	step     func(label string)        // progress after each configuration
	warn     func(msg string)
	counters *Counters // non-nil: a counter pass after each configuration's trials
	counting *counting // non-nil during a counter pass

	settleBuf Buffer // scratch of the settling passes (settle.go), allocated on first use
	settleOff bool   // no room for it
}

func newRunner(dev Device, runID string) *runner {
	host, _ := os.Hostname()
	if runID == "" {
		runID = NewRunID()
	}
	info := dev.Info()
	return &runner{
		dev: dev, info: info, runID: runID, host: host, platform: PlatformName(info.Name),
		skip:    func(results.Row) bool { return false },
		skipRep: func(results.Row) bool { return false },
		emit:    func([]results.Row) error { return nil },
		step:    func(string) {},
		warn:    func(msg string) { fmt.Fprintln(os.Stderr, "umkit: warning:", msg) },
	}
}

// NewRunID returns a run identifier: the UTC time and a random suffix.
func NewRunID() string {
	var b [3]byte
	rand.Read(b[:])
	return time.Now().UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}

// PlatformName shortens a device name for the platform column
// ("NVIDIA H200" → "H200", "NVIDIA GH200 480GB" → "GH200").
func PlatformName(device string) string {
	f := strings.Fields(strings.TrimPrefix(device, "NVIDIA "))
	if len(f) == 0 {
		return device
	}
	return f[0]
}

func (r *runner) row(group, bench, mode string) results.Row {
	row := results.NewRow()
	row.Group, row.Benchmark, row.Mode = group, bench, mode
	row.Platform, row.GPUUUID, row.Host, row.RunID = r.platform, r.info.UUID, r.host, r.runID
	row.Simulated = r.info.Simulated
	return row
}

// rowFor starts configuration c's row: this run's identity, and what the
// configuration is (group, benchmark, mode, sizes, useful bytes, bound).
func (r *runner) rowFor(c Config) results.Row {
	row := r.row(c.Group, c.Benchmark, c.Mode)
	c.stamp(&row)
	return row
}

// stamp writes onto row what c is measured by: its sizes, useful bytes
// and bound.
func (c Config) stamp(row *results.Row) {
	row.SizeBytes, row.FootprintBytes, row.UsefulBytes = c.SizeBytes, c.FootprintBytes, c.BytesPerIteration
	row.Bound = c.Bound
}

// doneEarlier reports whether base's configuration was measured earlier
// (resume), and if so counts it done.
func (r *runner) doneEarlier(base results.Row, label string) bool {
	if r.skip(base) {
		r.step(label + " (done earlier)")
		return true
	}
	return false
}

// waive emits a single row saying a configuration is not supported here.
func (r *runner) waive(base results.Row, label, reason string) error {
	if r.doneEarlier(base, label) {
		return nil
	}
	base.Waived, base.Note = true, reason
	if err := r.emit([]results.Row{base}); err != nil {
		return err
	}
	r.step(label + " (waived)")
	return nil
}

// trial measures one iteration: it re-establishes the state, runs the timed
// region, verifies outside it and fills row's measurements.
type trial func(iter int, row *results.Row) error

// measure runs c's warm-ups and trials of a configuration and emits the
// trials, or skips the configuration if it is already done; minWarmupMs
// extends the warm-up until that much kernel time has passed.
func (r *runner) measure(ctx context.Context, base results.Row, label string, c Common, minWarmupMs float64, t trial) error {
	warmups, trials := c.Warmups.Int(), c.Trials.Int()
	base.Warmups = int64(warmups)
	if r.doneEarlier(base, label) {
		return nil
	}
	rows := make([]results.Row, 0, trials)
	iter := 0
	warmMs := 0.0
	for w := 0; w < warmups || (w < 100*max(warmups, 1) && warmMs < minWarmupMs); w++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		row := base
		if err := t(iter, &row); err != nil {
			return fmt.Errorf("umkit: %s: warm-up %d: %w", label, w, err)
		}
		if !math.IsNaN(row.KernelMs) {
			warmMs += row.KernelMs
		}
		iter++
	}
	for i := 0; i < trials; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		row := base
		if err := t(iter, &row); err != nil {
			return fmt.Errorf("umkit: %s: trial %d: %w", label, i, err)
		}
		row.Trial, row.Verified = int64(i), true
		rows = append(rows, row)
		iter++
	}
	if err := r.emit(rows); err != nil {
		return err
	}
	if r.counters != nil {
		if err := r.counterPass(ctx, r.counters, base, label, iter, t); err != nil {
			return err
		}
	}
	r.step(label)
	return nil
}

// errVerify reports a failed check: an error, never a footnote.
func errVerify(what string, m Mismatch) error {
	return fmt.Errorf("verification failed (%s): %d wrong elements, first at index %d", what, m.Count, m.First)
}

func (r *runner) check(b Buffer, e Expect, what string) error {
	return r.verify(r.dev.Check, b, e, what)
}

func (r *runner) checkHost(b Buffer, e Expect, what string) error {
	return r.verify(r.dev.CheckHost, b, e, what)
}

// verify runs a check of b, counted as verification; a mismatch is an error.
func (r *runner) verify(check func(Buffer, Expect) (Mismatch, error), b Buffer, e Expect, what string) error {
	defer r.groups.spend(partVerify)()
	m, err := check(b, e)
	if err == nil && !m.OK() {
		err = errVerify(what, m)
	}
	return err
}

// timed returns the GPU time of the work op queues, measured with events.
func (r *runner) timed(op func() error) (float64, error) {
	defer r.groups.spend(partTimed)()
	return r.counting.around(r.dev, func() (float64, error) { return timedOn(r.dev, op) })
}

// timeKernel is the device's TimeKernel, counted as a timed region.
func (r *runner) timeKernel(k Kernel) (float64, error) {
	defer r.groups.spend(partTimed)()
	return r.counting.around(r.dev, func() (float64, error) { return r.dev.TimeKernel(k) })
}

func timedOn(dev Device, op func() error) (float64, error) {
	if err := dev.StartTimer(); err != nil {
		return 0, err
	}
	if err := op(); err != nil {
		return 0, err
	}
	return dev.StopTimer()
}

// cpuTimed returns the wall time of a CPU loop in ms. Its caller says
// whether that is a timed region (handoff's CPU-only phase) or set-up.
func (r *runner) cpuTimed(op func() error) (float64, error) {
	t0 := r.dev.Now()
	err := op()
	return float64(r.dev.Now()-t0) / float64(time.Millisecond), err
}

func (r *runner) allocs(kind MemKind, bytes uint64, n int) ([]Buffer, func(), error) {
	bufs := make([]Buffer, 0, n)
	free := func() { freeAll(r.dev, bufs...) }
	for i := 0; i < n; i++ {
		b, err := r.dev.Alloc(kind, bytes)
		if err != nil {
			free()
			return nil, nil, err
		}
		bufs = append(bufs, b)
	}
	return bufs, free, nil
}

func gbps(bytes int64, ms float64) float64 {
	if ms <= 0 {
		return math.NaN()
	}
	return float64(bytes) / (ms * 1e6)
}

func (r *runner) placement(b Buffer, row *results.Row) error {
	p, err := r.dev.Placement(b)
	row.Placement = p
	return err
}

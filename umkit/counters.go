package umkit

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/umlab/umlab/cuda/cupti"
	"github.com/umlab/umlab/cuda/nvml"
	"github.com/umlab/umlab/internal/nvmlguard"
	"github.com/umlab/umlab/results"
)

// Counter passes: after a configuration's timed trials, the same trial runs
// once more with CUPTI's Unified Memory counters on, into a companion row of
// counters.csv. Counting slows Unified Memory down, so timed trials never
// run with it (pass_kernel_ms is informational). Only the trial's timed
// regions are counted (counter_scope "timed"), leaving out the state set-up
// and the verification; a trial timed on the host clock alone is counted
// whole ("trial"). NVML's PCIe byte counters are read at the same
// boundaries, as a check independent of CUPTI.

// CounterSource is what a counter pass reads: CUPTI's Unified Memory
// counters (a *cupti.Collector), or a fake in tests.
type CounterSource interface {
	Start() error
	Snapshot() (cupti.Counts, error)
	Stop() (cupti.Counts, error)
}

// PCIeSample is a reading of a GPU's cumulative PCIe byte counters. Bits is
// the counters' width (they wrap); 0 means 64.
type PCIeSample struct {
	TX, RX uint64
	Bits   uint
}

// Since returns the bytes sent and received between an earlier sample and s,
// allowing for one wrap of the counters.
func (s PCIeSample) Since(earlier PCIeSample) (tx, rx uint64) {
	mask := ^uint64(0)
	if s.Bits > 0 && s.Bits < 64 {
		mask = 1<<s.Bits - 1
	}
	return (s.TX - earlier.TX) & mask, (s.RX - earlier.RX) & mask
}

// PCIeCounter reads a GPU's cumulative PCIe byte counters.
type PCIeCounter interface {
	ReadPCIe() (PCIeSample, error)
}

// Counters runs counter passes and writes their rows. Open it with
// OpenCounters before the device (the CUDA context) exists.
type Counters struct {
	src    CounterSource
	pcie   PCIeCounter
	close  func() error
	about  string
	mu     sync.Mutex
	app    *results.CounterAppender
	rows   []results.CounterRow
	noPCIe string // why no PCIe counter is in use
	warn   func(string)
	warned bool
}

// OpenCounters opens CUPTI's Unified Memory counters (cupti.Open: it loads
// libcupti, initialises the driver and configures the counters). Call it
// before Open or umkit.Run opens the device: CUPTI wants the counters
// configured before the CUDA context exists.
func OpenCounters() (*Counters, error) {
	col, err := cupti.Open()
	if err != nil {
		return nil, err
	}
	return &Counters{src: col, close: col.Close, about: "Unified Memory counters from " + col.Library().String()}, nil
}

// String says where the counts come from, for the run's metadata.
func (c *Counters) String() string {
	s := c.about
	if c.noPCIe != "" {
		s += "; no PCIe byte counters: " + c.noPCIe
	} else if c.pcie != nil {
		s += "; PCIe bytes from NVML"
	}
	return s
}

// attach starts writing dir/counters.csv (nothing is written when dir is
// empty) and finds the PCIe counters of the GPU with the given UUID.
func (c *Counters) attach(dir string, resume bool, uuid string, warn func(string)) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.warn = warn
	if dir != "" {
		app, err := results.OpenCounterAppender(dir, resume)
		if err != nil {
			return err
		}
		c.app = app
		c.rows = app.Rows()
	}
	if c.pcie == nil {
		p, err := NVMLPCIe(uuid)
		if err != nil {
			c.noPCIe = err.Error()
		} else {
			c.pcie = p
		}
	}
	return nil
}

// primeBytes is the cold migration counted and thrown away before a run's
// first counter pass: on the H200 a process's first collection lost records
// (0.87–0.99 of B in 15 of 30 processes), later ones did not.
const primeBytes = 256 << 20

func (c *Counters) prime(dev Device) error {
	x, err := dev.Alloc(ManagedMem, primeBytes)
	if err != nil {
		return fmt.Errorf("umkit: priming the counters: %w", err)
	}
	defer dev.Free(x)
	const n = primeBytes / 8
	if err := dev.FillHost(x, n, 1); err != nil {
		return err
	}
	if err := c.src.Start(); err != nil {
		return err
	}
	err = errors.Join(dev.Launch(Kernel{Kind: KRMW, X: x, N: n, Mul: 1, Add: 1}), dev.Sync())
	_, serr := c.src.Stop()
	return errors.Join(err, serr)
}

// Close closes counters.csv and CUPTI.
func (c *Counters) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var err error
	if c.app != nil {
		err = c.app.Close()
		c.app = nil
	}
	if c.close != nil {
		err = errors.Join(err, c.close())
		c.close = nil
	}
	return err
}

func (c *Counters) emit(row results.CounterRow) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rows = append(c.rows, row)
	if c.app != nil {
		return c.app.Append(row)
	}
	return nil
}

func (c *Counters) warnOnce(msg string) {
	c.mu.Lock()
	w := c.warn
	first := !c.warned
	c.warned = true
	c.mu.Unlock()
	if first && w != nil {
		w(msg)
	}
}

func (c *Counters) readPCIe() (PCIeSample, error) {
	if c.pcie == nil {
		return PCIeSample{}, errors.New("no PCIe counter")
	}
	return c.pcie.ReadPCIe()
}

// counting is a counter pass's state: each timed region (runner.timed,
// runner.timeKernel) becomes a counting window, whose counts it accumulates.
type counting struct {
	c         *Counters
	start     cupti.Counts
	pcie0     PCIeSample
	timed     cupti.Counts
	tx, rx    uint64
	n         int64 // windows
	open      bool
	err, perr error
}

// begin finishes the queued set-up work, keeping it out of the window, and
// opens the window.
func (w *counting) begin(dev Device) error {
	if err := dev.Sync(); err != nil {
		return err
	}
	if w.err != nil {
		return nil
	}
	s, err := w.c.src.Snapshot()
	if err != nil {
		w.err = err
		return nil
	}
	w.start, w.open = s, true
	p, err := w.c.readPCIe()
	w.pcie0 = p
	if err != nil {
		w.perr = err
	}
	return nil
}

func (w *counting) end() {
	if !w.open || w.err != nil {
		return
	}
	w.open = false
	s, err := w.c.src.Snapshot()
	if err != nil {
		w.err = err
		return
	}
	w.timed = w.timed.Add(s.Sub(w.start))
	w.n++
	if p, err := w.c.readPCIe(); err == nil && w.perr == nil {
		tx, rx := p.Since(w.pcie0)
		w.tx, w.rx = w.tx+tx, w.rx+rx
	} else if w.perr == nil {
		w.perr = err
	}
}

// around runs region, a timed region that synchronizes, in a counting
// window when a counter pass is on (w not nil).
func (w *counting) around(dev Device, region func() (float64, error)) (float64, error) {
	if w == nil {
		return region()
	}
	if err := w.begin(dev); err != nil {
		return 0, err
	}
	ms, err := region()
	if err == nil {
		w.end()
	}
	return ms, err
}

// counterPass runs trial t once more with counters on and emits the
// companion row. A failed trial is an error; counters that cannot be read
// give a row with counters_collected false and the reason in its note.
func (r *runner) counterPass(ctx context.Context, c *Counters, base results.Row, label string, iter int, t trial) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	out := results.NewCounterRow(base)
	w := &counting{c: c}
	var total cupti.Counts
	var startErr, stopErr, trialErr error
	p0, perr := c.readPCIe()
	row := base
	func() {
		r.counting = w
		defer func() { r.counting = nil }()
		if startErr = c.src.Start(); startErr != nil {
			return
		}
		trialErr = t(iter, &row)
		if trialErr == nil {
			trialErr = r.dev.Sync()
		}
		total, stopErr = c.src.Stop()
	}()
	if trialErr != nil {
		return fmt.Errorf("umkit: %s: counter pass: %w", label, trialErr)
	}
	p1, perr1 := c.readPCIe()
	out.PassKernelMs, out.PassTotalMs, out.Config.Placement = row.KernelMs, row.TotalMs, row.Placement
	var notes []string
	if err := errors.Join(startErr, stopErr, w.err); err != nil {
		notes = append(notes, "counters not collected: "+err.Error())
		c.warnOnce(fmt.Sprintf("%s: counters not collected: %v", label, err))
	} else {
		out.Collected = true
		counts := total
		out.Scope = results.ScopeTrial
		if w.n > 0 {
			counts, out.Scope, out.Windows = w.timed, results.ScopeTimed, w.n
		}
		setCounts(&out, counts)
		if !counts.Complete() {
			notes = append(notes, fmt.Sprintf("CUPTI lost records: %d dropped, %d buffers cut short, %d unknown kinds, %d layout spacing errors",
				counts.Dropped, counts.Incomplete, counts.UnknownKind, counts.SpacingErrors))
		}
	}
	switch {
	case !out.Collected || c.pcie == nil:
	case out.Scope == results.ScopeTimed && w.perr == nil:
		out.PCIeTXBytes, out.PCIeRXBytes = float64(w.tx), float64(w.rx)
	case out.Scope == results.ScopeTrial && perr == nil && perr1 == nil:
		tx, rx := p1.Since(p0)
		out.PCIeTXBytes, out.PCIeRXBytes = float64(tx), float64(rx)
	default:
		notes = append(notes, "PCIe counters not read: "+errors.Join(perr, perr1, w.perr).Error())
	}
	out.Config.Note = strings.Join(notes, "; ")
	return c.emit(out)
}

// NVMLPCIe returns NVML's cumulative PCIe byte counters of the GPU with the
// given UUID (NVML_FI_DEV_PCIE_COUNT_TX/RX_BYTES, about 0.3 ms a reading):
// TX is what the GPU sent. No NVML call is made unless nvml.Init succeeded.
func NVMLPCIe(uuid string) (PCIeCounter, error) {
	if !nvmlguard.Ready() {
		return nil, errors.New("NVML (libnvidia-ml.so.1) is not available")
	}
	d, ret := nvml.DeviceGetHandleByUUID(uuid)
	if ret != nvml.SUCCESS {
		return nil, fmt.Errorf("NVML has no device %q: %s", uuid, nvml.ErrorString(ret))
	}
	p := &nvmlPCIe{d: d}
	if _, err := p.ReadPCIe(); err != nil {
		return nil, err
	}
	return p, nil
}

type nvmlPCIe struct{ d nvml.Device }

func (p *nvmlPCIe) ReadPCIe() (PCIeSample, error) {
	v := []nvml.FieldValue{{FieldId: nvml.FI_DEV_PCIE_COUNT_TX_BYTES}, {FieldId: nvml.FI_DEV_PCIE_COUNT_RX_BYTES}}
	if ret := p.d.GetFieldValues(v); ret != nvml.SUCCESS {
		return PCIeSample{}, fmt.Errorf("nvmlDeviceGetFieldValues(PCIe TX/RX bytes): %s", nvml.ErrorString(ret))
	}
	var s PCIeSample
	for i, dst := range []*uint64{&s.TX, &s.RX} {
		if ret := nvml.Return(v[i].NvmlReturn); ret != nvml.SUCCESS {
			return PCIeSample{}, fmt.Errorf("NVML field %d: %s", v[i].FieldId, nvml.ErrorString(ret))
		}
		x, bits, err := fieldUint(v[i])
		if err != nil {
			return PCIeSample{}, err
		}
		*dst = x
		if s.Bits == 0 || bits < s.Bits {
			s.Bits = bits
		}
	}
	return s, nil
}

// fieldUint decodes an NVML field value (a little-endian union) and its
// width.
func fieldUint(f nvml.FieldValue) (uint64, uint, error) {
	le := binary.LittleEndian
	switch nvml.ValueType(f.ValueType) {
	case nvml.VALUE_TYPE_UNSIGNED_INT, nvml.VALUE_TYPE_SIGNED_INT:
		return uint64(le.Uint32(f.Value[:4])), 32, nil
	case nvml.VALUE_TYPE_UNSIGNED_LONG, nvml.VALUE_TYPE_UNSIGNED_LONG_LONG, nvml.VALUE_TYPE_SIGNED_LONG_LONG:
		return le.Uint64(f.Value[:]), 64, nil
	case nvml.VALUE_TYPE_UNSIGNED_SHORT:
		return uint64(le.Uint16(f.Value[:2])), 16, nil
	case nvml.VALUE_TYPE_DOUBLE:
		return uint64(math.Float64frombits(le.Uint64(f.Value[:]))), 64, nil
	}
	return 0, 0, fmt.Errorf("NVML field %d: value type %d", f.FieldId, f.ValueType)
}

func setCounts(r *results.CounterRow, c cupti.Counts) {
	f := func(v uint64) float64 { return float64(v) }
	r.HtoDBytes, r.DtoHBytes, r.DtoDBytes = f(c.BytesHtoD), f(c.BytesDtoH), f(c.BytesDtoD)
	r.CPUPageFaults, r.GPUPageFaults, r.GPUFaultGroups = f(c.CPUPageFaults), f(c.GPUPageFaults), f(c.GPUPageFaultGroups)
	r.ThrashingEvents, r.ThrashingBytes, r.ThrottlingEvents = f(c.Thrashing), f(c.ThrashingBytes), f(c.Throttling)
	r.RemoteMapEvents, r.RemoteMapBytes = f(c.RemoteMap), f(c.RemoteMapBytes)
	r.Records, r.Dropped, r.Incomplete = f(c.Records), f(c.Dropped), f(c.Incomplete)
}

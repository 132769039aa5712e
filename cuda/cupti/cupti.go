package cupti

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/umlab/umlab/cuda"
)

// Counts are the Unified Memory counter totals of a collection window.
// Bytes are summed record values; events are record counts.
type Counts struct {
	BytesHtoD          uint64 // bytes migrated host to device
	BytesDtoH          uint64 // bytes migrated device to host
	BytesDtoD          uint64 // bytes migrated between devices
	CPUPageFaults      uint64 // CPU page faults (one record each)
	GPUPageFaults      uint64 // GPU page fault records (one per faulting page and service)
	GPUPageFaultGroups uint64 // page fault groups: the sum of the GPU fault records' values
	Thrashing          uint64 // thrashing detections
	ThrashingBytes     uint64 // bytes of the thrashing regions
	Throttling         uint64 // throttling events
	RemoteMap          uint64 // remote-map events (pages pinned and mapped instead of migrated)
	RemoteMapBytes     uint64 // bytes remote-mapped
	TransferRecords    uint64 // migration records (HtoD, DtoH, DtoD)

	Records       uint64 // Unified Memory counter records of every kind
	UnknownKind   uint64 // records whose counter kind umlab does not know
	OtherRecords  uint64 // records of other activity kinds (skipped; expected 0)
	Incomplete    uint64 // buffers cut short by an incomplete or invalid record
	Dropped       uint64 // records CUPTI dropped for lack of buffer space
	SpacingErrors uint64 // consecutive records not Layout.Size apart: the layout does not fit
	RecordSize    int    // observed bytes between consecutive records (0: fewer than two seen)
	Buffers       uint64 // activity buffers parsed
}

// Complete reports whether nothing was lost: no dropped or cut-short
// records and a layout that fits.
func (c Counts) Complete() bool {
	return c.Dropped == 0 && c.Incomplete == 0 && c.SpacingErrors == 0 && c.UnknownKind == 0
}

// Sub returns c - o, field by field (RecordSize is c's): the counts of the
// part of a window after the snapshot o.
func (c Counts) Sub(o Counts) Counts {
	return c.combine(o, func(a, b uint64) uint64 { return a - b })
}

// Add returns c + o, field by field (RecordSize is o's when set).
func (c Counts) Add(o Counts) Counts {
	sum := c.combine(o, func(a, b uint64) uint64 { return a + b })
	if o.RecordSize != 0 {
		sum.RecordSize = o.RecordSize
	}
	return sum
}

// combine applies op to every uint64 field of c and o; the rest are c's.
func (c Counts) combine(o Counts, op func(a, b uint64) uint64) Counts {
	cv, ov := reflect.ValueOf(&c).Elem(), reflect.ValueOf(o)
	for i := range cv.NumField() {
		if f := cv.Field(i); f.Kind() == reflect.Uint64 {
			f.SetUint(op(f.Uint(), ov.Field(i).Uint()))
		}
	}
	return c
}

func (c Counts) String() string {
	return fmt.Sprintf("htod=%d dtoh=%d dtod=%d cpu_faults=%d gpu_faults=%d (groups %d) thrashing=%d throttling=%d "+
		"remote_map=%d records=%d dropped=%d incomplete=%d",
		c.BytesHtoD, c.BytesDtoH, c.BytesDtoD, c.CPUPageFaults, c.GPUPageFaults, c.GPUPageFaultGroups,
		c.Thrashing, c.Throttling, c.RemoteMap, c.Records, c.Dropped, c.Incomplete)
}

// Collector gathers Unified Memory counters through CUPTI's activity API,
// which is process-wide: one Collector may be open at a time. Collection is
// on only between Start and Stop, so work outside those windows pays no
// profiling overhead. Methods are safe for concurrent use. The first
// collection of a process can lose records (drainInterval): count a
// throwaway migration first, as umkit does.
type Collector struct {
	mu      sync.Mutex
	lib     Library
	kinds   []CounterKind
	running bool
	closed  bool
	dropped uint64 // since Start

	drainStop chan struct{} // closed by Stop: the drainer returns
	drainDone chan struct{} // closed by the drainer when it has returned
}

// drainInterval is how often a running collection pulls events out of the
// driver, whose queue of 8192 Unified Memory events CUPTI empties only when
// flushed: a cold 1 GiB kernel raises about 36,000 in 0.3 s (H200, CUPTI
// 13.0, 2026-11-29: undrained, 21 % of the bytes counted at 1 GiB, 90 % at
// 256 MiB). Every 2 ms, 9 of 18 cold 256 MiB counts came short; every
// 100–500 µs, only the first collection of a process (15 of 30; none of the
// 60 after it), hence umkit's throwaway first collection; 50 µs was worse
// (H200, 2026-11-30, cupti.test with UMLAB_CUPTI_DRAIN_US).
var drainInterval = 250 * time.Microsecond // a variable for the diagnostics in gpu_test.go

// flushMu serialises the flushes of the drainer and of the collector.
var flushMu sync.Mutex

func flushForced() Result {
	flushMu.Lock()
	defer flushMu.Unlock()
	return cFlushForced()
}

// startDrain starts the goroutine that flushes every drainInterval while
// collecting. Its errors are not lost: the collector's own flushes at
// Snapshot and Stop run the same call and report them.
func (c *Collector) startDrain() {
	stop, done := make(chan struct{}), make(chan struct{})
	c.drainStop, c.drainDone = stop, done
	go func() {
		defer close(done)
		t := time.NewTicker(drainInterval)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				flushForced()
			}
		}
	}()
}

func (c *Collector) stopDrain() {
	if c.drainStop != nil {
		close(c.drainStop)
		<-c.drainDone
		c.drainStop, c.drainDone = nil, nil
	}
}

var (
	slotMu   sync.Mutex
	slotBusy bool
)

// Open loads libcupti (the package doc says where it looks), initialises
// the CUDA driver (cuInit) and configures the Unified Memory counters.
// Collection starts with Start. Call Open before creating the CUDA context
// (cuda.NewContext, umkit.Open), as the package doc's Order says.
//
// Errors wrap ErrNotFound or ErrUnsupportedVersion (no usable library),
// ErrUnsupported (the platform, device, MPS, virtualisation or privileges
// rule the counters out), ErrBusy, or the cuda package's errors.
func Open() (*Collector, error) { return OpenKinds(AllKinds...) }

// OpenKinds is Open with a chosen set of counter kinds. Asking for fewer
// kinds lowers the event rate the driver has to queue (see Reconfigure).
func OpenKinds(want ...CounterKind) (*Collector, error) {
	if len(want) == 0 {
		return nil, fmt.Errorf("cupti: OpenKinds: no counter kinds given; allowed: %v", AllKinds)
	}
	slotMu.Lock()
	defer slotMu.Unlock()
	if slotBusy {
		return nil, fmt.Errorf("%w: close it before opening another", ErrBusy)
	}
	if err := cuda.Init(); err != nil {
		return nil, fmt.Errorf("cupti: Unified Memory counters need the CUDA driver: %w", err)
	}
	driver, err := cuda.DriverVersion()
	if err != nil {
		return nil, err
	}
	lib, err := load(driver)
	if err != nil {
		return nil, err
	}
	if err := check("cuptiActivityRegisterCallbacks", cRegister(lib.Layout.index)); err != nil {
		return nil, err
	}
	libMu.Lock()
	registered = true
	libMu.Unlock()
	kinds := append([]CounterKind(nil), want...)
	r := cConfigure(kinds, true)
	if _, unsupported := unsupportedWhy[r]; r != Success && !unsupported && r != ErrorMultipleSubscribers {
		// Kinds 5 to 8 are documented for 64-bit Linux only: keep the first four alone.
		kinds = slices.DeleteFunc(slices.Clone(want), func(k CounterKind) bool { return !slices.Contains(basicKinds, k) })
		if len(kinds) == 0 {
			return nil, check("cuptiActivityConfigureUnifiedMemoryCounter", r)
		}
		r = cConfigure(kinds, true)
	}
	if err := check("cuptiActivityConfigureUnifiedMemoryCounter", r); err != nil {
		return nil, err
	}
	slotBusy = true
	return &Collector{lib: lib, kinds: kinds}, nil
}

// Library returns the libcupti in use.
func (c *Collector) Library() Library { return c.lib }

// Start zeroes the totals and enables collection.
func (c *Collector) Start() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.usable("Start"); err != nil {
		return err
	}
	if c.running {
		return fmt.Errorf("%w: Start while collecting", ErrState)
	}
	if err := check("cuptiActivityFlushAll", flushForced()); err != nil { // deliver any leftovers before zeroing
		return err
	}
	if _, r := cDropped(); r != Success { // reading resets CUPTI's dropped count
		return check("cuptiActivityGetNumDroppedRecords", r)
	}
	cReset()
	c.dropped = 0
	if err := check("cuptiActivityEnable(UNIFIED_MEMORY_COUNTER)", cEnable()); err != nil {
		return err
	}
	c.running = true
	c.startDrain()
	return nil
}

// Snapshot returns the totals since Start without stopping. GPU work whose
// migrations should count must be complete (synchronised) first.
func (c *Collector) Snapshot() (Counts, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.usable("Snapshot"); err != nil {
		return Counts{}, err
	}
	if !c.running {
		return Counts{}, fmt.Errorf("%w: Snapshot before Start", ErrState)
	}
	if err := c.flush(); err != nil {
		return Counts{}, err
	}
	return c.totals(), nil
}

// Stop flushes, disables collection and returns the totals since Start.
// GPU work whose migrations should count must be complete (synchronised)
// first.
func (c *Collector) Stop() (Counts, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.usable("Stop"); err != nil {
		return Counts{}, err
	}
	if !c.running {
		return Counts{}, fmt.Errorf("%w: Stop before Start", ErrState)
	}
	c.stopDrain()
	err := errors.Join(c.flush(), c.disable())
	if d, r := cDropped(); r == Success {
		c.dropped += d
	}
	return c.totals(), err
}

// Close stops collection if it is on. The library stays loaded (CUPTI keeps
// threads); a later Open reuses it.
func (c *Collector) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	var err error
	if c.running {
		err = c.disable()
	}
	c.closed = true
	slotMu.Lock()
	slotBusy = false
	slotMu.Unlock()
	return err
}

// disable ends a collection: the drainer stops, then the activity kind is
// disabled and what it left flushed.
func (c *Collector) disable() error {
	c.stopDrain()
	c.running = false
	return errors.Join(check("cuptiActivityDisable(UNIFIED_MEMORY_COUNTER)", cDisable()),
		check("cuptiActivityFlushAll(forced)", flushForced()))
}

func (c *Collector) usable(call string) error {
	if c.closed {
		return fmt.Errorf("%w: %s on a closed collector", ErrClosed, call)
	}
	return nil
}

func (c *Collector) totals() Counts {
	t := cRead()
	t.Dropped = c.dropped
	return t
}

// flush delivers every buffer, partly filled ones too (a forced flush), and
// repeats every 10 ms until three flushes in a row add no record, for at
// most about 0.4 s: the driver hands Unified Memory events to CUPTI
// asynchronously, and events still queued when collection is disabled are
// lost.
func (c *Collector) flush() error {
	prev, stable := ^uint64(0), 0
	for i := 0; i < 40 && stable < 3; i++ {
		if err := check("cuptiActivityFlushAll(forced)", flushForced()); err != nil {
			return err
		}
		if n := cRead().Records; n == prev {
			stable++
		} else {
			prev, stable = n, 0
		}
		time.Sleep(10 * time.Millisecond)
	}
	if d, r := cDropped(); r == Success {
		c.dropped += d
	}
	return nil
}

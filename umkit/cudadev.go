package umkit

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/umlab/umlab/cuda"
)

// cudaDevice implements Device with the cuda package on one stream.
type cudaDevice struct {
	c          *cuda.Context
	s          *cuda.Stream
	start, end *cuda.Event
	latch      *cuda.Latch
	noHold     bool // perfdiag_test.go compares timings with and without the latch
	info       DeviceInfo
	epoch      time.Time
	aborted    atomic.Bool // set by Abort: polling waits give up
	marks      marks       // Marker events (marks.go)
	updateCPUs []int       // threads of UpdateHost (UpdateThreader); none: one thread
}

type cudaBuffer struct {
	b    *cuda.Buffer
	kind MemKind
}

func (b *cudaBuffer) Kind() MemKind { return b.kind }
func (b *cudaBuffer) Bytes() uint64 { return b.b.Bytes() }
func raw(b Buffer) *cuda.Buffer     { return b.(*cudaBuffer).b }

// Available reports whether a CUDA driver and at least one GPU are present,
// and if not, why.
func Available() (bool, string) {
	n, err := cuda.DeviceCount()
	if err != nil {
		return false, err.Error()
	}
	if n == 0 {
		return false, cuda.ErrNoDevice.Error()
	}
	return true, ""
}

// Open returns the GPU with the given ordinal as a Device, with the kernels
// loaded (JIT compilation happens here, outside every measurement).
func Open(ordinal int) (Device, error) {
	d, err := cuda.GetDevice(ordinal)
	if err != nil {
		return nil, err
	}
	c, err := cuda.NewContext(d)
	if err != nil {
		return nil, err
	}
	dev := &cudaDevice{c: c, epoch: time.Now()}
	if dev.s, err = c.NewStream(); err == nil {
		if dev.start, err = c.NewEvent(); err == nil {
			if dev.end, err = c.NewEvent(); err == nil {
				dev.latch, err = c.NewLatch()
			}
		}
	}
	if err != nil {
		c.Close()
		return nil, err
	}
	a := c.Attributes()
	dev.info = DeviceInfo{
		Name: a.Name, UUID: a.UUID, Ordinal: ordinal, TotalMemory: a.TotalMemory,
		Multiprocessors: a.Multiprocessors, PeakMemoryGBps: a.PeakMemoryGBps(),
		ManagedMemory: a.ManagedMemory, ConcurrentManagedAccess: a.ConcurrentManagedAccess,
		PageableMemoryAccess: a.PageableMemoryAccess, CanMapHostMemory: a.CanMapHostMemory,
	}
	return dev, nil
}

func (d *cudaDevice) Info() DeviceInfo                        { return d.info }
func (d *cudaDevice) MemInfo() (uint64, uint64, error)        { return d.c.MemInfo() }
func (d *cudaDevice) AllowOversubscription(allowed bool)      { d.c.SetOversubscription(allowed) }
func (d *cudaDevice) Now() time.Duration                      { return time.Since(d.epoch) }
func (d *cudaDevice) Sync() error                             { return d.c.PollStream(d.s, d.aborted.Load) }
func (d *cudaDevice) Fill(b Buffer, n, seed uint64) error     { return d.c.Fill(raw(b), n, seed, d.s) }
func (d *cudaDevice) FillHost(b Buffer, n, seed uint64) error { return cuda.FillHost(raw(b), n, seed) }
func (d *cudaDevice) HomeFillHost(b Buffer, n, seed uint64) (float64, error) {
	return d.c.HomeFillHost(raw(b), n, seed, d.s, d.aborted.Load)
}
func (d *cudaDevice) UpdateHost(b Buffer, n uint64, mul, add float64) error {
	if len(d.updateCPUs) > 1 {
		return cuda.UpdateHostThreads(raw(b), n, mul, add, d.updateCPUs)
	}
	return cuda.UpdateHost(raw(b), n, mul, add)
}

func (d *cudaDevice) Alloc(kind MemKind, bytes uint64) (Buffer, error) {
	var b *cuda.Buffer
	var err error
	switch kind {
	case DeviceMem:
		b, err = d.c.AllocDevice(bytes)
	case ManagedMem:
		b, err = d.c.AllocManaged(bytes)
	case PinnedMem:
		b, err = d.c.AllocHost(bytes, false)
	case MappedMem:
		b, err = d.c.AllocHost(bytes, true)
	case PageableMem:
		b, err = d.c.AllocPageable(bytes)
	default:
		return nil, fmt.Errorf("umkit: unknown memory kind %d", kind)
	}
	if err != nil {
		return nil, err
	}
	return &cudaBuffer{b, kind}, nil
}

func (d *cudaDevice) Reallocate(old Buffer) (Buffer, error) {
	b, err := d.c.ReallocManaged(raw(old))
	if err != nil {
		return nil, err
	}
	return &cudaBuffer{b: b, kind: ManagedMem}, nil
}

func (d *cudaDevice) Free(b Buffer) error {
	if b == nil {
		return nil
	}
	return raw(b).Free()
}

func (d *cudaDevice) Copy(dst, src Buffer, bytes uint64) error {
	return d.c.CopyAsync(raw(dst), raw(src), bytes, d.s)
}

func (d *cudaDevice) Prefetch(b Buffer, to Location) error {
	loc := cuda.GPU(d.info.Ordinal)
	if to == ToCPU {
		loc = cuda.CPU
	}
	return d.c.Prefetch(raw(b), loc, d.s)
}

func (d *cudaDevice) Advise(b Buffer, a Advice) error {
	gpu := cuda.GPU(d.info.Ordinal)
	switch a {
	case PreferGPU:
		return d.c.Advise(raw(b), cuda.SetPreferredLocation, gpu)
	case PreferCPU:
		return d.c.Advise(raw(b), cuda.SetPreferredLocation, cuda.CPU)
	case AccessedBy:
		return d.c.Advise(raw(b), cuda.SetAccessedBy, gpu)
	}
	return fmt.Errorf("umkit: unknown advice %d", a)
}

func (d *cudaDevice) Launch(k Kernel) error {
	switch k.Kind {
	case KCopy:
		return d.c.StreamCopy(raw(k.Y), raw(k.X), k.N, d.s)
	case KTriad:
		return d.c.StreamTriad(raw(k.X), raw(k.Y), raw(k.Z), k.Scalar, k.N, d.s)
	case KRMW:
		return d.c.RMW(raw(k.X), k.Mul, k.Add, k.N, d.s)
	case KStrided:
		return d.c.Strided(raw(k.X), k.Mul, k.Add, k.Stride, k.Active, d.s)
	case KPageTouch:
		return d.c.PageTouch(raw(k.X), k.Mul, k.Add, k.IntervalBytes, k.Active, d.s)
	case KRandom:
		return d.c.Random(raw(k.X), raw(k.Idx), k.Mul, k.Add, k.Active, d.s)
	}
	return fmt.Errorf("umkit: unknown kernel %v", k.Kind)
}

func (d *cudaDevice) PermFill(idx Buffer, n, seed uint64) error {
	return d.c.PermFill(raw(idx), n, seed, d.s)
}

func fromCuda(m cuda.Mismatch) Mismatch { return Mismatch{m.Count, m.First} }

func (d *cudaDevice) Check(b Buffer, e Expect) (Mismatch, error) {
	var m cuda.Mismatch
	var err error
	switch {
	case e.Y != nil:
		var z *cuda.Buffer
		if e.Z != nil {
			z = raw(e.Z)
		}
		m, err = d.c.CheckCombo(raw(b), raw(e.Y), z, e.Scalar, e.N, d.s)
	default:
		m, err = d.c.CheckAffine(raw(b), e.N, e.Seed, e.Mul, e.Add, e.Stride, e.Active, d.s)
	}
	return fromCuda(m), err
}

func (d *cudaDevice) CheckHost(b Buffer, e Expect) (Mismatch, error) {
	m, err := cuda.CheckAffineHost(raw(b), e.N, e.Seed, e.Mul, e.Add, e.Stride, e.Active)
	return fromCuda(m), err
}

func (d *cudaDevice) StartTimer() error { return d.start.Record(d.s) }

func (d *cudaDevice) StopTimer() (float64, error) {
	if err := d.end.Record(d.s); err != nil {
		return 0, err
	}
	return cuda.ElapsedMsPoll(d.start, d.end, d.aborted.Load)
}

// Abort makes every polling wait (Sync, StopTimer, TimeKernel) give up with
// cuda.ErrWaitAborted: the hang watchdog calls it when it declares the GPU
// hung, so that the run's goroutine leaves the driver.
func (d *cudaDevice) Abort() { d.aborted.Store(true) }

// holdTimeout bounds a hold: queueing an event, a kernel and an event takes
// microseconds, so a hold that lasts this long means the host stalled.
const holdTimeout = 2 * time.Second

// TimeKernel queues the start event, the kernel and the stop event behind a
// hold and then releases it, so the GPU runs them back to back: the time is
// the kernel's, without launch latency or host delays (cuda.Latch).
func (d *cudaDevice) TimeKernel(k Kernel) (float64, error) {
	if d.noHold {
		return timedOn(d, func() error { return d.Launch(k) })
	}
	if err := d.latch.Hold(d.s, holdTimeout); err != nil {
		return 0, err
	}
	err := errors.Join(d.start.Record(d.s), d.Launch(k), d.end.Record(d.s))
	d.latch.Release() // always, before anything that waits for the stream
	if err != nil {
		return 0, errors.Join(err, d.c.SyncStream(d.s))
	}
	ms, err := cuda.ElapsedMsPoll(d.start, d.end, d.aborted.Load)
	if err != nil {
		return 0, err
	}
	if d.latch.TimedOut() {
		return 0, fmt.Errorf("umkit: the hold before a timed %v kernel gave up after %v before the host released it; the timing is void (host stalled?)", k.Kind, holdTimeout)
	}
	return ms, nil
}

func (d *cudaDevice) Placement(b Buffer) (string, error) {
	if b.Kind() != ManagedMem {
		return b.Kind().String(), nil
	}
	ra, err := d.c.RangeAttributes(raw(b))
	if err != nil {
		return "", err
	}
	return ra.String(), nil
}

func (d *cudaDevice) Close() error {
	err := errors.Join(d.latch.Free(), d.marks.destroy(), d.start.Destroy(), d.end.Destroy(), d.s.Destroy())
	return errors.Join(err, d.c.Close())
}

func (d *cudaDevice) MemoryMargin() uint64 { return d.c.MemoryMargin() }

package cuda

import (
	"fmt"
	"strings"
	"sync"
	"time"
)

// Context is a device's primary context with umlab's kernels loaded. Every
// method makes the context current inside the C call that does the work (a
// cgo call never changes thread midway), so any goroutine may use it without
// runtime.LockOSThread. Methods are safe for concurrent use; work on one
// stream is ordered, as in CUDA.
type Context struct {
	dev   Device
	attrs Attributes
	h     uintptr
	mod   uintptr
	fns   map[string]uintptr
	jit   time.Duration // the driver's JIT wall time
	load  time.Duration // the whole module load, JIT included

	mu           sync.Mutex
	closed       bool
	margin       uint64
	allowOversub bool
	scratch      *Buffer // 16 bytes of device memory for check results
	readback     *Buffer // 16 bytes of pinned host memory
}

// NewContext retains the device's primary context (shared with the CUDA
// runtime in the same process) and loads the embedded kernels, so that PTX
// JIT compilation happens here, before any timed region.
func NewContext(d Device) (*Context, error) {
	if err := Init(); err != nil {
		return nil, err
	}
	attrs, err := d.Attributes()
	if err != nil {
		return nil, err
	}
	h, r := drv(opCtxRetain, 0, uint64(d.handle))
	if err := check("cuDevicePrimaryCtxRetain", r); err != nil {
		return nil, err
	}
	c := &Context{dev: d, attrs: attrs, h: uintptr(h[0]), fns: map[string]uintptr{}, margin: DefaultMemoryMargin(attrs.TotalMemory)}
	if err := c.loadModule(); err != nil {
		do(opCtxRelease, 0, uint64(d.handle))
		return nil, err
	}
	if c.scratch, err = c.AllocDevice(16); err == nil {
		c.readback, err = c.AllocHost(16, false)
	}
	if err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// DefaultMemoryMargin is the device memory an allocation must leave free
// unless oversubscription is allowed: 2 % of the device's memory, at least
// 512 MiB, for the driver's own structures and other processes.
func DefaultMemoryMargin(total uint64) uint64 {
	return max(total/50, 512<<20)
}

func (c *Context) loadModule() error {
	start := time.Now()
	m, jitMs, log, r := cModuleLoad(c.h, PTX)
	c.load = time.Since(start)
	c.jit = time.Duration(float64(jitMs) * float64(time.Millisecond))
	switch r {
	case Success:
	case ErrorUnsupportedPTX:
		v, _ := drv(opDriverVersion, 0)
		return fmt.Errorf("%w (driver CUDA %s, JIT log: %s)",
			ErrPTXTooNew, versionString(int(v[0])), strings.TrimSpace(log))
	default:
		return fmt.Errorf("cuda: loading the embedded PTX failed: %s; JIT log: %s", r.Name(), strings.TrimSpace(log))
	}
	c.mod = m
	for _, k := range Kernels {
		f, r := cModuleFunction(c.h, m, k)
		if err := check("cuModuleGetFunction("+k+")", r); err != nil {
			return err
		}
		c.fns[k] = f
	}
	return nil
}

// Attributes returns the device's attributes read when the context was made.
func (c *Context) Attributes() Attributes { return c.attrs }

// ModuleLoadTime reports how long loading the kernels took, and the part of
// it the driver spent JIT-compiling PTX. Neither is part of any measurement.
func (c *Context) ModuleLoadTime() (load, jit time.Duration) { return c.load, c.jit }

// SetOversubscription allows or forbids managed allocations beyond free
// device memory (forbidden by default: it can hang the GPU on some drivers).
func (c *Context) SetOversubscription(allowed bool) {
	c.mu.Lock()
	c.allowOversub = allowed
	c.mu.Unlock()
}

// MemoryMargin returns the current margin.
func (c *Context) MemoryMargin() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.margin
}

// MemInfo returns free and total device memory in bytes.
func (c *Context) MemInfo() (free, total uint64, err error) {
	if err := c.live("MemInfo"); err != nil {
		return 0, 0, err
	}
	ft, r := drv(opMemInfo, c.h)
	return ft[0], ft[1], check("cuMemGetInfo", r)
}

// Synchronize waits for all work in the context.
func (c *Context) Synchronize() error {
	if err := c.live("Synchronize"); err != nil {
		return err
	}
	return check("cuCtxSynchronize", do(opCtxSynchronize, c.h))
}

func (c *Context) live(call string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return fmt.Errorf("%w: %s on a closed context", ErrClosed, call)
	}
	return nil
}

// Close frees the context's own buffers, unloads the kernels and releases
// the primary context. Buffers, streams and events made from it must be
// released first.
func (c *Context) Close() error {
	if c.scratch != nil {
		c.scratch.Free()
	}
	if c.readback != nil {
		c.readback.Free()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	var err error
	if c.mod != 0 {
		err = check("cuModuleUnload", do(opModuleUnload, c.h, uint64(c.mod)))
	}
	if e := check("cuDevicePrimaryCtxRelease", do(opCtxRelease, 0, uint64(c.dev.handle))); err == nil {
		err = e
	}
	return err
}

// Stream is a CUDA stream (non-blocking with respect to the legacy default
// stream). A nil *Stream means the legacy default stream.
type Stream struct {
	c *Context
	h uint64
}

// NewStream creates a stream.
func (c *Context) NewStream() (*Stream, error) {
	if err := c.live("NewStream"); err != nil {
		return nil, err
	}
	h, r := drv(opStreamCreate, c.h)
	if err := check("cuStreamCreate", r); err != nil {
		return nil, err
	}
	return &Stream{c, h[0]}, nil
}

func (s *Stream) handle() uint64 {
	if s == nil {
		return 0
	}
	return s.h
}

// SyncStream waits for the work queued on s (nil: the default stream).
func (c *Context) SyncStream(s *Stream) error {
	return check("cuStreamSynchronize", do(opStreamSynchronize, c.h, s.handle()))
}

// Destroy releases the stream.
func (s *Stream) Destroy() error {
	if s == nil {
		return nil
	}
	return check("cuStreamDestroy", do(opStreamDestroy, s.c.h, s.h))
}

// Event is a CUDA event with timing enabled.
type Event struct {
	c *Context
	h uint64
}

// NewEvent creates a timing event.
func (c *Context) NewEvent() (*Event, error) {
	if err := c.live("NewEvent"); err != nil {
		return nil, err
	}
	h, r := drv(opEventCreate, c.h)
	if err := check("cuEventCreate", r); err != nil {
		return nil, err
	}
	return &Event{c, h[0]}, nil
}

// Record enqueues the event on s.
func (e *Event) Record(s *Stream) error {
	return check("cuEventRecord", do(opEventRecord, e.c.h, e.h, s.handle()))
}

// Destroy releases the event.
func (e *Event) Destroy() error { return check("cuEventDestroy", do(opEventDestroy, e.c.h, e.h)) }

// ElapsedMs waits for end and returns the time between two recorded events
// in milliseconds (resolution about 0.5 µs).
func ElapsedMs(start, end *Event) (float64, error) {
	if err := check("cuEventSynchronize", do(opEventSynchronize, end.c.h, end.h)); err != nil {
		return 0, err
	}
	ms, r := cEventElapsed(start.c.h, start.h, end.h)
	return float64(ms), check("cuEventElapsedTime", r)
}

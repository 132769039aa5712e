package cuda

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"unsafe"
)

// MemKind says where a buffer's memory lives and how it was allocated.
type MemKind int

// Memory kinds.
const (
	DeviceMemory  MemKind = iota // cuMemAlloc: device HBM
	ManagedMemory                // cuMemAllocManaged: migrates between CPU and GPU
	PinnedHost                   // cuMemHostAlloc: page-locked host memory
	MappedHost                   // cuMemHostAlloc(DEVICEMAP): pinned and mapped into the device
	PageableHost                 // malloc: ordinary host memory
)

var kindNames = [...]string{"device", "managed", "pinned host", "mapped host", "pageable host"}

func (k MemKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("MemKind(%d)", int(k))
}

// Buffer is an allocation of any kind.
type Buffer struct {
	c     *Context
	kind  MemKind
	bytes uint64
	dptr  uint64         // address the GPU uses (0 for pageable memory the GPU cannot reach)
	host  unsafe.Pointer // address the CPU uses (nil for device memory)
	freed bool
}

// Kind returns the buffer's memory kind.
func (b *Buffer) Kind() MemKind { return b.kind }

// Bytes returns the buffer's size.
func (b *Buffer) Bytes() uint64 { return b.bytes }

// Float64s returns the buffer as a slice of float64 for CPU access. It fails
// for device memory. The slice is valid until Free.
func (b *Buffer) Float64s() ([]float64, error) {
	if b.host == nil {
		return nil, argError("Float64s", "%s memory is not accessible from the CPU", b.kind)
	}
	if b.freed {
		return nil, fmt.Errorf("%w: Float64s on a freed buffer", ErrClosed)
	}
	return unsafe.Slice((*float64)(b.host), b.bytes/8), nil
}

func checkSize(call string, bytes uint64) error {
	if bytes == 0 {
		return argError(call, "size 0: allocations need at least one byte")
	}
	if bytes > 1<<50 {
		return argError(call, "size %d bytes is beyond any device", bytes)
	}
	return nil
}

// guardDevice refuses allocations that would leave less than the margin of
// device memory free (of which a replacement, ReallocManaged, may use
// ReplaceSlack); managed ones pass when oversubscription is allowed.
func (c *Context) guardDevice(what string, bytes uint64, managed, replacement bool) error {
	free, _, err := c.MemInfo()
	if err != nil {
		return err
	}
	c.mu.Lock()
	margin, allow := c.margin, c.allowOversub
	c.mu.Unlock()
	if managed && allow {
		return nil
	}
	slack := uint64(0)
	if replacement {
		slack = ReplaceSlack(margin)
	}
	if bytes+margin-slack > free {
		return &OversubscribeError{What: what, Requested: bytes, Free: free, Margin: margin, Slack: slack}
	}
	return nil
}

// AllocDevice allocates device memory.
func (c *Context) AllocDevice(bytes uint64) (*Buffer, error) {
	if err := checkSize("AllocDevice", bytes); err != nil {
		return nil, err
	}
	if err := c.guardDevice("device", bytes, false, false); err != nil {
		return nil, err
	}
	p, r := drv(opMemAlloc, c.h, bytes)
	if err := check("cuMemAlloc", r); err != nil {
		return nil, err
	}
	return &Buffer{c: c, kind: DeviceMemory, bytes: bytes, dptr: p[0]}, nil
}

// AllocManaged allocates managed memory (attached globally). It refuses
// sizes beyond free device memory minus the margin unless
// SetOversubscription(true) was called.
func (c *Context) AllocManaged(bytes uint64) (*Buffer, error) {
	if err := checkSize("AllocManaged", bytes); err != nil {
		return nil, err
	}
	if !c.attrs.ManagedMemory {
		return nil, fmt.Errorf("%w: %s does not support managed memory", ErrUnsupported, c.attrs.Name)
	}
	return c.allocManaged(bytes, false)
}

// allocManaged is the guarded cuMemAllocManaged of AllocManaged and, as a
// replacement, of ReallocManaged.
func (c *Context) allocManaged(bytes uint64, replacement bool) (*Buffer, error) {
	if err := c.guardDevice("managed", bytes, true, replacement); err != nil {
		return nil, err
	}
	p, r := drv(opMemAllocManaged, c.h, bytes)
	if err := check("cuMemAllocManaged", r); err != nil {
		return nil, err
	}
	return &Buffer{c: c, kind: ManagedMemory, bytes: bytes, dptr: p[0], host: cHostView(p[0])}, nil
}

// ReallocManaged frees the managed buffer old and allocates a fresh one of
// the same size in its place: nothing of it is resident anywhere until it
// is touched. The replacement may use ReplaceSlack of the margin: after a
// prefetch to the GPU, freeing a managed buffer does not return all of its
// memory to what cuMemGetInfo reports free (H200, 2026-12-02: about 105 MiB
// short once a 918 MiB buffer had been prefetched and freed), and the guard
// then refused the same-size replacement of a 90 % footprint, about 4 MiB
// short. An old that is not this context's managed memory is refused before
// anything is freed; past that check, old is freed whatever happens.
func (c *Context) ReallocManaged(old *Buffer) (*Buffer, error) {
	if err := old.usable("ReallocManaged"); err != nil {
		return nil, err
	}
	if old.kind != ManagedMemory {
		return nil, argError("ReallocManaged", "%s memory: only managed memory", old.kind)
	}
	if old.c != c {
		return nil, argError("ReallocManaged", "managed memory of another context")
	}
	bytes := old.bytes
	if err := old.Free(); err != nil {
		return nil, err
	}
	return c.allocManaged(bytes, true)
}

// ReplaceSlack is how much of a margin a replacement (ReallocManaged) may
// use: a quarter, so that at least three quarters of the margin stay free
// whatever the driver keeps.
func ReplaceSlack(margin uint64) uint64 { return margin / 4 }

// AllocHost allocates pinned host memory, mapped into the device's address
// space when mapped is true. It refuses sizes beyond the host's available
// memory (MemAvailable) less 1 GiB.
func (c *Context) AllocHost(bytes uint64, mapped bool) (*Buffer, error) {
	if err := checkSize("AllocHost", bytes); err != nil {
		return nil, err
	}
	if avail, ok := hostAvailable(); ok && bytes+1<<30 > avail {
		return nil, &OversubscribeError{What: "pinned host", Requested: bytes, Free: avail, Margin: 1 << 30}
	}
	flags := uint64(1) // CU_MEMHOSTALLOC_PORTABLE
	kind := PinnedHost
	if mapped {
		if !c.attrs.CanMapHostMemory {
			return nil, fmt.Errorf("%w: %s cannot map host memory", ErrUnsupported, c.attrs.Name)
		}
		flags |= 2 // CU_MEMHOSTALLOC_DEVICEMAP
		kind = MappedHost
	}
	p, r := drv(opHostAlloc, c.h, bytes, flags)
	if err := check("cuMemHostAlloc", r); err != nil {
		return nil, err
	}
	// unified addressing: pinned memory has one address, unless mapped
	b := &Buffer{c: c, kind: kind, bytes: bytes, host: cHostView(p[0]), dptr: p[0]}
	if mapped {
		d, r := drv(opHostDevicePointer, c.h, p[0])
		if err := check("cuMemHostGetDevicePointer", r); err != nil {
			do(opHostFree, c.h, p[0])
			return nil, err
		}
		b.dptr = d[0]
	}
	return b, nil
}

// AllocPageable allocates ordinary (malloc) host memory, aligned to 4 KiB.
// Kernels may use it only where the device reports PageableMemoryAccess
// (HMM on x86, ATS on Grace).
func (c *Context) AllocPageable(bytes uint64) (*Buffer, error) {
	if err := checkSize("AllocPageable", bytes); err != nil {
		return nil, err
	}
	if avail, ok := hostAvailable(); ok && bytes+1<<30 > avail {
		return nil, &OversubscribeError{What: "pageable host", Requested: bytes, Free: avail, Margin: 1 << 30}
	}
	p := cPageableAlloc(bytes)
	if p == nil {
		return nil, fmt.Errorf("cuda: AllocPageable: malloc of %s failed", byteSize(int64(bytes)))
	}
	b := &Buffer{c: c, kind: PageableHost, bytes: bytes, host: p}
	if c.attrs.PageableMemoryAccess {
		b.dptr = hostAddr(p)
	}
	return b, nil
}

// Free releases the buffer. Freeing twice is an error.
func (b *Buffer) Free() error {
	if b == nil {
		return argError("Free", "nil buffer")
	}
	if b.freed {
		return fmt.Errorf("%w: buffer freed twice", ErrClosed)
	}
	b.freed = true
	switch b.kind {
	case DeviceMemory, ManagedMemory:
		return check("cuMemFree", do(opMemFree, b.c.h, b.dptr))
	case PinnedHost, MappedHost:
		return check("cuMemFreeHost", do(opHostFree, b.c.h, hostAddr(b.host)))
	default:
		cPageableFree(b.host)
		return nil
	}
}

// hostAvailable reads MemAvailable from /proc/meminfo.
func hostAvailable() (uint64, bool) {
	b, _ := os.ReadFile("/proc/meminfo")
	for _, l := range strings.Split(string(b), "\n") {
		if fields := strings.Fields(l); len(fields) >= 2 && fields[0] == "MemAvailable:" {
			kb, err := strconv.ParseUint(fields[1], 10, 64)
			return kb * 1024, err == nil
		}
	}
	return 0, false
}

func (b *Buffer) usable(call string) error {
	if b == nil {
		return argError(call, "nil buffer")
	}
	if b.freed {
		return fmt.Errorf("%w: %s on a freed buffer", ErrClosed, call)
	}
	return nil
}

// CopyAsync queues a copy of bytes from src to dst on s, choosing the
// driver call by the buffers' kinds: host to device, device to host, device
// to device, and the unified-addressing copy when managed memory is involved.
func (c *Context) CopyAsync(dst, src *Buffer, bytes uint64, s *Stream) error {
	if err := dst.usable("CopyAsync"); err != nil {
		return err
	}
	if err := src.usable("CopyAsync"); err != nil {
		return err
	}
	if bytes == 0 || bytes > dst.bytes || bytes > src.bytes {
		return argError("CopyAsync", "%d bytes between buffers of %d (dst) and %d (src) bytes", bytes, dst.bytes, src.bytes)
	}
	st := s.handle()
	dDev, sDev := dst.kind == DeviceMemory, src.kind == DeviceMemory
	switch {
	case dst.kind == ManagedMemory || src.kind == ManagedMemory:
		if dst.dptr == 0 || src.dptr == 0 {
			return argError("CopyAsync", "pageable memory is not addressable by the device here")
		}
		return check("cuMemcpyAsync", do(opMemcpyAny, c.h, dst.dptr, src.dptr, bytes, st))
	case dDev && sDev:
		return check("cuMemcpyDtoDAsync", do(opMemcpyDtoD, c.h, dst.dptr, src.dptr, bytes, st))
	case dDev:
		return check("cuMemcpyHtoDAsync", do(opMemcpyHtoD, c.h, dst.dptr, hostAddr(src.host), bytes, st))
	case sDev:
		return check("cuMemcpyDtoHAsync", do(opMemcpyDtoH, c.h, hostAddr(dst.host), src.dptr, bytes, st))
	default:
		return argError("CopyAsync", "host to host copies are not a device operation")
	}
}

// Copy copies synchronously on the default stream.
func (c *Context) Copy(dst, src *Buffer, bytes uint64) error {
	if err := c.CopyAsync(dst, src, bytes, nil); err != nil {
		return err
	}
	return c.SyncStream(nil)
}

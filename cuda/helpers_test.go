package cuda

import (
	"fmt"
	"unsafe"
)

// Calls only the tests make: they stay out of the package API.

// StreamScale is STREAM scale: b = scalar*cc.
func (c *Context) StreamScale(b, cc *Buffer, scalar float64, n uint64, s *Stream) error {
	if err := need(KernelScale, n, b, cc); err != nil {
		return err
	}
	return c.Launch(KernelScale, vectorGrid(n, vecPerThread), block1D, s, b.dptr, cc.dptr, f64(scalar), n)
}

// StreamAdd is STREAM add: cc = a + b.
func (c *Context) StreamAdd(a, b, cc *Buffer, n uint64, s *Stream) error {
	if err := need(KernelAdd, n, a, b, cc); err != nil {
		return err
	}
	return c.Launch(KernelAdd, vectorGrid(n, vecPerThread), block1D, s, a.dptr, b.dptr, cc.dptr, n)
}

// TriadNaive is the same triad as a scalar grid-stride loop, for comparison.
func (c *Context) TriadNaive(a, b, cc *Buffer, scalar float64, n uint64, s *Stream) error {
	if err := need(KernelTriadNaive, n, a, b, cc); err != nil {
		return err
	}
	return c.Launch(KernelTriadNaive, c.strideGrid(n), block1D, s, a.dptr, b.dptr, cc.dptr, f64(scalar), n)
}

// CheckTriad verifies a = SeedValue(seedB,i) + scalar*SeedValue(seedC,i).
func (c *Context) CheckTriad(a *Buffer, n, seedB, seedC uint64, scalar float64, s *Stream) (Mismatch, error) {
	if err := need(KernelCheckTriad, n, a); err != nil {
		return Mismatch{}, err
	}
	return c.runCheck(s, func(res uint64) error {
		return c.Launch(KernelCheckTriad, c.strideGrid(n), block1D, s, a.dptr, n, seedB, seedC, f64(scalar), res)
	})
}

// CheckPerm verifies that idx[0:n] is a permutation of [0, n). It uses n
// bytes of scratch device memory.
func (c *Context) CheckPerm(idx *Buffer, n uint64, s *Stream) (Mismatch, error) {
	if err := need(KernelCheckPerm, n, idx); err != nil {
		return Mismatch{}, err
	}
	words := (n + 7) / 8
	seen, err := c.AllocDevice(words * 8)
	if err != nil {
		return Mismatch{}, err
	}
	defer seen.Free()
	if err := c.Launch(KernelZero, c.strideGrid(words), block1D, s, seen.dptr, words); err != nil {
		return Mismatch{}, err
	}
	return c.runCheck(s, func(res uint64) error {
		return c.Launch(KernelCheckPerm, c.strideGrid(n), block1D, s, idx.dptr, n, seen.dptr, res)
	})
}

// UsesV2MemoryAPI reports whether prefetch and advice go through the CUDA
// 12.2 (_v2, CUmemLocation) entry points rather than the legacy ones.
func UsesV2MemoryAPI() (bool, error) {
	if err := Init(); err != nil {
		return false, err
	}
	return cUsesV2(), nil
}

// HostBuffer allocates ordinary host memory with no context, for the CPU
// loops (FillHost, UpdateHost, checks) where no GPU is involved.
func HostBuffer(bytes uint64) (*Buffer, error) {
	if err := checkSize("HostBuffer", bytes); err != nil {
		return nil, err
	}
	p := cPageableAlloc(bytes)
	if p == nil {
		return nil, fmt.Errorf("cuda: HostBuffer: malloc of %s failed", byteSize(int64(bytes)))
	}
	return &Buffer{kind: PageableHost, bytes: bytes, host: p}, nil
}

// Uint64s is Float64s for index arrays.
func (b *Buffer) Uint64s() ([]uint64, error) {
	if b.host == nil {
		return nil, argError("Uint64s", "%s memory is not accessible from the CPU", b.kind)
	}
	return unsafe.Slice((*uint64)(b.host), b.bytes/8), nil
}

// HostAccessible reports whether the CPU can read and write the buffer.
func (b *Buffer) HostAccessible() bool { return b.host != nil }

// DevicePtr returns the address kernels use.
func (b *Buffer) DevicePtr() uint64 { return b.dptr }

// CheckTriadHost is CheckTriad run by the CPU.
func CheckTriadHost(a *Buffer, n, seedB, seedC uint64, scalar float64) (Mismatch, error) {
	if err := hostNeed("CheckTriadHost", a, n); err != nil {
		return Mismatch{}, err
	}
	var g merge
	g.m.First = ^uint64(0)
	parallel(0, n, func(lo, hi uint64) { g.add(cCheckTriadHost(a.host, lo, hi, seedB, seedC, scalar)) })
	return g.m, nil
}

// IsCPU reports whether l is the CPU.
func (l Location) IsCPU() bool { return l.kind == locHost }

// IsGPU reports whether l is a GPU.
func (l Location) IsGPU() bool { return l.kind == locDevice }

// SetMemoryMargin sets how much device memory allocations must leave free.
func (c *Context) SetMemoryMargin(bytes uint64) {
	c.mu.Lock()
	c.margin = bytes
	c.mu.Unlock()
}

// Device returns the context's device.
func (c *Context) Device() Device { return c.dev }

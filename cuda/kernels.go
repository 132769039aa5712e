package cuda

import (
	_ "embed"
	"fmt"
	"math"
	"unsafe"
)

//go:generate bash kernels/gen.sh

// PTX is the embedded kernel module, compiled from kernels/umlab.cu.
//
//go:embed kernels/umlab.ptx
var PTX []byte

// Kernel names in the embedded module.
const (
	KernelCopy        = "umlab_copy"
	KernelScale       = "umlab_scale"
	KernelAdd         = "umlab_add"
	KernelTriad       = "umlab_triad"
	KernelTriadNaive  = "umlab_triad_naive"
	KernelRMW         = "umlab_rmw"
	KernelStrided     = "umlab_strided"
	KernelPageTouch   = "umlab_page_touch"
	KernelRandom      = "umlab_random"
	KernelPermFill    = "umlab_perm_fill"
	KernelFill        = "umlab_fill"
	KernelCheckAffine = "umlab_check_affine"
	KernelCheckTriad  = "umlab_check_triad"
	KernelCheckPerm   = "umlab_check_perm"
	KernelCheckInit   = "umlab_check_init"
	KernelZero        = "umlab_zero"
	KernelCheckCombo  = "umlab_check_combo"
	KernelHold        = "umlab_hold" // holds a stream until the host releases it (Latch)
)

// Kernels lists every kernel NewContext resolves.
var Kernels = []string{
	KernelCopy, KernelScale, KernelAdd, KernelTriad, KernelTriadNaive, KernelRMW, KernelStrided,
	KernelPageTouch, KernelRandom, KernelPermFill, KernelFill, KernelCheckAffine, KernelCheckTriad,
	KernelCheckPerm, KernelCheckInit, KernelZero, KernelCheckCombo, KernelHold,
}

// Dim is a launch dimension.
type Dim [3]uint32

// Launch shapes. The streaming kernels move vecPerThread double2 vectors per
// thread per array (VEC in umlab.cu; TRIAD_VEC and COPY_VEC for the triad
// and the copy).
const (
	blockSize         = 256
	vecPerThread      = 4
	triadVecPerThread = 1
	copyVecPerThread  = 1
)

// Launch queues kernel k with the given grid and block on s. args are the
// kernel's parameters, each 8 bytes (pointers, integers, float64 bits).
func (c *Context) Launch(k string, grid, block Dim, s *Stream, args ...uint64) error {
	f, ok := c.fns[k]
	if !ok {
		return argError("Launch", "no kernel %q in the module", k)
	}
	for i, d := range grid {
		if d == 0 || (i > 0 && d > 65535) || d > math.MaxInt32 {
			return argError(k, "grid %v: each dimension must be 1..2^31-1 (y, z up to 65535)", grid)
		}
	}
	if block[0]*block[1]*block[2] == 0 || block[0]*block[1]*block[2] > 1024 {
		return argError(k, "block %v: 1 to 1024 threads", block)
	}
	if len(args) > 16 {
		return argError(k, "%d arguments; at most 16", len(args))
	}
	if err := c.live(k); err != nil {
		return err
	}
	return check("cuLaunchKernel("+k+")", cLaunch(c.h, f, grid, block, 0, s.handle(), args))
}

func f64(v float64) uint64 { return math.Float64bits(v) }

// vectorGrid is the grid of a streaming kernel over n float64 that moves vec
// vectors per thread.
func vectorGrid(n uint64, vec int) Dim {
	per := uint64(blockSize * vec)
	g := (n/2 + per - 1) / per
	return Dim{uint32(max(g, 1)), 1, 1}
}

// strideGrid is the grid of a grid-stride kernel over n items: enough blocks
// to fill every multiprocessor many times over, no more than needed.
func (c *Context) strideGrid(n uint64) Dim {
	g := (n + blockSize - 1) / blockSize
	g = min(g, uint64(max(c.attrs.Multiprocessors, 1)*32))
	return Dim{uint32(max(g, 1)), 1, 1}
}

var block1D = Dim{blockSize, 1, 1}

// need checks that each buffer holds n float64 (or 8-byte indices) and is
// reachable by the device.
func need(kernel string, n uint64, bufs ...*Buffer) error {
	for _, b := range bufs {
		if err := b.usable(kernel); err != nil {
			return err
		}
		if n == 0 {
			return argError(kernel, "zero elements")
		}
		if n > b.bytes/8 {
			return argError(kernel, "%d elements need %d bytes; the buffer has %d", n, n*8, b.bytes)
		}
		if b.dptr == 0 {
			return argError(kernel, "%s memory is not accessible from the device", b.kind)
		}
	}
	return nil
}

// Fill writes SeedValue(seed, i) to x[i] for i < n on the device.
func (c *Context) Fill(x *Buffer, n, seed uint64, s *Stream) error {
	if err := need(KernelFill, n, x); err != nil {
		return err
	}
	return c.Launch(KernelFill, c.strideGrid(n), block1D, s, x.dptr, n, seed)
}

// StreamCopy is STREAM copy: dst = src over n float64.
func (c *Context) StreamCopy(dst, src *Buffer, n uint64, s *Stream) error {
	if err := need(KernelCopy, n, dst, src); err != nil {
		return err
	}
	return c.Launch(KernelCopy, vectorGrid(n, copyVecPerThread), block1D, s, src.dptr, dst.dptr, n)
}

// StreamTriad is STREAM triad: a = b + scalar*cc.
func (c *Context) StreamTriad(a, b, cc *Buffer, scalar float64, n uint64, s *Stream) error {
	if err := need(KernelTriad, n, a, b, cc); err != nil {
		return err
	}
	return c.Launch(KernelTriad, vectorGrid(n, triadVecPerThread), block1D, s, a.dptr, b.dptr, cc.dptr, f64(scalar), n)
}

// RMW is the streaming read-modify-write x = x*mul + add over n float64; it
// is also the GPU pass of the handoff benchmark (mul 1, add 1).
func (c *Context) RMW(x *Buffer, mul, add float64, n uint64, s *Stream) error {
	if err := need(KernelRMW, n, x); err != nil {
		return err
	}
	return c.Launch(KernelRMW, vectorGrid(n, vecPerThread), block1D, s, x.dptr, f64(mul), f64(add), n)
}

// Strided updates x[i*stride] = x[i*stride]*mul + add for i < active.
func (c *Context) Strided(x *Buffer, mul, add float64, stride, active uint64, s *Stream) error {
	if stride == 0 {
		return argError(KernelStrided, "stride 0: use 1 or more elements")
	}
	if active == 0 {
		return argError(KernelStrided, "zero active elements")
	}
	if err := need(KernelStrided, (active-1)*stride+1, x); err != nil {
		return err
	}
	return c.Launch(KernelStrided, c.strideGrid(active), block1D, s, x.dptr, f64(mul), f64(add), stride, active)
}

// PageTouch updates one float64 every intervalBytes bytes, active of them.
func (c *Context) PageTouch(x *Buffer, mul, add float64, intervalBytes, active uint64, s *Stream) error {
	if intervalBytes < 8 || intervalBytes%8 != 0 {
		return argError(KernelPageTouch, "interval %d bytes: a positive multiple of 8", intervalBytes)
	}
	if active == 0 {
		return argError(KernelPageTouch, "zero active elements")
	}
	if err := need(KernelPageTouch, (active-1)*(intervalBytes/8)+1, x); err != nil {
		return err
	}
	return c.Launch(KernelPageTouch, c.strideGrid(active), block1D, s, x.dptr, f64(mul), f64(add), intervalBytes, active)
}

// Random updates x[idx[i]] for i < active; idx holds uint64 indices into x
// (PermFill makes a permutation).
func (c *Context) Random(x, idx *Buffer, mul, add float64, active uint64, s *Stream) error {
	if err := need(KernelRandom, active, idx); err != nil {
		return err
	}
	if err := x.usable(KernelRandom); err != nil {
		return err
	}
	if x.dptr == 0 {
		return argError(KernelRandom, "%s memory is not accessible from the device", x.kind)
	}
	return c.Launch(KernelRandom, c.strideGrid(active), block1D, s, x.dptr, idx.dptr, f64(mul), f64(add), active)
}

// PermFill writes a seeded permutation of [0, n) to idx on the device.
func (c *Context) PermFill(idx *Buffer, n, seed uint64, s *Stream) error {
	if err := need(KernelPermFill, n, idx); err != nil {
		return err
	}
	return c.Launch(KernelPermFill, c.strideGrid(n), block1D, s, idx.dptr, n, seed)
}

// Mismatch is the outcome of a check: how many elements were wrong and the
// index of the first (meaningless when Count is 0).
type Mismatch struct {
	Count, First uint64
}

// OK reports whether the check found no mismatch.
func (m Mismatch) OK() bool { return m.Count == 0 }

func (m Mismatch) String() string {
	if m.Count == 0 {
		return "no mismatch"
	}
	return fmt.Sprintf("%d mismatches, first at element %d", m.Count, m.First)
}

// runCheck prepares the result scratch, runs launch, and reads the result.
func (c *Context) runCheck(s *Stream, launch func(result uint64) error) (Mismatch, error) {
	if err := c.Launch(KernelCheckInit, Dim{1, 1, 1}, Dim{1, 1, 1}, s, c.scratch.dptr); err != nil {
		return Mismatch{}, err
	}
	if err := launch(c.scratch.dptr); err != nil {
		return Mismatch{}, err
	}
	if err := c.CopyAsync(c.readback, c.scratch, 16, s); err != nil {
		return Mismatch{}, err
	}
	if err := c.SyncStream(s); err != nil {
		return Mismatch{}, err
	}
	r := unsafe.Slice((*uint64)(c.readback.host), 2)
	return Mismatch{Count: r[0], First: r[1]}, nil
}

// CheckAffine verifies on the device that, for i < n, x[i] equals
// SeedValue(seed,i)*mul + add where i is touched (i%stride == 0 and
// i/stride < active) and SeedValue(seed,i) elsewhere. It synchronizes s.
func (c *Context) CheckAffine(x *Buffer, n, seed uint64, mul, add float64, stride, active uint64, s *Stream) (Mismatch, error) {
	if err := need(KernelCheckAffine, n, x); err != nil {
		return Mismatch{}, err
	}
	if stride == 0 {
		return Mismatch{}, argError(KernelCheckAffine, "stride 0")
	}
	return c.runCheck(s, func(res uint64) error {
		return c.Launch(KernelCheckAffine, c.strideGrid(n), block1D, s, x.dptr, n, seed, f64(mul), f64(add), stride, active, res)
	})
}

// CheckCombo verifies a = y + scalar·z (or a = y when z is nil) against the
// input arrays themselves. Unlike the seeded checks it does no hashing, so
// it leaves the GPU as a memory-bound kernel would: use it between timed
// trials of bandwidth kernels. It synchronizes s.
func (c *Context) CheckCombo(a, y, z *Buffer, scalar float64, n uint64, s *Stream) (Mismatch, error) {
	if err := need(KernelCheckCombo, n, a, y); err != nil {
		return Mismatch{}, err
	}
	var zp uint64
	if z != nil {
		if err := need(KernelCheckCombo, n, z); err != nil {
			return Mismatch{}, err
		}
		zp = z.dptr
	}
	return c.runCheck(s, func(res uint64) error {
		return c.Launch(KernelCheckCombo, c.strideGrid(n), block1D, s, a.dptr, y.dptr, zp, f64(scalar), n, res)
	})
}

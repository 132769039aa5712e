package simgpu

import (
	"fmt"
	"time"

	"github.com/umlab/umlab/umkit"
)

// The kernels and checks, applied to the buffers' data: what the
// simulation computes, so verification tests what a real run does.

func (d *Device) Launch(k umkit.Kernel) error {
	x := fb(k.X)
	d.log("Launch(%s,%s)", k.Kind, x)
	d.launches++
	if d.HangAfter > 0 && d.launches > d.HangAfter {
		<-d.hang
		return fmt.Errorf("simgpu: launch %d hung (injected after %d) and was released", d.launches, d.HangAfter)
	}
	if d.KernelDelay > 0 {
		time.Sleep(d.KernelDelay)
	}
	if d.launches == d.DropLaunch {
		return nil
	}
	var touched func() []uint64 // indices the kernel updates, built only for real data
	switch k.Kind {
	case umkit.KCopy:
		y := fb(k.Y)
		d.queue(d.gpuTouch(x, k.N*8)+d.gpuTouch(y, k.N*8), Launch)
		if x.data != nil && y.data != nil {
			copy(y.data[:k.N], x.data[:k.N])
		}
		if d.CorruptKernels && y.data != nil {
			y.data[0]++
		}
		return nil
	case umkit.KTriad:
		y, z := fb(k.Y), fb(k.Z)
		d.queue(d.gpuTouch(x, k.N*8)+d.gpuTouch(y, k.N*8)+d.gpuTouch(z, k.N*8), Launch)
		if x.data != nil && y.data != nil && z.data != nil {
			for i := uint64(0); i < k.N; i++ {
				x.data[i] = y.data[i] + k.Scalar*z.data[i]
			}
			if d.CorruptKernels {
				x.data[0] = -1
			}
		}
		return nil
	case umkit.KRMW:
		d.queue(d.gpuTouch(x, k.N*16), Launch)
		touched = func() []uint64 { return span(0, k.N, 1) }
	case umkit.KStrided:
		d.queue(d.gpuTouch(x, k.Active*16), Launch)
		touched = func() []uint64 { return span(0, k.Active, k.Stride) }
	case umkit.KPageTouch:
		d.queue(d.gpuTouch(x, k.Active*16), Launch)
		touched = func() []uint64 { return span(0, k.Active, k.IntervalBytes/8) }
	case umkit.KRandom:
		idx := fb(k.Idx)
		d.queue(d.gpuTouch(x, k.Active*16)+d.gpuTouch(idx, k.Active*8), Launch)
		touched = func() []uint64 {
			var t []uint64
			for i := uint64(0); i < k.Active && idx.data != nil; i++ {
				t = append(t, uint64(idx.data[i]))
			}
			return t
		}
	default:
		return fmt.Errorf("simgpu: unknown kernel %v", k.Kind)
	}
	if x.data != nil {
		for _, i := range touched() {
			x.data[i] = x.data[i]*k.Mul + k.Add
		}
		if d.CorruptKernels {
			x.data[0] = -1
		}
	}
	return nil
}

// span lists count indices starting at first with the given step.
func span(first, count, step uint64) []uint64 {
	out := make([]uint64, count)
	for i := range out {
		out[i] = first + uint64(i)*step
	}
	return out
}

func (d *Device) PermFill(idx umkit.Buffer, n, seed uint64) error {
	x := fb(idx)
	d.log("PermFill(%s)", x)
	d.queue(d.gpuTouch(x, n*8), Launch)
	if x.data != nil {
		// A deterministic shuffle: multiplication by an odd constant modulo
		// a power of two, walked back into range.
		p := uint64(1)
		for p < n {
			p <<= 1
		}
		j := uint64(0)
		for i := uint64(0); i < p && j < n; i++ {
			v := (i*0x9E3779B97F4A7C15 + seed) & (p - 1)
			if v < n {
				x.data[j] = float64(v)
				j++
			}
		}
	}
	return nil
}

func (d *Device) Check(b umkit.Buffer, e umkit.Expect) (umkit.Mismatch, error) {
	x := fb(b)
	d.log("Check(%s)", x)
	d.queue(d.gpuTouch(x, e.N*8), Launch)
	return check(x, e), nil
}

func check(x *Buffer, e umkit.Expect) umkit.Mismatch {
	var m umkit.Mismatch
	if x.data == nil {
		return m // symbolic buffer: nothing to compare
	}
	for i := uint64(0); i < e.N && i < uint64(len(x.data)); i++ {
		var want float64
		if e.Y != nil {
			y := e.Y.(*Buffer)
			if y.data == nil {
				return m
			}
			want = y.data[i]
			if e.Z != nil {
				want += e.Scalar * e.Z.(*Buffer).data[i]
			}
		} else if e.Triad {
			want = seedValue(e.SeedB, i) + e.Scalar*seedValue(e.SeedC, i)
		} else {
			want = seedValue(e.Seed, i)
			if i%e.Stride == 0 && i/e.Stride < e.Active {
				want = want*e.Mul + e.Add
			}
		}
		if x.data[i] != want {
			if m.Count == 0 {
				m.First = i
			}
			m.Count++
		}
	}
	return m
}

// seedValue matches cuda.SeedValue without cgo.
func seedValue(seed, i uint64) float64 {
	z := seed + (i+1)*0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	z ^= z >> 31
	return float64(z>>44) + 1
}

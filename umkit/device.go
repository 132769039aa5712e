package umkit

import (
	"fmt"
	"time"
)

// Device is what the benchmarks need of a GPU: allocation, CPU loops, GPU
// work queued in order on one stream, event timing, checks and placement.
// Open returns the real one; umkit/simgpu simulates it.
type Device interface {
	Info() DeviceInfo
	MemInfo() (free, total uint64, err error)
	Alloc(kind MemKind, bytes uint64) (Buffer, error)
	Free(b Buffer) error
	// AllowOversubscription lets managed allocations exceed free memory.
	AllowOversubscription(allowed bool)
	// MemoryMargin is the device memory allocations must leave free.
	MemoryMargin() uint64

	FillHost(b Buffer, n, seed uint64) error
	UpdateHost(b Buffer, n uint64, mul, add float64) error
	CheckHost(b Buffer, e Expect) (Mismatch, error)

	Fill(b Buffer, n, seed uint64) error
	Copy(dst, src Buffer, bytes uint64) error
	Prefetch(b Buffer, to Location) error
	Advise(b Buffer, a Advice) error
	Launch(k Kernel) error
	PermFill(idx Buffer, n, seed uint64) error
	Check(b Buffer, e Expect) (Mismatch, error) // synchronizes

	StartTimer() error
	StopTimer() (ms float64, err error) // synchronizes
	// TimeKernel launches k and returns its GPU time in ms, synchronizing;
	// the device may queue it behind a hold so that launch latency and
	// host delays are not counted.
	TimeKernel(k Kernel) (ms float64, err error)
	Sync() error
	// Now is a monotonic clock for spans that include CPU work.
	Now() time.Duration
	Placement(b Buffer) (string, error)
	Close() error
}

// DeviceInfo are the facts benchmarks decide by.
type DeviceInfo struct {
	Name                    string
	UUID                    string
	Ordinal                 int
	TotalMemory             uint64
	Multiprocessors         int
	PeakMemoryGBps          float64
	ManagedMemory           bool
	ConcurrentManagedAccess bool
	PageableMemoryAccess    bool
	CanMapHostMemory        bool
	Simulated               bool // a simulated device (umkit/simgpu): its numbers are made up
}

// MemKind is where a buffer lives.
type MemKind int

// Memory kinds.
const (
	DeviceMem   MemKind = iota // cudaMalloc
	ManagedMem                 // cudaMallocManaged
	PinnedMem                  // cudaHostAlloc, not mapped
	MappedMem                  // cudaHostAlloc mapped, used through its device pointer
	PageableMem                // malloc
)

var memKindNames = [...]string{"device", "managed", "pinned", "mapped", "pageable"}

func (k MemKind) String() string {
	if int(k) < len(memKindNames) {
		return memKindNames[k]
	}
	return fmt.Sprintf("MemKind(%d)", int(k))
}

// Buffer is an allocation made by a Device.
type Buffer interface {
	Kind() MemKind
	Bytes() uint64
}

// Location is a prefetch destination.
type Location int

// Locations.
const (
	ToGPU Location = iota
	ToCPU
)

// Advice is a memory hint for a whole managed buffer.
type Advice int

// Hints of the managed-memory group.
const (
	PreferGPU  Advice = iota // preferred location: the GPU
	PreferCPU                // preferred location: the CPU
	AccessedBy               // accessed by the GPU
)

// KernelKind names a benchmark kernel.
type KernelKind int

// Kernels.
const (
	KCopy      KernelKind = iota // Y = X
	KTriad                       // X = Y + Scalar*Z
	KRMW                         // X = X*Mul + Add, N elements (streaming; the handoff GPU pass)
	KStrided                     // X[i*Stride] = ..., Active of them
	KPageTouch                   // one element every IntervalBytes, Active of them
	KRandom                      // X[Idx[i]] = ..., Active of them
)

var kernelNames = [...]string{"copy", "triad", "rmw", "strided", "page_touch", "random"}

func (k KernelKind) String() string {
	if int(k) < len(kernelNames) {
		return kernelNames[k]
	}
	return fmt.Sprintf("KernelKind(%d)", int(k))
}

// Kernel is one launch.
type Kernel struct {
	Kind          KernelKind
	X, Y, Z, Idx  Buffer
	N             uint64 // elements (copy, triad, rmw)
	Mul, Add      float64
	Scalar        float64
	Stride        uint64
	IntervalBytes uint64
	Active        uint64
}

// Expect describes a buffer's expected content after a trial. Affine:
// element i is SeedValue(Seed,i)*Mul+Add where touched (i%Stride == 0 and
// i/Stride < Active), SeedValue(Seed,i) elsewhere. Reference (Y set):
// Y[i] + Scalar*Z[i], or Y[i] when Z is nil; it does no hashing, so it can
// run between timed bandwidth trials without slowing the next one.
type Expect struct {
	N, Seed  uint64
	Mul, Add float64
	Stride   uint64
	Active   uint64
	Scalar   float64
	Y, Z     Buffer
}

// AllOf expects every one of n elements to be seed*mul+add.
func AllOf(n, seed uint64, mul, add float64) Expect {
	return Expect{N: n, Seed: seed, Mul: mul, Add: add, Stride: 1, Active: n}
}

// Mismatch is a check's outcome.
type Mismatch struct{ Count, First uint64 }

// OK reports a clean check.
func (m Mismatch) OK() bool { return m.Count == 0 }

package simgpu

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/umlab/umlab/cuda"
	"github.com/umlab/umlab/umkit"
)

// The simulated GPU implements umkit's device and every optional interface.
var (
	_ umkit.Device         = (*Device)(nil)
	_ umkit.Marker         = (*Device)(nil)
	_ umkit.UpdateThreader = (*Device)(nil)
	_ umkit.HomeFiller     = (*Device)(nil)
	_ umkit.Reallocator    = (*Device)(nil)
	_ umkit.Buffer         = (*Buffer)(nil)
)

// Device is a simulated GPU. Its zero value is not usable; call New.
type Device struct {
	// Model parameters, in GB/s and ms.
	HBMGBps, LinkGBps, FaultGBps, CPUGBps float64
	LaunchMs                              float64
	Injected                                     // slowdowns and injected faults (the knobs)
	noise                                 *noise // SetNoise; nil: every run alike
	DataLimit                             uint64 // bytes of real data kept per buffer
	Total, Margin                         uint64
	CorruptKernels                        bool  // kernels write a wrong value into element 0
	FailAlloc                             error // returned by every Alloc when set
	// DriverManagedBytes is the device memory the driver takes, once, at the
	// first prefetch to the GPU (100-odd MiB on an H200).
	DriverManagedBytes     uint64
	driverTaken, keptTaken bool

	Calls []string // every call, in order, e.g. "Launch(rmw,managed#2)"

	info      umkit.DeviceInfo
	used      uint64
	allowOver bool
	next      int
	clock     time.Duration // simulated wall clock
	queued    float64       // ms of GPU work since StartTimer
	timerOn   bool
	buffers   map[*Buffer]bool
	allocs    int                           // successful allocations
	launches  int                           // kernel launches
	homes     int                           // HomeFillHost calls
	hang      chan struct{}                 // closed by Release
	marks     [umkit.MaxMarks]time.Duration // Mark: the simulated clock
	threads   int                           // SetUpdateCPUs: UpdateHost's CPU time is divided by this
}

// Buffer is a simulated allocation.
type Buffer struct {
	id     int
	kind   umkit.MemKind
	bytes  uint64
	data   []float64 // nil when symbolic
	onGPU  bool      // managed pages resident on the GPU
	moved  bool      // a prefetch moved managed pages to the GPU
	advice []umkit.Advice
	freed  bool
}

func (b *Buffer) Kind() umkit.MemKind { return b.kind }
func (b *Buffer) Bytes() uint64       { return b.bytes }
func (b *Buffer) String() string      { return fmt.Sprintf("%s#%d", b.kind, b.id) }

// New returns a simulated H200-like device with 80 GiB of memory.
func New() *Device {
	return &Device{
		HBMGBps: 4000, LinkGBps: 50, FaultGBps: 8, CPUGBps: 20, LaunchMs: 0.005,
		DataLimit: 16 << 20, Total: 80 << 30, Margin: 1 << 30,
		info: umkit.DeviceInfo{
			Name: "Fake GPU", UUID: "GPU-00000000-0000-0000-0000-000000000000", TotalMemory: 80 << 30,
			Multiprocessors: 132, PeakMemoryGBps: 4800, ManagedMemory: true, ConcurrentManagedAccess: true,
			CanMapHostMemory: true, Simulated: true,
		},
		buffers: map[*Buffer]bool{},
		hang:    make(chan struct{}),
	}
}

// NewGPU returns the simulated device of ordinal i of a simulated node: New with
// its own ordinal and UUID.
func NewGPU(i int) *Device {
	d := New()
	d.info.Ordinal = i
	d.info.UUID = fmt.Sprintf("GPU-00000000-0000-0000-0000-%012d", i)
	return d
}

// SetMemory sets the device memory size (a smaller simulated GPU).
func (d *Device) SetMemory(bytes uint64) {
	d.Total, d.info.TotalMemory = bytes, bytes
	if d.Margin > bytes/8 {
		d.Margin = bytes / 8
	}
}

// Abort is what the hang watchdog calls on a device it declares hung: it
// releases hung launches.
func (d *Device) Abort() { d.Release() }

// Release lets every hung launch (HangAfter) and set-up (HangHomeAfter)
// return, with an error.
func (d *Device) Release() {
	select {
	case <-d.hang:
	default:
		close(d.hang)
	}
}

// SetInfo replaces the device facts (e.g. to remove concurrent managed access).
func (d *Device) SetInfo(i umkit.DeviceInfo) { d.info = i }

func (d *Device) log(format string, a ...any) { d.Calls = append(d.Calls, fmt.Sprintf(format, a...)) }

// Reset clears the call log.
func (d *Device) Reset() { d.Calls = nil }

// Live returns the number of buffers not yet freed.
func (d *Device) Live() int { return len(d.buffers) }

func (d *Device) Info() umkit.DeviceInfo { return d.info }

func (d *Device) MemInfo() (uint64, uint64, error) { return d.free(), d.Total, nil }

func (d *Device) MemoryMargin() uint64 { return d.Margin }

func (d *Device) AllowOversubscription(allowed bool) {
	d.allowOver = allowed
	d.log("AllowOversubscription(%t)", allowed)
}

func (d *Device) Alloc(kind umkit.MemKind, bytes uint64) (umkit.Buffer, error) {
	return d.alloc(kind, bytes, 0)
}

// Reallocate frees old and allocates managed memory of its size, which may
// use cuda.ReplaceSlack of the margin (umkit.Reallocator). Memory other
// than managed is refused before anything is freed.
func (d *Device) Reallocate(old umkit.Buffer) (umkit.Buffer, error) {
	x := fb(old)
	if x.kind != umkit.ManagedMem {
		return nil, fmt.Errorf("simgpu: reallocating %s memory: %w", x.kind, cuda.ErrInvalidArgument)
	}
	d.log("Reallocate(%s)", x) // then the Free and the Alloc
	if err := d.Free(x); err != nil {
		return nil, err
	}
	return d.alloc(umkit.ManagedMem, x.bytes, cuda.ReplaceSlack(d.Margin))
}

func (d *Device) free() uint64 { return d.Total - min(d.used, d.Total) }

// alloc is Alloc that may use slack bytes of the margin.
func (d *Device) alloc(kind umkit.MemKind, bytes, slack uint64) (umkit.Buffer, error) {
	if d.FailAlloc != nil {
		return nil, d.FailAlloc
	}
	if d.FailAllocAfter > 0 && d.allocs >= d.FailAllocAfter {
		return nil, fmt.Errorf("simgpu: allocation %d of %d bytes (injected failure after %d): %w",
			d.allocs+1, bytes, d.FailAllocAfter, cuda.ErrWouldOversubscribe)
	}
	if bytes == 0 {
		return nil, fmt.Errorf("simgpu: zero-byte allocation: %w", cuda.ErrInvalidArgument)
	}
	onDevice := kind == umkit.DeviceMem || kind == umkit.ManagedMem
	if onDevice && !(kind == umkit.ManagedMem && d.allowOver) && bytes+d.Margin-slack > d.free() {
		return nil, &cuda.OversubscribeError{What: kind.String(), Requested: bytes, Free: d.free(), Margin: d.Margin, Slack: slack}
	}
	d.next++
	d.allocs++
	b := &Buffer{id: d.next, kind: kind, bytes: bytes, onGPU: kind == umkit.DeviceMem}
	if bytes <= d.DataLimit {
		b.data = make([]float64, bytes/8)
	}
	if onDevice {
		d.used += bytes
	}
	d.buffers[b] = true
	d.log("Alloc(%s,%d)", b, bytes)
	return b, nil
}

func fb(b umkit.Buffer) *Buffer { return b.(*Buffer) }

func (d *Device) Free(b umkit.Buffer) error {
	x := fb(b)
	if x.freed {
		return errors.New("simgpu: double free of " + x.String())
	}
	x.freed = true
	if x.kind == umkit.DeviceMem || x.kind == umkit.ManagedMem {
		d.used -= x.bytes
	}
	if x.kind == umkit.ManagedMem && x.moved && !d.keptTaken && d.KeptAfterFree > 0 && x.bytes >= d.KeptAfterFreeFrom {
		d.keptTaken = true
		d.used += d.KeptAfterFree
	}
	delete(d.buffers, x)
	d.log("Free(%s)", x)
	return nil
}

// fillSeed writes seedValue(seed, i) to the first n elements it holds.
func (x *Buffer) fillSeed(n, seed uint64) {
	for i := range x.data[:min(n, uint64(len(x.data)))] {
		x.data[i] = seedValue(seed, uint64(i))
	}
}

// cpuTouch models the CPU reading and writing a buffer: managed pages come
// back to the CPU first.
func (d *Device) cpuTouch(b *Buffer, n uint64) {
	ms := float64(n*16) / (d.CPUGBps * d.speed(CPU) * 1e6)
	if b.kind == umkit.ManagedMem && b.onGPU { // CPU page faults bring the pages back
		ms += float64(b.bytes) / (d.LinkGBps * d.speed(Faults) * 1e6)
		b.onGPU = false
	}
	d.clock += time.Duration(ms * float64(time.Millisecond))
}

func (d *Device) FillHost(b umkit.Buffer, n, seed uint64) error {
	x := fb(b)
	if x.kind == umkit.DeviceMem {
		return fmt.Errorf("simgpu: FillHost of device memory: %w", cuda.ErrInvalidArgument)
	}
	d.log("FillHost(%s)", x)
	d.cpuTouch(x, n)
	x.fillSeed(n, seed)
	return nil
}

// HomeFillHost is Prefetch(b, ToCPU) and FillHost overlapped: the
// simulated clock advances by the slower of the two; it returns the write.
func (d *Device) HomeFillHost(b umkit.Buffer, n, seed uint64) (float64, error) {
	x := fb(b)
	if x.kind != umkit.ManagedMem {
		return 0, fmt.Errorf("simgpu: HomeFillHost of %s memory: %w", x.kind, cuda.ErrInvalidArgument)
	}
	if !d.info.ConcurrentManagedAccess {
		return 0, fmt.Errorf("simgpu: HomeFillHost: %w", cuda.ErrUnsupported)
	}
	d.log("HomeFillHost(%s)", x)
	d.homes++
	if d.HangHomeAfter > 0 && d.homes > d.HangHomeAfter {
		<-d.hang
		return 0, fmt.Errorf("simgpu: HomeFillHost %d hung (injected after %d) and was released", d.homes, d.HangHomeAfter)
	}
	move := 0.0
	if x.onGPU {
		move = float64(x.bytes) / (d.LinkGBps * d.speed(Faults) * 0.5 * 1e6)
	}
	write := float64(n*16) / (d.CPUGBps * d.speed(CPU) * 1e6)
	x.onGPU = false
	d.clock += time.Duration(max(move, write) * float64(time.Millisecond))
	x.fillSeed(n, seed)
	return write, nil
}

func (d *Device) UpdateHost(b umkit.Buffer, n uint64, mul, add float64) error {
	x := fb(b)
	d.log("UpdateHost(%s)", x)
	d.cpuTouch(x, n/uint64(max(d.threads, 1)))
	for i := range x.data[:min(n, uint64(len(x.data)))] {
		x.data[i] = x.data[i]*mul + add
	}
	return nil
}

func (d *Device) CheckHost(b umkit.Buffer, e umkit.Expect) (umkit.Mismatch, error) {
	x := fb(b)
	d.log("CheckHost(%s)", x)
	d.cpuTouch(x, 0)
	return check(x, e), nil
}

// gpuTouch models a kernel reading and writing bytes of b and returns ms.
func (d *Device) gpuTouch(b *Buffer, bytes uint64) float64 {
	switch {
	case b.kind == umkit.PageableMem:
		return float64(bytes) / (d.LinkGBps * d.speed(Pageable) * 1e6)
	case b.kind == umkit.MappedMem || b.kind == umkit.PinnedMem:
		return float64(bytes) / (d.LinkGBps * d.speed(Link) * 1e6)
	case b.kind == umkit.ManagedMem && !b.onGPU:
		if slices.Contains(b.advice, umkit.PreferCPU) { // mapped for the GPU through faults
			return float64(bytes) / (d.LinkGBps * d.speed(Faults) * 1e6)
		}
		b.onGPU = true
		return float64(b.bytes)/(d.FaultGBps*d.speed(Faults)*1e6) + float64(bytes)/(d.HBMGBps*d.speed(HBM)*1e6)
	}
	return float64(bytes) / (d.HBMGBps * d.speed(HBM) * 1e6)
}

// queue adds GPU work of ms, and one operation's fixed cost charged to
// resource fixed (Launch for kernels; a copy's or prefetch's own path).
func (d *Device) queue(ms float64, fixed Resource) {
	ms += d.LaunchMs / d.speed(fixed)
	d.queued += ms
	d.clock += time.Duration(ms * float64(time.Millisecond))
}

func (d *Device) Fill(b umkit.Buffer, n, seed uint64) error {
	x := fb(b)
	d.log("Fill(%s)", x)
	d.queue(d.gpuTouch(x, n*8), Launch)
	x.fillSeed(n, seed)
	return nil
}

func (d *Device) Copy(dst, src umkit.Buffer, bytes uint64) error {
	s, t := fb(src), fb(dst)
	d.log("Copy(%s<-%s)", t, s)
	path, rate := HBM, d.HBMGBps
	switch {
	case s.kind == umkit.PageableMem || t.kind == umkit.PageableMem: // staged by the CPU
		path, rate = Pageable, d.LinkGBps
	case s.kind != umkit.DeviceMem || t.kind != umkit.DeviceMem:
		path, rate = Link, d.LinkGBps
	}
	rate *= d.speed(path)
	d.queue(float64(bytes)/(rate*1e6), path)
	if s.data != nil && t.data != nil {
		copy(t.data, s.data[:bytes/8])
	}
	return nil
}

func (d *Device) Prefetch(b umkit.Buffer, to umkit.Location) error {
	x := fb(b)
	if x.kind != umkit.ManagedMem {
		return fmt.Errorf("simgpu: prefetch of %s memory: %w", x.kind, cuda.ErrInvalidArgument)
	}
	if !d.info.ConcurrentManagedAccess {
		return fmt.Errorf("simgpu: prefetch: %w", cuda.ErrUnsupported)
	}
	dir := map[umkit.Location]string{umkit.ToGPU: "gpu", umkit.ToCPU: "cpu"}[to]
	d.log("Prefetch(%s,%s)", x, dir)
	if (to == umkit.ToGPU) != x.onGPU {
		d.queue(float64(x.bytes)/(d.LinkGBps*d.speed(Faults)*0.5*1e6), Faults) // the driver's page work
	} else {
		d.queue(0, Faults)
	}
	x.onGPU = to == umkit.ToGPU
	x.moved = x.moved || to == umkit.ToGPU
	if to == umkit.ToGPU && !d.driverTaken {
		d.driverTaken = true
		d.used += d.DriverManagedBytes
	}
	return nil
}

func (d *Device) Advise(b umkit.Buffer, a umkit.Advice) error {
	x := fb(b)
	d.log("Advise(%s,%d)", x, a)
	x.advice = append(x.advice, a)
	return nil
}

func (d *Device) StartTimer() error {
	d.log("StartTimer")
	d.queued, d.timerOn = 0, true
	return nil
}

func (d *Device) StopTimer() (float64, error) {
	if !d.timerOn {
		return 0, errors.New("simgpu: StopTimer without StartTimer")
	}
	d.log("StopTimer")
	d.timerOn = false
	return d.queued, nil
}

// TimeKernel logs Hold (where the real device holds its stream), then is
// StartTimer, Launch, StopTimer.
func (d *Device) TimeKernel(k umkit.Kernel) (float64, error) {
	d.log("Hold")
	if err := d.StartTimer(); err != nil {
		return 0, err
	}
	if err := d.Launch(k); err != nil {
		return 0, err
	}
	return d.StopTimer()
}

func (d *Device) Sync() error { d.log("Sync"); return nil }

// Mark records the simulated clock: the simulation finishes GPU work as it is queued.
func (d *Device) Mark(i int) error {
	if i < 0 || i >= umkit.MaxMarks {
		return fmt.Errorf("simgpu: mark %d: %w", i, cuda.ErrInvalidArgument)
	}
	d.log("Mark(%d)", i)
	d.marks[i] = d.clock
	return nil
}

// MarkedMs returns the simulated time between two marks.
func (d *Device) MarkedMs(i, j int) (float64, error) {
	if i < 0 || j < 0 || i >= umkit.MaxMarks || j >= umkit.MaxMarks {
		return 0, fmt.Errorf("simgpu: marks %d, %d: %w", i, j, cuda.ErrInvalidArgument)
	}
	return float64(d.marks[j]-d.marks[i]) / float64(time.Millisecond), nil
}

// SetUpdateCPUs makes UpdateHost's simulated CPU time len(cpus) times shorter.
func (d *Device) SetUpdateCPUs(cpus []int) error {
	d.log("SetUpdateCPUs(%d)", len(cpus))
	d.threads = len(cpus)
	return nil
}

func (d *Device) Now() time.Duration { return d.clock }

func (d *Device) Placement(b umkit.Buffer) (string, error) {
	x := fb(b)
	if x.kind != umkit.ManagedMem {
		return x.kind.String(), nil
	}
	where := "cpu"
	if x.onGPU {
		where = "gpu"
	}
	var adv []string
	for _, a := range x.advice {
		adv = append(adv, fmt.Sprint(int(a)))
	}
	return fmt.Sprintf("fake:resident=%s;advice=%s", where, strings.Join(adv, ",")), nil
}

func (d *Device) Close() error { d.log("Close"); return nil }

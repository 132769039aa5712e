package umkit

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// DefaultKernelTimeout is how long one device wait may take before the run
// is declared hung, when Options.KernelTimeout is zero. A wait's deadline is
// the larger of it and 20 times the slowest wait so far in the same
// configuration, so configurations slow by nature (oversubscription) get
// room in proportion.
const DefaultKernelTimeout = 10 * time.Minute

// ErrHung is matched by the error Run returns when a device wait passed its
// deadline.
var ErrHung = errors.New("the GPU stopped responding")

// HangError says which device call hung, in which configuration, and how
// long it was waited for.
type HangError struct {
	Call, Config  string
	Waited, Limit time.Duration
}

func (e *HangError) Error() string {
	return fmt.Sprintf("%v: %s in configuration %q did not return within %s (waited %s; --kernel-timeout sets the limit)",
		ErrHung, e.Call, e.Config, e.Limit, e.Waited.Round(time.Millisecond))
}

// Is makes errors.Is(err, ErrHung) true.
func (e *HangError) Is(target error) bool { return target == ErrHung }

// watchdog times every device call the runner makes.
type watchdog struct {
	limit time.Duration
	fired chan *HangError
	abort func() // called when it fires: the device's polling waits give up

	mu      sync.Mutex
	config  string
	call    string
	since   time.Time
	inCall  bool
	slowest time.Duration
	done    bool
}

func newWatchdog(limit time.Duration) *watchdog {
	return &watchdog{limit: limit, fired: make(chan *HangError, 1)}
}

func (w *watchdog) setConfig(c string) {
	w.mu.Lock()
	w.config, w.slowest = c, 0
	w.mu.Unlock()
}

func (w *watchdog) enter(call string) {
	w.mu.Lock()
	w.call, w.since, w.inCall = call, time.Now(), true
	w.mu.Unlock()
}

func (w *watchdog) leave() {
	w.mu.Lock()
	if d := time.Since(w.since); d > w.slowest {
		w.slowest = d
	}
	w.inCall = false
	w.mu.Unlock()
}

func (w *watchdog) deadline() time.Duration { return max(w.limit, 20*w.slowest) }

// run sends one HangError on fired when a call passes its deadline, until
// stop is closed.
func (w *watchdog) run(stop <-chan struct{}) {
	tick := time.NewTicker(min(max(w.limit/20, 5*time.Millisecond), time.Second))
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		w.mu.Lock()
		if w.inCall && !w.done {
			if waited, limit := time.Since(w.since), w.deadline(); waited > limit {
				w.done = true
				w.fired <- &HangError{Call: w.call, Config: w.config, Waited: waited, Limit: limit}
				w.mu.Unlock()
				if w.abort != nil {
					w.abort()
				}
				return
			}
		}
		w.mu.Unlock()
	}
}

// watchedDevice is a Device whose every call that can wait on the GPU is
// timed by a watchdog. The run goroutine may stay blocked in a hung call
// while Run returns.
type watchedDevice struct {
	Device
	w *watchdog
}

// The optional interfaces pass through, their waits watched; callers ask
// optional first.
func (d watchedDevice) Mark(i int) error {
	m, ok := d.Device.(Marker)
	if !ok {
		return errNotOffered("Mark")
	}
	return d.do("Mark", func() error { return m.Mark(i) })
}
func (d watchedDevice) MarkedMs(i, j int) (float64, error) {
	m, ok := d.Device.(Marker)
	if !ok {
		return 0, errNotOffered("MarkedMs")
	}
	return watch(d, "MarkedMs (event wait)", func() (float64, error) { return m.MarkedMs(i, j) })
}
func (d watchedDevice) HomeFillHost(b Buffer, n, seed uint64) (float64, error) {
	h, ok := d.Device.(HomeFiller)
	if !ok {
		return 0, errNotOffered("HomeFillHost")
	}
	return watch(d, "HomeFillHost", func() (float64, error) { return h.HomeFillHost(b, n, seed) })
}
func (d watchedDevice) Reallocate(old Buffer) (Buffer, error) {
	re, ok := d.Device.(Reallocator)
	if !ok {
		return nil, errNotOffered("Reallocate")
	}
	return watch(d, "Reallocate", func() (Buffer, error) { return re.Reallocate(old) })
}
func (d watchedDevice) SetUpdateCPUs(cpus []int) error {
	t, ok := d.Device.(UpdateThreader)
	if !ok {
		return errNotOffered("SetUpdateCPUs")
	}
	return t.SetUpdateCPUs(cpus)
}

func (d watchedDevice) do(call string, f func() error) error {
	d.w.enter(call)
	defer d.w.leave()
	return f()
}

func watch[T any](d watchedDevice, call string, f func() (T, error)) (T, error) {
	d.w.enter(call)
	defer d.w.leave()
	return f()
}

func (d watchedDevice) Alloc(kind MemKind, bytes uint64) (Buffer, error) {
	return watch(d, "Alloc("+kind.String()+")", func() (Buffer, error) { return d.Device.Alloc(kind, bytes) })
}
func (d watchedDevice) Free(b Buffer) error {
	return d.do("Free", func() error { return d.Device.Free(b) })
}
func (d watchedDevice) FillHost(b Buffer, n, seed uint64) error {
	return d.do("FillHost", func() error { return d.Device.FillHost(b, n, seed) })
}
func (d watchedDevice) UpdateHost(b Buffer, n uint64, mul, add float64) error {
	return d.do("UpdateHost", func() error { return d.Device.UpdateHost(b, n, mul, add) })
}
func (d watchedDevice) CheckHost(b Buffer, e Expect) (Mismatch, error) {
	return watch(d, "CheckHost", func() (Mismatch, error) { return d.Device.CheckHost(b, e) })
}
func (d watchedDevice) Fill(b Buffer, n, seed uint64) error {
	return d.do("Fill", func() error { return d.Device.Fill(b, n, seed) })
}
func (d watchedDevice) Copy(dst, src Buffer, bytes uint64) error {
	return d.do("Copy", func() error { return d.Device.Copy(dst, src, bytes) })
}
func (d watchedDevice) Prefetch(b Buffer, to Location) error {
	return d.do("Prefetch", func() error { return d.Device.Prefetch(b, to) })
}
func (d watchedDevice) Advise(b Buffer, a Advice) error {
	return d.do("Advise", func() error { return d.Device.Advise(b, a) })
}
func (d watchedDevice) Launch(k Kernel) error {
	return d.do("Launch("+k.Kind.String()+")", func() error { return d.Device.Launch(k) })
}
func (d watchedDevice) PermFill(idx Buffer, n, seed uint64) error {
	return d.do("PermFill", func() error { return d.Device.PermFill(idx, n, seed) })
}
func (d watchedDevice) Check(b Buffer, e Expect) (Mismatch, error) {
	return watch(d, "Check", func() (Mismatch, error) { return d.Device.Check(b, e) })
}
func (d watchedDevice) StartTimer() error {
	return d.do("StartTimer", d.Device.StartTimer)
}
func (d watchedDevice) StopTimer() (float64, error) {
	return watch(d, "StopTimer (event wait)", d.Device.StopTimer)
}
func (d watchedDevice) TimeKernel(k Kernel) (float64, error) {
	return watch(d, "TimeKernel("+k.Kind.String()+")", func() (float64, error) { return d.Device.TimeKernel(k) })
}
func (d watchedDevice) Sync() error { return d.do("Sync (stream wait)", d.Device.Sync) }
func (d watchedDevice) Placement(b Buffer) (string, error) {
	return watch(d, "Placement", func() (string, error) { return d.Device.Placement(b) })
}

// runWatched runs the plan in its own goroutine so that a hung device wait
// cannot keep Run from returning: it returns the plan's error, or a
// *HangError as soon as the watchdog fires (the process should then exit).
func runWatched(ctx context.Context, r *runner, p Plan, wd *watchdog) error {
	if wd == nil {
		return r.runPlan(ctx, p)
	}
	stop := make(chan struct{})
	defer close(stop)
	go wd.run(stop)
	done := make(chan error, 1)
	go func() { done <- r.runPlan(ctx, p) }()
	select {
	case err := <-done:
		return err
	case h := <-wd.fired:
		return h
	}
}

package umkit

import (
	"errors"
	"fmt"

	"github.com/umlab/umlab/cuda"
)

// MaxMarks is how many marks a Marker keeps.
const MaxMarks = 8

// Marker is implemented by devices that can time stretches of queued GPU
// work without synchronizing in between: Mark queues mark i (0 ≤ i <
// MaxMarks) on the stream, MarkedMs returns the GPU time between two marks.
// The handoff benchmark splits an alternating trial into its parts with it.
type Marker interface {
	Mark(i int) error
	MarkedMs(i, j int) (float64, error) // synchronizes on mark j
}

// UpdateThreader is implemented by devices whose UpdateHost can run on
// several threads: after SetUpdateCPUs(cpus), UpdateHost splits the update
// over len(cpus) threads, thread k > 0 pinned to cpus[k] (negative:
// unpinned). Nil or one CPU restores the single-threaded update.
type UpdateThreader interface {
	SetUpdateCPUs(cpus []int) error
}

// HomeFiller is implemented by devices that can bring a managed buffer
// home to the CPU and rewrite it there as FillHost does, overlapping the
// two: the state Prefetch(b, ToCPU), Sync and FillHost leave, in less time.
// It returns the CPU's write time in ms.
type HomeFiller interface {
	HomeFillHost(b Buffer, n, seed uint64) (writeMs float64, err error)
}

// Reallocator is implemented by devices that can replace a managed buffer
// with a fresh one of its size that may use part of the free-memory margin:
// after a prefetch to the GPU a freed buffer's memory does not all read as
// free again, so a plain Free and Alloc near the capacity is refused. A
// buffer that is not managed is refused before anything is freed; any
// other error leaves old freed.
type Reallocator interface {
	Reallocate(old Buffer) (Buffer, error)
}

// optional returns d as the optional interface T when it offers it: the
// watchdog's wrapper implements each T by passing calls through, so there
// T counts only where the device underneath implements it too.
func optional[T any](d Device) (T, bool) {
	t, ok := any(d).(T)
	if w, wraps := d.(watchedDevice); ok && wraps {
		_, ok = any(w.Device).(T)
	}
	return t, ok
}

// errNotOffered is a wrapper's answer to an optional call its device lacks.
func errNotOffered(call string) error {
	return fmt.Errorf("umkit: %s: not offered by this device", call)
}

// marks are the cuda device's Marker events, created on first use.
type marks struct {
	ev [MaxMarks]*cuda.Event
}

func (d *cudaDevice) Mark(i int) error {
	if i < 0 || i >= MaxMarks {
		return fmt.Errorf("umkit: mark %d: allowed 0 to %d", i, MaxMarks-1)
	}
	if d.marks.ev[i] == nil {
		e, err := d.c.NewEvent()
		if err != nil {
			return err
		}
		d.marks.ev[i] = e
	}
	return d.marks.ev[i].Record(d.s)
}

func (d *cudaDevice) MarkedMs(i, j int) (float64, error) {
	if i < 0 || j < 0 || i >= MaxMarks || j >= MaxMarks || d.marks.ev[i] == nil || d.marks.ev[j] == nil {
		return 0, fmt.Errorf("umkit: marks %d and %d: not both recorded", i, j)
	}
	return cuda.ElapsedMs(d.marks.ev[i], d.marks.ev[j])
}

func (m *marks) destroy() error {
	var errs []error
	for i, e := range m.ev {
		if e != nil {
			errs = append(errs, e.Destroy())
			m.ev[i] = nil
		}
	}
	return errors.Join(errs...)
}

func (d *cudaDevice) SetUpdateCPUs(cpus []int) error {
	if len(cpus) > cuda.MaxUpdateThreads {
		return fmt.Errorf("umkit: %d CPU-update threads: at most %d", len(cpus), cuda.MaxUpdateThreads)
	}
	d.updateCPUs = append([]int(nil), cpus...)
	return nil
}

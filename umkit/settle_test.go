package umkit

import (
	"errors"
	"testing"
)

// scripted is a Device whose timed regions last what the script says;
// only what settle calls is implemented.
type scripted struct {
	Device
	times    []float64
	launches []Kernel
	allocErr error
}

type scratchBuf uint64

func (b scratchBuf) Kind() MemKind { return DeviceMem }
func (b scratchBuf) Bytes() uint64 { return uint64(b) }

func (d *scripted) Info() DeviceInfo { return DeviceInfo{Name: "scripted"} }
func (d *scripted) Alloc(_ MemKind, n uint64) (Buffer, error) {
	if d.allocErr != nil {
		return nil, d.allocErr
	}
	return scratchBuf(n), nil
}
func (d *scripted) Free(Buffer) error     { return nil }
func (d *scripted) StartTimer() error     { return nil }
func (d *scripted) Launch(k Kernel) error { d.launches = append(d.launches, k); return nil }
func (d *scripted) StopTimer() (float64, error) {
	if len(d.times) == 0 {
		return 1, nil
	}
	t := d.times[0]
	d.times = d.times[1:]
	return t, nil
}

func TestSettleStopsWhenTheClocksHaveRisen(t *testing.T) {
	for _, c := range []struct {
		name  string
		times []float64
		want  int
	}{
		{"steady from the start", []float64{1, 1, 1, 1, 1}, settleMinPasses},
		{"ramping for six passes", []float64{3, 2.5, 2, 1.6, 1.3, 1.1, 1.0, 1.0, 1.0}, 8},
		{"noise within the tolerance", []float64{2, 1.5, 1.2, 1.0, 1.005, 0.998}, 5},
		{"never steady", func() []float64 {
			var ts []float64
			for i := range settleMaxPasses + 5 {
				ts = append(ts, 100/float64(i+1))
			}
			return ts
		}(), settleMaxPasses},
	} {
		dev := &scripted{times: c.times}
		r := newRunner(dev, "test")
		n, err := r.settle()
		if err != nil || n != c.want {
			t.Errorf("%s: %d passes (%v), want %d", c.name, n, err, c.want)
		}
		for _, k := range dev.launches {
			if k.Kind != KRMW || k.Mul != 1 || k.Add != 0 || k.N != settleBytes/8 {
				t.Errorf("%s: settling kernel %+v changes data or size", c.name, k)
			}
		}
		r.close()
	}
}

func TestSettleWithoutRoomWarnsOnce(t *testing.T) {
	dev := &scripted{allocErr: errors.New("out of memory")}
	r := newRunner(dev, "test")
	var warned []string
	r.warn = func(m string) { warned = append(warned, m) }
	for range 3 {
		if n, err := r.settle(); n != 0 || err != nil {
			t.Errorf("settle without a scratch buffer: %d passes, %v", n, err)
		}
	}
	if len(warned) != 1 {
		t.Errorf("warnings %q, want one", warned)
	}
}

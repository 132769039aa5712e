package umkit

import (
	"slices"
	"testing"
)

// TestHandoffOrder: sequential keeps configurations together; interleaved
// gives each repetition a seeded permutation of every configuration, the
// same for the same seed, different for another seed or repetition.
func TestHandoffOrder(t *testing.T) {
	seq := handoffOrder(3, 2, "sequential", 1)
	want := []handoffBlock{{0, 0, 0}, {0, 1, 0}, {1, 0, 1}, {1, 1, 1}, {2, 0, 2}, {2, 1, 2}}
	if !slices.Equal(seq, want) {
		t.Errorf("sequential %v, want %v", seq, want)
	}
	const n, reps = 40, 3
	a, b, c := handoffOrder(n, reps, "interleaved", 1), handoffOrder(n, reps, "interleaved", 1), handoffOrder(n, reps, "interleaved", 2)
	if !slices.Equal(a, b) {
		t.Error("same seed, different orders")
	}
	if slices.Equal(a, c) {
		t.Error("different seeds, same order")
	}
	perRep := make([][]int, reps)
	for i, blk := range a {
		if blk.rep != i/n || blk.index != i%n {
			t.Fatalf("block %d: %+v: repetitions must run one after another, index = position", i, blk)
		}
		perRep[blk.rep] = append(perRep[blk.rep], blk.conf)
	}
	for r, p := range perRep {
		s := slices.Sorted(slices.Values(p))
		for i, v := range s {
			if v != i {
				t.Fatalf("repetition %d is not a permutation: %v", r, p)
			}
		}
	}
	if slices.Equal(perRep[0], perRep[1]) {
		t.Error("repetitions 0 and 1 share an order")
	}
	identity := true
	for i, v := range perRep[0] {
		identity = identity && v == i
	}
	if identity {
		t.Error("interleaved order is the sequential one")
	}
}

// TestNeedsSettling: a block starts with a settling iteration only when
// another phase used its buffers since its last block; alternating blocks
// at other R leave the data where an alternating iteration starts from.
func TestNeedsSettling(t *testing.T) {
	h := &handoffData{}
	alt1, alt32 := h.conf("alternating", 1), h.conf("alternating", 32)
	cpu, gpu := h.conf("cpu_only", 0), h.conf("gpu_only", 0)
	for _, tc := range []struct {
		prev, c *handoffConf
		want    bool
	}{
		{nil, alt1, false}, {alt1, alt1, false}, {alt32, alt1, false},
		{cpu, alt1, true}, {gpu, alt1, true}, {alt1, cpu, true}, {alt1, gpu, true}, {cpu, gpu, true}, {gpu, gpu, false},
	} {
		if got := needsSettling(tc.prev, tc.c); got != tc.want {
			name := func(c *handoffConf) string {
				if c == nil {
					return "none"
				}
				return c.label
			}
			t.Errorf("after %s, %s: settle %v, want %v", name(tc.prev), name(tc.c), got, tc.want)
		}
	}
}

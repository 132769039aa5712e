package nvmlguard

import (
	"slices"
	"testing"
)

func TestCPUs(t *testing.T) {
	got := CPUs([]uint{0b1011, 0, 1 << 63, 1})
	want := []int{0, 1, 3, 191, 192}
	if !slices.Equal(got, want) {
		t.Errorf("CPUs = %v, want %v", got, want)
	}
	if CPUs(nil) != nil {
		t.Errorf("CPUs(nil) not empty")
	}
}

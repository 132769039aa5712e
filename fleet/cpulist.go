package fleet

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// FormatCPUs writes a CPU list in the kernel's form, e.g. "0-15,32-47".
func FormatCPUs(cpus []int) string {
	c := slices.Clone(cpus)
	slices.Sort(c)
	c = slices.Compact(c)
	var b strings.Builder
	for i := 0; i < len(c); {
		j := i
		for j+1 < len(c) && c[j+1] == c[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		if j == i {
			fmt.Fprint(&b, c[i])
		} else {
			fmt.Fprintf(&b, "%d-%d", c[i], c[j])
		}
		i = j + 1
	}
	return b.String()
}

// ParseCPUs reads a CPU list such as "0-15,32-47" or "3".
func ParseCPUs(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		lo, hi, isRange := strings.Cut(f, "-")
		a, err := strconv.Atoi(lo)
		b := a
		if err == nil && isRange {
			b, err = strconv.Atoi(hi)
		}
		if err != nil || a < 0 || b < a || b >= 1<<16 {
			return nil, fmt.Errorf("fleet: CPU list %q: %q is not a CPU number or range such as 0-15", s, f)
		}
		for c := a; c <= b; c++ {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("fleet: CPU list %q is empty", s)
	}
	return out, nil
}

// ParseGPUs reads a --gpus value: "all" (returns nil, true) or ordinals and
// ranges such as "0,1" or "0-3".
func ParseGPUs(s string) (ordinals []int, all bool, err error) {
	if strings.TrimSpace(s) == "all" {
		return nil, true, nil
	}
	o, err := ParseCPUs(s)
	if err != nil {
		return nil, false, fmt.Errorf("--gpus %q: want all, or GPU ordinals such as 0,1 or 0-3", s)
	}
	slices.Sort(o)
	return slices.Compact(o), false, nil
}

package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseSize reads a byte size such as 1GiB, 256MiB, 64KiB, 4096 or 1.5GB.
// Binary suffixes (KiB, MiB, GiB, TiB) are powers of 1024; decimal ones (KB,
// MB, GB, TB) powers of 1000; K, M, G alone are binary.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	units := []struct {
		suffix string
		mul    float64
	}{
		{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10},
		{"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3},
		{"T", 1 << 40}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1},
	}
	mul := 1.0
	for _, u := range units {
		if len(t) > len(u.suffix) && strings.EqualFold(t[len(t)-len(u.suffix):], u.suffix) {
			t, mul = strings.TrimSpace(t[:len(t)-len(u.suffix)]), u.mul
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || !(v*mul >= 1) || v*mul > 1<<50 {
		return 0, fmt.Errorf("size %q: want a positive number of bytes with an optional unit, e.g. 4096, 64KiB, 256MiB, 1GiB", s)
	}
	return int64(v * mul), nil
}

// sizeList parses a comma-separated list of sizes.
func sizeList(s string) ([]int64, error) {
	if s == "" {
		return nil, nil
	}
	var out []int64
	for _, f := range strings.Split(s, ",") {
		v, err := ParseSize(f)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// floatList parses a comma-separated list of numbers.
func floatList(s, what string) ([]float64, error) {
	if s == "" {
		return nil, nil
	}
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return nil, fmt.Errorf("%s %q: want comma-separated finite numbers ≥ 0", what, f)
		}
		out = append(out, v)
	}
	return out, nil
}

func splitList(s string) []string {
	if s == "" {
		return nil
	}
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/umlab/umlab/results"
)

// ParseSize reads a byte size such as 1GiB, 256MiB, 64KiB, 4096 or 1.5GB
// (results.ParseBytes).
func ParseSize(s string) (int64, error) { return results.ParseBytes(s) }

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

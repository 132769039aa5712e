package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/umlab/umlab/results"
)

// parseList parses a comma-separated list with parse; "" is none.
func parseList[T any](s string, parse func(string) (T, error)) ([]T, error) {
	if s == "" {
		return nil, nil
	}
	var out []T
	for _, f := range strings.Split(s, ",") {
		v, err := parse(f)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// sizeList parses a comma-separated list of sizes (results.ParseBytes).
func sizeList(s string) ([]int64, error) { return parseList(s, results.ParseBytes) }

// floatList parses a comma-separated list of numbers.
func floatList(s, what string) ([]float64, error) {
	return parseList(s, func(f string) (float64, error) {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return 0, fmt.Errorf("%s %q: want comma-separated finite numbers ≥ 0", what, f)
		}
		return v, nil
	})
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

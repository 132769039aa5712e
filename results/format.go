package results

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// FormatBytes writes a byte count in binary units with up to four
// significant digits: 65536 is "64 KiB", 1<<30 is "1 GiB", 3<<29 is
// "1.5 GiB", 1000 is "1000 B". It is the one byte formatter of umlab: the
// command line, the figures, the model's notes and the benchmark labels all
// use it.
func FormatBytes(b int64) string { return formatBytes(b, 4) }

// ParseBytes reads a byte size such as 1GiB, 256MiB, 64KiB, 4096 or
// 1.5GB, the one size parser of umlab (flags, knobs). Binary suffixes
// (KiB, MiB, GiB, TiB) are powers of 1024; decimal ones (KB, MB, GB, TB)
// powers of 1000; K, M, G alone are binary.
func ParseBytes(s string) (int64, error) {
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

// formatBytes is FormatBytes with digits significant digits (whole
// numbers of a unit are written whole).
func formatBytes(b int64, digits int) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"}
	v, i := float64(b), 0
	for math.Abs(v) >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	if v == math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', -1, 64) + " " + units[i]
	}
	return strconv.FormatFloat(v, 'g', digits, 64) + " " + units[i]
}

// FormatNumber writes a measurement compactly: whole numbers from 100 up
// (3963, 14100), three significant digits below (14.1, 0.043), NaN as "".
func FormatNumber(v float64) string {
	switch {
	case math.IsNaN(v):
		return ""
	case math.Abs(v) >= 1e7:
		return strconv.FormatFloat(v, 'g', 3, 64)
	case math.Abs(v) >= 100:
		return strconv.FormatFloat(math.Round(v), 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// FormatRate writes a bandwidth in GB/s (1 GB = 1e9 bytes, the unit of
// ColGBps) as FormatNumber does, with its unit: "3963 GB/s", "21.6 GB/s";
// NaN is "".
func FormatRate(gbps float64) string {
	if math.IsNaN(gbps) {
		return ""
	}
	return FormatNumber(gbps) + " GB/s"
}

// Sig4 writes v to four significant digits, trailing zeros dropped and
// without an exponent ("4355", "12.97", "0.00416", "12346"); NaN is empty.
// The summary tables and the README use it.
func Sig4(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	if math.IsInf(v, 0) || math.Abs(v) < 1e4 {
		return strconv.FormatFloat(v, 'g', 4, 64)
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}

// Decimals4 is the number of decimals that shows v to four significant
// digits (none from 1000 up).
func Decimals4(v float64) int {
	a := math.Abs(v)
	if a == 0 || a >= 1000 {
		return 0
	}
	d := 3 - int(math.Floor(math.Log10(a)))
	// 999.96 rounds to 1000.0: one decimal fewer.
	if r := strconv.FormatFloat(a, 'f', d, 64); len(strings.TrimLeft(strings.Replace(r, ".", "", 1), "0")) > 4 {
		d--
	}
	return max(d, 0)
}

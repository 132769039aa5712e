package results

import (
	"math"
	"strconv"
)

// FormatBytes writes a byte count in binary units with up to four
// significant digits: 65536 is "64 KiB", 1<<30 is "1 GiB", 3<<29 is
// "1.5 GiB", 1000 is "1000 B". It is the one byte formatter of umlab: the
// command line, the figures, the model's notes and the benchmark labels all
// use it.
func FormatBytes(b int64) string { return formatBytes(b, 4) }

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

package results

import (
	"bytes"
	"os"
	"testing"
)

// benchRun is the full default suite of one H200 (17,478 rows), the run the
// fleet benchmarks copy to make synthetic fleets.
const benchRun = "../datasets/h200-2026-12-02-setuploops/results.csv"

func benchBytes(b *testing.B) []byte {
	buf, err := os.ReadFile(benchRun)
	if err != nil {
		b.Skip(err)
	}
	return buf
}

func BenchmarkReadCSV(b *testing.B) {
	buf := benchBytes(b)
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		if _, err := ReadCSV(bytes.NewReader(buf), benchRun); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSummarize(b *testing.B) {
	rows, err := ReadCSV(bytes.NewReader(benchBytes(b)), benchRun)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		Summarize(rows, SummaryOptions{})
	}
}

func BenchmarkRowReader(b *testing.B) {
	buf := benchBytes(b)
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		rr, err := NewRowReader(bytes.NewReader(buf), benchRun)
		if err != nil {
			b.Fatal(err)
		}
		var r Row
		for rr.Next(&r) == nil {
		}
	}
}

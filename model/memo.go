package model

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"math"
	"sync"

	"github.com/umlab/umlab/results"
)

// FitMemo fits the reuse model once per distinct input (rows by content,
// and options), keeping at most its capacity of reports, oldest out first.
// Safe for concurrent use; the reports are shared: do not modify them.
type FitMemo struct {
	mu    sync.Mutex
	cap   int
	order []fitKey
	fits  map[fitKey]*fitEntry
	Made  int // fits made: calls the memo could not answer
}

type fitKey [sha256.Size]byte

type fitEntry struct {
	once sync.Once
	rep  *Report
	err  error
}

// NewFitMemo returns a memo of at most capacity reports (8 when
// capacity ≤ 0).
func NewFitMemo(capacity int) *FitMemo {
	if capacity <= 0 {
		capacity = 8
	}
	return &FitMemo{cap: capacity, fits: map[fitKey]*fitEntry{}}
}

// Fits is the process's memo, for packages that fit the same rows without
// sharing a memo of their own (report, claims, plots).
var Fits = NewFitMemo(0)

// Fit is model.Fit(rows, o), made once per distinct rows and options.
func (m *FitMemo) Fit(rows []results.Row, o Options) (*Report, error) {
	k := fitKeyOf(rows, o)
	m.mu.Lock()
	e, ok := m.fits[k]
	if !ok {
		e = &fitEntry{}
		m.fits[k] = e
		m.order = append(m.order, k)
		if len(m.order) > m.cap {
			delete(m.fits, m.order[0])
			m.order = m.order[1:]
		}
		m.Made++
	}
	m.mu.Unlock()
	e.once.Do(func() { e.rep, e.err = Fit(rows, o) })
	return e.rep, e.err
}

// fitKeyOf is a digest of everything Fit reads: every field of every row
// (written as results.csv writes it) and every option.
func fitKeyOf(rows []results.Row, o Options) fitKey {
	h := sha256.New()
	hashRows(h, rows)
	num := func(x float64) { binary.Write(h, binary.LittleEndian, math.Float64bits(x)) }
	binary.Write(h, binary.LittleEndian, []int64{o.MinSizeBytes, int64(o.Resamples), int64(o.Seed), int64(len(o.Require)), int64(len(o.Counted))})
	for _, p := range o.Require {
		h.Write([]byte(p + "\x00"))
	}
	cfg := make([]results.Row, len(o.Counted))
	for i, c := range o.Counted {
		cfg[i] = c.Config
		num(c.HtoDBytes)
		num(c.DtoHBytes)
		num(c.CPUPageFaults)
		num(c.GPUFaultGroups)
		h.Write([]byte(c.Source + "\x00"))
	}
	hashRows(h, cfg)
	var k fitKey
	h.Sum(k[:0])
	return k
}

func hashRows(h hash.Hash, rows []results.Row) {
	w, _ := results.NewRowWriter(h)
	for i := range rows {
		w.Write(&rows[i])
	}
	w.Flush()
}

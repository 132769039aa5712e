package results

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// fieldPtr gives, for each column, a pointer to a row's field: a *string,
// *int64, *float64 or *bool as the column's kind says. It is the one table
// of fields: Value and set, the row reader, the writer and the checks read
// it, so that no value is boxed on its way in or out of a file.
var fieldPtr = map[string]func(r *Row) any{
	ColGroup:             func(r *Row) any { return &r.Group },
	ColBenchmark:         func(r *Row) any { return &r.Benchmark },
	ColMode:              func(r *Row) any { return &r.Mode },
	ColPattern:           func(r *Row) any { return &r.Pattern },
	ColPolicy:            func(r *Row) any { return &r.Policy },
	ColPhase:             func(r *Row) any { return &r.Phase },
	ColDirection:         func(r *Row) any { return &r.Direction },
	ColSizeBytes:         func(r *Row) any { return &r.SizeBytes },
	ColFootprintBytes:    func(r *Row) any { return &r.FootprintBytes },
	ColUsefulBytes:       func(r *Row) any { return &r.UsefulBytes },
	ColActiveElements:    func(r *Row) any { return &r.ActiveElements },
	ColStrideElements:    func(r *Row) any { return &r.StrideElements },
	ColPageIntervalBytes: func(r *Row) any { return &r.PageIntervalBytes },
	ColOversubPct:        func(r *Row) any { return &r.OversubPct },
	ColReusePasses:       func(r *Row) any { return &r.ReusePasses },
	ColRepetition:        func(r *Row) any { return &r.Repetition },
	ColTrial:             func(r *Row) any { return &r.Trial },
	ColWarmups:           func(r *Row) any { return &r.Warmups },
	ColKernelMs:          func(r *Row) any { return &r.KernelMs },
	ColPrefetchMs:        func(r *Row) any { return &r.PrefetchMs },
	ColTransferMs:        func(r *Row) any { return &r.TransferMs },
	ColCPUMs:             func(r *Row) any { return &r.CPUMs },
	ColTotalMs:           func(r *Row) any { return &r.TotalMs },
	ColGBps:              func(r *Row) any { return &r.GBps },
	ColVerified:          func(r *Row) any { return &r.Verified },
	ColPlacement:         func(r *Row) any { return &r.Placement },
	ColWaived:            func(r *Row) any { return &r.Waived },
	ColNote:              func(r *Row) any { return &r.Note },
	ColPlatform:          func(r *Row) any { return &r.Platform },
	ColGPUUUID:           func(r *Row) any { return &r.GPUUUID },
	ColHost:              func(r *Row) any { return &r.Host },
	ColRunID:             func(r *Row) any { return &r.RunID },
	ColSource:            func(r *Row) any { return &r.Source },
	ColReported:          func(r *Row) any { return &r.Reported },
	ColCPUThreads:        func(r *Row) any { return &r.CPUThreads },
	ColSyncMs:            func(r *Row) any { return &r.SyncMs },
	ColOrder:             func(r *Row) any { return &r.Order },
	ColOrderSeed:         func(r *Row) any { return &r.OrderSeed },
	ColOrderIndex:        func(r *Row) any { return &r.OrderIndex },
	ColSimulated:         func(r *Row) any { return &r.Simulated },
	ColRoundPosition:     func(r *Row) any { return &r.RoundPosition },
	ColBound:             func(r *Row) any { return &r.Bound },
}

// fieldAt is fieldPtr in the order of Columns; configAt the indices of
// ConfigColumns in Columns.
var (
	fieldAt  = make([]func(r *Row) any, len(Columns))
	configAt = make([]int, len(ConfigColumns))
)

func init() {
	for i, c := range Columns {
		fieldAt[i] = fieldPtr[c.Name]
	}
	for i, c := range ConfigColumns {
		configAt[i] = slices.Index(Names(Columns), c)
	}
}

// ConfigID is ConfigKey as a comparable value, for map keys: two rows
// have the same ConfigID exactly when they have the same ConfigKey
// (TestConfigID), and making one formats nothing.
type ConfigID struct {
	group, benchmark, mode, pattern, policy, phase, direction string
	size, footprint, stride, pageInterval, reuse, threads     int64
	oversub                                                   uint64 // bits; every NaN alike
	platform, uuid                                            string
}

// ConfigID returns the row's ConfigID.
func (r *Row) ConfigID() ConfigID {
	o := math.Float64bits(r.OversubPct)
	if math.IsNaN(r.OversubPct) {
		o = math.Float64bits(math.NaN())
	}
	return ConfigID{r.Group, r.Benchmark, r.Mode, r.Pattern, r.Policy, r.Phase, r.Direction,
		r.SizeBytes, r.FootprintBytes, r.StrideElements, r.PageIntervalBytes, r.ReusePasses, r.CPUThreads,
		o, r.Platform, r.GPUUUID}
}

// trialID identifies one trial: its configuration (an index given by a
// ConfigIndex), run, source, repetition and trial index. Two rows with
// the same trialID are the same trial twice.
type trialID struct {
	config, run, source int32 // numbered in order of first appearance (FirstSeen)
	repetition, trial   int64
}

// ConfigIndex numbers configurations in order of first appearance.
type ConfigIndex struct{ ids FirstSeen[ConfigID] }

// Of returns the number of r's configuration, and whether it is new.
func (x *ConfigIndex) Of(r *Row) (int32, bool) { return x.ids.Of(r.ConfigID()) }

// appendConfigKey appends ConfigKey(*r) to b.
func appendConfigKey(b []byte, r *Row) []byte {
	for i, at := range configAt {
		if i > 0 {
			b = append(b, '|')
		}
		b = appendField(b, fieldAt[at](r))
	}
	return b
}

// appendField appends the value p points to as ConfigKey writes it.
func appendField(b []byte, p any) []byte {
	switch x := p.(type) {
	case *string:
		return append(b, *x...)
	case *int64:
		return strconv.AppendInt(b, *x, 10)
	case *float64:
		return strconv.AppendFloat(b, *x, 'g', -1, 64)
	case *bool:
		return strconv.AppendBool(b, *x)
	}
	return b
}

// appendCSVField appends one field of a results CSV: NaN empty, floats
// with full precision.
func appendCSVField(b []byte, p any) []byte {
	if x, ok := p.(*float64); ok && math.IsNaN(*x) {
		return b
	}
	return appendField(b, p)
}

// kindAt is the kind of the field p points to.
func kindAt(p any) Kind {
	switch p.(type) {
	case *int64:
		return Int
	case *float64:
		return Float
	case *bool:
		return Bool
	}
	return String
}

// valueOf is the value p points to.
func valueOf(p any) any {
	switch x := p.(type) {
	case *string:
		return *x
	case *int64:
		return *x
	case *float64:
		return *x
	case *bool:
		return *x
	}
	return nil
}

// setField assigns v, of the pointer's type, to the field p points to; a
// value of another type assigns the zero value, as set always has.
func setField(p any, v any) {
	switch x := p.(type) {
	case *string:
		*x, _ = v.(string)
	case *int64:
		*x, _ = v.(int64)
	case *float64:
		*x, _ = v.(float64)
	case *bool:
		*x, _ = v.(bool)
	}
}

func unknownColumn(col string) error { return fmt.Errorf("results: unknown column %q", col) }

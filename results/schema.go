package results

import (
	_ "embed"
	"fmt"
	"math"
	"strings"

	"github.com/go-gota/gota/dataframe"
)

// Column names of the tidy schema, in the order they are written. Their
// kinds, units and descriptions are in [Columns].
const (
	ColGroup             = "group"               // benchmark group: hbm, host, transfer, managed, pattern, oversub, handoff
	ColBenchmark         = "benchmark"           // named benchmark within the group, e.g. triad, stream, strided
	ColMode              = "mode"                // memory mode: explicit, managed_cold, managed_prefetch, ...
	ColPattern           = "pattern"             // access pattern: streaming, strided, random, page_touch, copy, triad
	ColPolicy            = "policy"              // handoff policy: managed, managed_prefetch, host_mapped, explicit_copy
	ColPhase             = "phase"               // handoff phase: cpu_only, gpu_only, alternating
	ColDirection         = "direction"           // transfers: h2d, d2h
	ColSizeBytes         = "size_bytes"          // working-set size of one array
	ColFootprintBytes    = "footprint_bytes"     // every allocation of the configuration, index arrays included
	ColUsefulBytes       = "useful_bytes"        // bytes the kernel reads and writes for its active elements
	ColActiveElements    = "active_elements"     // elements the kernel touches
	ColStrideElements    = "stride_elements"     // stride between touched elements
	ColPageIntervalBytes = "page_interval_bytes" // page-touch interval
	ColOversubPct        = "oversub_pct"         // footprint as a percentage of free device memory
	ColReusePasses       = "reuse_passes"        // GPU passes after each CPU update (handoff R)
	ColRepetition        = "repetition"          // handoff repetition index
	ColTrial             = "trial"               // trial index within the configuration
	ColWarmups           = "warmups"             // warm-up iterations before the trials
	ColKernelMs          = "kernel_ms"           // GPU time of the measured region
	ColPrefetchMs        = "prefetch_ms"         // prefetch time, outside kernel_ms
	ColTransferMs        = "transfer_ms"         // explicit copy time, outside kernel_ms
	ColCPUMs             = "cpu_ms"              // CPU time (initialisation or update)
	ColTotalMs           = "total_ms"            // whole measured iteration
	ColGBps              = "gbps"                // useful_bytes / time, 1 GB = 1e9 bytes
	ColVerified          = "verified"            // the trial's result was checked and correct
	ColPlacement         = "placement"           // observed range attributes, e.g. pref=gpu0;last=gpu0;by=gpu0
	ColWaived            = "waived"              // the configuration is not supported here (reason in note)
	ColNote              = "note"                // free text: waiver reason, caveats
	ColPlatform          = "platform"            // e.g. H200, GB200
	ColGPUUUID           = "gpu_uuid"            // GPU the row was measured on
	ColHost              = "host"                // host name
	ColRunID             = "run_id"              // one run of umbench
	ColSource            = "source"              // where a published figure comes from (section or table)
	ColReported          = "reported"            // true: the figure is stated in the source; false: derived
	ColCPUThreads        = "cpu_threads"         // handoff: threads of the CPU update (0 in files written before the column: 1)
	ColSyncMs            = "sync_ms"             // handoff alternating: total_ms less its measured parts (launches, queueing, final sync)
	ColOrder             = "order"               // handoff: sequential or interleaved measurement order
	ColOrderSeed         = "order_seed"          // handoff: seed of the interleaved order
	ColOrderIndex        = "order_index"         // handoff: position of the configuration's block within its repetition
	ColSimulated         = "simulated"           // true: made up by the simulated GPU (umbench run --simulate), never a measurement
	ColRoundPosition     = "round_position"      // handoff interleaved alternating: the trial's place in its round of every R (1 = first); 0 elsewhere
	ColBound             = "bound"               // the resource the configuration is bound by (Bounds); older files: LegacyBound
)

// Kind is the type of a column.
type Kind int

// Column kinds.
const (
	String Kind = iota
	Int
	Float
	Bool
)

// Column describes one column of the schema.
type Column struct {
	Name        string
	Kind        Kind
	Unit        string // bytes, ms, GB/s (1 GB = 1e9 bytes), %, elements, passes; "" for none
	Description string
}

// ColumnOf returns the schema's column called name, and false when there is
// none.
func ColumnOf(name string) (Column, bool) {
	for _, c := range Columns {
		if c.Name == name {
			return c, true
		}
	}
	return Column{}, false
}

// Columns is the schema in file order: each column's name, kind, unit ("" for
// none) and description, in one place: schema.tsv gives the name, unit and
// description, the column's Row field (fieldPtr) its kind. Append new columns
// at the end: files written before a column existed still read (it takes its
// empty value).
var Columns = func() []Column {
	var cols []Column
	lines := strings.Split(strings.TrimSuffix(schemaTSV, "\n"), "\n")
	for _, line := range lines[1:] { // after the header line
		f := strings.Split(line, "\t")
		cols = append(cols, Column{f[0], kindAt(fieldPtr[f[0]](&Row{})), f[1], f[2]})
	}
	return cols
}()

//go:embed schema.tsv
var schemaTSV string

// ConfigColumns identify a configuration: rows that agree on all of them are
// trials of the same measurement.
var ConfigColumns = []string{
	ColGroup, ColBenchmark, ColMode, ColPattern, ColPolicy, ColPhase, ColDirection,
	ColSizeBytes, ColFootprintBytes, ColStrideElements, ColPageIntervalBytes,
	ColOversubPct, ColReusePasses, ColPlatform, ColGPUUUID, ColCPUThreads,
}

// Row is one trial. Float fields that do not apply are NaN; integer fields
// that do not apply are 0 and strings are empty.
type Row struct {
	Group, Benchmark, Mode, Pattern, Policy, Phase, Direction string

	SizeBytes, FootprintBytes, UsefulBytes  int64
	ActiveElements, StrideElements          int64
	PageIntervalBytes                       int64
	OversubPct                              float64
	ReusePasses, Repetition, Trial, Warmups int64
	KernelMs, PrefetchMs, TransferMs, CPUMs float64
	TotalMs, GBps                           float64
	Verified                                bool
	Placement                               string
	Waived                                  bool
	Note                                    string
	Platform, GPUUUID, Host, RunID          string
	Source                                  string
	Reported                                bool
	CPUThreads                              int64
	SyncMs                                  float64
	Order                                   string
	OrderSeed, OrderIndex                   int64
	Simulated                               bool
	RoundPosition                           int64
	Bound                                   string
}

// NewRow returns a row whose float fields are NaN (not measured).
func NewRow() Row {
	nan := math.NaN()
	return Row{OversubPct: nan, KernelMs: nan, PrefetchMs: nan, TransferMs: nan,
		CPUMs: nan, TotalMs: nan, GBps: nan, SyncMs: nan}
}

// Value returns the row's value of a column as string, int64, float64 or bool.
func (r *Row) Value(col string) (any, error) {
	f, ok := fieldPtr[col]
	if !ok {
		return nil, unknownColumn(col)
	}
	return valueOf(f(r)), nil
}

// set assigns a parsed value to the row's field for col.
func (r *Row) set(col string, v any) error {
	f, ok := fieldPtr[col]
	if !ok {
		return unknownColumn(col)
	}
	setField(f(r), v)
	return nil
}

// Frame builds the tidy DataFrame of rows, every column present and typed.
func Frame(rows []Row) dataframe.DataFrame { return Build(rows, RowFields(Names(Columns)...)...) }

// Rows converts a schema DataFrame back into rows. It fails if a column is
// missing or the frame carries an error.
func Rows(df dataframe.DataFrame) ([]Row, error) {
	if df.Err != nil {
		return nil, fmt.Errorf("results: frame: %w", df.Err)
	}
	n := df.Nrow()
	rows := make([]Row, n)
	for i := range rows {
		rows[i] = NewRow()
	}
	names := map[string]bool{}
	for _, nm := range df.Names() {
		names[nm] = true
	}
	for _, c := range Columns {
		if !names[c.Name] {
			return nil, fmt.Errorf("results: frame has no column %q", c.Name)
		}
		s := df.Col(c.Name)
		for i := 0; i < n; i++ {
			e := s.Elem(i)
			var v any
			switch c.Kind {
			case String:
				v = e.String()
			case Int:
				x, err := e.Int()
				if err != nil && !e.IsNA() {
					return nil, fmt.Errorf("results: column %s row %d: %w", c.Name, i, err)
				}
				v = int64(x)
			case Float:
				v = e.Float()
			case Bool:
				x, err := e.Bool()
				if err != nil && !e.IsNA() {
					return nil, fmt.Errorf("results: column %s row %d: %w", c.Name, i, err)
				}
				v = x
			}
			if err := rows[i].set(c.Name, v); err != nil {
				return nil, err
			}
		}
	}
	return rows, nil
}

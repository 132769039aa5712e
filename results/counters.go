package results

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// CountersName is the file of counter rows, beside results.csv.
const CountersName = "counters.csv"

// PassCounters is the pass column of a counter row.
const PassCounters = "counters"

// Counter scopes: what part of the trial the counts cover.
const (
	ScopeTimed = "timed" // the timed regions (StartTimer to StopTimer)
	ScopeTrial = "trial" // the whole trial: it has no GPU-timed region
)

// Columns of counters.csv beyond the configuration columns
// (ConfigColumns), with units in their names. Counts and bytes are exact
// integers written without exponent; empty means not measured.
const (
	ColPass              = "pass"                // "counters": the untimed counter pass of the configuration
	ColCountersCollected = "counters_collected"  // CUPTI counted the pass (the reason is in note when not)
	ColCounterScope      = "counter_scope"       // timed or trial
	ColCounterWindows    = "counter_windows"     // timed regions counted
	ColPassKernelMs      = "pass_kernel_ms"      // kernel time of the counter pass (with counting overhead)
	ColPassTotalMs       = "pass_total_ms"       // total time of the counter pass
	ColUMHtoDBytes       = "um_htod_bytes"       // Unified Memory bytes migrated host to device
	ColUMDtoHBytes       = "um_dtoh_bytes"       // Unified Memory bytes migrated device to host
	ColUMDtoDBytes       = "um_dtod_bytes"       // Unified Memory bytes migrated device to device
	ColCPUPageFaults     = "cpu_page_faults"     // CPU page faults on managed memory
	ColGPUPageFaults     = "gpu_page_faults"     // GPU page fault records (faulting pages serviced)
	ColGPUFaultGroups    = "gpu_fault_groups"    // GPU page fault groups
	ColThrashingEvents   = "thrashing_events"    // thrashing detections
	ColThrashingBytes    = "thrashing_bytes"     // bytes of the thrashing regions
	ColThrottlingEvents  = "throttling_events"   // the driver delayed a processor's faults
	ColRemoteMapEvents   = "remote_map_events"   // pages pinned and mapped remotely
	ColRemoteMapBytes    = "remote_map_bytes"    // bytes mapped remotely
	ColCUPTIRecords      = "cupti_records"       // counter records read
	ColCUPTIDropped      = "cupti_dropped"       // records CUPTI dropped (counts are then low)
	ColCUPTIIncomplete   = "cupti_incomplete"    // buffers cut short by an unreadable record
	ColPCIeTXBytes       = "pcie_tx_bytes"       // NVML: bytes the GPU sent over PCIe, all traffic
	ColPCIeRXBytes       = "pcie_rx_bytes"       // NVML: bytes the GPU received over PCIe, all traffic
	ColMigratedBytes     = "migrated_bytes"      // frames only: um_htod + um_dtoh + um_dtod
	ColMigratedPerUseful = "migrated_per_useful" // frames only: migrated_bytes / useful_bytes
	ColPCIePerUseful     = "pcie_per_useful"     // frames only: (pcie_tx + pcie_rx) / useful_bytes
	ColCounterNote       = "counter_note"        // joined frames only: the counter row's note
	ColCounterPlacement  = "counter_placement"   // joined frames only: the placement seen in the counter pass
)

// CounterRow is the counter pass of one configuration: one line of
// counters.csv.
type CounterRow struct {
	// Config holds the configuration columns, useful_bytes,
	// active_elements, placement (observed in the pass), note, run_id and
	// host; its measurement fields are unused.
	Config                       Row
	Pass                         string
	Collected                    bool
	Scope                        string
	Windows                      int64
	PassKernelMs, PassTotalMs    float64
	HtoDBytes, DtoHBytes         float64
	DtoDBytes                    float64
	CPUPageFaults, GPUPageFaults float64
	GPUFaultGroups               float64
	ThrashingEvents              float64
	ThrashingBytes               float64
	ThrottlingEvents             float64
	RemoteMapEvents              float64
	RemoteMapBytes               float64
	Records, Dropped, Incomplete float64
	PCIeTXBytes, PCIeRXBytes     float64
}

// NewCounterRow starts the counter row of the configuration base: pass
// "counters", every count NaN (not measured).
func NewCounterRow(base Row) CounterRow {
	nan := math.NaN()
	return CounterRow{
		Config: base, Pass: PassCounters, PassKernelMs: nan, PassTotalMs: nan,
		HtoDBytes: nan, DtoHBytes: nan, DtoDBytes: nan, CPUPageFaults: nan, GPUPageFaults: nan, GPUFaultGroups: nan,
		ThrashingEvents: nan, ThrashingBytes: nan, ThrottlingEvents: nan, RemoteMapEvents: nan, RemoteMapBytes: nan,
		Records: nan, Dropped: nan, Incomplete: nan, PCIeTXBytes: nan, PCIeRXBytes: nan,
	}
}

// emptyCounterRow is a row read from a file before its fields are set,
// and the stand-in for a configuration without a counter pass.
func emptyCounterRow() CounterRow {
	r := NewCounterRow(NewRow())
	r.Pass = ""
	return r
}

// MigratedBytes is host to device plus device to host plus device to device.
func (r CounterRow) MigratedBytes() float64 { return r.HtoDBytes + r.DtoHBytes + r.DtoDBytes }

// MigratedPerUseful is migrated bytes per useful byte (NaN without either).
func (r CounterRow) MigratedPerUseful() float64 {
	return perUseful(r.MigratedBytes(), r.Config.UsefulBytes)
}

// PCIePerUseful is the PCIe bytes both ways per useful byte (NaN without
// either).
func (r CounterRow) PCIePerUseful() float64 {
	return perUseful(r.PCIeTXBytes+r.PCIeRXBytes, r.Config.UsefulBytes)
}

func perUseful(b float64, useful int64) float64 {
	if useful <= 0 {
		return math.NaN()
	}
	return b / float64(useful)
}

// counterCol is one column of counters.csv: its field (name, kind,
// value) and where a row keeps it, which a row read from a file is parsed
// into.
type counterCol struct {
	Field[CounterRow]
	ptr func(*CounterRow) any
}

// counterColumns is the file order: the configuration columns, what the
// ratios need, the pass, the counts, then provenance.
var counterColumns = func() []counterCol {
	var cols []counterCol
	add := func(name string, k Kind, p func(*CounterRow) any) {
		cols = append(cols, counterCol{Field[CounterRow]{name, k, func(r *CounterRow) any { return valueOf(p(r)) }}, p})
	}
	row := func(names ...string) {
		for _, name := range names {
			c, _ := ColumnOf(name)
			f := fieldPtr[name]
			add(name, c.Kind, func(r *CounterRow) any { return f(&r.Config) })
		}
	}
	fl := func(name string, p func(*CounterRow) *float64) {
		add(name, Float, func(r *CounterRow) any { return p(r) })
	}
	row(ConfigColumns...)
	row(ColUsefulBytes, ColActiveElements)
	add(ColPass, String, func(r *CounterRow) any { return &r.Pass })
	add(ColCountersCollected, Bool, func(r *CounterRow) any { return &r.Collected })
	add(ColCounterScope, String, func(r *CounterRow) any { return &r.Scope })
	add(ColCounterWindows, Int, func(r *CounterRow) any { return &r.Windows })
	fl(ColPassKernelMs, func(r *CounterRow) *float64 { return &r.PassKernelMs })
	fl(ColPassTotalMs, func(r *CounterRow) *float64 { return &r.PassTotalMs })
	fl(ColUMHtoDBytes, func(r *CounterRow) *float64 { return &r.HtoDBytes })
	fl(ColUMDtoHBytes, func(r *CounterRow) *float64 { return &r.DtoHBytes })
	fl(ColUMDtoDBytes, func(r *CounterRow) *float64 { return &r.DtoDBytes })
	fl(ColCPUPageFaults, func(r *CounterRow) *float64 { return &r.CPUPageFaults })
	fl(ColGPUPageFaults, func(r *CounterRow) *float64 { return &r.GPUPageFaults })
	fl(ColGPUFaultGroups, func(r *CounterRow) *float64 { return &r.GPUFaultGroups })
	fl(ColThrashingEvents, func(r *CounterRow) *float64 { return &r.ThrashingEvents })
	fl(ColThrashingBytes, func(r *CounterRow) *float64 { return &r.ThrashingBytes })
	fl(ColThrottlingEvents, func(r *CounterRow) *float64 { return &r.ThrottlingEvents })
	fl(ColRemoteMapEvents, func(r *CounterRow) *float64 { return &r.RemoteMapEvents })
	fl(ColRemoteMapBytes, func(r *CounterRow) *float64 { return &r.RemoteMapBytes })
	fl(ColCUPTIRecords, func(r *CounterRow) *float64 { return &r.Records })
	fl(ColCUPTIDropped, func(r *CounterRow) *float64 { return &r.Dropped })
	fl(ColCUPTIIncomplete, func(r *CounterRow) *float64 { return &r.Incomplete })
	fl(ColPCIeTXBytes, func(r *CounterRow) *float64 { return &r.PCIeTXBytes })
	fl(ColPCIeRXBytes, func(r *CounterRow) *float64 { return &r.PCIeRXBytes })
	// The placement observed in the counter pass, why counters or PCIe
	// bytes are missing (or records were lost), then provenance.
	row(ColPlacement, ColNote, ColRunID, ColHost)
	return cols
}()

// counterDerived are the frame-only columns computed from a counter row.
var counterDerived = []Field[CounterRow]{
	FloatField(ColMigratedBytes, func(r *CounterRow) float64 { return r.MigratedBytes() }),
	FloatField(ColMigratedPerUseful, func(r *CounterRow) float64 { return r.MigratedPerUseful() }),
	FloatField(ColPCIePerUseful, func(r *CounterRow) float64 { return r.PCIePerUseful() }),
}

// CounterColumns are the column names of counters.csv in file order.
func CounterColumns() []string {
	out := make([]string, len(counterColumns))
	for i, c := range counterColumns {
		out[i] = c.Name
	}
	return out
}

// formatCounterField writes one value of counters.csv: floats in their
// shortest exact form without exponent, NaN empty.
func formatCounterField(v any) string {
	x, ok := v.(float64)
	switch {
	case !ok:
		return fmt.Sprint(v)
	case math.IsNaN(x):
		return ""
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// WriteCounterCSV writes counter rows with a header line, floats at full
// precision.
func WriteCounterCSV(w io.Writer, rows []CounterRow) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CounterColumns()); err != nil {
		return err
	}
	rec := make([]string, len(counterColumns))
	for i := range rows {
		for j, c := range counterColumns {
			rec[j] = formatCounterField(c.Value(&rows[i]))
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// ReadCounterCSV parses counters.csv; name is used in errors, which wrap
// ErrMalformed and give the line and column. Columns the file lacks take
// their empty value, except the configuration's group, benchmark, mode and
// size_bytes and the pass column, which every file must have.
func ReadCounterCSV(r io.Reader, name string) ([]CounterRow, error) {
	ls := newLines(r, name)
	head, _, err := readHeader(ls, name, CounterColumns(), ColGroup, ColBenchmark, ColMode, ColSizeBytes, ColPass)
	if err != nil {
		return nil, err
	}
	cols := make([]counterCol, len(head))
	for i, h := range head {
		cols[i] = counterColumns[slices.IndexFunc(counterColumns, func(c counterCol) bool { return c.Name == h })]
	}
	var rows []CounterRow
	for {
		rec, err := ls.next()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, malformed(name, err)
		}
		line := ls.last
		if len(rec) != len(head) {
			return nil, fmt.Errorf("%s:%d: %w: %d fields, header has %d", name, line, ErrMalformed, len(rec), len(head))
		}
		row := emptyCounterRow()
		for i, f := range rec {
			if err := parseInto(cols[i].ptr(&row), strings.TrimSpace(f)); err != nil {
				return nil, fmt.Errorf("%s:%d: %w: column %s: %v", name, line, ErrMalformed, head[i], err)
			}
		}
		if len(rows) == MaxCSVRows {
			return nil, fmt.Errorf("%s:%d: %w: more than %d rows", name, line, ErrTooLarge, MaxCSVRows)
		}
		if err := checkCounterRow(&row, cols); err != nil {
			return nil, fmt.Errorf("%s:%d: %w: %v", name, line, ErrMalformed, err)
		}
		rows = append(rows, row)
	}
}

// LoadCounters reads dir/counters.csv. A directory without one (a run
// without --counters) gives an error wrapping os.ErrNotExist.
func LoadCounters(dir string) ([]CounterRow, error) {
	path := filepath.Join(dir, CountersName)
	f, err := OpenLimited(path, MaxCSVBytes)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadCounterCSV(f, path)
}

// CounterAppender appends counter rows to dir/counters.csv, syncing each,
// so an interrupted run keeps the rows it finished.
type CounterAppender struct{ csvAppender[CounterRow] }

// OpenCounterAppender opens dir/counters.csv for appending, creating dir
// and the file as needed. A file with rows is an error wrapping
// ErrResultsExist unless resume is set; then its rows are read (Rows) and a
// partial last line, left by an interrupted write, is dropped.
func OpenCounterAppender(dir string, resume bool) (*CounterAppender, error) {
	a := &CounterAppender{}
	a.path, a.write = filepath.Join(dir, CountersName), WriteCounterCSV
	load := func(old []byte, path string) (err error) {
		a.rows, err = ReadCounterCSV(bytes.NewReader(old), path)
		return err
	}
	if err := a.open(dir, resume, load, nil); err != nil {
		return nil, err
	}
	return a, nil
}

// Append writes rows and syncs the file.
func (a *CounterAppender) Append(rows ...CounterRow) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.add(rows, "")
}

// JoinCounters adds each summary row's counter pass to the summary frame
// (SummaryFrame), matched by configuration (ConfigKey): the summary's
// columns, then useful_bytes, counters_collected, the scope, the counts
// and PCIe bytes, the placement and note (as counter_placement and
// counter_note) and the derived ratios. A configuration without a counter
// row gets NaN counts and counters_collected false; of several rows for
// one configuration (a resumed run), the last wins.
func JoinCounters(sum []SummaryRow, rows []CounterRow) (dataframe.DataFrame, error) {
	byKey := map[string]*CounterRow{}
	for i := range rows {
		byKey[ConfigKey(rows[i].Config)] = &rows[i]
	}
	matched := make([]CounterRow, len(sum))
	for i, s := range sum {
		if r := byKey[ConfigKey(s.Config)]; r != nil {
			matched[i] = *r
		} else {
			matched[i] = emptyCounterRow()
		}
	}
	base := SummaryFrame(sum)
	if base.Err != nil {
		return base, base.Err
	}
	var extra []Field[CounterRow]
	for _, c := range counterColumns {
		switch {
		case slices.Contains(ConfigColumns, c.Name), c.Name == ColRunID, c.Name == ColHost,
			c.Name == ColActiveElements, c.Name == ColPass:
		case c.Name == ColNote:
			c.Name = ColCounterNote
			extra = append(extra, c.Field)
		case c.Name == ColPlacement:
			c.Name = ColCounterPlacement
			extra = append(extra, c.Field)
		default:
			extra = append(extra, c.Field)
		}
	}
	counted := Build(matched, append(extra, counterDerived...)...)
	if counted.Err != nil {
		return counted, counted.Err
	}
	var cols []series.Series
	for _, df := range []dataframe.DataFrame{base, counted} {
		for _, n := range df.Names() {
			cols = append(cols, df.Col(n))
		}
	}
	df := dataframe.New(cols...)
	return df, df.Err
}

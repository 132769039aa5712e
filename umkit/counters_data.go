package umkit

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"github.com/umlab/umlab/cuda/cupti"
	"github.com/umlab/umlab/results"
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
// (results.ConfigColumns), with units in their names. Counts and bytes are
// exact integers written without exponent; empty means not measured.
const (
	ColPass              = "pass"                 // "counters": the untimed counter pass of the configuration
	ColCountersCollected = "counters_collected"   // CUPTI counted the pass (the reason is in note when not)
	ColCounterScope      = "counter_scope"        // timed or trial
	ColCounterWindows    = "counter_windows"      // timed regions counted
	ColPassKernelMs      = "pass_kernel_ms"       // kernel time of the counter pass (with counting overhead)
	ColPassTotalMs       = "pass_total_ms"        // total time of the counter pass
	ColUMHtoDBytes       = "um_htod_bytes"        // Unified Memory bytes migrated host to device
	ColUMDtoHBytes       = "um_dtoh_bytes"        // Unified Memory bytes migrated device to host
	ColUMDtoDBytes       = "um_dtod_bytes"        // Unified Memory bytes migrated device to device
	ColCPUPageFaults     = "cpu_page_faults"      // CPU page faults on managed memory
	ColGPUPageFaults     = "gpu_page_faults"      // GPU page fault records (faulting pages serviced)
	ColGPUFaultGroups    = "gpu_fault_groups"     // GPU page fault groups
	ColThrashingEvents   = "thrashing_events"     // thrashing detections
	ColThrashingBytes    = "thrashing_bytes"      // bytes of the thrashing regions
	ColThrottlingEvents  = "throttling_events"    // the driver delayed a processor's faults
	ColRemoteMapEvents   = "remote_map_events"    // pages pinned and mapped remotely
	ColRemoteMapBytes    = "remote_map_bytes"     // bytes mapped remotely
	ColCUPTIRecords      = "cupti_records"        // counter records read
	ColCUPTIDropped      = "cupti_dropped"        // records CUPTI dropped (counts are then low)
	ColCUPTIIncomplete   = "cupti_incomplete"     // buffers cut short by an unreadable record
	ColPCIeTXBytes       = "pcie_tx_bytes"        // NVML: bytes the GPU sent over PCIe, all traffic
	ColPCIeRXBytes       = "pcie_rx_bytes"        // NVML: bytes the GPU received over PCIe, all traffic
	ColMigratedBytes     = "migrated_bytes"       // frames only: um_htod + um_dtoh + um_dtod
	ColMigratedPerUseful = "migrated_per_useful"  // frames only: migrated_bytes / useful_bytes
	ColPCIePerUseful     = "pcie_per_useful"      // frames only: (pcie_tx + pcie_rx) / useful_bytes
	colCounterPlacement  = results.ColPlacement   // placement observed in the counter pass
	colCounterNote       = results.ColNote        // why counters or PCIe bytes are missing, lost records
	colUseful            = results.ColUsefulBytes // bytes the kernel reads and writes: the denominator
)

// CounterRow is the counter pass of one configuration.
type CounterRow struct {
	// Config holds the configuration columns, useful_bytes,
	// active_elements, placement (observed in the pass), note, run_id and
	// host; its measurement fields are unused.
	Config                       results.Row
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

// newCounterRow starts the counter row of the configuration base, every
// count NaN (not measured).
func newCounterRow(base results.Row) CounterRow {
	nan := math.NaN()
	return CounterRow{
		Config: base, Pass: PassCounters, PassKernelMs: nan, PassTotalMs: nan,
		HtoDBytes: nan, DtoHBytes: nan, DtoDBytes: nan, CPUPageFaults: nan, GPUPageFaults: nan, GPUFaultGroups: nan,
		ThrashingEvents: nan, ThrashingBytes: nan, ThrottlingEvents: nan, RemoteMapEvents: nan, RemoteMapBytes: nan,
		Records: nan, Dropped: nan, Incomplete: nan, PCIeTXBytes: nan, PCIeRXBytes: nan,
	}
}

func (r *CounterRow) setCounts(c cupti.Counts) {
	f := func(v uint64) float64 { return float64(v) }
	r.HtoDBytes, r.DtoHBytes, r.DtoDBytes = f(c.BytesHtoD), f(c.BytesDtoH), f(c.BytesDtoD)
	r.CPUPageFaults, r.GPUPageFaults, r.GPUFaultGroups = f(c.CPUPageFaults), f(c.GPUPageFaults), f(c.GPUPageFaultGroups)
	r.ThrashingEvents, r.ThrashingBytes, r.ThrottlingEvents = f(c.Thrashing), f(c.ThrashingBytes), f(c.Throttling)
	r.RemoteMapEvents, r.RemoteMapBytes = f(c.RemoteMap), f(c.RemoteMapBytes)
	r.Records, r.Dropped, r.Incomplete = f(c.Records), f(c.Dropped), f(c.Incomplete)
}

// MigratedBytes is host to device plus device to host plus device to device.
func (r CounterRow) MigratedBytes() float64 { return r.HtoDBytes + r.DtoHBytes + r.DtoDBytes }

// MigratedPerUseful is migrated bytes per useful byte (NaN without either).
func (r CounterRow) MigratedPerUseful() float64 {
	return perUseful(r.MigratedBytes(), r.Config.UsefulBytes)
}

func perUseful(b float64, useful int64) float64 {
	if useful <= 0 {
		return math.NaN()
	}
	return b / float64(useful)
}

// counterCol is one column of counters.csv: its kind and how to get and set
// it on a row.
type counterCol struct {
	name string
	kind results.Kind
	get  func(*CounterRow) any
	set  func(*CounterRow, any)
}

// counterColumns is the file order: the configuration columns, what the
// ratios need, the pass, the counts, then provenance.
var counterColumns = func() []counterCol {
	var cols []counterCol
	kinds := map[string]results.Kind{}
	for _, c := range results.Columns {
		kinds[c.Name] = c.Kind
	}
	row := func(name string) {
		cols = append(cols, counterCol{name, kinds[name],
			func(r *CounterRow) any { v, _ := r.Config.Value(name); return v },
			func(r *CounterRow, v any) { setRowField(&r.Config, name, v) }})
	}
	fl := func(name string, p func(*CounterRow) *float64) {
		cols = append(cols, counterCol{name, results.Float,
			func(r *CounterRow) any { return *p(r) }, func(r *CounterRow, v any) { *p(r) = v.(float64) }})
	}
	for _, c := range results.ConfigColumns {
		row(c)
	}
	row(colUseful)
	row(results.ColActiveElements)
	cols = append(cols,
		counterCol{ColPass, results.String, func(r *CounterRow) any { return r.Pass }, func(r *CounterRow, v any) { r.Pass = v.(string) }},
		counterCol{ColCountersCollected, results.Bool, func(r *CounterRow) any { return r.Collected }, func(r *CounterRow, v any) { r.Collected = v.(bool) }},
		counterCol{ColCounterScope, results.String, func(r *CounterRow) any { return r.Scope }, func(r *CounterRow, v any) { r.Scope = v.(string) }},
		counterCol{ColCounterWindows, results.Int, func(r *CounterRow) any { return r.Windows }, func(r *CounterRow, v any) { r.Windows = v.(int64) }},
	)
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
	for _, c := range []string{colCounterPlacement, colCounterNote, results.ColRunID, results.ColHost} {
		row(c)
	}
	return cols
}()

// CounterColumns are the column names of counters.csv in file order.
func CounterColumns() []string {
	out := make([]string, len(counterColumns))
	for i, c := range counterColumns {
		out[i] = c.name
	}
	return out
}

// setRowField sets the results.Row fields a counter row carries.
func setRowField(r *results.Row, col string, v any) {
	s, _ := v.(string)
	i, _ := v.(int64)
	f, _ := v.(float64)
	switch col {
	case results.ColGroup:
		r.Group = s
	case results.ColBenchmark:
		r.Benchmark = s
	case results.ColMode:
		r.Mode = s
	case results.ColPattern:
		r.Pattern = s
	case results.ColPolicy:
		r.Policy = s
	case results.ColPhase:
		r.Phase = s
	case results.ColDirection:
		r.Direction = s
	case results.ColSizeBytes:
		r.SizeBytes = i
	case results.ColFootprintBytes:
		r.FootprintBytes = i
	case results.ColUsefulBytes:
		r.UsefulBytes = i
	case results.ColActiveElements:
		r.ActiveElements = i
	case results.ColStrideElements:
		r.StrideElements = i
	case results.ColPageIntervalBytes:
		r.PageIntervalBytes = i
	case results.ColOversubPct:
		r.OversubPct = f
	case results.ColReusePasses:
		r.ReusePasses = i
	case results.ColPlatform:
		r.Platform = s
	case results.ColGPUUUID:
		r.GPUUUID = s
	case results.ColPlacement:
		r.Placement = s
	case results.ColNote:
		r.Note = s
	case results.ColRunID:
		r.RunID = s
	case results.ColHost:
		r.Host = s
	case results.ColCPUThreads:
		r.CPUThreads = i
	default:
		panic("umkit: counter rows do not carry column " + col) // a new configuration column: add it here
	}
}

func formatField(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		if math.IsNaN(x) {
			return ""
		}
		return strconv.FormatFloat(x, 'f', -1, 64) // shortest exact form, no exponent
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}

func parseCounterField(k results.Kind, f string) (any, error) { return results.ParseValue(k, f) }

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
			rec[j] = formatField(c.get(&rows[i]))
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// ReadCounterCSV parses counters.csv; name is used in errors, which wrap
// results.ErrMalformed and give the line and column. Columns the file lacks
// take their empty value, except the configuration's group, benchmark, mode
// and size_bytes and the pass column, which every file must have.
func ReadCounterCSV(r io.Reader, name string) ([]CounterRow, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	head, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: %w: empty file, no header line", name, results.ErrMalformed)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %v", name, results.ErrMalformed, err)
	}
	byName := map[string]counterCol{}
	for _, c := range counterColumns {
		byName[c.name] = c
	}
	cols := make([]counterCol, len(head))
	seen := map[string]bool{}
	for i, h := range head {
		h = strings.TrimSpace(h)
		c, ok := byName[h]
		if !ok {
			return nil, fmt.Errorf("%s:1: %w: unknown column %q", name, results.ErrMalformed, h)
		}
		if seen[h] {
			return nil, fmt.Errorf("%s:1: %w: column %q appears twice", name, results.ErrMalformed, h)
		}
		seen[h], cols[i] = true, c
	}
	for _, c := range []string{results.ColGroup, results.ColBenchmark, results.ColMode, results.ColSizeBytes, ColPass} {
		if !seen[c] {
			return nil, fmt.Errorf("%s:1: %w: required column %q missing", name, results.ErrMalformed, c)
		}
	}
	var rows []CounterRow
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			return nil, fmt.Errorf("%s: %w: %v", name, results.ErrMalformed, err)
		}
		if len(rec) != len(head) {
			return nil, fmt.Errorf("%s:%d: %w: %d fields, header has %d", name, line, results.ErrMalformed, len(rec), len(head))
		}
		row := newCounterRow(results.NewRow())
		row.Pass = ""
		for i, f := range rec {
			v, err := parseCounterField(cols[i].kind, strings.TrimSpace(f))
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w: column %s: %v", name, line, results.ErrMalformed, cols[i].name, err)
			}
			cols[i].set(&row, v)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// LoadCounters reads dir/counters.csv. A directory without one (a run
// without --counters) gives an error wrapping os.ErrNotExist.
func LoadCounters(dir string) ([]CounterRow, error) {
	path := filepath.Join(dir, CountersName)
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadCounterCSV(f, path)
}

// counterAppender appends counter rows to dir/counters.csv, syncing each,
// so an interrupted run keeps the rows it finished.
type counterAppender struct {
	mu   sync.Mutex
	f    *os.File
	rows []CounterRow
}

func openCounterAppender(dir string, resume bool) (*counterAppender, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, CountersName)
	a := &counterAppender{}
	old, err := os.ReadFile(path)
	switch {
	case err == nil && len(old) > 0:
		if !resume {
			return nil, fmt.Errorf("%w: %s (pass --resume to continue that run, or choose another --out)", results.ErrResultsExist, path)
		}
		if i := bytes.LastIndexByte(old, '\n'); i != len(old)-1 {
			old = old[:i+1] // an interrupted write left a partial line
			if err := results.WriteFileAtomic(path, old, 0o644); err != nil {
				return nil, err
			}
		}
		if a.rows, err = ReadCounterCSV(bytes.NewReader(old), path); err != nil {
			return nil, err
		}
		if a.f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o644); err != nil {
			return nil, err
		}
	case err == nil || errors.Is(err, os.ErrNotExist):
		if a.f, err = os.Create(path); err != nil {
			return nil, err
		}
		if err := WriteCounterCSV(a.f, nil); err != nil {
			a.f.Close()
			return nil, err
		}
	default:
		return nil, err
	}
	return a, nil
}

func (a *counterAppender) Append(rows ...CounterRow) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	var buf bytes.Buffer
	if err := WriteCounterCSV(&buf, rows); err != nil {
		return err
	}
	body := buf.Bytes()[bytes.IndexByte(buf.Bytes(), '\n')+1:]
	if _, err := a.f.Write(body); err != nil {
		return err
	}
	if err := a.f.Sync(); err != nil {
		return err
	}
	a.rows = append(a.rows, rows...)
	return nil
}

func (a *counterAppender) Close() error { return a.f.Close() }

// derived are the frame-only columns computed from a counter row.
var derived = []struct {
	name string
	f    func(CounterRow) float64
}{
	{ColMigratedBytes, CounterRow.MigratedBytes},
	{ColMigratedPerUseful, CounterRow.MigratedPerUseful},
	{ColPCIePerUseful, func(r CounterRow) float64 { return perUseful(r.PCIeTXBytes+r.PCIeRXBytes, r.Config.UsefulBytes) }},
}

// counterSeries builds the columns cols of rows (nil entries: no row, every
// value NaN, false or empty), then the derived columns.
func counterSeries(rows []*CounterRow, cols []counterCol) []series.Series {
	var out []series.Series
	empty := newCounterRow(results.NewRow())
	empty.Pass = ""
	at := func(i int) *CounterRow {
		if rows[i] == nil {
			return &empty
		}
		return rows[i]
	}
	for _, c := range cols {
		switch c.kind {
		case results.String:
			v := make([]string, len(rows))
			for i := range rows {
				v[i] = c.get(at(i)).(string)
			}
			out = append(out, series.New(v, series.String, c.name))
		case results.Int:
			v := make([]int, len(rows))
			for i := range rows {
				v[i] = int(c.get(at(i)).(int64))
			}
			out = append(out, series.New(v, series.Int, c.name))
		case results.Float:
			v := make([]float64, len(rows))
			for i := range rows {
				v[i] = c.get(at(i)).(float64)
			}
			out = append(out, series.New(v, series.Float, c.name))
		case results.Bool:
			v := make([]bool, len(rows))
			for i := range rows {
				v[i] = c.get(at(i)).(bool)
			}
			out = append(out, series.New(v, series.Bool, c.name))
		}
	}
	for _, d := range derived {
		v := make([]float64, len(rows))
		for i := range rows {
			v[i] = d.f(*at(i))
		}
		out = append(out, series.New(v, series.Float, d.name))
	}
	return out
}

// CounterFrame is the DataFrame of counter rows: every column of
// counters.csv, then migrated_bytes, migrated_per_useful and
// pcie_per_useful.
func CounterFrame(rows []CounterRow) dataframe.DataFrame {
	ptrs := make([]*CounterRow, len(rows))
	for i := range rows {
		ptrs[i] = &rows[i]
	}
	return dataframe.New(counterSeries(ptrs, counterColumns)...)
}

// JoinCounters adds each summary row's counter pass to the summary frame
// (results.SummaryFrame), matched by configuration (results.ConfigKey): the
// summary's columns, then useful_bytes, counters_collected, the scope, the
// counts and PCIe bytes, the note (as counter_note) and the derived ratios.
// A configuration without a counter row gets NaN counts and
// counters_collected false; of several rows for one configuration (a
// resumed run), the last wins.
func JoinCounters(sum []results.SummaryRow, rows []CounterRow) (dataframe.DataFrame, error) {
	byKey := map[string]*CounterRow{}
	for i := range rows {
		byKey[results.ConfigKey(rows[i].Config)] = &rows[i]
	}
	matched := make([]*CounterRow, len(sum))
	for i, s := range sum {
		matched[i] = byKey[results.ConfigKey(s.Config)]
	}
	base := results.SummaryFrame(sum)
	if base.Err != nil {
		return base, base.Err
	}
	var cols []series.Series
	for _, n := range base.Names() {
		cols = append(cols, base.Col(n))
	}
	var extra []counterCol
	for _, c := range counterColumns {
		switch {
		case slices.Contains(results.ConfigColumns, c.name), c.name == results.ColRunID, c.name == results.ColHost,
			c.name == results.ColActiveElements, c.name == ColPass:
		case c.name == colCounterNote:
			c.name = "counter_note"
			extra = append(extra, c)
		case c.name == colCounterPlacement:
			c.name = "counter_placement"
			extra = append(extra, c)
		default:
			extra = append(extra, c)
		}
	}
	cols = append(cols, counterSeries(matched, extra)...)
	df := dataframe.New(cols...)
	return df, df.Err
}

// CounterTable loads a results directory with its counters.csv, summarises
// the trials (with the metadata's peaks and throttle reasons) and joins the
// counter passes: one row per configuration.
func CounterTable(dir string) (dataframe.DataFrame, error) {
	rows, meta, err := results.LoadDir(dir)
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	counters, err := LoadCounters(dir)
	if err != nil {
		return dataframe.DataFrame{}, fmt.Errorf("umkit: %s has no counter passes (run with --counters): %w", dir, err)
	}
	sum := results.Summarize(rows, results.SummaryOptions{
		PeakMemoryGBps: meta.Device.PeakMemoryGBps, PeakHostLinkGBps: meta.Device.PeakHostLinkGBps,
		ThrottleReasons: meta.Device.ThrottleReasons,
	})
	return JoinCounters(sum, counters)
}

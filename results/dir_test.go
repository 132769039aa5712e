package results

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// trials returns n trials of one configuration.
func trials(group, mode string, size int64, gbps ...float64) []Row {
	var out []Row
	for i, g := range gbps {
		r := NewRow()
		r.Group, r.Benchmark, r.Mode, r.SizeBytes = group, "triad", mode, size
		r.Trial, r.GBps, r.KernelMs, r.Verified = int64(i), g, 1, true
		r.Platform, r.GPUUUID, r.RunID = "H200", "GPU-1", "run-1"
		out = append(out, r)
	}
	return out
}

func TestConfigKey(t *testing.T) {
	base := trials("hbm", "explicit", 1<<20, 1)[0]
	other := base
	other.Trial, other.Warmups, other.GBps, other.KernelMs = 7, 3, 99, 0.25
	other.Verified, other.RunID, other.Host, other.Note = false, "run-2", "elsewhere", "later"
	if ConfigKey(base) != ConfigKey(other) {
		t.Errorf("trials of one configuration have different keys:\n%s\n%s", ConfigKey(base), ConfigKey(other))
	}
	change := map[string]func(r *Row){
		ColGroup:             func(r *Row) { r.Group = "managed" },
		ColBenchmark:         func(r *Row) { r.Benchmark = "copy" },
		ColMode:              func(r *Row) { r.Mode = "managed_cold" },
		ColPattern:           func(r *Row) { r.Pattern = "strided" },
		ColPolicy:            func(r *Row) { r.Policy = "managed" },
		ColPhase:             func(r *Row) { r.Phase = "cpu_only" },
		ColDirection:         func(r *Row) { r.Direction = "d2h" },
		ColSizeBytes:         func(r *Row) { r.SizeBytes++ },
		ColFootprintBytes:    func(r *Row) { r.FootprintBytes = 3 << 20 },
		ColStrideElements:    func(r *Row) { r.StrideElements = 16 },
		ColPageIntervalBytes: func(r *Row) { r.PageIntervalBytes = 4096 },
		ColOversubPct:        func(r *Row) { r.OversubPct = 50 },
		ColReusePasses:       func(r *Row) { r.ReusePasses = 4 },
		ColPlatform:          func(r *Row) { r.Platform = "GB200" },
		ColGPUUUID:           func(r *Row) { r.GPUUUID = "GPU-2" },
		ColCPUThreads:        func(r *Row) { r.CPUThreads = 4 },
	}
	if len(change) != len(ConfigColumns) {
		t.Errorf("test covers %d config columns, schema has %d", len(change), len(ConfigColumns))
	}
	seen := map[string]string{ConfigKey(base): "base"}
	for col, f := range change {
		r := base
		f(&r)
		k := ConfigKey(r)
		if prev, ok := seen[k]; ok {
			t.Errorf("changing %s gives the same key as %s: %s", col, prev, k)
		}
		seen[k] = col
	}
}

func TestAppender(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run", "nested")
	a, err := OpenAppender(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, CSVName)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("OpenAppender did not create %s: %v", CSVName, err)
	}
	if string(b) != strings.Join(Names(Columns), ",")+"\n" {
		t.Errorf("new file holds %q, want the header line", b)
	}
	if rows, _, err := LoadDir(dir); err != nil || len(rows) != 0 {
		t.Errorf("LoadDir of a fresh directory: %d rows, %v", len(rows), err)
	}

	hbm := trials("hbm", "explicit", 1<<20, 100, 200, 150)
	if a.Done(hbm[0]) {
		t.Error("Done before Append")
	}
	if err := a.Append(hbm...); err != nil {
		t.Fatal(err)
	}
	if !a.Done(hbm[2]) {
		t.Error("not Done after Append")
	}
	// Visible on disk before Close: a crash now keeps the rows.
	rows, _, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, rows, hbm)
	managed := trials("managed", "managed_cold", 1<<20, 10, 11)
	if err := a.Append(managed...); err != nil {
		t.Fatal(err)
	}
	if got := len(a.Rows()); got != 5 {
		t.Errorf("Rows() has %d rows, want 5", got)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}

	// A second run into the same directory must not clobber it.
	_, err = OpenAppender(dir, false)
	if !errors.Is(err, ErrResultsExist) {
		t.Fatalf("reopen without resume: err = %v, want ErrResultsExist", err)
	}
	if !strings.Contains(err.Error(), "--resume") || !strings.Contains(err.Error(), path) {
		t.Errorf("error %q should name the file and --resume", err)
	}
	rows, _, err = LoadDir(dir)
	if err != nil || len(rows) != 5 {
		t.Fatalf("after a refused reopen: %d rows, %v", len(rows), err)
	}

	// Resume keeps the rows and knows their configurations.
	a, err = OpenAppender(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, a.Rows(), append(append([]Row{}, hbm...), managed...))
	for _, r := range append(hbm, managed...) {
		if !a.Done(r) {
			t.Errorf("resumed appender: %s/%s not Done", r.Group, r.Mode)
		}
	}
	if a.Done(trials("hbm", "explicit", 2<<20, 1)[0]) {
		t.Error("resumed appender: an unseen configuration is Done")
	}
	more := trials("hbm", "explicit", 2<<20, 300)
	if err := a.Append(more...); err != nil {
		t.Fatal(err)
	}
	a.Close()
	rows, _, err = LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, rows, append(append(append([]Row{}, hbm...), managed...), more...))
}

func TestAppenderEmptyFileIsFresh(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, CSVName), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := OpenAppender(dir, false)
	if err != nil {
		t.Fatalf("an empty results.csv should not count as results: %v", err)
	}
	a.Close()
	if _, _, err := LoadDir(dir); err != nil {
		t.Fatal(err)
	}
}

func TestAppenderResumeDropsPartialLine(t *testing.T) {
	dir := t.TempDir()
	a, err := OpenAppender(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	first := trials("hbm", "explicit", 1<<20, 100, 200)
	if err := a.Append(first...); err != nil {
		t.Fatal(err)
	}
	a.Close()

	// An interrupted write: half of the next configuration's first line.
	var buf bytes.Buffer
	cut := trials("hbm", "explicit", 4<<20, 400)
	if err := WriteCSV(&buf, cut); err != nil {
		t.Fatal(err)
	}
	line := buf.Bytes()[bytes.IndexByte(buf.Bytes(), '\n')+1:]
	path := filepath.Join(dir, CSVName)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(line[:len(line)/2])
	f.Close()
	if _, _, err := LoadDir(dir); err == nil {
		t.Fatal("the test did not damage the file: LoadDir reads it")
	}

	a, err = OpenAppender(dir, true)
	if err != nil {
		t.Fatalf("resume after an interrupted write: %v", err)
	}
	checkRows(t, a.Rows(), first)
	if a.Done(cut[0]) {
		t.Error("the configuration of the partial line counts as done")
	}
	// The file is valid again, before and after the next Append.
	rows, _, err := LoadDir(dir)
	if err != nil {
		t.Fatalf("file still damaged after resume: %v", err)
	}
	checkRows(t, rows, first)
	if err := a.Append(cut...); err != nil {
		t.Fatal(err)
	}
	a.Close()
	rows, _, err = LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, rows, append(append([]Row{}, first...), cut...))
}

func TestAppenderResumeBadFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, CSVName)
	if err := os.WriteFile(path, []byte("not,a,results,file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := OpenAppender(dir, true)
	if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), path) {
		t.Errorf("resume of a foreign CSV: err = %v, want ErrMalformed naming %s", err, path)
	}
}

func TestLoadDirErrors(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := LoadDir(dir); err == nil || !strings.Contains(err.Error(), "not a results directory") {
		t.Errorf("LoadDir of an empty directory: %v", err)
	}
	var buf bytes.Buffer
	WriteCSV(&buf, trials("hbm", "explicit", 64, 1))
	os.WriteFile(filepath.Join(dir, CSVName), buf.Bytes(), 0o644)
	os.WriteFile(filepath.Join(dir, MetaName), []byte("{not json"), 0o644)
	if _, _, err := LoadDir(dir); err == nil || !strings.Contains(err.Error(), MetaName) {
		t.Errorf("LoadDir with broken metadata: %v", err)
	}
}

func TestMetadataRoundTrip(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2026, 11, 29, 12, 0, 0, 123456789, time.UTC)
	want := Metadata{
		RunID: "20261129-120000", Platform: "H200", Kind: "measured", Command: "umbench run --quick",
		Config: map[string]any{"quick": true, "trials": 5.0}, Module: "v0.1.0", Commit: "abc123", Host: "node-1",
		Start: start, End: start.Add(90 * time.Second),
		Device: Device{
			Name: "NVIDIA H200", UUID: "GPU-1", Index: 1, ComputeCapability: "9.0", SMs: 132,
			MemoryBytes: 150 << 30, FreeMemoryBytes: 140 << 30, DriverVersion: "580.159.04", CUDADriverVersion: 13000,
			PCIeGeneration: 5, PCIeWidth: 16, NUMANode: 0, CPUAffinity: "[0 1 2]", PeakMemoryGBps: 4800,
			PeakHostLinkGBps: 63.01, ManagedMemory: true, ConcurrentManagedAccess: true, CanMapHostMemory: true,
			ThrottleReasons: "sw_power_cap",
		},
		UVMParams: map[string]string{"uvm_perf_prefetch_enable": "1"},
		Notes:     []string{"a note"},
	}
	path := filepath.Join(dir, MetaName)
	if err := WriteMetadata(path, want); err != nil {
		t.Fatal(err)
	}
	got, err := ReadMetadata(path)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Start.Equal(want.Start) || !got.End.Equal(want.End) {
		t.Errorf("times: got %v–%v, want %v–%v", got.Start, got.End, want.Start, want.End)
	}
	if got.Device != want.Device {
		t.Errorf("device:\n got %+v\nwant %+v", got.Device, want.Device)
	}
	if got.RunID != want.RunID || got.Platform != want.Platform || got.Kind != want.Kind || got.Command != want.Command ||
		got.Module != want.Module || got.Commit != want.Commit || got.Host != want.Host {
		t.Errorf("got %+v", got)
	}
	if got.UVMParams["uvm_perf_prefetch_enable"] != "1" || len(got.Notes) != 1 || got.Notes[0] != "a note" {
		t.Errorf("params %v notes %v", got.UVMParams, got.Notes)
	}
	if cfg, ok := got.Config.(map[string]any); !ok || cfg["quick"] != true || cfg["trials"] != 5.0 {
		t.Errorf("config %#v", got.Config)
	}
	// NUMA node 0 and false capabilities are facts, written even when zero.
	b, _ := os.ReadFile(path)
	for _, k := range []string{`"numa_node": 0`, `"pageable_memory_access": false`, `"run_id"`} {
		if !bytes.Contains(b, []byte(k)) {
			t.Errorf("meta.json lacks %s", k)
		}
	}

	// LoadDir returns it beside the rows.
	var buf bytes.Buffer
	WriteCSV(&buf, trials("hbm", "explicit", 64, 1))
	os.WriteFile(filepath.Join(dir, CSVName), buf.Bytes(), 0o644)
	_, m, err := LoadDir(dir)
	if err != nil || m.RunID != want.RunID {
		t.Errorf("LoadDir metadata: run %q, %v", m.RunID, err)
	}

	if _, err := ReadMetadata(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("ReadMetadata of a missing file: no error")
	}
	os.WriteFile(path, []byte(`{"run_id": 3}`), 0o644)
	if _, err := ReadMetadata(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("ReadMetadata of bad JSON: %v, want an error naming the file", err)
	}
	if err := WriteMetadata(path, Metadata{Config: math.NaN()}); err == nil {
		t.Error("WriteMetadata of an unencodable config: no error")
	}
}

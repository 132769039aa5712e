package cupti

import (
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/umlab/umlab/cuda"
)

// The record fields, at the offsets the CUPTI headers give (cupti_activity.h
// and cupti_activity_deprecated.h of CUDA 12.6, 12.9, 13.0 and 13.5, checked
// with offsetof): written here independently of the table in umlab_cupti.c,
// which the parser under test reads.
const (
	offKind, offCounterKind, offValue          = 0, 4, 8
	offStart, offEnd, offAddress               = 16, 24, 32
	offSrcID, offDstID, offStreamID, offProcID = 40, 44, 48, 52
	offFlags, offPad, offProcessors            = 56, 60, 64 // processors[5]: Counter3 only
	sizeCounter2, sizeCounter3                 = 64, 104
)

type rec struct {
	kind, counterKind uint32
	value             uint64
}

// build lays records out as CUPTI does, size bytes apart, with every field
// the parser must ignore filled with noise so that a misread shows.
func build(size int, recs []rec) []byte {
	b := make([]byte, size*len(recs))
	le := binary.LittleEndian
	for i, r := range recs {
		p := b[i*size:]
		le.PutUint32(p[offKind:], r.kind)
		le.PutUint32(p[offCounterKind:], r.counterKind)
		le.PutUint64(p[offValue:], r.value)
		le.PutUint64(p[offStart:], 0x1111111111111111)
		le.PutUint64(p[offEnd:], 0x2222222222222222)
		le.PutUint64(p[offAddress:], 0x7f0000200000)
		le.PutUint32(p[offSrcID:], 0xffffffff)
		le.PutUint32(p[offDstID:], 0)
		le.PutUint32(p[offStreamID:], 0x33333333)
		le.PutUint32(p[offProcID:], 4242)
		le.PutUint32(p[offFlags:], 0x5)
		le.PutUint32(p[offPad:], 0xdeadbeef)
		for j := 0; size == sizeCounter3 && j < 5; j++ {
			le.PutUint64(p[offProcessors+8*j:], 0xffffffffffffffff)
		}
	}
	return b
}

const MiB = 1 << 20

// mixed covers every counter kind, an unknown counter kind and a record of
// another activity kind.
var mixed = []rec{
	{25, 1, 2 * MiB},    // HtoD
	{25, 1, 64 << 10},   // HtoD
	{25, 2, 4096},       // DtoH
	{25, 3, 0x7fff1234}, // CPU fault: value is a PC, not summed
	{25, 3, 0x7fff5678},
	{25, 4, 3}, // GPU fault: 3 groups
	{25, 4, 1},
	{25, 5, 2 * MiB},   // thrashing
	{25, 6, 0},         // throttling
	{1, 1, 1 << 40},    // a memcpy record (another activity kind): skipped
	{25, 7, 64 << 10},  // remote map
	{25, 8, 128 << 10}, // DtoD
	{25, 77, 5},        // unknown counter kind
}

func wantMixed(size int) Counts {
	return Counts{
		BytesHtoD: 2*MiB + 64<<10, BytesDtoH: 4096, BytesDtoD: 128 << 10,
		CPUPageFaults: 2, GPUPageFaults: 2, GPUPageFaultGroups: 4,
		Thrashing: 1, ThrashingBytes: 2 * MiB, Throttling: 1, RemoteMap: 1, RemoteMapBytes: 64 << 10,
		TransferRecords: 4, Records: 12, UnknownKind: 1, OtherRecords: 1, RecordSize: size, Buffers: 1,
	}
}

func mustLayout(t *testing.T, api uint32) Layout {
	t.Helper()
	l, err := LayoutFor(api)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestLayoutTableMatchesHeaders(t *testing.T) {
	want := []Layout{
		{Name: "CUpti_ActivityUnifiedMemoryCounter2", FirstAPI: 13, LastAPI: 24, Size: sizeCounter2},
		{Name: "CUpti_ActivityUnifiedMemoryCounter3", FirstAPI: 26, LastAPI: 28, Size: sizeCounter3},
		{Name: "CUpti_ActivityUnifiedMemoryCounter3", FirstAPI: 130000, LastAPI: 139999, Size: sizeCounter3},
	}
	got := Layouts()
	if len(got) != len(want) {
		t.Fatalf("%d layouts, want %d: %v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		w.OffKind, w.OffCounterKind, w.OffValue, w.index = offKind, offCounterKind, offValue, i
		if g != w {
			t.Errorf("layout %d: %+v, want %+v", i, g, w)
		}
	}
}

func TestLayoutForVersion(t *testing.T) {
	ok := map[uint32]string{
		13: "CUpti_ActivityUnifiedMemoryCounter2", 24: "CUpti_ActivityUnifiedMemoryCounter2",
		26: "CUpti_ActivityUnifiedMemoryCounter3", 28: "CUpti_ActivityUnifiedMemoryCounter3",
		130000: "CUpti_ActivityUnifiedMemoryCounter3", 130001: "CUpti_ActivityUnifiedMemoryCounter3",
		130500: "CUpti_ActivityUnifiedMemoryCounter3",
	}
	for v, name := range ok {
		if l := mustLayout(t, v); l.Name != name {
			t.Errorf("API %d: %s, want %s", v, l.Name, name)
		}
	}
	for _, v := range []uint32{0, 12, 25, 29, 100, 129999, 140000, 150100} {
		_, err := LayoutFor(v)
		if !errors.Is(err, ErrUnsupportedVersion) {
			t.Errorf("API %d: %v, want ErrUnsupportedVersion", v, err)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, "CUPTI_API_VERSION") || !strings.Contains(msg, EnvLibrary) {
			t.Errorf("API %d: %q does not name the version and %s", v, msg, EnvLibrary)
		}
	}
	if _, err := LayoutFor(140000); !strings.Contains(err.Error(), "CUDA 14.0") {
		t.Errorf("140000: %v does not say CUDA 14.0", err)
	}
	for v, c := range map[uint32]int{24: 12060, 28: 12090, 130001: 13000, 130500: 13050, 25: 0} {
		if got := CUDAVersion(v); got != c {
			t.Errorf("CUDAVersion(%d) = %d, want %d", v, got, c)
		}
	}
}

// TestParseEachLayout runs the parser that reads CUPTI's buffers on buffers
// laid out as each supported CUPTI version lays them out.
func TestParseEachLayout(t *testing.T) {
	for _, api := range []uint32{24, 28, 130001, 130500} {
		l := mustLayout(t, api)
		got := parseSimulated(build(l.Size, mixed), l.Size, l)
		if want := wantMixed(l.Size); got != want {
			t.Errorf("API %d (%s):\n got %+v\nwant %+v", api, l.Name, got, want)
		}
		if !got.Complete() == (got.UnknownKind == 0) {
			t.Errorf("API %d: Complete() = %t with %d unknown-kind records", api, got.Complete(), got.UnknownKind)
		}
	}
}

func TestParseEdgeCases(t *testing.T) {
	c2, c3 := mustLayout(t, 24), mustLayout(t, 130001)
	three := []rec{{25, 1, 100}, {25, 1, 200}, {25, 2, 300}}

	// A record cut off at the end of the valid bytes stops the buffer.
	b := build(c3.Size, three)
	got := parseSimulated(b[:len(b)-8], c3.Size, c3)
	if got.BytesHtoD != 300 || got.BytesDtoH != 0 || got.Incomplete != 1 || got.Complete() {
		t.Errorf("cut-off record: %+v", got)
	}
	// An empty buffer counts as parsed, with nothing in it.
	if got := parseSimulated(nil, c3.Size, c3); got != (Counts{Buffers: 1}) {
		t.Errorf("empty buffer: %+v", got)
	}
	// Counter2 records read with the Counter3 layout: the values still sit
	// at the same offsets, but the spacing check notices the wrong size.
	got = parseSimulated(build(c2.Size, three), c2.Size, c3)
	if got.SpacingErrors != 2 || got.RecordSize != c2.Size || got.Complete() || got.BytesHtoD != 300 {
		t.Errorf("Counter2 buffer with the Counter3 layout: %+v", got)
	}
	// And the other way round.
	got = parseSimulated(build(c3.Size, three), c3.Size, c2)
	if got.SpacingErrors != 2 || got.RecordSize != c3.Size {
		t.Errorf("Counter3 buffer with the Counter2 layout: %+v", got)
	}
	// A single record: no spacing to observe.
	if got := parseSimulated(build(c3.Size, three[:1]), c3.Size, c3); got.RecordSize != 0 || got.Records != 1 {
		t.Errorf("one record: %+v", got)
	}
}

// TestAccumulateLikeTheCallback feeds buffers through the completion
// callback's accumulation into the totals Snapshot and Stop read.
func TestAccumulateLikeTheCallback(t *testing.T) {
	l := mustLayout(t, 130001)
	cReset()
	defer cReset()
	accumulateSimulated(build(l.Size, mixed), l.Size, l)
	first := cRead()
	accumulateSimulated(build(l.Size, mixed), l.Size, l)
	accumulateSimulated(build(l.Size, []rec{{25, 2, 1 << 30}}), l.Size, l)
	all := cRead()
	w := wantMixed(l.Size)
	if first != w {
		t.Errorf("after one buffer: %+v, want %+v", first, w)
	}
	d := all.Sub(first)
	if d.BytesHtoD != w.BytesHtoD || d.BytesDtoH != w.BytesDtoH+1<<30 || d.Buffers != 2 || d.Records != w.Records+1 {
		t.Errorf("delta of two more buffers: %+v", d)
	}
	if s := first.Add(d); s != all {
		t.Errorf("first + delta = %+v, want %+v", s, all)
	}
	if all.MigratedBytes() != all.BytesHtoD+all.BytesDtoH+all.BytesDtoD {
		t.Error("MigratedBytes")
	}
	cReset()
	if z := cRead(); z != (Counts{}) {
		t.Errorf("after reset: %+v", z)
	}
}

func TestUnsupportedResultsSayWhy(t *testing.T) {
	for r, want := range map[Result]string{
		ErrorUMNotSupported: "platform", ErrorUMNotSupportedOnDevice: "device", ErrorUMNotSupportedWithMPS: "MPS",
		ErrorVirtualizedDevice: "virtualised", ErrorInsufficientPrivileges: "privileges",
		ErrorMultipleSubscribers: "another profiler", ErrorUMNotSupportedNonP2P: "CUDA_VISIBLE_DEVICES",
	} {
		err := check("cuptiActivityConfigureUnifiedMemoryCounter", r)
		if !errors.Is(err, ErrUnsupported) || !errors.Is(err, r) {
			t.Errorf("%s: %v does not match ErrUnsupported and itself", r.Name(), err)
		}
		if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), r.Name()) {
			t.Errorf("%s: %q does not say %q", r.Name(), err, want)
		}
	}
	if err := check("x", ErrorMultipleSubscribers); !errors.Is(err, ErrBusy) {
		t.Errorf("another subscriber: %v is not ErrBusy", err)
	}
	if err := check("x", ErrorNotInitialized); errors.Is(err, ErrUnsupported) {
		t.Errorf("%v matches ErrUnsupported", err)
	}
	if check("x", Success) != nil {
		t.Error("check(Success) is an error")
	}
	if Result(31).Name() != "CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED_WITH_MPS" || Result(33).Name() != "CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED" {
		t.Error("result names")
	}
}

// absent is a search that finds nothing: sonames no system has and empty
// directories.
func absent(t *testing.T, driver int) search {
	s := defaultSearch(driver)
	s.env = ""
	s.soname = "libcupti-umlab-absent.so.%d"
	dir := t.TempDir()
	s.roots = func() []string { return []string{filepath.Join(dir, "cuda/extras/CUPTI/lib64")} }
	s.sites = func() []string { return []string{filepath.Join(dir, "site-packages")} }
	return s
}

func TestMissingLibraryNamesWhatWasSearched(t *testing.T) {
	_, err := find(absent(t, 0))
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("%v, want ErrNotFound", err)
	}
	msg := err.Error()
	for _, want := range []string{EnvLibrary, "libcupti-umlab-absent.so.13", "libcupti-umlab-absent.so.12", "dynamic loader",
		"LD_LIBRARY_PATH", "nvidia/cu13/lib", "nvidia/cuda_cupti/lib", "extras/CUPTI/lib64", "pip install nvidia-cuda-cupti"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error does not mention %q:\n%s", want, msg)
		}
	}
	// A CUDA 12 driver: only CUPTI 12 is looked for, and the advice says so.
	_, err = find(absent(t, 12090))
	if msg := err.Error(); strings.Contains(msg, "so.13") || !strings.Contains(msg, "nvidia-cuda-cupti-cu12") {
		t.Errorf("CUDA 12 driver:\n%s", msg)
	}
}

func TestEnvironmentVariableNamesTheLibrary(t *testing.T) {
	s := absent(t, 0)
	s.env = filepath.Join(t.TempDir(), "nowhere/libcupti.so.13")
	_, err := find(s)
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("%v, want ErrNotFound", err)
	}
	if msg := err.Error(); !strings.Contains(msg, EnvLibrary+"="+s.env) || !strings.Contains(msg, "cannot open") {
		t.Errorf("%q does not name %s and say why", msg, EnvLibrary)
	}
}

// fakeCUPTI compiles a stand-in libcupti that reports CUPTI_API_VERSION v
// (without an SONAME, so it cannot shadow a real library) and returns its
// path. omit leaves one entry point out.
func fakeCUPTI(t *testing.T, path string, v uint32, omit string) string {
	t.Helper()
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		t.Skipf("no C compiler (%s) to build a fake libcupti", cc)
	}
	entry := map[string]string{
		"cuptiGetVersion":                            "int cuptiGetVersion(unsigned *v) { *v = VERSION; return 0; }",
		"cuptiGetResultString":                       "int cuptiGetResultString(int r, const char **s) { *s = \"FAKE\"; return 0; }",
		"cuptiActivityConfigureUnifiedMemoryCounter": "int cuptiActivityConfigureUnifiedMemoryCounter(void *c, unsigned n) { return 0; }",
		"cuptiActivityRegisterCallbacks":             "int cuptiActivityRegisterCallbacks(void *a, void *b) { return 0; }",
		"cuptiActivityEnable":                        "int cuptiActivityEnable(int k) { return 0; }",
		"cuptiActivityDisable":                       "int cuptiActivityDisable(int k) { return 0; }",
		"cuptiActivityFlushAll":                      "int cuptiActivityFlushAll(unsigned f) { return 0; }",
		"cuptiActivityGetNextRecord":                 "int cuptiActivityGetNextRecord(void *b, unsigned long n, void **r) { return 12; }",
		"cuptiActivityGetNumDroppedRecords":          "int cuptiActivityGetNumDroppedRecords(void *c, unsigned s, unsigned long *n) { *n = 0; return 0; }",
	}
	var src strings.Builder
	for name, def := range entry {
		if name != omit {
			src.WriteString(def + "\n")
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	c := filepath.Join(t.TempDir(), "fake.c")
	if err := os.WriteFile(c, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(cc, "-shared", "-fPIC", "-o", path, c, "-DVERSION="+strconv.FormatUint(uint64(v), 10)).CombinedOutput()
	if err != nil {
		t.Skipf("cannot build a fake libcupti: %v: %s", err, out)
	}
	return path
}

func TestFakeLibrariesChooseByVersion(t *testing.T) {
	s := absent(t, 13000)
	root, site := s.roots()[0], s.sites()[0]

	// A CUPTI from an unknown future release is refused, by version.
	fakeCUPTI(t, filepath.Join(root, "libcupti.so.13"), 140000, "")
	_, err := find(s)
	if !errors.Is(err, ErrUnsupportedVersion) || !strings.Contains(err.Error(), "140000") || !strings.Contains(err.Error(), root) {
		t.Fatalf("CUPTI 14: %v", err)
	}

	// A library without an entry point umlab needs is not used.
	s2 := absent(t, 13000)
	fakeCUPTI(t, filepath.Join(s2.roots()[0], "libcupti.so.13"), 130001, "cuptiActivityFlushAll")
	if _, err := find(s2); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "has no cuptiActivityFlushAll") {
		t.Errorf("missing entry point: %v", err)
	}

	// pip wheels: CUPTI 13 on a CUDA 13 driver, CUPTI 12 on a CUDA 12 one.
	fakeCUPTI(t, filepath.Join(site, "nvidia/cu13/lib/libcupti.so.13"), 130001, "")
	fakeCUPTI(t, filepath.Join(site, "nvidia/cuda_cupti/lib/libcupti.so.12"), 24, "")
	lib, err := find(s)
	if err != nil {
		t.Fatal(err)
	}
	if lib.APIVersion != 130001 || lib.Layout.Size != sizeCounter3 || !strings.Contains(lib.Path, "nvidia/cu13/lib") {
		t.Errorf("CUDA 13 driver chose %v", lib)
	}
	s12 := s
	s12.driver, s12.majors = 12090, []int{12}
	lib, err = find(s12)
	if err != nil {
		t.Fatal(err)
	}
	if lib.APIVersion != 24 || lib.Layout.Size != sizeCounter2 || lib.CUDAVersion != 12060 {
		t.Errorf("CUDA 12 driver chose %v", lib)
	}

	// A CUPTI 13 named by UMLAB_CUPTI on a CUDA 12 driver is refused, saying why.
	s12.env = filepath.Join(site, "nvidia/cu13/lib/libcupti.so.13")
	if _, err := find(s12); !errors.Is(err, ErrUnsupportedVersion) || !strings.Contains(err.Error(), "needs a CUDA 13 driver") {
		t.Errorf("CUPTI 13 on a CUDA 12 driver: %v", err)
	}
}

// TestProbeNamedLibrary checks a real libcupti when UMLAB_CUPTI names one
// (e.g. from a pip wheel); no GPU is needed to load it and read its version.
func TestProbeNamedLibrary(t *testing.T) {
	if os.Getenv(EnvLibrary) == "" {
		t.Skipf("%s unset", EnvLibrary)
	}
	lib, err := load(0) // as Open would on a CUDA 13 driver, without touching the driver
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%v", lib)
	if lib.Layout.Size == 0 || lib.CUDAVersion == 0 {
		t.Errorf("%+v", lib)
	}
}

func TestOpenWithoutDriver(t *testing.T) {
	if cuda.Init() == nil {
		t.Skip("a driver is present; the GPU tests cover Open")
	}
	_, err := Open()
	if !errors.Is(err, cuda.ErrNoDriver) || !strings.Contains(err.Error(), "need the CUDA driver") {
		t.Errorf("Open without a driver: %v", err)
	}
	// A failed Open leaves the slot free.
	if _, err := Open(); errors.Is(err, ErrBusy) {
		t.Error("a failed Open kept the collector slot")
	}
}

func TestCollectorCallOrder(t *testing.T) {
	var c Collector
	if _, err := c.Stop(); !errors.Is(err, ErrState) {
		t.Errorf("Stop before Start: %v", err)
	}
	if _, err := c.Snapshot(); !errors.Is(err, ErrState) {
		t.Errorf("Snapshot before Start: %v", err)
	}
	c.closed = true
	if err := c.Start(); !errors.Is(err, ErrClosed) {
		t.Errorf("Start after Close: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

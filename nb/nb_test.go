package nb

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
	"github.com/umlab/umlab/umkit/simgpu"
)

func TestTableHTML(t *testing.T) {
	df := dataframe.New(
		series.New([]string{"explicit", "<cold>"}, series.String, "mode"),
		series.New([]int{268435456, 1 << 30}, series.Int, "size_bytes"),
		series.New([]float64{4582, 0.043}, series.Float, "median_gbps"),
		series.New([]float64{1.5, nan()}, series.Float, "cv_pct"),
	)
	h := TableHTML(df)
	for _, want := range []string{"<th", ">size<", ">median GB/s<", ">cv (%)<", ">256 MiB<", ">1 GiB<",
		">4582<", ">0.043<", ">–<", "&lt;cold&gt;"} {
		if !strings.Contains(h, want) {
			t.Errorf("table lacks %q:\n%s", want, h)
		}
	}
}

func nan() float64 { var z float64; return z / z }

func TestMode(t *testing.T) {
	for _, c := range []struct{ env, want string }{{"live", Live}, {"bundled", Bundled}, {"fake", Fake}, {"", Bundled}, {"auto", Bundled}} {
		t.Setenv(EnvMode, c.env)
		m, _, err := Mode()
		if err != nil || m != c.want {
			t.Errorf("%s=%q: mode %q, %v; want %q", EnvMode, c.env, m, err, c.want)
		}
	}
	t.Setenv(EnvMode, "sometimes")
	if _, _, err := Mode(); err == nil {
		t.Error("unknown mode: no error")
	}
}

func TestLoadBundled(t *testing.T) {
	t.Setenv(EnvMode, "bundled")
	t.Setenv(EnvLocalDataset, "")
	rows, err := Load("managed")
	if err != nil {
		t.Fatal(err)
	}
	platforms := map[string]bool{}
	for _, r := range rows {
		if r.Group != "managed" {
			t.Fatalf("row of group %q", r.Group)
		}
		platforms[r.Platform] = true
	}
	for _, p := range []string{"GB200", "GH200", "GB10"} {
		if !platforms[p] {
			t.Errorf("no %s rows", p)
		}
	}
	want, _ := datasets.NewestOf(datasets.Query{Prefix: localPrefix})
	if got := Local(); (want == "") != (got == "") {
		t.Errorf("Local() = %q with newest local dataset %q", got, want)
	}
}

// A results directory named by UMLAB_LOCAL_DATASET becomes the local
// platform.
func TestLocalDatasetDir(t *testing.T) {
	dir := writeRun(t, t.TempDir(), "TESTGPU")
	t.Setenv(EnvMode, "bundled")
	t.Setenv(EnvLocalDataset, dir)
	rows, err := Load("hbm")
	if err != nil {
		t.Fatal(err)
	}
	if Local() != "TESTGPU" {
		t.Errorf("Local() = %q", Local())
	}
	n := 0
	for _, r := range rows {
		if r.Platform == "TESTGPU" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d local rows, want 1", n)
	}
}

// A local results directory that pools simulated with measured rows is
// refused, as summary and model refuse it.
func TestLocalDatasetMixedRefused(t *testing.T) {
	dir := t.TempDir()
	a, b := results.NewRow(), results.NewRow()
	a.Group, a.Benchmark, a.Mode, a.SizeBytes, a.GBps, a.Platform = "hbm", "triad", "explicit", 1<<20, 100, "TESTGPU"
	a.Verified = true // unverified trials are left out before any check
	b = a
	b.Trial, b.Simulated = 1, true
	if err := results.WriteDir(dir, []results.Row{a, b}, results.Metadata{Platform: "TESTGPU", RunID: "test"}); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvMode, "bundled")
	t.Setenv(EnvLocalDataset, dir)
	if _, err := Load("hbm"); !errors.Is(err, results.ErrMixedSimulated) {
		t.Errorf("Load of simulated and measured rows: err = %v, want ErrMixedSimulated", err)
	}
}

func writeRun(t *testing.T, dir, platform string) string {
	t.Helper()
	r := results.NewRow()
	r.Group, r.Benchmark, r.Mode, r.SizeBytes, r.GBps, r.Platform = "hbm", "triad", "explicit", 1<<20, 100, platform
	r.Verified = true // unverified trials are left out of what datasets loads
	if err := results.WriteDir(dir, []results.Row{r}, results.Metadata{Platform: platform, RunID: "test"}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runIDs lists the run ids of the local rows: rows read back from the
// cache keep the id of the run that measured them.
func runIDs(rows []results.Row) []string {
	var ids []string
	for _, r := range rows {
		if r.Platform == Local() && !slices.Contains(ids, r.RunID) {
			ids = append(ids, r.RunID)
		}
	}
	slices.Sort(ids)
	return ids
}

// The live path measures each group once into the cache and reads it back
// on later calls; UMLAB_REFRESH=1 measures again once per kernel session.
// The cache is keyed by the options and the GPU. (The simulated GPU runs
// the live path here; a real GPU differs only in the device.)
func TestLiveCache(t *testing.T) {
	cache := t.TempDir()
	t.Setenv(EnvCacheDir, cache)
	t.Setenv(EnvRefresh, "")
	t.Setenv("GONB_TMP_DIR", "/tmp/gonb_session1")
	o := Options{Groups: []string{"hbm"}, Mode: "simulated", Sizes: []int64{1 << 20}, Trials: umkit.N(2), Warmups: umkit.N(0)}
	load := func(o Options) []string {
		t.Helper()
		rows, err := o.Load()
		if err != nil {
			t.Fatal(err)
		}
		return runIDs(rows)
	}
	first := load(o)
	if len(first) != 1 {
		t.Fatalf("run ids %v", first)
	}
	if again := load(o); !slices.Equal(again, first) {
		t.Errorf("second call measured again: %v, then %v", first, again)
	}
	rows, _ := o.Load()
	for _, r := range rows {
		if r.Platform == Local() && (r.Warmups != 0 || r.Trial > 1 || r.SizeBytes != 1<<20) {
			t.Fatalf("options not applied: %+v", r)
		}
	}
	src := Sources()[len(Sources())-1]
	if src.Kind != KindSimulated || !strings.Contains(src.Detail, "simulated") || !strings.Contains(src.Name, "quick-sizes-1MiB-trials-2-warmups-0") {
		t.Errorf("simulated source %+v", src)
	}
	if !lastSimulated() {
		t.Error("figures after a simulated Load would not be captioned")
	}
	if _, err := (Options{Groups: []string{"hbm"}, Mode: "bundled"}).Load(); err != nil || lastSimulated() {
		t.Errorf("bundled Load: %v, captioned as simulated: %v", err, lastSimulated())
	}
	// Other options, another GPU: measured afresh, in their own directories.
	o2 := o
	o2.Trials = umkit.N(3)
	if ids := load(o2); slices.Equal(ids, first) {
		t.Error("other trials read the cache of the first options")
	}
	o3 := o
	other := simgpu.New()
	info := other.Info()
	info.UUID = "GPU-11111111-2222-3333-4444-555555555555"
	other.SetInfo(info)
	o3.device = other
	if ids := load(o3); slices.Equal(ids, first) {
		t.Error("another GPU read the cache of the first")
	}
	// Refresh: once per kernel session.
	t.Setenv(EnvRefresh, "1")
	r1 := load(o)
	if slices.Equal(r1, first) {
		t.Error("UMLAB_REFRESH=1 did not measure again")
	}
	if r2 := load(o); !slices.Equal(r2, r1) {
		t.Error("UMLAB_REFRESH=1 measured twice in one session")
	}
	t.Setenv("GONB_TMP_DIR", "/tmp/gonb_session2")
	if r3 := load(o); slices.Equal(r3, r1) {
		t.Error("UMLAB_REFRESH=1 in a new session did not measure again")
	}
}

func TestOptionsErrors(t *testing.T) {
	for name, o := range map[string]Options{
		"group":   {Groups: []string{"hbmx"}},
		"size":    {Sizes: []int64{1000}},
		"trials":  {Trials: umkit.N(0)},
		"warmups": {Warmups: umkit.N(-1)},
		"mode":    {Mode: "remote"},
	} {
		if _, err := o.Load(); err == nil || !strings.Contains(err.Error(), "allowed") && !strings.Contains(err.Error(), "want") && !strings.Contains(err.Error(), "groups are") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestLiveForcedWithoutGPU(t *testing.T) {
	if ok, _ := umkit.Available(); ok {
		t.Skip("a GPU is present: live mode would measure")
	}
	t.Setenv(EnvMode, "live")
	if _, err := Load("hbm"); !errors.Is(err, errNoLive) {
		t.Errorf("err = %v, want errNoLive", err)
	}
	if _, err := (Options{Mode: "live"}).Load(); !errors.Is(err, errNoLive) {
		t.Errorf("Options.Mode live: %v, want errNoLive", err)
	}
}

// In bundled mode each group comes from the newest measured dataset that
// has it: a later re-run of one group replaces that group only.
func TestBundledCombinesNewestPerGroup(t *testing.T) {
	t.Setenv(EnvMode, "bundled")
	t.Setenv(EnvLocalDataset, "")
	names := datasets.ByAge(datasets.Query{Prefix: localPrefix})
	if len(names) < 2 {
		t.Skip("fewer than two measured datasets are embedded")
	}
	rows, err := Load("hbm", "managed")
	if err != nil {
		t.Fatal(err)
	}
	runs := map[string]map[string]bool{} // group → run ids of local rows
	for _, r := range rows {
		if r.Platform != Local() {
			continue
		}
		if runs[r.Group] == nil {
			runs[r.Group] = map[string]bool{}
		}
		runs[r.Group][r.RunID] = true
	}
	for g, ids := range runs {
		if len(ids) != 1 {
			t.Errorf("group %s mixes runs %v", g, ids)
		}
	}
	if len(runs) != 2 {
		t.Errorf("local groups %v, want hbm and managed", runs)
	}
}

func TestLoadCounters(t *testing.T) {
	df, src, err := LoadCounters("managed", "pattern")
	if err != nil {
		t.Fatal(err)
	}
	// The canonical counters run of every group; not the run of the
	// figures (the bundled default), which the caption names too.
	if src.Name != datasets.CanonicalCounters || !strings.Contains(src.Detail, "NVIDIA H200") ||
		src.Same() || !strings.Contains(src.Caption(), src.Figures) {
		t.Errorf("source %+v", src)
	}
	if df.Ncol() != len(CounterColumns) || df.Nrow() == 0 {
		t.Fatalf("frame %d×%d: %v", df.Nrow(), df.Ncol(), df.Err)
	}
	// Migrated bytes per useful byte grow with the page-touch interval.
	sub := df.Filter(dataframe.F{Colname: "pattern", Comparator: series.Eq, Comparando: "page_touch"}).
		Filter(dataframe.F{Colname: "mode", Comparator: series.Eq, Comparando: "managed_cold"}).
		Arrange(dataframe.Sort("page_interval_bytes"))
	ratios := sub.Col(results.ColMigratedPerUseful).Float()
	if len(ratios) < 2 || !(ratios[len(ratios)-1] > ratios[0]) {
		t.Errorf("migrated per useful byte by interval: %v", ratios)
	}
	// A cold kernel migrates every byte once: one half of the useful bytes
	// (a read and a write of each element) at every oversubscription level.
	over, _, err := LoadCounters("oversub")
	if err != nil {
		t.Fatal(err)
	}
	cold := over.Filter(dataframe.F{Colname: "mode", Comparator: series.Eq, Comparando: "managed_cold"}).
		Filter(dataframe.F{Colname: "pattern", Comparator: series.Eq, Comparando: "streaming"})
	if got := cold.Col(results.ColMigratedPerUseful).Float(); len(got) == 0 || slices.ContainsFunc(got, func(v float64) bool { return v != 0.5 }) {
		t.Errorf("oversub cold streaming migrated per useful byte %v, want 0.5 each", got)
	}
	// Device memory moves nothing through Unified Memory.
	hbm, _, err := LoadCounters("hbm")
	if err != nil {
		t.Fatal(err)
	}
	if got := hbm.Col(results.ColMigratedPerUseful).Float(); len(got) == 0 || slices.ContainsFunc(got, func(v float64) bool { return v != 0 }) {
		t.Errorf("hbm migrated per useful byte %v, want 0 each", got)
	}
	// Handoff passes come from a dataset that has them, for this platform.
	if df, src, err := LoadCounters("handoff"); err != nil || df.Nrow() == 0 {
		t.Errorf("handoff counters: %v from %q", err, src.Name)
	}
}

// Data from files never reaches notebook HTML or Markdown as markup.
func TestTextEscapes(t *testing.T) {
	evil := "<script>alert(1)</script> | `x` **b** [l](javascript:x)\nnext\x1b[2J\u202e\u2066"
	got := Text(evil)
	for _, bad := range []string{"<", ">", "|", "`", "*", "[", "\n", "\x1b", "\u202e", "\u2066"} {
		if strings.Contains(got, bad) {
			t.Errorf("Text left %q in %q", bad, got)
		}
	}
	args := escapeArgs([]any{evil, errors.New(evil), 3, 1.5})
	if args[0] != got || args[1] != got || args[2] != 3 || args[3] != 1.5 {
		t.Errorf("escapeArgs: %v", args)
	}
}

package nb

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/plots"
	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
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
	want := newestLocal(datasets.List())
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

func writeRun(t *testing.T, dir, platform string) string {
	t.Helper()
	r := results.NewRow()
	r.Group, r.Benchmark, r.Mode, r.SizeBytes, r.GBps, r.Platform = "hbm", "triad", "explicit", 1<<20, 100, platform
	f, err := os.Create(filepath.Join(dir, results.CSVName))
	if err != nil {
		t.Fatal(err)
	}
	if err := results.WriteCSV(f, []results.Row{r}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := results.WriteMetadata(filepath.Join(dir, results.MetaName), results.Metadata{Platform: platform, RunID: "test"}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// The live path measures each group once into the cache and reads it back
// on later calls; UMLAB_REFRESH=1 measures again once per kernel session.
func TestLiveCache(t *testing.T) {
	cache := t.TempDir()
	t.Setenv(EnvMode, "live")
	t.Setenv(EnvCacheDir, cache)
	t.Setenv(EnvRefresh, "")
	t.Setenv("GONB_TMP_DIR", "/tmp/gonb_session1")
	runs := 0
	oldA, oldR := liveAvailable, liveRun
	defer func() { liveAvailable, liveRun = oldA, oldR }()
	liveAvailable = func() (bool, string) { return true, "" }
	liveRun = func(ctx context.Context, o LiveOptions) (results.Metadata, error) {
		if !o.Quick || !o.Resume || len(o.Groups) != 1 {
			t.Errorf("options %+v", o)
		}
		if _, err := os.Stat(filepath.Join(o.Out, results.CSVName)); err == nil {
			return results.Metadata{Platform: "FAKE"}, nil // resumed: all done
		}
		runs++
		if err := os.MkdirAll(o.Out, 0o755); err != nil {
			return results.Metadata{}, err
		}
		o.Progress(LiveProgress{Done: 1, Total: 1, Config: "x", Elapsed: time.Second})
		writeRun(t, o.Out, "FAKE")
		return results.Metadata{Platform: "FAKE"}, nil
	}
	for i := range 2 {
		if _, err := Load("hbm"); err != nil {
			t.Fatal(err)
		}
		if runs != 1 {
			t.Fatalf("call %d: %d runs, want 1", i, runs)
		}
	}
	if Local() != "FAKE" {
		t.Errorf("Local() = %q", Local())
	}
	t.Setenv(EnvRefresh, "1")
	for range 2 {
		if _, err := Load("hbm"); err != nil {
			t.Fatal(err)
		}
	}
	if runs != 2 {
		t.Errorf("refresh: %d runs, want 2 (once per session)", runs)
	}
	t.Setenv("GONB_TMP_DIR", "/tmp/gonb_session2")
	if _, err := Load("hbm"); err != nil {
		t.Fatal(err)
	}
	if runs != 3 {
		t.Errorf("refresh in a new session: %d runs, want 3", runs)
	}
}

func TestLiveForcedWithoutGPU(t *testing.T) {
	t.Setenv(EnvMode, "live")
	oldA := liveAvailable
	defer func() { liveAvailable = oldA }()
	liveAvailable = func() (bool, string) { return false, "no driver" }
	if _, err := Load("hbm"); !errors.Is(err, errNoLive) {
		t.Errorf("err = %v, want errNoLive", err)
	}
}

// In bundled mode each group comes from the newest measured dataset that
// has it: a later re-run of one group replaces that group only.
func TestBundledCombinesNewestPerGroup(t *testing.T) {
	t.Setenv(EnvMode, "bundled")
	t.Setenv(EnvLocalDataset, "")
	names := localByAge(datasets.List())
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
	// The newest counters run wins; it was made with the drained collector and has no caveat.
	if src.Name != "h200-2026-11-30-counters" || src.Caveat != "" || !strings.Contains(src.Detail, "NVIDIA H200") {
		t.Errorf("source %+v", src)
	}
	if df.Ncol() != len(CounterColumns) || df.Nrow() == 0 {
		t.Fatalf("frame %d×%d: %v", df.Nrow(), df.Ncol(), df.Err)
	}
	// Migrated bytes per useful byte grow with the page-touch interval.
	sub := df.Filter(dataframe.F{Colname: "pattern", Comparator: series.Eq, Comparando: "page_touch"}).
		Filter(dataframe.F{Colname: "mode", Comparator: series.Eq, Comparando: "managed_cold"}).
		Arrange(dataframe.Sort("page_interval_bytes"))
	ratios := sub.Col(umkit.ColMigratedPerUseful).Float()
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
	if got := cold.Col(umkit.ColMigratedPerUseful).Float(); len(got) == 0 || slices.ContainsFunc(got, func(v float64) bool { return v != 0.5 }) {
		t.Errorf("oversub cold streaming migrated per useful byte %v, want 0.5 each", got)
	}
	if _, _, err := LoadCounters("handoff"); !errors.Is(err, plots.ErrNoData) {
		t.Errorf("counters of a group without passes: %v", err)
	}
}

// Data from files never reaches notebook HTML or Markdown as markup.
func TestTextEscapes(t *testing.T) {
	evil := "<script>alert(1)</script> | `x` **b** [l](javascript:x)\nnext"
	got := Text(evil)
	for _, bad := range []string{"<", ">", "|", "`", "*", "[", "\n"} {
		if strings.Contains(got, bad) {
			t.Errorf("Text left %q in %q", bad, got)
		}
	}
	args := escapeArgs([]any{evil, errors.New(evil), 3, 1.5})
	if args[0] != got || args[1] != got || args[2] != 3 || args[3] != 1.5 {
		t.Errorf("escapeArgs: %v", args)
	}
}

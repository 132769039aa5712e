package nb

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/go-gota/gota/dataframe"

	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/plots"
)

// TestLiveFakeGPU runs the live path end to end on umkit's fake GPU: every
// group measured with quick sizes into the cache, then every figure and
// table of the notebooks drawn from the rows, as a notebook on a GPU host
// would.
func TestLiveFakeGPU(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every benchmark group on the fake GPU")
	}
	t.Setenv(EnvMode, "fake")
	t.Setenv(EnvCacheDir, t.TempDir())
	rows, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	local := Local()
	if local == "" {
		t.Fatal("no local platform")
	}
	t.Logf("local platform %q, %d rows", local, len(rows))
	figs := map[string]func() (*plots.Figure, error){
		"paths": func() (*plots.Figure, error) {
			return plots.Bars(plots.Nearest(plots.Where(rows, "group", "hbm", "host", "transfer"), 1<<30), "gbps",
				plots.Options{Category: plots.By("group", "benchmark", "mode", "direction")})
		},
		"size": func() (*plots.Figure, error) {
			return plots.BandwidthVsSize(plots.Where(rows, "group", "hbm", "host", "transfer"),
				plots.Options{Series: plots.By("group", "benchmark", "mode", "direction")})
		},
		"states": func() (*plots.Figure, error) {
			return plots.Bars(plots.Nearest(plots.Where(rows, "benchmark", "stream"), 256<<20), "gbps", plots.Options{})
		},
		"managed-size": func() (*plots.Figure, error) {
			return plots.BandwidthVsSize(plots.Where(rows, "benchmark", "stream"), plots.Options{})
		},
		"stride":  func() (*plots.Figure, error) { return plots.StrideSweep(rows, plots.Options{}) },
		"page":    func() (*plots.Figure, error) { return plots.PageTouch(rows, plots.Options{}) },
		"oversub": func() (*plots.Figure, error) { return plots.Oversubscription(rows, plots.Options{}) },
		"handoff": func() (*plots.Figure, error) {
			h := plots.Nearest(plots.Where(rows, "group", "handoff"), 1<<30)
			return plots.HandoffReuse(h, plots.AllModels(plots.FitReuse(h, model.Options{})), plots.Options{})
		},
	}
	dir := os.Getenv("UMLAB_FAKE_FIGURES") // set to look at the figures
	for name, f := range figs {
		fig, err := f()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		png, err := fig.PNG()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if dir != "" {
			os.WriteFile(dir+"/"+name+".png", png, 0o644)
		}
	}
	for _, f := range plots.FitReuse(rows, model.Options{}) {
		if f.Platform == local && f.Err != nil {
			t.Errorf("reuse model on %s: %v", local, f.Err)
		}
	}
	for name, df := range map[string]dataframe.DataFrame{
		"summary": plots.Summary(rows, "platform", "group", "mode", "size_bytes"),
		"pivot":   plots.Pivot(rows, plots.By("mode"), plots.By("platform"), "gbps"),
	} {
		if df.Err != nil {
			t.Errorf("%s: %v", name, df.Err)
		} else if !strings.Contains(TableHTML(df), "<td") {
			t.Errorf("%s: empty table", name)
		}
	}
	// A second Load reads the cache instead of measuring again.
	before := runIDs(plots.Where(rows, "group", "hbm"))
	again, err := Load("hbm")
	if err != nil {
		t.Fatal(err)
	}
	if after := runIDs(again); !slices.Equal(after, before) || len(after) != 1 {
		t.Errorf("run ids %v, then %v: measured again", before, after)
	}
}

package nb

import (
	"errors"
	"slices"
	"testing"

	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/plots"
)

// TestLiveFakeGPU runs the live path end to end on umkit's simulated GPU:
// every group measured with quick sizes into the cache, then every named
// figure of the notebooks drawn, each Draw reading the cache back, as a
// notebook on a GPU host would.
func TestLiveFakeGPU(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every benchmark group on the simulated GPU")
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
	for _, n := range plots.Catalog() {
		s, err := Draw(n.ID)
		if errors.Is(err, plots.ErrNoData) && n.ID == "table3" {
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", n.ID, err)
			continue
		}
		if s.Figure != nil {
			if _, err := s.Figure.PNG(); err != nil {
				t.Errorf("%s: %v", n.ID, err)
			}
		}
	}
	for _, f := range model.FitEach(rows, model.Options{}) {
		if f.Platform == local && f.Err != nil {
			t.Errorf("reuse model on %s: %v", local, f.Err)
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

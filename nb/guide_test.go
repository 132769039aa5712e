package nb

import (
	"strings"
	"testing"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/model"
)

// Notebook 06's decision guide (Advise) ranks the policies of the local
// platform's fitted model, fastest first, and says where its model came
// from; without a local handoff sweep it falls back to Table III's.
func TestDecisionGuide(t *testing.T) {
	t.Setenv(EnvMode, Bundled)
	for _, c := range []struct{ local, from string }{
		{datasets.CanonicalFull, "fitted to H200's handoff sweep"},
		{"paper-gh200", "Table III's, GB200 (no local handoff sweep is loaded)"}, // the paper states sums
	} {
		t.Setenv(EnvLocalDataset, c.local)
		m, from, err := adviceModel()
		if err != nil {
			t.Fatal(err)
		}
		if from != c.from {
			t.Errorf("%s: the model %q, want %q", c.local, from, c.from)
		}
		for _, r := range []float64{1, 32} {
			a, err := model.Advise(m, model.Workload{SizeBytes: 1 << 30, Reuse: r})
			if err != nil {
				t.Fatal(err)
			}
			df := rankingFrame(a)
			if df.Nrow() != len(a.Ranking) || df.Nrow() < 2 {
				t.Fatalf("%s R=%g: %d ranked policies", c.local, r, df.Nrow())
			}
			ms := df.Col("predicted_ms").Float()
			for i := 1; i < len(ms); i++ {
				if ms[i] < ms[i-1] {
					t.Errorf("%s R=%g: ranking not fastest first: %v", c.local, r, ms)
				}
			}
			if !strings.Contains(a.Why, a.Ranking[0].Policy) {
				t.Errorf("%s R=%g: the reason %q does not name the fastest, %s", c.local, r, a.Why, a.Ranking[0].Policy)
			}
		}
	}
}

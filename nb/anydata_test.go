package nb

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/internal/datacheck"
	"github.com/umlab/umlab/plots"
	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
	"github.com/umlab/umlab/umkit/simgpu"
)

// simulatedRuns are results directories of each kind of simulated run: the
// quick suite on one GPU, two GPUs of one node in one directory, and the
// memory-state groups re-established with --rewrite home. Made once.
var simulatedRuns = sync.OnceValues(func() (map[string]string, error) {
	root, err := os.MkdirTemp("", "umlab-nb-sim-")
	if err != nil {
		return nil, err
	}
	run := func(dir string, dev umkit.Device, o umkit.Options) error {
		o.Out, o.Device, o.Quick, o.Warn = dir, dev, true, func(string) {}
		_, err := umkit.Run(context.Background(), o)
		return err
	}
	out := map[string]string{}
	quick := filepath.Join(root, "quick")
	if err := run(quick, simgpu.New(), umkit.Options{}); err != nil {
		return nil, err
	}
	out["simulated quick"] = quick
	home := filepath.Join(root, "home")
	if err := run(home, simgpu.New(), umkit.Options{Groups: []string{"managed"}, Rewrite: umkit.RewriteHome}); err != nil {
		return nil, err
	}
	out["simulated --rewrite home"] = home
	var rows []results.Row
	var meta results.Metadata
	for i := range 2 {
		dir := filepath.Join(root, "gpu", string(rune('0'+i)))
		if err := run(dir, simgpu.NewGPU(i), umkit.Options{Groups: []string{"hbm", "managed"}}); err != nil {
			return nil, err
		}
		r, m, err := datasets.LoadAny(dir)
		if err != nil {
			return nil, err
		}
		rows, meta = append(rows, r...), m
	}
	two := filepath.Join(root, "two")
	if err := results.WriteDir(two, rows, meta); err != nil {
		return nil, err
	}
	out["simulated, two GPUs"] = two
	return out, nil
})

// canonical are the embedded runs that stay when the datasets are curated
// (issue 31): one of each kind. UMLAB_ALL_DATASETS=1 tests every embedded
// dataset instead.
var canonical = []string{"paper-gb200", "paper-gh200", "paper-gb10", "h200-2026-12-02-setuploops", "h200-2026-12-03-quick",
	"h200live-2026-12-01", "h200x2-2026-11-29-isolated", "h200counters-2026-12-02-sweep", "h200counters-2026-12-03-quick",
	"h200counters-2026-12-03-quick"}

// localSources are the local platforms a notebook can be run on here: none
// (the paper only), the embedded datasets (the published ones too, as
// UMLAB_LOCAL_DATASET=paper-gh200 allows), and each kind of simulated run;
// with -short, one measured and one simulated run.
func localSources(t *testing.T) map[string]string {
	sim, err := simulatedRuns()
	if err != nil {
		t.Fatal(err)
	}
	if testing.Short() {
		return map[string]string{"h200-2026-12-03-quick": "h200-2026-12-03-quick", "simulated quick": sim["simulated quick"]}
	}
	out := map[string]string{"the paper only": NoLocal}
	for k, v := range sim {
		out[k] = v
	}
	for _, in := range datasets.List() {
		if os.Getenv("UMLAB_ALL_DATASETS") == "1" || slices.Contains(canonical, in.Name) {
			out[in.Name] = in.Name
		}
	}
	return out
}

// TestNotebooksOnAnyData runs the data path of every notebook cell (the nb
// calls the notebooks make) on every local source: no figure or table
// pools configurations and no title or caption names what the data lack
// (plots' TestCatalogOnEveryDataset checks the figures themselves); every
// figure the paper's claims under a figure state is a value of the
// figure's table; counter passes come from the run of the figures or
// their caption names both runs, and always from the local platform; the
// summaries say something, and nothing empty.
func TestNotebooksOnAnyData(t *testing.T) {
	t.Setenv(EnvMode, Bundled)
	for name, src := range localSources(t) {
		t.Run(name, func(t *testing.T) {
			t.Setenv(EnvLocalDataset, src)
			for _, n := range plots.Catalog() {
				s, err := Draw(n.ID)
				if errors.Is(err, plots.ErrNoData) {
					continue
				}
				if err != nil {
					t.Errorf("%s: %v", n.ID, err)
					continue
				}
				if bad := claimNumbers(s); len(bad) > 0 {
					t.Errorf("%s: claims state %v, not in the figure's table", n.ID, bad)
				}
			}
			checkCounters(t)
			for nbk := range sections {
				lines, err := summaryLines(nbk)
				if err != nil {
					t.Errorf("summary %s: %v", nbk, err)
				}
				for _, l := range lines {
					if strings.TrimSpace(strings.Trim(l, "-. ")) == "" {
						t.Errorf("summary %s: an empty line", nbk)
					}
				}
			}
		})
	}
}

var statement = regexp.MustCompile(`The paper: \*[^*]*\*`)

// claimNumbers returns the figures the claims under a figure state that its
// table lacks: the statements (the paper's words) and the reasons (device
// facts and other measurements, named where they are used) aside.
func claimNumbers(s *Shown) []string {
	return datacheck.Sentence(withoutReasons(statement.ReplaceAllString(s.Claims, "")), datacheck.Values(s.Table))
}

// withoutReasons drops every "(reason N…)" with what it holds.
func withoutReasons(s string) string {
	for {
		i := strings.Index(s, "(reason ")
		if i < 0 {
			return s
		}
		depth, j := 0, i
		for ; j < len(s); j++ {
			if s[j] == '(' {
				depth++
			} else if s[j] == ')' {
				if depth--; depth == 0 {
					break
				}
			}
		}
		s = s[:i] + s[min(j+1, len(s)):]
	}
}

// checkCounters checks where the counter tables come from.
func checkCounters(t *testing.T) {
	for _, g := range []string{"managed", "pattern", "oversub"} {
		df, src, err := LoadCounters(g)
		if errors.Is(err, plots.ErrNoData) {
			continue
		}
		if err != nil {
			t.Errorf("counters %s: %v", g, err)
			continue
		}
		if df.Nrow() == 0 {
			t.Errorf("counters %s: an empty table from %s", g, src.Name)
		}
		rows, _, err := datasets.Load(src.Name)
		if err != nil || len(rows) == 0 || rows[0].Platform != Local() {
			t.Errorf("counters %s from %s for local platform %q: %v", g, src.Name, Local(), err)
		}
		if c := src.Caption(); !src.Same() && !strings.Contains(c, src.Figures) {
			t.Errorf("counters %s from %s beside figures of %s: the caption names one run: %s", g, src.Name, src.Figures, c)
		}
	}
}

// Every nb.Figure call in the notebooks names a figure of the catalog, and
// every figure of the catalog is shown by its notebook.
func TestNotebooksShowTheCatalog(t *testing.T) {
	call := regexp.MustCompile(`nb\.Figure\("([^"]+)"\)`)
	shown := map[string]string{}
	paths, err := filepath.Glob("../notebooks/*.ipynb")
	if err != nil || len(paths) == 0 {
		t.Fatalf("notebooks: %v", err)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var nbk struct {
			Cells []struct {
				Type   string   `json:"cell_type"`
				Source []string `json:"source"`
			} `json:"cells"`
		}
		if err := json.Unmarshal(b, &nbk); err != nil {
			t.Fatal(err)
		}
		for _, c := range nbk.Cells {
			if c.Type != "code" {
				continue
			}
			for _, m := range call.FindAllStringSubmatch(strings.Join(c.Source, ""), -1) {
				if _, err := plots.Lookup(m[1]); err != nil {
					t.Errorf("%s: %v", p, err)
				}
				shown[m[1]] = filepath.Base(p)
			}
		}
	}
	for _, n := range plots.Catalog() {
		if nbk, ok := shown[n.ID]; !ok || !strings.HasPrefix(nbk, n.Notebook+"-") {
			t.Errorf("figure %s of notebook %s is shown by %q", n.ID, n.Notebook, nbk)
		}
	}
	if !slices.ContainsFunc(paths, func(p string) bool { return strings.Contains(p, "06-") }) {
		t.Error("no notebook 06")
	}
}

// Words under the figures of a notebook: each reason written out once,
// later claims refer to it by number; no claim id in the prose (ids stay in
// the claims table).
func TestReasonsOncePerNotebook(t *testing.T) {
	t.Setenv(EnvMode, Bundled)
	t.Setenv(EnvLocalDataset, "h200-2026-12-03-quick")
	for nbk := range sections {
		var prose strings.Builder
		for _, n := range plots.Catalog() {
			if n.Notebook != nbk {
				continue
			}
			s, err := Draw(n.ID)
			if errors.Is(err, plots.ErrNoData) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			prose.WriteString(s.Claims)
		}
		_, _, rest, err := claimsParts(nbk)
		if err != nil {
			t.Fatal(err)
		}
		prose.WriteString(strings.Join(rest, "\n"))
		run, _, err := localRun()
		if err != nil {
			t.Fatal(err)
		}
		xs, err := notebookChecks(run, nbk)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range xs {
			for _, c := range clauses(x.Reason) {
				if n := strings.Count(prose.String(), ": "+Text(c)) + strings.Count(prose.String(), ". "+Text(c)); n != 1 {
					t.Errorf("notebook %s: %q (of %s) written %d times", nbk, c, x.Claim.ID, n)
				}
			}
			if strings.Contains(prose.String(), x.Claim.ID) {
				t.Errorf("notebook %s: claim id %s in the prose", nbk, x.Claim.ID)
			}
		}
	}
}

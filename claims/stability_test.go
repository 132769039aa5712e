package claims

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"
)

// The full default suite at the same settings on an H200, five times, and
// the counter passes of the handoff sweep: the runs leave the embedded
// datasets, so TestStability reads them from git history.
var (
	stabilityRuns = []string{"h200-2026-12-01-reallocate", "h200-2026-12-02-reallocate", "h200-2026-12-02-rerun", "h200-2026-12-02-blockcheck", "h200-2026-12-02-setuploops"}
	stabilityWith = "h200counters-2026-12-02-sweep"
)

// TestStability runs the claims on every full H200 run of the same suite in
// the repository's history, each with the counter passes, and on the five
// combined (their intervals resample runs as well as trials). Each run is
// judged with the run-to-run tolerance measured on the other four (leave
// one out), so that no run's verdict rests on its own spread. It prints the
// verdicts as a Markdown table (datasets/README.md, "Verdict stability"),
// fails where a verdict differs between runs other than as X against
// inconclusive, and checks that tolerance.json holds the tolerance of
// all five (UMLAB_STABILITY_WRITE=1 writes it). It reads git, so it runs
// only on request:
//
//	UMLAB_STABILITY=af1c2cd go test -run TestStability -v ./claims
//
// (the value is the commit whose datasets/ holds the runs).
func TestStability(t *testing.T) {
	commit := os.Getenv("UMLAB_STABILITY")
	if commit == "" {
		t.Skip("set UMLAB_STABILITY to a commit holding the runs (af1c2cd) to measure the verdicts' stability")
	}
	root, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Fatalf("git rev-parse: %v", err)
	}
	dir := t.TempDir()
	extract := func(name string) string {
		out := filepath.Join(dir, name)
		if err := os.MkdirAll(out, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"results.csv", "meta.json", "counters.csv"} {
			cmd := exec.Command("git", "show", commit+":datasets/"+name+"/"+f)
			cmd.Dir = strings.TrimSpace(string(root))
			b, err := cmd.Output()
			if err != nil {
				if f == "counters.csv" {
					continue
				}
				t.Fatalf("git show %s:datasets/%s/%s: %v", commit, name, f, err)
			}
			if err := os.WriteFile(filepath.Join(out, f), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return out
	}
	with := extract(stabilityWith)
	var runs []*Run
	var dirs []string
	evaluate := func(run *Run, tols map[string]tolerance) []Check {
		xs, err := Evaluate(run, Options{tolerances: tols})
		if err != nil {
			t.Fatal(err)
		}
		return xs
	}
	var own [][]Check // each run without a tolerance: the figures the tolerances come from
	for _, n := range stabilityRuns {
		d := extract(n)
		run, err := Load(d, with)
		if err != nil {
			t.Fatal(err)
		}
		runs, dirs, own = append(runs, run), append(dirs, d), append(own, evaluate(run, map[string]tolerance{}))
	}
	var cols [][]Check
	for i, run := range runs {
		others := append(append([][]Check(nil), own[:i]...), own[i+1:]...)
		cols = append(cols, evaluate(run, measureTolerances(others)))
	}
	pooled, err := Load(append(dirs, with)...)
	if err != nil {
		t.Fatal(err)
	}
	cols = append(cols, evaluate(pooled, nil))
	var b strings.Builder
	b.WriteString("| claim | " + strings.Join(stabilityRuns, " | ") + " | all five | stable |\n|---|" + strings.Repeat("---|", len(stabilityRuns)+2) + "\n")
	unstable := 0
	for i, c := range All() {
		seen := map[Verdict]bool{}
		var cells []string
		for _, xs := range cols {
			v := xs[i].Verdict
			cells = append(cells, verdictAbbrev[v])
			if v != Inconclusive {
				seen[v] = true
			}
		}
		ok := "yes"
		if len(seen) > 1 {
			ok, unstable = "no", unstable+1
			t.Errorf("%s: %s", c.ID, strings.Join(cells, " "))
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", c.ID, strings.Join(cells, " | "), ok)
	}
	fmt.Fprintf(&b, "\n%d of %d claims stable. R reproduces, Q reproduces qualitatively, K differs for a known reason, U differs unexplained, I inconclusive, N not measured.\n", len(All())-unstable, len(All()))
	fmt.Print(b.String())

	src := toleranceSource(t, measureTolerances(own), "the five full H200 runs "+strings.Join(stabilityRuns, ", ")+" (datasets/ at "+commit+")")
	path := filepath.Join(strings.TrimSpace(string(root)), "claims", "tolerance.json")
	if os.Getenv("UMLAB_STABILITY_WRITE") != "" {
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	} else if old, err := os.ReadFile(path); err != nil || string(old) != src {
		t.Errorf("claims/tolerance.json is not the tolerance of these runs: regenerate it with UMLAB_STABILITY_WRITE=1")
	}
}

var verdictAbbrev = map[Verdict]string{
	Reproduces: "R", Qualitative: "Q", KnownReason: "K",
	Unexplained: "U", Inconclusive: "I", NotMeasured: "N",
}

// measureTolerances returns each claim's run-to-run deviation over the
// checks of several runs of one machine and suite (each in the same claim
// order); claims not measured on all of them, and truth values, get none.
// claims/tolerance.go says how a single run's interval carries it.
func measureTolerances(runs [][]Check) map[string]tolerance {
	out := map[string]tolerance{}
	if len(runs) < 2 {
		return out
	}
	for i, x := range runs[0] {
		var vals []float64
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, xs := range runs {
			v := xs[i].Measured.Value
			if xs[i].Verdict == NotMeasured || math.IsNaN(v) || math.IsInf(v, 0) || xs[i].Measured.Unit == "yes/no" {
				vals = nil
				break
			}
			vals, lo, hi = append(vals, v), math.Min(lo, v), math.Max(hi, v)
		}
		if len(vals) < 2 {
			continue
		}
		// On the log scale where the figures are positive and within a
		// factor of 10 of each other; a figure that comes near 0 in some
		// run (a difference of two times) deviates on the linear scale.
		positive := lo > 0 && lo >= hi/10
		t := tolerance{Log: positive}
		if positive {
			for j := range vals {
				vals[j] = math.Log(vals[j])
			}
		}
		t.SD = roundSig(stat.StdDev(vals, nil))
		out[x.Claim.ID] = t
	}
	return out
}

// roundSig keeps three significant digits, so that the table regenerates
// alike.
func roundSig(v float64) float64 {
	if v == 0 {
		return 0
	}
	p := math.Pow(10, 2-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*p) / p
}

// toleranceSource is the text of tolerance.json.
func toleranceSource(t *testing.T, tol map[string]tolerance, from string) string {
	b, err := json.MarshalIndent(toleranceFile{From: from, Tolerance: tol}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

// TestToleranceFile: the embedded tolerances decoded, each a deviation
// above 0 (a field renamed in tolerance.json would leave them at 0).
func TestToleranceFile(t *testing.T) {
	if len(runTolerance) < 40 {
		t.Fatalf("%d tolerances decoded from tolerance.json, want the 47 measured", len(runTolerance))
	}
	for id, tol := range runTolerance {
		if !(tol.SD > 0) {
			t.Errorf("%s: run-to-run deviation %v, want > 0", id, tol.SD)
		}
	}
}

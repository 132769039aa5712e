package claims

import (
	"math"
	"math/bits"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/umlab/umlab/results"
)

// scaled returns a copy of base whose configurations in f run f[key] times
// as fast: bandwidths multiplied, times divided.
func scaled(t *testing.T, base *Run, f map[string]float64) *Run {
	t.Helper()
	rows := append([]results.Row(nil), base.Rows...)
	for i := range rows {
		if k, ok := f[base.boot.keys[i]]; ok {
			r := &rows[i]
			r.GBps *= k
			r.TotalMs, r.KernelMs, r.CPUMs, r.TransferMs, r.PrefetchMs = r.TotalMs/k, r.KernelMs/k, r.CPUMs/k, r.TransferMs/k, r.PrefetchMs/k
		}
	}
	run, err := NewRun(base.Name, rows, base.Meta)
	if err != nil {
		t.Fatal(err)
	}
	run.Counters, run.Sources = base.Counters, base.Sources
	return run
}

var fullSuite *Run // loaded once for the claims the paper's rows cannot express

// mutationBase is the run a claim's mutations start from: its reference
// dataset under another run id (same device facts), or the full H200 suite
// for the claims the paper's rows cannot express; and the comparison run.
func mutationBase(t *testing.T, c *Claim) (*Run, *Run) {
	t.Helper()
	ref, err := reference(c.Reference)
	if err != nil {
		t.Fatal(err)
	}
	var against *Run
	if c.Against != "" {
		if against, err = reference(c.Against); err != nil {
			t.Fatal(err)
		}
	}
	base := ref
	if _, err := c.Measure(ref, against); err != nil {
		if fullSuite == nil {
			if fullSuite, err = Load("h200-2026-12-02-setuploops"); err != nil {
				t.Fatal(err)
			}
		}
		base = fullSuite
	}
	m := base.Meta
	m.RunID = "mutated"
	run, err := NewRun(base.Name, base.Rows, m)
	if err != nil {
		t.Fatal(err)
	}
	run.Counters = base.Counters
	return run, against
}

// TestMutations, over every claim: scaling the configurations a claim
// reads changes its figure; scaling every other configuration does not; a
// planted 30 % change on a run with the reference's own device facts is
// never put on a known reason.
func TestMutations(t *testing.T) {
	for _, c := range All() {
		base, against := mutationBase(t, c)
		q, reads, err := measureTracked(c, base, against)
		if err != nil || len(reads) == 0 {
			t.Errorf("%s: measured on %s from %d configurations: %v", c.ID, base.Name, len(reads), err)
			continue
		}
		var unread []string
		for k := range base.cfg {
			if !reads[k] {
				unread = append(unread, k)
			}
		}
		sort.Strings(unread)
		// Every bit of a configuration's place in order, and its complement,
		// picks 2× or 0.5×: any two are scaled apart both ways.
		for b := range 2 * bits.Len(uint(len(unread))) {
			others := map[string]float64{}
			for i, k := range unread {
				others[k] = 0.5 + 1.5*float64((i>>(b/2)^b)&1)
			}
			if q2, err := c.Measure(scaled(t, base, others), against); err != nil || q2.Value != q.Value {
				t.Errorf("%s: scaling the %d configurations it does not read (pattern %d) moves its figure from %v to %v (%v)", c.ID, len(others), b, q.Value, q2.Value, err)
			}
		}
		keys := sortedKeys(reads)
		moved := false
		for seed := 0; seed < 8 && !moved; seed++ {
			f := map[string]float64{}
			for i, k := range keys {
				f[k] = math.Pow(3, math.Sin(float64(7*i+13*seed+1))) // 1/3 to 3, different for each
			}
			q2, err := c.Measure(scaled(t, base, f), against)
			moved = err == nil && q2.Value != q.Value
		}
		if !moved {
			t.Errorf("%s: scaling the %d configurations it reads (%s) never moves its figure", c.ID, len(keys), strings.Join(keys, "; "))
		}
		// Planted: one configuration it reads 30 % faster or slower.
		for _, k := range []string{keys[0], keys[len(keys)-1]} {
			for _, f := range []float64{1.3, 1 / 1.3} {
				xs, err := EvaluateClaims([]*Claim{c}, scaled(t, base, map[string]float64{k: f}), Options{Against: against, Resamples: 40})
				if err != nil {
					t.Fatal(err)
				}
				if x := xs[0]; x.Verdict == KnownReason {
					t.Errorf("%s: %s planted ×%.2f is put on a known reason: %s", c.ID, k, f, x.Reason)
				}
			}
		}
	}
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestQuickRunNotMeasured: the H200's --quick run (64 KiB to 256 MiB)
// gives "not measured" for every claim about 1 GiB, saying so; the same
// rows marked simulated give no verdict at all (their data are not
// measurements) and their table opens with the SIMULATED banner.
func TestQuickRunNotMeasured(t *testing.T) {
	quick, err := Load("h200-2026-12-03-quick")
	if err != nil {
		t.Fatal(err)
	}
	full, err := Load("h200-2026-12-02-setuploops")
	if err != nil {
		t.Fatal(err)
	}
	xs, err := Evaluate(quick, Options{Resamples: 40})
	if err != nil {
		t.Fatal(err)
	}
	rows := append([]results.Row(nil), quick.Rows...)
	for i := range rows {
		rows[i].Simulated = true
	}
	m := quick.Meta
	m.Kind = results.KindSimulated
	sim, err := NewRun("simulated", rows, m)
	if err != nil {
		t.Fatal(err)
	}
	ss, err := Evaluate(sim, Options{Resamples: 40})
	if err != nil {
		t.Fatal(err)
	}
	gib1 := 0
	for i, c := range All() {
		x := xs[i]
		if s := ss[i]; s.Verdict != NotMeasured || x.Verdict != NotMeasured && !strings.HasPrefix(s.Reason, "SIMULATED") {
			t.Errorf("%s on simulated data: %s (%s)", c.ID, s.Verdict, s.Reason)
		}
		_, reads, err := measureTracked(c, full, nil)
		sizes := map[int64]bool{}
		for k := range reads {
			sizes[full.cfg[k].SizeBytes] = true
		}
		switch {
		case err != nil || !sizes[gib]:
		case len(sizes) > 2: // a claim that accepts a range of sizes names those it used
			if x.Measured.Text != "" && !strings.Contains(x.Measured.Text, "MiB") {
				t.Errorf("%s: the figure does not name its sizes: %s", c.ID, x.Measured.Text)
			}
		default:
			gib1++
			if x.Verdict != NotMeasured || !strings.Contains(x.Reason, "1 GiB") {
				t.Errorf("%s reads 1 GiB on the full suite; on the quick run: %s", c.ID, x.Reason)
			}
		}
	}
	if gib1 < 20 {
		t.Errorf("%d claims about 1 GiB, want the 20 or more of the catalogue", gib1)
	}
	var b strings.Builder
	if err := Write(&b, ss, "table"); err != nil || !strings.HasPrefix(b.String(), results.SimulatedBanner) {
		t.Errorf("the table does not open with the SIMULATED banner: %v\n%s", err, b.String())
	}
}

// TestStatementsCiteTheDatasets: every figure in a statement is read from
// the paper's datasets; the templates hold only configuration labels
// (sizes, R, strides, percentages of capacity, passes) and the bounds of
// relations; and where a statement cites configurations, the claim
// measures no other (a claim switched to another kernel than the one its
// statement names fails here).
func TestStatementsCiteTheDatasets(t *testing.T) {
	label := regexp.MustCompile(`R = 2…32|16 MiB–1 GiB|\d+ GPU passes|\d+ (GiB|MiB|KiB)|R\*? = \d+|stride[- ]\d+|R = 2…32|\d+ %% (of CUDA|from 25|to 90)|(at|of|to) \d+ %%|\d+ %%( maximum)?|\d+× sparser|16 MiB–1 GiB|\d+× (that|faster|GH200)|T = F \+ R·G|F_|G_|[A-Z]+\d+|\d+-\d+|Table III|VIII-C|\(\d+ MiB\)`)
	for _, c := range All() {
		if strings.Contains(c.Statement, "?") {
			t.Errorf("%s: a figure could not be read: %s", c.ID, c.Statement)
		}
		if ref, err := reference(c.Reference); err == nil && len(c.cited) > 0 {
			var against *Run
			if c.Against != "" {
				against, _ = reference(c.Against)
			}
			if _, reads, err := measureTracked(c, ref, against); err == nil {
				for k := range reads {
					if !c.cited[k] {
						t.Errorf("%s measures %s, which its statement does not cite (%s)", c.ID, k, strings.Join(sortedKeys(c.cited), "; "))
					}
				}
			}
		}
		rest := label.ReplaceAllString(c.format, "")
		if regexp.MustCompile(`\d`).MatchString(rest) {
			t.Errorf("%s: the statement types a figure: %q (left: %q)", c.ID, c.format, rest)
		}
	}
}

// TestModelNeedsLargeSizes: with the handoff sweep cut below 16 MiB the
// model's claims are not measured and say why.
func TestModelNeedsLargeSizes(t *testing.T) {
	full, err := Load("h200-2026-12-02-setuploops")
	if err != nil {
		t.Fatal(err)
	}
	rows := slices.DeleteFunc(slices.Clone(full.Rows), func(r results.Row) bool {
		return r.Group == results.GroupHandoff && r.SizeBytes >= 16<<20
	})
	small, err := NewRun("small", rows, full.Meta)
	if err != nil {
		t.Fatal(err)
	}
	xs, err := EvaluateClaims([]*Claim{ByID("VIII-C.median-ape")}, small, Options{Resamples: 40})
	if err != nil {
		t.Fatal(err)
	}
	if x := xs[0]; x.Verdict != NotMeasured || !strings.Contains(x.Reason, "no size of 16 MiB or more") {
		t.Errorf("handoff sweep below 16 MiB: %s (%s)", x.Verdict, x.Reason)
	}
}

package claims_test

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umlab/umlab/claims"
	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/results"
)

// notExpressible lists the claims the paper's own datasets cannot express,
// with why: their figures are stated only as text or need the paper's
// unpublished sweeps.
var notExpressible = map[string]string{
	"VII-A.flat-below-capacity":       "the 25–90 % sweep is a range in the text, not stored rows",
	"VII-A.reuse-flat-below-capacity": "the 25–90 % sweep is a range in the text, not stored rows",
	"VII-A.cold-low-across":           "the sweep's cold figures are in Fig. 7 only",
	"VIII-C.median-ape":               "the paper publishes the handoff sweep at 1 GiB only",
}

// The canonical runs: the full default suite on an H200 and the counter
// passes of its handoff sweep.
const (
	fullRun  = "h200-2026-12-02-setuploops"
	counters = "h200counters-2026-12-02-sweep"
)

func load(t *testing.T, names ...string) *claims.Run {
	t.Helper()
	r, err := claims.Load(names...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func byID(t *testing.T, xs []claims.Check) map[string]claims.Check {
	t.Helper()
	m := map[string]claims.Check{}
	for _, x := range xs {
		m[x.Claim.ID] = x
	}
	return m
}

// TestCatalogue: at least 30 claims, unique ids, every section of the
// abstract and Sections V–VIII with Table III covered.
func TestCatalogue(t *testing.T) {
	all := claims.All()
	if len(all) < 30 {
		t.Fatalf("%d claims, want at least 30", len(all))
	}
	seen := map[string]bool{}
	sections := map[string]bool{}
	for _, c := range all {
		if seen[c.ID] {
			t.Errorf("duplicate id %s", c.ID)
		}
		seen[c.ID] = true
		sections[c.Section] = true
		if c.Statement == "" || c.Measure == nil || c.Reference == "" {
			t.Errorf("%s: incomplete claim", c.ID)
		}
		if !strings.HasPrefix(c.ID, c.Section+".") {
			t.Errorf("%s: id does not start with its section %s", c.ID, c.Section)
		}
	}
	for _, s := range []string{"Abstract", "V-A", "V-B", "V-C", "VI-A", "VI-B", "VI-C", "VII-A", "VII-B", "VIII-A", "VIII-C", "Table III"} {
		if !sections[s] {
			t.Errorf("no claim of section %s", s)
		}
	}
}

// TestPaperReproducesItself: on the paper's own datasets every claim the
// data can express reproduces; the others are exactly notExpressible.
func TestPaperReproducesItself(t *testing.T) {
	for _, c := range claims.All() {
		var o claims.Options
		if c.Against != "" {
			o.Against = load(t, c.Against)
		}
		xs, err := claims.EvaluateClaims([]*claims.Claim{c}, load(t, c.Reference), o)
		if err != nil {
			t.Fatal(err)
		}
		x, want := xs[0], claims.Reproduces
		if _, ok := notExpressible[c.ID]; ok {
			want = claims.NotMeasured
		}
		if x.Verdict != want {
			t.Errorf("%s on %s: %s (paper %s, measured %s: %s), want %s", c.ID, c.Reference, x.Verdict, x.Paper, x.Measured, x.Reason, want)
		}
		if x.Verdict == claims.Reproduces && (x.Measured.CI.Lo != x.Measured.Value || x.Measured.CI.Hi != x.Measured.Value) {
			t.Errorf("%s: the paper's single figures give the interval %v, want the point", c.ID, x.Measured.CI)
		}
	}
	// The paper's GB200 dataset compares itself with its GH200 dataset.
	xs, err := claims.EvaluateClaims([]*claims.Claim{claims.ByID("V-A.triad-gb200-gh200")}, load(t, claims.GB200), claims.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if xs[0].Verdict != claims.Reproduces || xs[0].Measured.String() != "1.25×" {
		t.Errorf("GB200 against GH200: %s %s, want reproduces 1.25×", xs[0].Verdict, xs[0].Measured)
	}
}

// TestGB10SharedPool: on GB10, CPU and GPU share one memory pool; that is
// the reason where the paper's GB200 claims about first touch differ
// (state-dependent bandwidth, the cold fraction, the cold figure), and only
// there: nothing predicts prefetched memory at 80 % of explicit.
func TestGB10SharedPool(t *testing.T) {
	xs, err := claims.Evaluate(load(t, claims.GB10), claims.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := byID(t, xs)
	for _, id := range []string{"Abstract.state-dependent", "V-C.cold-fraction", "V-C.cold-absolute"} {
		if x := got[id]; x.Verdict != claims.KnownReason || !strings.Contains(x.Reason, "share one memory pool") || !strings.Contains(x.Reason, "within the 1.25×") {
			t.Errorf("%s on GB10: %s (%s), want the shared pool as the reason", id, x.Verdict, x.Reason)
		}
	}
	for _, id := range []string{"Abstract.resident-near-hbm", "V-C.prefetch-matches", "V-C.reuse-fraction", "V-C.gh200-recover"} {
		if x := got[id]; x.Verdict != claims.Unexplained {
			t.Errorf("%s on GB10: %s (%s), want unexplained", id, x.Verdict, x.Reason)
		}
	}
	// On the paper's GB200, with its own HBM behind NVLink-C2C, the GB10
	// claim differs for the opposite reason: pages must migrate.
	xs, err = claims.EvaluateClaims([]*claims.Claim{claims.ByID("V-C.gb10-uniform")}, load(t, claims.GB200), claims.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if x := xs[0]; x.Verdict != claims.KnownReason || !strings.Contains(x.Reason, "must migrate") {
		t.Errorf("GB10's uniformity on GB200: %s (%s)", x.Verdict, x.Reason)
	}
}

// TestCanonicalVerdicts pins the verdicts on the full suite and its counter
// passes, among them the five the issue found generous, re-judged: each
// figure with its interval, a mechanism only where it predicts the
// difference.
func TestCanonicalVerdicts(t *testing.T) {
	xs, err := claims.Evaluate(load(t, fullRun, counters), claims.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := byID(t, xs)
	for _, c := range []struct {
		id   string
		want claims.Verdict
		says []string
	}{
		// The prefetches both ways at this run's rates allow 62 % removal,
		// above the claim's line: they do not predict the miss.
		{"VII-B.prefetch-removes-extra", claims.Inconclusive, []string{"37.1 % [", "straddles the claim's direction"}},
		// 42.5 % of the baseline, but the CPU update's variation between
		// configurations makes the interval reach below 25 %.
		{"VII-B.explicit-small-extra", claims.Inconclusive, []string{"42.5 % [", "straddles"}},
		{"VIII-C.explicit-wins-r2", claims.Inconclusive, []string{"1.02× [", "straddles the claim's direction (explicit faster"}},
		// An error 11× the paper's, which taking the CPU time out does
		// not cure: unexplained, not "qualitatively".
		{"VIII-C.max-ape", claims.Unexplained, []string{"3.67 % [", "nothing in this run's device facts or data explains it"}},
		// umlab's streaming kernel runs at its copy figure, the paper's
		// above its own copy and triad: computed, not a conjecture.
		{"V-C.stream-above-triad", claims.KnownReason, []string{"copy figure (4109 GB/s at 256 MiB", "exceeds its own copy (2958 GB/s)", "predicts 0.934×"}},
		{"V-A.host-hundreds", claims.KnownReason, []string{"PCIe Gen5 x16 (63.0 GB/s per direction, meta.json)", "at most 94.5 GB/s"}},
		{"VI-C.page-touch-fall", claims.Qualitative, []string{"shortest kernel (3.14 µs", "predicts 190×"}},
		{"VII-B.order-r32", claims.KnownReason, []string{"at least F + 32 × 17.0 = 731 ms, more than managed's 390 ms"}},
		{"VII-B.managed-extra", claims.Qualitative, []string{"1 CPU thread(s) (meta.json)", "predicts 1.40×"}},
		{"VIII-C.fastest-policy", claims.Inconclusive, []string{"20 of 20 at 16 MiB, 64 MiB, 256 MiB, 1 GiB; always naming explicit_copy scores 16 of 20"}},
		{"V-A.triad", claims.NotMeasured, []string{"absolute figure of GB200's device"}},
		{"V-C.prefetch-matches", claims.Reproduces, nil},
	} {
		x := got[c.id]
		cells := strings.Join(x.Cells(), " | ")
		if x.Verdict != c.want {
			t.Errorf("%s: %s (%s), want %s", c.id, x.Verdict, cells, c.want)
		}
		for _, s := range c.says {
			if !strings.Contains(cells, s) {
				t.Errorf("%s: %q lacks %q", c.id, cells, s)
			}
		}
		if x.Verdict != claims.NotMeasured && (len(x.RestsOn) != 1 || x.RestsOn[0] != fullRun) {
			t.Errorf("%s rests on %v, want %s", c.id, x.RestsOn, fullRun)
		}
	}
	// No reason states a device fact meta.json lacks.
	for _, x := range xs {
		for _, s := range []string{"4 KiB pages", "x86", "single-thread", "one host thread", "12× in Table III", "first extra pass"} {
			if strings.Contains(x.Reason, s) {
				t.Errorf("%s's reason states %q: %s", x.Claim.ID, s, x.Reason)
			}
		}
	}
}

// TestIntervalVerdicts: a figure whose whole interval lies within the
// tolerance reproduces, one whose interval straddles its edge is
// inconclusive, one beyond it differs; the direction is judged alike.
func TestIntervalVerdicts(t *testing.T) {
	c := &claims.Claim{ID: "test.interval", Section: "test", Statement: "the triad reaches 100 GB/s", Reference: claims.GB200,
		Relation:  claims.Relation{Kind: claims.Near, Tol: 0.1},
		Direction: &claims.Band{Lo: 50, Hi: math.Inf(1)}, DirectionText: "above 50 GB/s",
		Paper:   func(_, _ *claims.Run) (claims.Quantity, error) { return claims.Quantity{Value: 100, Unit: "GB/s"}, nil },
		Measure: claims.ByID("V-A.triad").Measure} // the median of the 1 GiB HBM triad
	for _, tc := range []struct {
		name   string
		trials []float64
		want   claims.Verdict
	}{
		{"inside", spread(100, 2), claims.Reproduces},
		{"straddles 110", spread(110, 6), claims.Inconclusive},
		{"beyond, same direction", spread(130, 2), claims.Qualitative},
		{"straddles the direction", spread(50, 6), claims.Inconclusive},
		{"against the direction", spread(30, 2), claims.Unexplained},
	} {
		var rows []results.Row
		for i, v := range tc.trials {
			r := results.NewRow()
			r.Group, r.Benchmark, r.Mode, r.SizeBytes, r.Trial, r.GBps, r.Platform, r.RunID = "hbm", "triad", "explicit", 1<<30, int64(i), v, "H200", "synthetic"
			rows = append(rows, r)
		}
		run, err := claims.NewRun("synthetic", rows, results.Metadata{RunID: "synthetic", Platform: "H200", Kind: "measured"})
		if err != nil {
			t.Fatal(err)
		}
		xs, err := claims.EvaluateClaims([]*claims.Claim{c}, run, claims.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if x := xs[0]; x.Verdict != tc.want {
			t.Errorf("%s: %s %v (%s), want %s", tc.name, x.Verdict, x.Measured.CI, x.Reason, tc.want)
		}
	}
}

// spread returns 25 trials evenly across median ± half.
func spread(median, half float64) []float64 {
	var out []float64
	for i := range 25 {
		out = append(out, median-half+2*half*float64(i)/24)
	}
	return out
}

// TestPooledRuns: two runs of one machine with the same settings combine
// group by group, each group's intervals resampling the runs as well as
// their trials, and the verdicts name both runs.
func TestPooledRuns(t *testing.T) {
	rows, meta, err := datasets.Load(fullRun)
	if err != nil {
		t.Fatal(err)
	}
	var hbm []results.Row
	for _, r := range rows {
		if r.Group == "hbm" {
			r.RunID = "second"
			r.GBps *= 0.6 // a second run 40 % slower
			hbm = append(hbm, r)
		}
	}
	meta.RunID = "second"
	dir := filepath.Join(t.TempDir(), "second")
	if err := results.WriteDir(dir, hbm, meta); err != nil {
		t.Fatal(err)
	}
	one, both := load(t, fullRun), load(t, fullRun, dir)
	pick := []*claims.Claim{claims.ByID("V-A.copy-below-triad"), claims.ByID("VIII-A.hbm-vs-host")}
	a, err := claims.EvaluateClaims(pick, one, claims.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := claims.EvaluateClaims(pick, both, claims.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(b[1].RestsOn, ", "); got != fullRun+", "+dir {
		t.Errorf("triad over host-mapped rests on %q, want both runs", got)
	}
	if w1, w2 := a[1].Measured.CI.Hi-a[1].Measured.CI.Lo, b[1].Measured.CI.Hi-b[1].Measured.CI.Lo; w2 < 2*w1 {
		t.Errorf("the pooled interval %v is not wider than the single run's %v: the runs' 40 %% difference is not resampled", b[1].Measured.CI, a[1].Measured.CI)
	}
	if len(a[0].RestsOn) != 1 || len(b[0].RestsOn) != 2 {
		t.Errorf("copy over triad rests on %v alone and %v combined, want one run and two", a[0].RestsOn, b[0].RestsOn)
	}
}

func TestWriteFormats(t *testing.T) {
	xs, err := claims.Evaluate(load(t, claims.GB200), claims.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"table", "md", "csv"} {
		var b strings.Builder
		if err := claims.Write(&b, xs, f); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "V-C.cold-fraction") {
			t.Errorf("%s output lacks a claim id", f)
		}
		if f != "csv" && !strings.Contains(b.String(), "95 % bootstrap intervals") {
			t.Errorf("%s output does not say how its intervals were made", f)
		}
	}
	var b strings.Builder
	if err := claims.Write(&b, xs, "xml"); err == nil || !strings.Contains(err.Error(), "table, md or csv") {
		t.Errorf("bad format: %v", err)
	}
	if df := claims.Frame(xs); df.Err != nil || df.Nrow() != len(xs) {
		t.Errorf("frame: %v, %d rows", df.Err, df.Nrow())
	}
}

func TestNewRunRejectsMixedPlatforms(t *testing.T) {
	a, b := results.NewRow(), results.NewRow()
	a.Platform, b.Platform = "H200", "GB200"
	if _, err := claims.NewRun("mixed", []results.Row{a, b}, results.Metadata{}); err == nil || !strings.Contains(err.Error(), "several platforms") {
		t.Errorf("mixed platforms: %v", err)
	}
	if _, err := claims.Load(fullRun, claims.GB200); err == nil {
		t.Error("combining an H200 run with the paper's GB200 rows should fail")
	}
}

// The notebooks' sentences come from the data: pin what they say on the
// canonical H200 runs and on the paper's GB200 figures.
func TestNarrative(t *testing.T) {
	h := load(t, fullRun)
	c := load(t, "h200counters-2026-12-03-quick")
	g := load(t, claims.GB200)
	for _, tc := range []struct{ got, want string }{
		{h.SizeTrend("managed", "stream", "managed_cold"), "managed_cold stream rises from 1.07 GB/s at 64 KiB to 22.3 GB/s at 1 GiB"},
		{c.Amplification(), "(256 at 4 KiB, 4096 at 64 KiB, 4096 at 2 MiB)"},
		{h.HandoffStory(), "managed stays within 376–390 ms from R = 1 to R = 32"},
		{h.HandoffStory(), "host_mapped rises from 211 ms at R = 1 to 1014 ms at R = 32"},
		{h.HandoffStory(), "takes 154–186 ms depending on the policy (a 21.2 % spread)"},
		{g.HandoffStory(), "at R = 1 the policies order host_mapped 60.2 ms < explicit_copy 60.5 ms"},
		{h.PctBasis(), "shrunk to 2 GiB"},
		{g.PctBasis(), "CUDA-visible"},
		{g.PageTouchTrend(), "4 KiB→64 KiB: 16.0× sparser, 14.6× slower"},
		{h.ModelStory(), "20 of 20 size–reuse cases, where always naming explicit_copy scores 16"},
	} {
		if !strings.Contains(tc.got, tc.want) {
			t.Errorf("%q\n  lacks %q", tc.got, tc.want)
		}
	}
	if r, err := claims.Open(fullRun + " + " + counters); err != nil || len(r.Counters) == 0 {
		t.Errorf("Open of a joined source name: %v", err)
	}
	xs, err := claims.CheckIDs(nil, "V-C.cold-fraction")
	if err != nil || !strings.Contains(claims.Says(xs), "reproduces") {
		t.Errorf("CheckIDs(nil): %v %v", xs, err)
	}
	if _, err := claims.CheckIDs(h, "no.such"); err == nil {
		t.Error("unknown id accepted")
	}
}

// TestReasonsFollowTheFacts: a reason exists only where meta.json's device
// facts say so. The full H200 suite's rows under a meta.json describing a
// coherent NVLink-C2C device lose every PCIe reason; with 8 CPU threads
// the reasons say 8; preferred-CPU pages read as fast as accessed-by's
// are explained by remote access only where the device reports concurrent
// managed access.
func TestReasonsFollowTheFacts(t *testing.T) {
	base := load(t, fullRun)
	with := func(edit func(*results.Metadata)) *claims.Run {
		m := base.Meta
		m.Config = cloneConfig(t, base.Meta.Config)
		edit(&m)
		run, err := claims.NewRun("edited", base.Rows, m)
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
	c2c := with(func(m *results.Metadata) {
		m.Device.MemoryOrganization = "Grace LPDDR5X + Hopper HBM via coherent NVLink-C2C"
		m.Device.PCIeGeneration, m.Device.PCIeWidth, m.Device.PeakHostLinkGBps = 0, 0, 0
	})
	xs, err := claims.Evaluate(c2c, claims.Options{Resamples: 40})
	if err != nil {
		t.Fatal(err)
	}
	got := byID(t, xs)
	for _, id := range []string{"V-A.host-hundreds", "V-B.copy-h2d", "VII-B.order-r32"} {
		if x := got[id]; x.Verdict != claims.Unexplained || strings.Contains(x.Reason, "PCIe") {
			t.Errorf("%s on a C2C device: %s (%s), want unexplained", id, x.Verdict, x.Reason)
		}
	}
	eight := with(func(m *results.Metadata) {
		m.Config.(map[string]any)["handoff"].(map[string]any)["CPUThreads"] = 8.0
	})
	xs, err = claims.EvaluateClaims([]*claims.Claim{claims.ByID("VII-B.managed-extra")}, eight, claims.Options{Resamples: 40})
	if err != nil {
		t.Fatal(err)
	}
	if r := xs[0].Reason; !strings.Contains(r, "with 8 CPU thread(s) (meta.json)") {
		t.Errorf("8 CPU threads: %s", r)
	}
	// The paper's GB200 rows with preferred-CPU as fast as accessed-by, on
	// a PCIe device with and without concurrent managed access.
	ref := load(t, claims.GB200)
	var rows []results.Row
	for _, r := range ref.Rows {
		if r.Mode == "advise_preferred_cpu" {
			r.GBps = 272
		}
		rows = append(rows, r)
	}
	for _, concurrent := range []bool{true, false} {
		m := ref.Meta
		m.RunID, m.Kind = "planted", "measured"
		m.Device.MemoryOrganization = ""
		m.Device.PCIeGeneration, m.Device.PCIeWidth, m.Device.PeakHostLinkGBps = 5, 16, 63
		m.Device.ConcurrentManagedAccess = concurrent
		run, err := claims.NewRun("planted", rows, m)
		if err != nil {
			t.Fatal(err)
		}
		xs, err := claims.EvaluateClaims([]*claims.Claim{claims.ByID("VI-A.preferred-cpu-below-cold")}, run, claims.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := claims.Unexplained
		if concurrent {
			want = claims.KnownReason
		}
		if x := xs[0]; x.Verdict != want || concurrent && !strings.Contains(x.Reason, "concurrent managed access: yes (meta.json)") {
			t.Errorf("preferred CPU like accessed-by, concurrent managed access %v: %s (%s), want %s", concurrent, x.Verdict, x.Reason, want)
		}
	}
}

// cloneConfig deep-copies meta.json's config through JSON.
func cloneConfig(t *testing.T, c any) any {
	t.Helper()
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// evilLabel is a platform or device name from a hostile meta.json: raw
// HTML with a script, a table cell separator and a javascript: link.
const evilLabel = `GH<img src=x onerror="alert(1)"> | [x](javascript:alert(1))`

// unescaped returns the characters of s among chars not written as a
// Markdown backslash escape.
func unescaped(s, chars string) string {
	var out []byte
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\':
			i++
		case strings.IndexByte(chars, s[i]) >= 0:
			out = append(out, s[i])
		}
	}
	return string(out)
}

// Data in a run's labels stays text in the Markdown table and sentences:
// no extra cell, no tag, no link.
func TestMarkdownEscapesLabels(t *testing.T) {
	rows, meta, err := datasets.Load("paper-gh200")
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		rows[i].Platform = evilLabel
	}
	meta.Platform, meta.Device.Name = evilLabel, evilLabel
	run, err := claims.NewRun("evil", rows, meta)
	if err != nil {
		t.Fatal(err)
	}
	xs, err := claims.Evaluate(run, claims.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := claims.Write(&b, xs, "md"); err != nil {
		t.Fatal(err)
	}
	shown := 0
	for _, l := range strings.Split(b.String(), "\n") {
		if !strings.HasPrefix(l, "| **") {
			continue
		}
		if got := unescaped(l, "|"); len(got) != 7 {
			t.Errorf("a table row has %d cell separators, want 7: %s", len(got), l)
		}
		if got := unescaped(l, "<>[]()"); got != "" {
			t.Errorf("a table row keeps %q unescaped: %s", got, l)
		}
		shown += strings.Count(l, `GH\<img src=x onerror="alert\(1\)"\> \| \[x\]\(javascript:alert\(1\)\)`)
	}
	if shown == 0 {
		t.Errorf("the table never shows the platform, escaped:\n%s", b.String())
	}
	says := claims.Says(xs)
	for _, l := range strings.Split(says, "\n") {
		if got := unescaped(l, "<>[]()|"); got != "" && got != "()" {
			t.Errorf("a sentence keeps %q unescaped: %s", got, l)
		}
	}
	if !strings.Contains(says, `\[x\]\(javascript:alert\(1\)\)`) {
		t.Errorf("no sentence names the device, escaped:\n%s", says)
	}
}

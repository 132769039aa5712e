package claims_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/umlab/umlab/claims"
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

func load(t *testing.T, names ...string) *claims.Run {
	t.Helper()
	r, err := claims.Load(names...)
	if err != nil {
		t.Fatal(err)
	}
	return r
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
		run := load(t, c.Reference)
		var o claims.Options
		if c.Against != "" {
			o.Against = load(t, c.Against)
		}
		xs, err := claims.EvaluateClaims([]*claims.Claim{c}, run, o)
		if err != nil {
			t.Fatal(err)
		}
		x := xs[0]
		want := claims.Reproduces
		if _, ok := notExpressible[c.ID]; ok {
			want = claims.NotMeasured
		}
		if x.Verdict != want {
			t.Errorf("%s on %s: %s (paper %s, measured %s: %s), want %s", c.ID, c.Reference, x.Verdict, x.Paper, x.Measured, x.Reason, want)
		}
	}
}

// TestGB200AgainstGH200: the paper's GB200 dataset compares itself with
// the paper's GH200 dataset by default.
func TestGB200AgainstGH200(t *testing.T) {
	xs, err := claims.EvaluateClaims([]*claims.Claim{claims.ByID("V-A.triad-gb200-gh200")}, load(t, claims.GB200), claims.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if xs[0].Verdict != claims.Reproduces || xs[0].Measured.String() != "1.25×" {
		t.Errorf("got %s %s, want reproduces 1.25×", xs[0].Verdict, xs[0].Measured)
	}
}

// planted returns the paper's GB200 rows with one configuration's
// bandwidth multiplied by f.
func planted(t *testing.T, meta func(*results.Metadata), edits map[string]float64) *claims.Run {
	t.Helper()
	ref := load(t, claims.GB200)
	rows := append([]results.Row(nil), ref.Rows...)
	for i := range rows {
		if f, ok := edits[rows[i].Group+"/"+rows[i].Mode]; ok && rows[i].SizeBytes == 256<<20 && rows[i].Benchmark == "stream" {
			rows[i].GBps *= f
		}
	}
	m := ref.Meta
	m.RunID, m.Kind = "planted", "measured"
	if meta != nil {
		meta(&m)
	}
	r, err := claims.NewRun("planted", rows, m)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func verdictOf(t *testing.T, run *claims.Run, id string) claims.Check {
	t.Helper()
	c := claims.ByID(id)
	if c == nil {
		t.Fatalf("no claim %s", id)
	}
	xs, err := claims.EvaluateClaims([]*claims.Claim{c}, run, claims.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return xs[0]
}

func pcie(m *results.Metadata) {
	m.Device.MemoryOrganization = ""
	m.Device.PCIeGeneration, m.Device.PCIeWidth, m.Device.PeakHostLinkGBps = 5, 16, 63
	m.Device.ConcurrentManagedAccess = true
}

// TestPlantedVerdicts pins each verdict kind with a planted difference.
func TestPlantedVerdicts(t *testing.T) {
	// Cold twice as fast: still far below explicit, a different magnitude.
	x := verdictOf(t, planted(t, nil, map[string]float64{"managed/managed_cold": 2}), "V-C.cold-fraction")
	if x.Verdict != claims.Qualitative || !strings.Contains(x.Reason, "0.615 %") {
		t.Errorf("cold ×2: %s (%s), want reproduces qualitatively with the figures", x.Verdict, x.Reason)
	}
	// Preferred CPU as fast as accessed-by on a PCIe device: remote access.
	edits := map[string]float64{"managed/advise_preferred_cpu": 272 / 10.6}
	x = verdictOf(t, planted(t, pcie, edits), "VI-A.preferred-cpu-below-cold")
	if x.Verdict != claims.KnownReason || !strings.Contains(x.Reason, "PCIe Gen5 x16") {
		t.Errorf("preferred CPU on PCIe: %s (%s), want a known reason naming the link", x.Verdict, x.Reason)
	}
	// The same on NVLink-C2C: nothing explains it.
	x = verdictOf(t, planted(t, nil, edits), "VI-A.preferred-cpu-below-cold")
	if x.Verdict != claims.Unexplained {
		t.Errorf("preferred CPU on C2C: %s (%s), want unexplained", x.Verdict, x.Reason)
	}
	// Without a handoff group: not measured, saying what is missing.
	ref := load(t, claims.GB200)
	var rows []results.Row
	for _, r := range ref.Rows {
		if r.Group != "handoff" {
			rows = append(rows, r)
		}
	}
	m := ref.Meta
	m.RunID = "no-handoff"
	run, err := claims.NewRun("no-handoff", rows, m)
	if err != nil {
		t.Fatal(err)
	}
	x = verdictOf(t, run, "VII-B.managed-extra")
	if x.Verdict != claims.NotMeasured || !strings.Contains(x.Reason, "handoff") {
		t.Errorf("no handoff: %s (%s), want not measured naming handoff", x.Verdict, x.Reason)
	}
	x = verdictOf(t, run, "VIII-C.crossover")
	if x.Verdict != claims.NotMeasured {
		t.Errorf("no handoff, crossover: %s, want not measured", x.Verdict)
	}
	// A sparse random benchmark is preferred to the dense one: planted with
	// the paper's figures it reproduces and says which it used.
	ref0 := load(t, claims.GB200)
	var sp []results.Row
	for _, r := range ref0.Rows {
		if r.Benchmark == "random" {
			d := r
			if d.Mode == "managed_cold" {
				d.GBps *= 10 // a dense variant, far off the paper's cold ratio
			}
			sp = append(sp, d)
			r.Benchmark, r.Pattern, r.StrideElements = "sparse_random", "sparse_random", 16
		}
		sp = append(sp, r)
	}
	ms := ref0.Meta
	ms.RunID = "sparse"
	srun, err := claims.NewRun("sparse", sp, ms)
	if err != nil {
		t.Fatal(err)
	}
	x = verdictOf(t, srun, "VI-B.random-cold")
	if x.Verdict != claims.Reproduces || !strings.Contains(x.Measured.Text, "sparse random, density 1/16") {
		t.Errorf("sparse random: %s (%s)", x.Verdict, x.Measured.Text)
	}
	// Explicit copy's extra cost six times the paper's: known where the
	// run's own copies (here slow pinned copies, 40 GB/s) take most of it,
	// unexplained where they are as fast as GB200's.
	extraRun := func(copyGBps float64) *claims.Run {
		var rows []results.Row
		for _, r := range ref0.Rows {
			switch {
			case r.Group == "handoff" && r.Policy == "explicit_copy" && r.Phase == "extra":
				r.TotalMs = 33
			case r.Group == "transfer" && r.Benchmark == "copy" && copyGBps > 0:
				r.GBps = copyGBps
			}
			rows = append(rows, r)
		}
		m := ref0.Meta
		m.RunID = "extra"
		run, err := claims.NewRun("extra", rows, m)
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
	x = verdictOf(t, extraRun(40), "VII-B.explicit-small-extra")
	if x.Verdict != claims.KnownReason || !strings.Contains(x.Reason, "pinned copy rates (40.0 GB/s to the GPU") {
		t.Errorf("explicit extra with slow copies: %s (%s), want a known reason quoting the copy rates", x.Verdict, x.Reason)
	}
	if x = verdictOf(t, extraRun(0), "VII-B.explicit-small-extra"); x.Verdict != claims.Unexplained {
		t.Errorf("explicit extra with GB200's copies: %s (%s), want unexplained", x.Verdict, x.Reason)
	}
	// An unchanged copy under another name reproduces.
	x = verdictOf(t, planted(t, nil, nil), "V-C.cold-fraction")
	if x.Verdict != claims.Reproduces {
		t.Errorf("unchanged: %s, want reproduces", x.Verdict)
	}
}

// TestH200Verdicts pins the verdicts of the newest H200 datasets whose
// differences the claims explain.
func TestH200Verdicts(t *testing.T) {
	run := load(t, "h200-2026-11-30-suite", "h200-2026-12-01-handoff-interleaved", "h200-2026-11-30-counters", "h200-2026-12-01-handoff-counters")
	xs, err := claims.Evaluate(run, claims.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]claims.Check{}
	for _, x := range xs {
		got[x.Claim.ID] = x
	}
	for id, want := range map[string]claims.Verdict{
		"V-C.cold-fraction":             claims.Qualitative,
		"V-C.prefetch-matches":          claims.Reproduces,
		"VI-A.preferred-cpu-below-cold": claims.KnownReason,
		"VI-B.random-cold":              claims.KnownReason,
		"VII-B.prefetch-removes-extra":  claims.KnownReason,
		"VII-A.prefetch-125":            claims.NotMeasured,
		"V-A.triad-gb200-gh200":         claims.NotMeasured,
		"VIII-C.crossover":              claims.Qualitative,
		"VIII-C.max-ape":                claims.KnownReason,
		"VIII-C.max-ape-prefetch":       claims.KnownReason,
		"VIII-C.fastest-policy":         claims.Reproduces,
		"VII-B.host-fastest-r1":         claims.Reproduces,
	} {
		if got[id].Verdict != want {
			t.Errorf("%s: %s (%s), want %s", id, got[id].Verdict, got[id].Reason, want)
		}
	}
	if r := got["VI-A.preferred-cpu-below-cold"].Reason; !strings.Contains(r, "0 bytes migrated") {
		t.Errorf("preferred CPU reason does not cite the counter pass: %s", r)
	}
	if r := got["VII-B.prefetch-removes-extra"].Reason; !strings.Contains(r, "0 CPU and 0 GPU page faults") || !strings.Contains(r, "10.8 GB/s GPU→CPU") {
		t.Errorf("prefetch handoff reason does not cite the counted transfers and the GPU→CPU prefetch rate: %s", r)
	}
	if r := got["VIII-C.max-ape"].Reason; !strings.Contains(r, "explicit copy, which does the same CPU work") {
		t.Errorf("model error reason does not compare the fixed costs' spread: %s", r)
	}
	// The sequential sweep of the day before: the CPU update drifted, and
	// the reasons say so.
	old := load(t, "h200-2026-11-30-suite", "h200-2026-11-29-full")
	xs, err = claims.EvaluateClaims([]*claims.Claim{claims.ByID("VIII-C.crossover"), claims.ByID("VIII-C.max-ape")}, old, claims.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range xs {
		if x.Verdict != claims.KnownReason || !strings.Contains(x.Reason, "CPU") {
			t.Errorf("%s on the sequential sweep: %s (%s), want a known reason naming the CPU update", x.Claim.ID, x.Verdict, x.Reason)
		}
	}
	if r := got["VII-A.prefetch-125"].Reason; !strings.Contains(r, "--allow-oversubscription") {
		t.Errorf("oversubscription reason does not name the opt-in: %s", r)
	}
	// The full default suite of 2026-12-02 at 3f5ac2e, with counter passes of its sweeps (a later commit with the same handoff code, another H200):
	// nothing is left unexplained, and explicit copy's extra cost is put on
	// the copies measured in the loop.
	full := load(t, "h200-2026-12-02-rerun", "h200counters-2026-12-02-sweep")
	xs, err = claims.Evaluate(full, claims.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range xs {
		if x.Verdict == claims.Unexplained {
			t.Errorf("%s on the full suite: unexplained (%s)", x.Claim.ID, x.Measured)
		}
		// Explicit copy and host-mapped lines cross at R* = 1.72 at 1 GiB
		// here, beyond noise: the paper's direction at another magnitude,
		// put on the host-mapped pass's cost over PCIe.
		if x.Claim.ID == "VIII-C.crossover" && (x.Verdict != claims.Qualitative || !strings.Contains(x.Reason, "1.72 here") ||
			!strings.Contains(x.Reason, "explicit placement pays off from the first extra pass")) {
			t.Errorf("crossover on the full suite: %s (%s), want qualitative at 1.72, put on the host-mapped pass", x.Verdict, x.Reason)
		}
		// On this run the extra (47.2 ms) is above the copies measured in
		// the loop (39.8 ms): the paper's direction, put on the copies.
		if x.Claim.ID == "VII-B.explicit-small-extra" && (x.Verdict != claims.Qualitative || !strings.Contains(x.Reason, "transfer_ms") || strings.Contains(x.Reason, "does not measure")) {
			t.Errorf("explicit extra on the full suite: %s (%s), want qualitative, put on the copies in the loop", x.Verdict, x.Reason)
		}
	}
}

// TestClaimsOnTheREADMERun: the run the README, the notebooks and reproduce
// cite (the full default suite at 4001b10, with the same counter passes)
// leaves nothing unexplained either; there explicit copy and host-mapped
// cross beyond noise within the first few passes at 1 GiB, as in the
// paper, so the crossover reproduces qualitatively, while on the run
// before it (6ba71c4), where they do not cross beyond noise at 1 GiB, it
// is put on the CPU update's variation.
func TestClaimsOnTheREADMERun(t *testing.T) {
	before := load(t, "h200-2026-12-02-blockcheck", "h200counters-2026-12-02-sweep")
	xs, err := claims.Evaluate(before, claims.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range xs {
		if x.Claim.ID == "VIII-C.crossover" && (x.Verdict != claims.KnownReason || !strings.Contains(x.Reason, "CPU update's variation")) {
			t.Errorf("crossover at 6ba71c4: %s (%s), want a known reason naming the CPU update's variation", x.Verdict, x.Reason)
		}
	}
	run := load(t, "h200-2026-12-02-setuploops", "h200counters-2026-12-02-sweep")
	xs, err = claims.Evaluate(run, claims.Options{})
	if err != nil {
		t.Fatal(err)
	}
	counts := map[claims.Verdict]int{}
	for _, x := range xs {
		counts[x.Verdict]++
		if x.Verdict == claims.Unexplained {
			t.Errorf("%s: unexplained (%s)", x.Claim.ID, x.Measured)
		}
		if x.Claim.ID == "VIII-C.crossover" && (x.Verdict != claims.Qualitative || !strings.Contains(x.Reason, "1 ≤ R* < 4")) {
			t.Errorf("crossover: %s (%s), want qualitative, within the first few passes", x.Verdict, x.Reason)
		}
	}
	if len(xs) != 61 || counts[claims.NotMeasured] != 10 {
		t.Errorf("%d claims, %d not measured; want 61 and 10 (the H200 cannot express them)", len(xs), counts[claims.NotMeasured])
	}
}

// TestExplicitExtraAndItsCopies: explicit copy's extra cost is compared
// with the copies the loop measured itself. An extra above them shares the
// paper's direction and is put on the copies; one below them, positive or
// negative (the same run with its alternating R = 1 trials made slower or
// faster), cannot measure the handoff and never reproduces, even where it
// falls within the paper's tolerance.
func TestExplicitExtraAndItsCopies(t *testing.T) {
	base := load(t, "h200-2026-12-02-rerun")
	shifted := func(ms float64) *claims.Run {
		var rows []results.Row
		for _, r := range base.Rows {
			if r.Group == "handoff" && r.Policy == "explicit_copy" && r.Phase == "alternating" && r.ReusePasses == 1 && r.SizeBytes == 1<<30 {
				r.TotalMs += ms
			}
			rows = append(rows, r)
		}
		m := base.Meta
		m.RunID = fmt.Sprintf("shift%+g", ms)
		run, err := claims.NewRun(m.RunID, rows, m)
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
	const id = "VII-B.explicit-small-extra"
	// As measured (+0 ms) the extra is about 47 ms (23 % of the baseline),
	// above the loop's 39.8 ms of copies; −5 ms keeps it above them.
	for _, ms := range []float64{0, -5} {
		x := verdictOf(t, shifted(ms), id)
		if x.Verdict != claims.Qualitative || !strings.Contains(x.Reason, "transfer_ms") || strings.Contains(x.Reason, "does not measure") {
			t.Errorf("shift %g ms, extra %s: %s (%s), want qualitative, put on the copies", ms, x.Measured, x.Verdict, x.Reason)
		}
	}
	// −28 ms: an extra of about 19 ms, positive and within the paper's
	// ±5 points of 9.8 %, but below the copies; −50 and −70 ms: negative.
	for _, ms := range []float64{-28, -50, -70} {
		x := verdictOf(t, shifted(ms), id)
		if x.Verdict != claims.KnownReason || !strings.Contains(x.Reason, "more than the whole extra") || !strings.Contains(x.Reason, "inside the loop") ||
			!strings.Contains(x.Reason, "does not measure the handoff's cost") {
			t.Errorf("shift %g ms, extra %s: %s (%s), want a known reason: the copies exceed the extra", ms, x.Measured, x.Verdict, x.Reason)
		}
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
	if _, err := claims.Load("h200-2026-11-30-suite", "paper-gb200"); err == nil {
		t.Error("combining an H200 run with the paper's GB200 rows should fail")
	}
}

// The notebooks' sentences come from the data: pin what they say on the
// bundled H200 runs and on the paper's GB200 figures.
func TestNarrative(t *testing.T) {
	h := load(t, "h200-2026-11-30-suite", "h200-2026-11-29-full")
	c := load(t, "h200-2026-11-30-counters")
	g := load(t, claims.GB200)
	for _, tc := range []struct{ got, want string }{
		{h.SizeTrend("managed", "stream", "managed_cold"), "managed_cold stream rises from 1.48 GB/s at 64 KiB"},
		{c.Amplification(), "(256 at 4 KiB, 4096 at 64 KiB, 4096 at 2 MiB)"},
		// 447 ms at R = 1, down to 392 and back to 441: variation, not a fall.
		{h.HandoffStory(), "managed varies within 392–447 ms from R = 1 to R = 32 (447 at R = 1, 411 at R = 2, 392 at R = 4"},
		{h.HandoffStory(), "host_mapped rises from 246 ms at R = 1 to 1029 ms at R = 32"},
		{h.HandoffStory(), "at R = 1 the policies order explicit_copy 214 ms < host_mapped"},
		{g.HandoffStory(), "at R = 1 the policies order host_mapped 60.2 ms < explicit_copy 60.5 ms"},
		{h.PctBasis(), "shrunk to 2 GiB"},
		{g.PctBasis(), "CUDA-visible"},
		{g.PageTouchTrend(), "4 KiB→64 KiB: 16.0× sparser, 14.6× slower"},
		{h.ModelStory(), "19 of 20"},
	} {
		if !strings.Contains(tc.got, tc.want) {
			t.Errorf("%q\n  lacks %q", tc.got, tc.want)
		}
	}
	if r, err := claims.Open("h200-2026-11-30-suite + h200-2026-11-29-full"); err != nil || len(r.Rows) != len(h.Rows) {
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

// TestReproducesNeedsDirection: a figure within the paper's tolerance but
// against the claim's direction does not reproduce it (R* = 0.97 against
// the paper's 1.06: no crossover at any R ≥ 1).
func TestReproducesNeedsDirection(t *testing.T) {
	fixed := func(v float64) func(a, _ *claims.Run) (claims.Quantity, error) {
		return func(a, _ *claims.Run) (claims.Quantity, error) { return claims.Quantity{Value: v}, nil }
	}
	c := &claims.Claim{ID: "test.direction", Section: "test", Statement: "crosses at 1.06", Reference: claims.GB200,
		Relation:  claims.Relation{Kind: claims.Near, Tol: 0.1},
		Direction: func(q float64) bool { return q >= 1 }, DirectionText: "R* ≥ 1",
		Paper: fixed(1.06)}
	run := load(t, claims.GB200)
	for _, tc := range []struct {
		got  float64
		want claims.Verdict
	}{{1.0, claims.Reproduces}, {0.97, claims.Unexplained}, {1.5, claims.Qualitative}} {
		c.Measure = fixed(tc.got)
		xs, err := claims.EvaluateClaims([]*claims.Claim{c}, run, claims.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if xs[0].Verdict != tc.want {
			t.Errorf("figure %g against 1.06: %s, want %s", tc.got, xs[0].Verdict, tc.want)
		}
	}
}

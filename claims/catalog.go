package claims

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

// Published datasets the claims read their figures from.
const (
	GB200 = "paper-gb200"
	GH200 = "paper-gh200"
	GB10  = "paper-gb10"
)

// Ambiguities of the paper that claims rest on.
const (
	AmbTriadPerArray = "the paper's \"1 GiB triad\" is read as 1 GiB per array (three arrays, 3 GiB in all); it does not say"
	AmbGB            = "GB/s is read as 10^9 bytes per second; the paper does not define GB"
	AmbStreamKernel  = "the paper does not say what its streaming kernel counts; umlab's reads and writes one array in place and counts both"
	AmbRandom        = "the paper's random benchmark is \"sparse random\" at 256 MiB without saying how many elements it touches; umlab's pattern.random is dense (a shuffled index array over every element, so each migrated page is fully used) and pattern.sparse_random touches 1/16 or 1/256 of them; the claim uses the sparse one (1/16 first) when the run has it"
	AmbPageTouch     = "the paper's page-touch figures are for \"a 256 MiB managed allocation\" without naming the state; their magnitudes fit a resident (prefetched or reused) allocation, so the reused state is compared"
	AmbPinned        = "the paper does not say whether the explicit copies' host buffer is pinned or pageable; pinned is compared"
	AmbOversubPct    = "the paper's percentages are of CUDA-visible memory; ours are of the free capacity of the sweep, which umbench shrinks with a plain device allocation"
)

// The few figures the paper states only in its text (VII-A's ranges and
// VIII-C's aggregate), which its datasets cannot hold.
const (
	statedPrefetchLo, statedPrefetchHi = 4683, 4736 // GB/s, prefetched, 25–90 % (VII-A)
	statedReuseLo, statedReuseHi       = 4674, 4701 // GB/s, reused, 25–90 % (VII-A)
	statedMedianAPE                    = 0.40       // %, 16 MiB–1 GiB (VIII-C)
	statedFastest                      = 20         // validation size–reuse combinations (VIII-C)
)

var catalog = sync.OnceValue(build)

// All returns the catalogue, in the paper's order.
func All() []*Claim { return catalog() }

// ByID returns the claim with the given id, or nil.
func ByID(id string) *Claim {
	if i := slices.IndexFunc(All(), func(c *Claim) bool { return c.ID == id }); i >= 0 {
		return All()[i]
	}
	return nil
}

// CheckIDs checks the claims with the given ids on a run; a nil run checks
// them on the paper's GB200 dataset.
func CheckIDs(run *Run, ids ...string) ([]Check, error) {
	var cs []*Claim
	for _, id := range ids {
		c := ByID(id)
		if c == nil {
			return nil, fmt.Errorf("claims: no claim %q", id)
		}
		cs = append(cs, c)
	}
	if run == nil {
		var err error
		if run, err = reference(GB200); err != nil {
			return nil, err
		}
	}
	return EvaluateClaims(cs, run, Options{})
}

// Sections returns the claims whose section starts with one of the given
// prefixes ("V-", "VI-A", "Table III"), in catalogue order.
func Sections(prefixes ...string) []*Claim {
	var out []*Claim
	for _, c := range All() {
		if slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(c.Section, p) }) {
			out = append(out, c)
		}
	}
	return out
}

func build() []*Claim {
	var cs []*Claim
	add := func(s statement, c *Claim) {
		c.Statement, c.format, c.cited = s.text, s.format, s.cited
		c.Section, _, _ = strings.Cut(c.ID, ".") // an id starts with its section
		cs = append(cs, c)
	}
	g := func(s sel) said { return at(GB200, s) }
	h := func(s sel) said { return at(GH200, s) }
	gm := func(m func(a, b *Run) (Quantity, error)) said { return of(m, GB200) }
	stream256 := func(m string) sel { return stream(m, 256*mib) }

	// Abstract.
	stateDep := ratio(stream(results.ModeManagedPrefetch, 256*mib), stream(results.ModeManagedCold, 256*mib), "×")
	add(says("One managed allocation has no single bandwidth: the same streaming kernel is %s× faster prefetched than on CPU-initialised first touch (256 MiB)", gm(stateDep)),
		&Claim{ID: "Abstract.state-dependent", Reference: GB200, Relation: Relation{Kind: AtLeast, Bound: 10},
			Measure: stateDep, Reasons: []Mechanism{integratedPool(poolUnity)}})
	add(says("Prefetched and reused managed memory recover near-HBM performance (at least 95 %% of the explicit baseline, 256 MiB)"),
		&Claim{ID: "Abstract.resident-near-hbm", Reference: GB200, Relation: Relation{Kind: AtLeast, Bound: 95},
			Measure: minRatio(stream256)})

	// V-A.
	add(says("The 1 GiB STREAM triad reaches %s GB/s from local HBM on GB200", g(triad(gib))),
		&Claim{ID: "V-A.triad", Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.05}, OwnDevice: true,
			Ambiguity: AmbTriadPerArray + "; " + AmbGB, Measure: value(triad(gib))})
	add(says("GB200's local-HBM triad is about %s× GH200's (%s against %s GB/s)", of(cross(triad(gib), "×"), GB200, GH200), g(triad(gib)), h(triad(gib))),
		&Claim{ID: "V-A.triad-gb200-gh200", Reference: GB200, Against: GH200, Relation: Relation{Kind: Near, Tol: 0.05},
			Direction: above(1), DirectionText: "GB200 faster", Measure: cross(triad(gib), "×")})
	hostFrac := ratio(hostTriad(gib), triad(gib), "%")
	add(says("GPU access to host-mapped memory is substantially slower than local HBM: the 1 GiB host-mapped triad reaches %s %% of the HBM triad", gm(hostFrac)),
		&Claim{ID: "V-A.host-fraction", Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.25},
			Direction: below(50), DirectionText: "host-mapped well below HBM", Measure: hostFrac, Reasons: []Mechanism{hostTriadLink(linkFraction)}})
	add(says("Host/system memory still provides hundreds of GB/s of useful bandwidth (%s GB/s host-mapped triad, 1 GiB)", g(hostTriad(gib))),
		&Claim{ID: "V-A.host-hundreds", Reference: GB200, Relation: Relation{Kind: AtLeast, Bound: 100},
			Measure: value(hostTriad(gib)), Reasons: []Mechanism{hostTriadLink(linkValue)}})
	add(says("Unlike HBM, copy and prefetch, the host-mapped path does not improve on GB200: %s× GH200's (%s against %s GB/s)", of(cross(hostTriad(gib), "×"), GB200, GH200), g(hostTriad(gib)), h(hostTriad(gib))),
		&Claim{ID: "V-A.host-gb200-below-gh200", Reference: GB200, Against: GH200, Relation: Relation{Kind: Near, Tol: 0.05},
			Direction: below(1), DirectionText: "GB200 slower", Measure: cross(hostTriad(gib), "×")})
	add(says("Measured HBM bandwidth depends on the kernel's traffic: the 1 GiB copy (%s GB/s) runs below the triad (%s GB/s)", g(hbmCopy(gib)), g(triad(gib))),
		&Claim{ID: "V-A.copy-below-triad", Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.1},
			Direction: below(1), DirectionText: "copy below triad", Ambiguity: AmbTriadPerArray, Measure: ratio(hbmCopy(gib), triad(gib), "×")})

	// V-B.
	add(says("1 GiB explicit host-to-device copies reach %s GB/s on GB200", g(copyDir(results.DirectionH2D))),
		&Claim{ID: "V-B.copy-h2d", Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.1}, Ambiguity: AmbPinned,
			Measure: value(copyDir(results.DirectionH2D)), Reasons: []Mechanism{linkCeiling(copyDir(results.DirectionH2D))}})
	add(says("Device-to-host copies are a little slower than host-to-device (%s against %s GB/s)", g(copyDir(results.DirectionD2H)), g(copyDir(results.DirectionH2D))),
		&Claim{ID: "V-B.copy-d2h-vs-h2d", Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.05},
			Direction: below(0.99), DirectionText: "d2h slower than h2d", Ambiguity: AmbPinned,
			Measure: ratio(copyDir(results.DirectionD2H), copyDir(results.DirectionH2D), "×"), Reasons: []Mechanism{linkBoth(copyDir(results.DirectionD2H), copyDir(results.DirectionH2D))}})
	add(says("Managed prefetch is slower than explicit copy (CPU-to-GPU %s against %s GB/s, 1 GiB)", g(prefetchDir(results.DirectionH2D)), g(copyDir(results.DirectionH2D))),
		&Claim{ID: "V-B.prefetch-below-copy", Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.2},
			Direction: below(1), DirectionText: "prefetch below copy",
			Measure: ratio(prefetchDir(results.DirectionH2D), copyDir(results.DirectionH2D), "×"), Reasons: []Mechanism{linkBoth(prefetchDir(results.DirectionH2D), copyDir(results.DirectionH2D))}})
	add(says("GPU-to-CPU prefetch is slower than CPU-to-GPU (%s against %s GB/s, 1 GiB)", g(prefetchDir(results.DirectionD2H)), g(prefetchDir(results.DirectionH2D))),
		&Claim{ID: "V-B.prefetch-d2h-slower", Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.2},
			Direction: below(1), DirectionText: "GPU→CPU slower", Measure: ratio(prefetchDir(results.DirectionD2H), prefetchDir(results.DirectionH2D), "×")})
	add(says("GB200 improves explicit-transfer bandwidth over GH200 (host-to-device %s against %s GB/s)", g(copyDir(results.DirectionH2D)), h(copyDir(results.DirectionH2D))),
		&Claim{ID: "V-B.transfers-gb200-gh200", Reference: GB200, Against: GH200, Relation: Relation{Kind: Near, Tol: 0.1},
			Direction: above(1), DirectionText: "GB200 faster", Measure: cross(copyDir(results.DirectionH2D), "×")})
	add(says("GB200 substantially improves managed prefetch over GH200 (CPU-to-GPU %s against %s GB/s)", g(prefetchDir(results.DirectionH2D)), h(prefetchDir(results.DirectionH2D))),
		&Claim{ID: "V-B.prefetch-gb200-gh200", Reference: GB200, Against: GH200, Relation: Relation{Kind: Near, Tol: 0.1},
			Direction: above(1), DirectionText: "GB200 faster", Measure: cross(prefetchDir(results.DirectionH2D), "×")})

	// V-C.
	coldFrac := ratio(stream(results.ModeManagedCold, 256*mib), stream(results.ModeExplicit, 256*mib), "%")
	add(says("CPU-initialised first touch reaches only %s %% of the explicit-HBM streaming baseline (%s against %s GB/s, 256 MiB)",
		gm(coldFrac), g(stream(results.ModeManagedCold, 256*mib)), g(stream(results.ModeExplicit, 256*mib))),
		&Claim{ID: "V-C.cold-fraction", Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.25},
			Direction: below(5), DirectionText: "cold below 5 % of explicit", Ambiguity: AmbStreamKernel,
			Measure: coldFrac, Reasons: []Mechanism{integratedPool(poolFraction)}})
	add(says("Cold first touch of the 256 MiB streaming kernel runs at %s GB/s on GB200 (%s on GH200)", g(stream(results.ModeManagedCold, 256*mib)), h(stream(results.ModeManagedCold, 256*mib))),
		&Claim{ID: "V-C.cold-absolute", Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.25},
			Direction: below(100), DirectionText: "tens of GB/s at most",
			Measure: value(stream(results.ModeManagedCold, 256*mib)), Reasons: []Mechanism{integratedPool(poolValue)}})
	add(says("With cudaMemPrefetchAsync the streaming kernel effectively matches the explicit baseline (%s against %s GB/s)", g(stream(results.ModeManagedPrefetch, 256*mib)), g(stream(results.ModeExplicit, 256*mib))),
		&Claim{ID: "V-C.prefetch-matches", Reference: GB200, Relation: Relation{Kind: NearAbs, Tol: 2},
			Direction: above(90), DirectionText: "prefetch above 90 % of explicit",
			Measure: ratio(stream(results.ModeManagedPrefetch, 256*mib), stream(results.ModeExplicit, 256*mib), "%")})
	reuseFrac := ratio(stream(results.ModeManagedReuse, 256*mib), stream(results.ModeExplicit, 256*mib), "%")
	add(says("Reused managed memory reaches %s %% of the explicit baseline (%s against %s GB/s)", gm(reuseFrac), g(stream(results.ModeManagedReuse, 256*mib)), g(stream(results.ModeExplicit, 256*mib))),
		&Claim{ID: "V-C.reuse-fraction", Reference: GB200, Relation: Relation{Kind: NearAbs, Tol: 2},
			Direction: above(90), DirectionText: "reuse above 90 % of explicit", Measure: reuseFrac})
	add(says("On GH200 prefetch and reuse recover more than 99 %% of explicit-HBM bandwidth (%s and %s against %s GB/s)",
		h(stream(results.ModeManagedPrefetch, 256*mib)), h(stream(results.ModeManagedReuse, 256*mib)), h(stream(results.ModeExplicit, 256*mib))),
		&Claim{ID: "V-C.gh200-recover", Reference: GH200, Relation: Relation{Kind: AtLeast, Bound: 99},
			Direction: above(95), DirectionText: "above 95 % of explicit",
			Measure: minRatio(stream256)})
	add(says("The explicit streaming kernel (%s GB/s at 256 MiB) runs faster than the 1 GiB triad (%s GB/s)", g(stream(results.ModeExplicit, 256*mib)), g(triad(gib))),
		&Claim{ID: "V-C.stream-above-triad", Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.1}, Ambiguity: AmbStreamKernel,
			Measure: ratio(stream(results.ModeExplicit, 256*mib), triad(gib), "×"), Reasons: []Mechanism{streamTraffic}})
	add(says("On GB10 (one shared LPDDR5X pool) every managed state stays within about %s %% of the explicit baseline instead of collapsing", of(slowestState, GB10)),
		&Claim{ID: "V-C.gb10-uniform", Reference: GB10, Relation: Relation{Kind: AtLeast, Bound: 50},
			Measure: slowestState, Reasons: []Mechanism{separatePool}})

	// VI-A.
	add(says("Cold first touch stays near the same bandwidth from 256 MiB to 1 GiB (%s and %s GB/s): the kernel is limited by page mapping and migration",
		g(stream(results.ModeManagedCold, 256*mib)), g(stream(results.ModeManagedCold, gib))),
		&Claim{ID: "VI-A.cold-1gib", Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.1},
			Direction: within(0.75, 1.33), DirectionText: "within a third",
			Measure: ratio(stream(results.ModeManagedCold, gib), stream(results.ModeManagedCold, 256*mib), "×")})
	for _, m := range []struct{ id, mode, name string }{{"VI-A.prefetch-1gib", results.ModeManagedPrefetch, "Prefetched"}, {"VI-A.reuse-1gib", results.ModeManagedReuse, "Reused"}} {
		add(says(m.name+" managed memory rises from %s GB/s at 256 MiB to %s GB/s at 1 GiB", g(stream(m.mode, 256*mib)), g(stream(m.mode, gib))),
			&Claim{ID: m.id, Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.04},
				Direction: above(1), DirectionText: "not slower at 1 GiB", Measure: ratio(stream(m.mode, gib), stream(m.mode, 256*mib), "×")})
	}
	add(says("cudaMemAdvise with preferred GPU location is similar to the cold case (%s against %s GB/s, 256 MiB)", g(stream(results.ModeAdvisePreferredGPU, 256*mib)), g(stream(results.ModeManagedCold, 256*mib))),
		&Claim{ID: "VI-A.preferred-gpu-like-cold", Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.2},
			Direction: within(0.5, 2), DirectionText: "within 2× of cold",
			Measure: ratio(stream(results.ModeAdvisePreferredGPU, 256*mib), stream(results.ModeManagedCold, 256*mib), "×")})
	add(says("Preferred CPU location is slower still than cold first touch (%s against %s GB/s, 256 MiB)", g(stream(results.ModeAdvisePreferredCPU, 256*mib)), g(stream(results.ModeManagedCold, 256*mib))),
		&Claim{ID: "VI-A.preferred-cpu-below-cold", Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.2},
			Direction: below(1), DirectionText: "below cold",
			Measure: ratio(stream(results.ModeAdvisePreferredCPU, 256*mib), stream(results.ModeManagedCold, 256*mib), "×"), Reasons: []Mechanism{remoteAccess}})
	add(says("The accessed-by hint improves on cold (%s GB/s) but stays far below prefetch (%s GB/s in the same advice run)", g(stream(results.ModeAdviseAccessedBy, 256*mib)), g(adviseRef(results.ModeManagedPrefetch)[0])),
		&Claim{ID: "VI-A.accessed-by-between", Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.3},
			Direction: below(20), DirectionText: "far below prefetch",
			Measure: ratioAny([]sel{stream(results.ModeAdviseAccessedBy, 256*mib)}, adviseRef(results.ModeManagedPrefetch), "%"), Reasons: []Mechanism{remoteStreamLink}})
	add(says("Placement hints alone do not make pages resident: the best advice mode stays below 10 %% of prefetch (256 MiB)"),
		&Claim{ID: "VI-A.hints-not-residency", Reference: GB200, Relation: Relation{Kind: AtMost, Bound: 10}, Measure: bestHint})

	// VI-B.
	strideFall := ratio(strided(results.ModeExplicit, 1024), strided(results.ModeExplicit, 1), "%")
	add(says("Without any migration, explicit HBM falls from %s GB/s at stride 1 to %s GB/s at stride 1024 (%s %%): sparse accesses use less of each transaction",
		g(strided(results.ModeExplicit, 1)), g(strided(results.ModeExplicit, 1024)), gm(strideFall)),
		&Claim{ID: "VI-B.explicit-stride-fall", Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.5},
			Direction: below(10), DirectionText: "below 10 % at stride 1024", Measure: strideFall})
	add(says("Prefetched and reused managed memory largely follow the explicit baseline: at stride 1, %s and %s against %s GB/s",
		g(strided(results.ModeManagedPrefetch, 1)), g(strided(results.ModeManagedReuse, 1)), g(strided(results.ModeExplicit, 1))),
		&Claim{ID: "VI-B.resident-track-explicit", Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.15},
			Direction: above(50), DirectionText: "above half of explicit", Measure: minRatio(func(m string) sel { return strided(m, 1) })})
	s64 := ratio(strided(results.ModeManagedPrefetch, 64), strided(results.ModeManagedPrefetch, 1), "%")
	add(says("Prefetched managed memory falls to %s GB/s at stride 64 (%s %% of its stride-1 figure)", g(strided(results.ModeManagedPrefetch, 64)), gm(s64)),
		&Claim{ID: "VI-B.resident-stride64", Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.3},
			Direction: below(20), DirectionText: "below 20 % of stride 1", Measure: s64})
	cold1 := ratio(strided(results.ModeManagedCold, 1), strided(results.ModeExplicit, 1), "%")
	add(says("Cold managed memory at stride 1 reaches only %s GB/s, %s %% of explicit", g(strided(results.ModeManagedCold, 1)), gm(cold1)),
		&Claim{ID: "VI-B.cold-stride1", Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.3},
			Direction: below(5), DirectionText: "below 5 % of explicit", Measure: cold1})
	add(says("Cold managed memory falls from %s GB/s at stride 1 to %s GB/s by stride 1024: sparse access compounds the first-touch penalty", g(strided(results.ModeManagedCold, 1)), g(strided(results.ModeManagedCold, 1024))),
		&Claim{ID: "VI-B.cold-stride-collapse", Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.5},
			Direction: below(1), DirectionText: "below 1 % of stride 1", Measure: ratio(strided(results.ModeManagedCold, 1024), strided(results.ModeManagedCold, 1), "%")})
	add(says("On GH200 at stride 1024 managed prefetch drops to %s GB/s while explicit HBM stays near %s GB/s", h(strided(results.ModeManagedPrefetch, 1024)), h(strided(results.ModeExplicit, 1024))),
		&Claim{ID: "VI-B.gh200-prefetch-1024", Reference: GH200, Relation: Relation{Kind: Near, Tol: 0.2},
			Direction: below(1), DirectionText: "prefetch below explicit", Measure: ratio(strided(results.ModeManagedPrefetch, 1024), strided(results.ModeExplicit, 1024), "×")})
	randCold := randomRatio(results.ModeManagedCold, results.ModeExplicit, "%")
	add(says("Cold managed random access reaches only %s GB/s, %s %% of explicit (%s GB/s)", g(random(results.ModeManagedCold)), gm(randCold), g(random(results.ModeExplicit))),
		&Claim{ID: "VI-B.random-cold", Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.3},
			Direction: below(2), DirectionText: "below 2 % of explicit", Ambiguity: AmbRandom, Measure: randCold, Reasons: []Mechanism{denseRandom(results.ModeManagedCold, results.ModeExplicit)}})
	add(says("Prefetching and reuse remove the dominant first-touch penalty of random access (%s and %s against %s GB/s cold)",
		g(random(results.ModeManagedPrefetch)), g(random(results.ModeManagedReuse)), g(random(results.ModeManagedCold))),
		&Claim{ID: "VI-B.random-recover", Reference: GB200, Relation: Relation{Kind: AtLeast, Bound: 10}, Ambiguity: AmbRandom,
			Measure: randomRatio(results.ModeManagedPrefetch, results.ModeManagedCold, "×"), Reasons: []Mechanism{denseRandom(results.ModeManagedPrefetch, results.ModeManagedCold)}})

	// VI-C.
	touchFall := ratioAny(pageTouch(results.ModeManagedReuse, 4*kib), pageTouch(results.ModeManagedReuse, 2*mib), "×")
	add(says("Page-touch useful bandwidth falls steeply with the interval: %s GB/s at 4 KiB to %s GB/s at 2 MiB (%s× for a 512× sparser touch)",
		g(pageTouch(results.ModeManaged, 4*kib)[0]), g(pageTouch(results.ModeManaged, 2*mib)[0]), gm(touchFall)),
		&Claim{ID: "VI-C.page-touch-fall", Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.5},
			Direction: above(50), DirectionText: "falls more than 50×", Ambiguity: AmbPageTouch, Measure: touchFall, Reasons: []Mechanism{launchFloor}})
	touch64 := ratioAny(pageTouch(results.ModeManagedReuse, 64*kib), pageTouch(results.ModeManagedReuse, 4*kib), "%")
	add(says("A 64 KiB page-touch interval reaches %s GB/s, %s %% of the 4 KiB figure (16× sparser)", g(pageTouch(results.ModeManaged, 64*kib)[0]), gm(touch64)),
		&Claim{ID: "VI-C.page-touch-64k", Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.4},
			Direction: below(25), DirectionText: "below a quarter of 4 KiB", Ambiguity: AmbPageTouch, Measure: touch64})

	// VII-A.
	for _, f := range []struct {
		id, mode, name string
		lo, hi         float64
	}{{"VII-A.flat-below-capacity", results.ModeManagedPrefetch, "prefetched", statedPrefetchLo, statedPrefetchHi},
		{"VII-A.reuse-flat-below-capacity", results.ModeManagedReuse, "reused", statedReuseLo, statedReuseHi}} {
		lo, hi := f.lo, f.hi
		add(says("Below the capacity boundary "+f.name+" managed memory stays flat near resident bandwidth (%s–%s GB/s from 25 %% to 90 %%)", stated(lo), stated(hi)),
			&Claim{ID: f.id, Reference: GB200, Relation: Relation{Kind: AtMost, Bound: 3}, Ambiguity: AmbOversubPct,
				Measure: spreadBelow(f.mode),
				Paper: func(_, _ *Run) (Quantity, error) {
					return Quantity{Value: 100 * (hi/lo - 1), Unit: "%", Text: fmt.Sprintf("%s–%s GB/s (a range stated in VII-A, not a stored figure)", num(lo), num(hi))}, nil
				}})
	}
	add(says("Cold first touch stays low across the sweep: it is dominated by page management before oversubscription matters"),
		&Claim{ID: "VII-A.cold-low-across", Reference: GB200, Relation: Relation{Kind: AtMost, Bound: 5}, Ambiguity: AmbOversubPct,
			Measure: coldAcross,
			Paper: func(ref, _ *Run) (Quantity, error) {
				q, err := ratio(stream(results.ModeManagedCold, 256*mib), stream(results.ModeManagedPrefetch, 256*mib), "%")(ref, nil)
				q.Text += " (the sweep's cold figures are in Fig. 7 only; the 256 MiB size sweep's)"
				return q, err
			}})
	for _, o := range []struct {
		mode, id, text string
		pct            float64
		ref            string
	}{{results.ModeManagedPrefetch, "VII-A.prefetch-105", "Just past the boundary, prefetched managed memory falls to %s GB/s at 105 %% of CUDA-visible memory (%s %% of its %s GB/s resident at 256 MiB)", 105, GB200},
		{results.ModeManagedPrefetch, "VII-A.prefetch-125", "At 125 %% prefetched managed memory falls to %s GB/s (%s %% of its %s GB/s resident)", 125, GB200},
		{results.ModeManagedReuse, "VII-A.reuse-125", "At 125 %% reused managed memory falls to %s GB/s (%s %% of its %s GB/s resident)", 125, GB200},
		{results.ModeManagedPrefetch, "VII-A.gh200-125", "GH200 shows the same transition: prefetched managed memory at 125 %% falls to %s GB/s (%s %% of its %s GB/s resident)", 125, GH200}} {
		m := oversubDrop(o.mode, o.pct)
		add(says(o.text, at(o.ref, oversub(o.mode, o.pct)), of(m, o.ref), at(o.ref, stream(o.mode, 256*mib))),
			&Claim{ID: o.id, Reference: o.ref, Relation: Relation{Kind: NearAbs, Tol: 10},
				Direction: below(80), DirectionText: "well below resident", Ambiguity: AmbOversubPct, Measure: m})
	}
	add(says("Beyond the boundary reused managed memory degrades less than prefetched (%s against %s GB/s at 105 %%, %s against %s at 125 %%)",
		g(oversub(results.ModeManagedReuse, 105)), g(oversub(results.ModeManagedPrefetch, 105)), g(oversub(results.ModeManagedReuse, 125)), g(oversub(results.ModeManagedPrefetch, 125))),
		&Claim{ID: "VII-A.reuse-above-prefetch", Reference: GB200, Relation: Relation{Kind: Same}, Measure: reuseAbovePrefetch})

	// VII-B.
	managedExtra := extraOverBaseline(model.Managed, "×")
	add(says("With one GPU pass per CPU update default managed memory is expensive: %s ms of extra cost over a %s ms CPU-only plus GPU-only baseline (1 GiB)",
		g(handoff(model.Managed, "extra", 1)), g(handoff(model.Managed, "baseline", 1))),
		&Claim{ID: "VII-B.managed-extra", Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.25},
			Direction: above(0.5), DirectionText: "extra cost above half the baseline", Measure: managedExtra, Reasons: []Mechanism{slowerBaseline}})
	add(says("Managed prefetch removes most of the managed handoff's extra cost (%s against %s ms: %s %%)",
		g(handoff(model.ManagedPrefetch, "extra", 1)), g(handoff(model.Managed, "extra", 1)), gm(prefetchRemoves)),
		&Claim{ID: "VII-B.prefetch-removes-extra", Reference: GB200, Relation: Relation{Kind: NearAbs, Tol: 10},
			Direction: above(50), DirectionText: "removes more than half", Measure: prefetchRemoves, Reasons: []Mechanism{migrationBothWays}})
	explicitExtra := extraOverBaseline(model.ExplicitCopy, "%")
	add(says("Explicit copy adds only %s ms over its baseline (%s %% of it)", g(handoff(model.ExplicitCopy, "extra", 1)), gm(explicitExtra)),
		&Claim{ID: "VII-B.explicit-small-extra", Reference: GB200, Relation: Relation{Kind: NearAbs, Tol: 5},
			Direction: within(0, 25), DirectionText: "positive and below a quarter of the baseline", // an added cost must be positive to share the paper's direction
			Measure: explicitExtra, Reasons: []Mechanism{copiesOverLink(copiesExtra)}})
	add(says("At R = 1 host-mapped memory is (slightly) the fastest policy: %s ms against %s for explicit copy, %s for managed prefetch and %s for managed",
		g(handoff(model.HostMapped, results.PhaseAlternating, 1)), g(handoff(model.ExplicitCopy, results.PhaseAlternating, 1)), g(handoff(model.ManagedPrefetch, results.PhaseAlternating, 1)), g(handoff(model.Managed, results.PhaseAlternating, 1))),
		&Claim{ID: "VII-B.host-fastest-r1", Reference: GB200, Relation: Relation{Kind: Same}, Measure: firstAt(1, model.HostMapped)})
	add(says("With 32 GPU passes per update the policies order explicit copy < managed prefetch < host-mapped < managed (%s, %s, %s, %s ms)",
		g(handoff(model.ExplicitCopy, results.PhaseAlternating, 32)), g(handoff(model.ManagedPrefetch, results.PhaseAlternating, 32)), g(handoff(model.HostMapped, results.PhaseAlternating, 32)), g(handoff(model.Managed, results.PhaseAlternating, 32))),
		&Claim{ID: "VII-B.order-r32", Reference: GB200, Relation: Relation{Kind: Same}, Measure: orderR32, Reasons: []Mechanism{hostPassLink(linkOrder)}})

	// VIII.
	add(says("The access term needs two bandwidths: local HBM (%s GB/s triad) is about %s× host-mapped system memory (%s GB/s)",
		g(triad(gib)), gm(ratio(triad(gib), hostTriad(gib), "×")), g(hostTriad(gib))),
		&Claim{ID: "VIII-A.hbm-vs-host", Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.25},
			Direction: above(2), DirectionText: "HBM at least 2× host", Measure: ratio(triad(gib), hostTriad(gib), "×"), Reasons: []Mechanism{hostTriadLink(linkInverse)}})
	plain := []string{model.ExplicitCopy, model.HostMapped, model.Managed}
	add(says("The reuse model T = F + R·G predicts explicit copy, host-mapped and managed within %s %% maximum APE (1 GiB, R = 2…32)", of(tableMaxAPE(plain...), GB200)),
		&Claim{ID: "VIII-C.max-ape", Reference: GB200, Relation: Relation{Kind: AtMost, Bound: 0.4},
			Ambiguity: "the paper's own rows give only R = 2 (two policies) and R = 32 of its validation points; Table III's errors rest on all of R = 2…32",
			Measure:   maxAPE(plain...), Paper: tableMaxAPE(plain...), Reasons: []Mechanism{cpuVariation}})
	add(says("Managed prefetch stays within %s %% maximum APE (1 GiB)", table(model.ManagedPrefetch, tableMaxAPEOf)),
		&Claim{ID: "VIII-C.max-ape-prefetch", Reference: GB200, Relation: Relation{Kind: AtMost, Bound: 2.7},
			Measure: maxAPE(model.ManagedPrefetch), Paper: tableMaxAPE(model.ManagedPrefetch), Reasons: []Mechanism{cpuVariation}})
	add(says("Across 16 MiB, 64 MiB, 256 MiB and 1 GiB the aggregate median APE over the validation reuse counts is about %s %%", stated(statedMedianAPE)),
		&Claim{ID: "VIII-C.median-ape", Reference: GB200, Relation: Relation{Kind: AtMost, Bound: 0.5},
			Measure: medianAPE, Reasons: []Mechanism{cpuVariation},
			Paper: func(_, _ *Run) (Quantity, error) {
				return Quantity{Value: statedMedianAPE, Unit: "%", Text: "stated in VIII-C (the paper's sweep below 1 GiB is not published)"}, nil
			}})
	add(says("The model identifies the measured fastest policy for all %s validation size–reuse combinations (16 MiB–1 GiB, R = 2…32)", stated(statedFastest)),
		&Claim{ID: "VIII-C.fastest-policy", Reference: GB200, Relation: Relation{Kind: Same}, Measure: fastestPolicy,
			Paper: func(_, _ *Run) (Quantity, error) {
				return truth(true, fmt.Sprintf("%d of %d (stated in VIII-C)", statedFastest, statedFastest)), nil
			}})
	add(says("Host-mapped and explicit placement cross at R* = (F_explicit − F_host)/(G_host − G_explicit) ≈ %s passes (1 GiB)", of(crossoverTableIII, GB200)),
		&Claim{ID: "VIII-C.crossover", Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.1},
			Direction: within(1, 4), DirectionText: "a crossover within the first few passes (1 ≤ R* < 4)",
			Measure: crossover, Paper: crossoverTableIII, Reasons: []Mechanism{copiesOverLink(copiesCrossover)}})
	add(says("Explicit copy is faster than host-mapped from R = 2 on (%s against %s ms), with the gap increasing",
		g(handoff(model.ExplicitCopy, results.PhaseAlternating, 2)), g(handoff(model.HostMapped, results.PhaseAlternating, 2))),
		&Claim{ID: "VIII-C.explicit-wins-r2", Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.1},
			Direction: below(1), DirectionText: "explicit faster",
			Measure: ratio(handoff(model.ExplicitCopy, results.PhaseAlternating, 2), handoff(model.HostMapped, results.PhaseAlternating, 2), "×"), Reasons: []Mechanism{copiesOverLink(copiesR2)}})
	gHost := paramRatio(model.HostMapped, model.ExplicitCopy, func(p model.Param) float64 { return p.G }, "G", "ms/pass")
	add(says("Host-mapped access pays for remote access on every pass: its G is %s× that of explicit copy (%s against %s ms/pass)",
		gm(gHost), table(model.HostMapped, tableG), table(model.ExplicitCopy, tableG)),
		&Claim{ID: "Table III.g-host", Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.25},
			Direction: above(2), DirectionText: "host-mapped pass at least 2× dearer", Measure: gHost, Reasons: []Mechanism{hostPassLink(linkPass)}})
	fManaged := paramRatio(model.Managed, model.ExplicitCopy, func(p model.Param) float64 { return p.F }, "F", "ms")
	add(says("Default managed memory pays the largest fixed cost per exchange: F = %s ms, %s× explicit copy's %s ms",
		table(model.Managed, tableF), gm(fManaged), table(model.ExplicitCopy, tableF)),
		&Claim{ID: "Table III.f-managed", Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.25},
			Direction: above(1.2), DirectionText: "managed F above explicit's", Measure: fManaged, Reasons: []Mechanism{slowerF}})
	add(says("Relative to GH200, GB200 raises resident and prefetched bandwidth (prefetched streaming %s against %s GB/s)", g(stream(results.ModeManagedPrefetch, 256*mib)), h(stream(results.ModeManagedPrefetch, 256*mib))),
		&Claim{ID: "IX.gb200-resident-gh200", Reference: GB200, Against: GH200, Relation: Relation{Kind: Near, Tol: 0.1},
			Direction: above(1), DirectionText: "GB200 faster", Measure: cross(stream(results.ModeManagedPrefetch, 256*mib), "×")})
	return cs
}

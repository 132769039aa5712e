package claims

import (
	"fmt"
	"math"
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
	AmbStreamKernel  = "the paper does not say what its streaming kernel counts: at 4582 GB/s on GB200 it runs faster than the paper's own triad (3963) and copy (2958), which no single-array read-and-write kernel can; ours reads and writes one array in place and counts both, so its ceiling is our copy figure"
	AmbRandom        = "the paper's random benchmark is \"sparse random\" at 256 MiB without saying how many elements it touches; umlab's pattern.random is dense (a shuffled index array over every element, so each migrated page is fully used) and pattern.sparse_random touches 1/16 or 1/256 of them; the claim uses the sparse one (1/16 first) when the run has it"
	AmbPageTouch     = "the paper's page-touch figures are for \"a 256 MiB managed allocation\" without naming the state; their magnitudes (27 GB/s at 4 KiB) fit a resident (prefetched or reused) allocation, so the reused state is compared"
	AmbPinned        = "the paper does not say whether the explicit copies' host buffer is pinned or pageable; pinned is compared"
	AmbOversubPct    = "the paper's percentages are of CUDA-visible memory; ours are of the free capacity of the sweep, which umbench shrinks with a plain device allocation"
)

var catalog struct {
	once sync.Once
	all  []*Claim
}

// All returns the catalogue, in the paper's order.
func All() []*Claim {
	catalog.once.Do(func() { catalog.all = build() })
	return catalog.all
}

// ByID returns the claim with the given id, or nil.
func ByID(id string) *Claim {
	for _, c := range All() {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// Sections returns the claims whose section starts with one of the given
// prefixes ("V-", "VI-A", "Table III"), in catalogue order.
func Sections(prefixes ...string) []*Claim {
	var out []*Claim
	for _, c := range All() {
		for _, p := range prefixes {
			if strings.HasPrefix(c.Section, p) {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

func build() []*Claim {
	var cs []*Claim
	add := func(c *Claim) { cs = append(cs, c) }

	// Abstract and Section I.
	add(&Claim{ID: "Abstract.state-dependent", Section: "Abstract",
		Statement: "One managed allocation has no single bandwidth: the same streaming kernel is orders of magnitude faster prefetched than on CPU-initialised first touch (256 MiB)",
		Reference: GB200, Relation: Relation{Kind: AtLeast, Bound: 10},
		Measure: ratio(stream(results.ModeManagedPrefetch, 256*mib), stream(results.ModeManagedCold, 256*mib), "×")})
	add(&Claim{ID: "Abstract.resident-near-hbm", Section: "Abstract",
		Statement: "Prefetched and reused managed memory recover near-HBM performance (at least 95 % of the explicit baseline, 256 MiB)",
		Reference: GB200, Relation: Relation{Kind: AtLeast, Bound: 95},
		Measure: func(a, _ *Run) (Quantity, error) {
			p, err := get(a, stream(results.ModeManagedPrefetch, 256*mib))
			if err != nil {
				return Quantity{}, err
			}
			r, err := get(a, stream(results.ModeManagedReuse, 256*mib))
			if err != nil {
				return Quantity{}, err
			}
			e, err := get(a, stream(results.ModeExplicit, 256*mib))
			if err != nil {
				return Quantity{}, err
			}
			lo := p
			if r.v < p.v {
				lo = r
			}
			q := ratioOf(lo, e, "%")
			q.Text = fmt.Sprintf("min(prefetch %s, reuse %s) / explicit %s", p, r, e)
			return q, nil
		}})

	// V-A.
	add(&Claim{ID: "V-A.triad", Section: "V-A",
		Statement: "The 1 GiB STREAM triad reaches 3963 GB/s from local HBM on GB200",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.05}, Ambiguity: AmbTriadPerArray + "; " + AmbGB,
		Measure: value(triad(gib)), Explain: otherGPU})
	add(&Claim{ID: "V-A.triad-gb200-gh200", Section: "V-A",
		Statement: "GB200's local-HBM triad is about 1.25× GH200's (3963 against 3165 GB/s)",
		Reference: GB200, Against: GH200, Relation: Relation{Kind: Near, Tol: 0.05},
		Direction: above(1), DirectionText: "GB200 faster",
		Measure: cross(triad(gib), "×")})
	add(&Claim{ID: "V-A.host-fraction", Section: "V-A",
		Statement: "GPU access to host-mapped memory is substantially slower than local HBM: the 1 GiB host-mapped triad reaches 7.7 % of the HBM triad",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.25}, Direction: below(50), DirectionText: "host-mapped well below HBM",
		Measure: ratio(hostTriad(gib), triad(gib), "%"), Explain: link})
	add(&Claim{ID: "V-A.host-hundreds", Section: "V-A",
		Statement: "Host/system memory still provides hundreds of GB/s of useful bandwidth (304 GB/s host-mapped triad, 1 GiB)",
		Reference: GB200, Relation: Relation{Kind: AtLeast, Bound: 100},
		Measure: value(hostTriad(gib)), Explain: link})
	add(&Claim{ID: "V-A.host-gb200-below-gh200", Section: "V-A",
		Statement: "Unlike HBM, copy and prefetch, the host-mapped path does not improve on GB200: about 12 % below GH200 (304 against 345 GB/s)",
		Reference: GB200, Against: GH200, Relation: Relation{Kind: Near, Tol: 0.05},
		Direction: below(1), DirectionText: "GB200 slower",
		Measure: cross(hostTriad(gib), "×")})
	add(&Claim{ID: "V-A.copy-below-triad", Section: "V-A",
		Statement: "Measured HBM bandwidth depends on the kernel's traffic: the 1 GiB copy (2958 GB/s) runs below the triad (3963 GB/s)",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.1}, Direction: below(1), DirectionText: "copy below triad",
		Ambiguity: AmbTriadPerArray,
		Measure:   ratio(hbmCopy(gib), triad(gib), "×")})

	// V-B.
	add(&Claim{ID: "V-B.copy-h2d", Section: "V-B",
		Statement: "1 GiB explicit host-to-device copies reach 211 GB/s on GB200",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.1}, Ambiguity: AmbPinned,
		Measure: value(copyDir(results.DirectionH2D)), Explain: firstOf(link, otherGPU)})
	add(&Claim{ID: "V-B.copy-d2h-vs-h2d", Section: "V-B",
		Statement: "Device-to-host copies are a little slower than host-to-device (193 against 211 GB/s)",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.05}, Direction: below(0.99), DirectionText: "d2h slower than h2d",
		Ambiguity: AmbPinned,
		Measure:   ratio(copyDir(results.DirectionD2H), copyDir(results.DirectionH2D), "×"),
		Explain: func(x *Check) string {
			f := x.Run.Facts
			if f.Link != LinkPCIe || f.HostLinkGBps <= 0 {
				return ""
			}
			h, err1 := get(x.Run, copyDir(results.DirectionH2D))
			d, err2 := get(x.Run, copyDir(results.DirectionD2H))
			if err1 != nil || err2 != nil {
				return ""
			}
			return fmt.Sprintf("over %s both directions are bounded by the same full-duplex link: h2d %s and d2h %s, %s and %s %% of its %.0f GB/s raw peak per direction",
				f.LinkText, h, d, num(100*h.v/f.HostLinkGBps), num(100*d.v/f.HostLinkGBps), f.HostLinkGBps)
		}})
	add(&Claim{ID: "V-B.prefetch-below-copy", Section: "V-B",
		Statement: "Managed prefetch is slower than explicit copy (CPU-to-GPU 115 against 211 GB/s, 1 GiB)",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.2}, Direction: below(1), DirectionText: "prefetch below copy",
		Measure: ratio(prefetchDir(results.DirectionH2D), copyDir(results.DirectionH2D), "×"), Explain: link})
	add(&Claim{ID: "V-B.prefetch-d2h-slower", Section: "V-B",
		Statement: "GPU-to-CPU prefetch is slower than CPU-to-GPU (75 against 115 GB/s, 1 GiB)",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.2}, Direction: below(1), DirectionText: "GPU→CPU slower",
		Measure: ratio(prefetchDir(results.DirectionD2H), prefetchDir(results.DirectionH2D), "×"), Explain: link})
	add(&Claim{ID: "V-B.transfers-gb200-gh200", Section: "V-B",
		Statement: "GB200 improves explicit-transfer bandwidth over GH200 (host-to-device 211 against 130 GB/s)",
		Reference: GB200, Against: GH200, Relation: Relation{Kind: Near, Tol: 0.1}, Direction: above(1), DirectionText: "GB200 faster",
		Measure: cross(copyDir(results.DirectionH2D), "×")})
	add(&Claim{ID: "V-B.prefetch-gb200-gh200", Section: "V-B",
		Statement: "GB200 substantially improves managed prefetch over GH200 (CPU-to-GPU 115 against 42 GB/s)",
		Reference: GB200, Against: GH200, Relation: Relation{Kind: Near, Tol: 0.1}, Direction: above(1), DirectionText: "GB200 faster",
		Measure: cross(prefetchDir(results.DirectionH2D), "×")})

	// V-C.
	add(&Claim{ID: "V-C.cold-fraction", Section: "V-C",
		Statement: "CPU-initialised first touch reaches only 0.3 % of the explicit-HBM streaming baseline (14.1 against 4582 GB/s, 256 MiB)",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.25}, Direction: below(5), DirectionText: "cold below 5 % of explicit",
		Ambiguity: AmbStreamKernel,
		Measure:   ratio(stream(results.ModeManagedCold, 256*mib), stream(results.ModeExplicit, 256*mib), "%"), Explain: coldRate})
	add(&Claim{ID: "V-C.cold-absolute", Section: "V-C",
		Statement: "Cold first touch of the 256 MiB streaming kernel runs at 14.1 GB/s on GB200 (9.9 on GH200)",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.25}, Direction: below(100), DirectionText: "tens of GB/s at most",
		Measure: value(stream(results.ModeManagedCold, 256*mib)), Explain: coldRate})
	add(&Claim{ID: "V-C.prefetch-matches", Section: "V-C",
		Statement: "With cudaMemPrefetchAsync the streaming kernel effectively matches the explicit baseline (4606 against 4582 GB/s)",
		Reference: GB200, Relation: Relation{Kind: NearAbs, Tol: 2}, Direction: above(90), DirectionText: "prefetch above 90 % of explicit",
		Measure: ratio(stream(results.ModeManagedPrefetch, 256*mib), stream(results.ModeExplicit, 256*mib), "%")})
	add(&Claim{ID: "V-C.reuse-fraction", Section: "V-C",
		Statement: "Reused managed memory reaches 98.3 % of the explicit baseline (4504 against 4582 GB/s)",
		Reference: GB200, Relation: Relation{Kind: NearAbs, Tol: 2}, Direction: above(90), DirectionText: "reuse above 90 % of explicit",
		Measure: ratio(stream(results.ModeManagedReuse, 256*mib), stream(results.ModeExplicit, 256*mib), "%")})
	add(&Claim{ID: "V-C.gh200-recover", Section: "V-C",
		Statement: "On GH200 prefetch and reuse recover more than 99 % of explicit-HBM bandwidth (3121 and 3105 against 3128 GB/s)",
		Reference: GH200, Relation: Relation{Kind: AtLeast, Bound: 99}, Direction: above(95), DirectionText: "above 95 % of explicit",
		Measure: func(a, _ *Run) (Quantity, error) {
			return minRatio(a, 256*mib)
		}})
	add(&Claim{ID: "V-C.stream-above-triad", Section: "V-C",
		Statement: "The explicit streaming kernel (4582 GB/s at 256 MiB) runs faster than the 1 GiB triad (3963 GB/s)",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.1}, Ambiguity: AmbStreamKernel,
		Measure: ratio(stream(results.ModeExplicit, 256*mib), triad(gib), "×"),
		Explain: func(x *Check) string {
			if x.Run.Meta.Kind == "published" {
				return ""
			}
			return "the kernels count different traffic: " + AmbStreamKernel
		}})
	add(&Claim{ID: "V-C.gb10-uniform", Section: "V-C",
		Statement: "On GB10 (one shared LPDDR5X pool) every managed state stays within about 80–83 % of the explicit baseline instead of collapsing",
		Reference: GB10, Relation: Relation{Kind: AtLeast, Bound: 50},
		Measure: func(a, _ *Run) (Quantity, error) {
			e, err := get(a, stream(results.ModeExplicit, 256*mib))
			if err != nil {
				return Quantity{}, err
			}
			lo, who := fig{v: math.Inf(1)}, ""
			for _, m := range []string{results.ModeManagedCold, results.ModeManagedPrefetch, results.ModeManagedReuse} {
				f, err := get(a, stream(m, 256*mib))
				if err != nil {
					return Quantity{}, err
				}
				if f.v < lo.v {
					lo, who = f, m
				}
			}
			q := ratioOf(lo, e, "%")
			q.Text = fmt.Sprintf("slowest state (%s) %s / explicit %s", who, lo, e)
			return q, nil
		},
		Explain: func(x *Check) string {
			f := x.Run.Facts
			if f.Link == LinkIntegrated || f.Link == LinkUnknown {
				return ""
			}
			return fmt.Sprintf("this GPU has its own HBM, reached from CPU memory over %s, so CPU-initialised pages must migrate; GB10's CPU and GPU share one memory pool", f.LinkText)
		}})

	// VI-A.
	add(&Claim{ID: "VI-A.cold-1gib", Section: "VI-A",
		Statement: "Cold first touch stays near the same bandwidth from 256 MiB to 1 GiB (14.1 and 14.2 GB/s): the kernel is limited by page mapping and migration",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.1}, Direction: func(q float64) bool { return q > 0.75 && q < 1.33 }, DirectionText: "within a third",
		Measure: ratio(stream(results.ModeManagedCold, gib), stream(results.ModeManagedCold, 256*mib), "×")})
	add(&Claim{ID: "VI-A.prefetch-1gib", Section: "VI-A",
		Statement: "Prefetched managed memory rises from 4606 GB/s at 256 MiB to 4826 GB/s at 1 GiB",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.04}, Direction: func(q float64) bool { return q >= 1 }, DirectionText: "not slower at 1 GiB",
		Measure: ratio(stream(results.ModeManagedPrefetch, gib), stream(results.ModeManagedPrefetch, 256*mib), "×")})
	add(&Claim{ID: "VI-A.reuse-1gib", Section: "VI-A",
		Statement: "Reused managed memory rises from 4504 GB/s at 256 MiB to 4751 GB/s at 1 GiB",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.04}, Direction: func(q float64) bool { return q >= 1 }, DirectionText: "not slower at 1 GiB",
		Measure: ratio(stream(results.ModeManagedReuse, gib), stream(results.ModeManagedReuse, 256*mib), "×")})
	add(&Claim{ID: "VI-A.preferred-gpu-like-cold", Section: "VI-A",
		Statement: "cudaMemAdvise with preferred GPU location is similar to the cold case (14.4 against 14.1 GB/s, 256 MiB)",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.2}, Direction: func(q float64) bool { return q > 0.5 && q < 2 }, DirectionText: "within 2× of cold",
		Measure: ratio(stream(results.ModeAdvisePreferredGPU, 256*mib), stream(results.ModeManagedCold, 256*mib), "×")})
	add(&Claim{ID: "VI-A.preferred-cpu-below-cold", Section: "VI-A",
		Statement: "Preferred CPU location is slower still than cold first touch (10.6 against 14.1 GB/s, 256 MiB)",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.2}, Direction: below(1), DirectionText: "below cold",
		Measure: ratio(stream(results.ModeAdvisePreferredCPU, 256*mib), stream(results.ModeManagedCold, 256*mib), "×"),
		Explain: preferredCPU})
	add(&Claim{ID: "VI-A.accessed-by-between", Section: "VI-A",
		Statement: "The accessed-by hint improves on cold (272 GB/s) but stays far below prefetch (4809 GB/s in the same advice run)",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.3}, Direction: func(q float64) bool { return q < 20 }, DirectionText: "far below prefetch",
		Measure: ratioAny([]sel{stream(results.ModeAdviseAccessedBy, 256*mib)}, adviseRef(results.ModeManagedPrefetch), "%"), Explain: link})
	add(&Claim{ID: "VI-A.hints-not-residency", Section: "VI-A",
		Statement: "Placement hints alone do not make pages resident: the best advice mode stays below 10 % of prefetch (256 MiB)",
		Reference: GB200, Relation: Relation{Kind: AtMost, Bound: 10},
		Measure: func(a, _ *Run) (Quantity, error) {
			best, who := fig{v: math.Inf(-1)}, ""
			for _, m := range []string{results.ModeAdvisePreferredGPU, results.ModeAdviseAccessedBy, results.ModeAdvisePreferredCPU} {
				f, err := get(a, stream(m, 256*mib))
				if err != nil {
					return Quantity{}, err
				}
				if f.v > best.v {
					best, who = f, m
				}
			}
			p, err := get(a, adviseRef(results.ModeManagedPrefetch)...)
			if err != nil {
				return Quantity{}, err
			}
			q := ratioOf(best, p, "%")
			q.Text = fmt.Sprintf("best hint (%s) %s / prefetch %s", who, best, p)
			return q, nil
		}})

	// VI-B.
	add(&Claim{ID: "VI-B.explicit-stride-fall", Section: "VI-B",
		Statement: "Without any migration, explicit HBM falls from 4585 GB/s at stride 1 to 67.7 GB/s at stride 1024: sparse accesses use less of each transaction",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.5}, Direction: below(10), DirectionText: "below 10 % at stride 1024",
		Measure: ratio(strided(results.ModeExplicit, 1024), strided(results.ModeExplicit, 1), "%")})
	add(&Claim{ID: "VI-B.resident-track-explicit", Section: "VI-B",
		Statement: "Prefetched and reused managed memory largely follow the explicit baseline: at stride 1, 3659 and 3685 against 4585 GB/s",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.15}, Direction: above(50), DirectionText: "above half of explicit",
		Measure: func(a, _ *Run) (Quantity, error) { return minRatioStride(a, 1) }})
	add(&Claim{ID: "VI-B.resident-stride64", Section: "VI-B",
		Statement: "Prefetched managed memory falls to 177 GB/s at stride 64 (4.8 % of its stride-1 figure)",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.3}, Direction: below(20), DirectionText: "below 20 % of stride 1",
		Measure: ratio(strided(results.ModeManagedPrefetch, 64), strided(results.ModeManagedPrefetch, 1), "%")})
	add(&Claim{ID: "VI-B.cold-stride1", Section: "VI-B",
		Statement: "Cold managed memory at stride 1 reaches only 8.6 GB/s, 0.19 % of explicit",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.3}, Direction: below(5), DirectionText: "below 5 % of explicit",
		Measure: ratio(strided(results.ModeManagedCold, 1), strided(results.ModeExplicit, 1), "%"), Explain: coldRate})
	add(&Claim{ID: "VI-B.cold-stride-collapse", Section: "VI-B",
		Statement: "Cold managed memory falls to 0.01 GB/s by stride 1024: sparse access compounds the first-touch penalty",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.5}, Direction: below(1), DirectionText: "below 1 % of stride 1",
		Measure: ratio(strided(results.ModeManagedCold, 1024), strided(results.ModeManagedCold, 1), "%")})
	add(&Claim{ID: "VI-B.gh200-prefetch-1024", Section: "VI-B",
		Statement: "On GH200 at stride 1024 managed prefetch drops to 45.8 GB/s while explicit HBM stays near 78 GB/s",
		Reference: GH200, Relation: Relation{Kind: Near, Tol: 0.2}, Direction: below(1), DirectionText: "prefetch below explicit",
		Measure: ratio(strided(results.ModeManagedPrefetch, 1024), strided(results.ModeExplicit, 1024), "×"),
		Explain: func(x *Check) string {
			if x.Run.Meta.Platform == x.Ref.Meta.Platform {
				return ""
			}
			return fmt.Sprintf("the paper reports the drop on GH200 only (GB200 does not state a stride-1024 prefetch figure) and does not explain it; on %s prefetch and explicit share the stride-1024 kernel's short-kernel regime", x.Run.Meta.Platform)
		}})
	add(&Claim{ID: "VI-B.random-cold", Section: "VI-B",
		Statement: "Cold managed random access reaches only 0.77 GB/s, 0.53 % of explicit (144.7 GB/s)",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.3}, Direction: below(2), DirectionText: "below 2 % of explicit",
		Ambiguity: AmbRandom,
		Measure:   randomRatio(results.ModeManagedCold, results.ModeExplicit, "%"), Explain: denseRandom})
	add(&Claim{ID: "VI-B.random-recover", Section: "VI-B",
		Statement: "Prefetching and reuse remove the dominant first-touch penalty of random access (212.8 and 212.2 against 0.77 GB/s cold)",
		Reference: GB200, Relation: Relation{Kind: AtLeast, Bound: 10},
		Ambiguity: AmbRandom,
		Measure:   randomRatio(results.ModeManagedPrefetch, results.ModeManagedCold, "×"), Explain: denseRandom})

	// VI-C.
	add(&Claim{ID: "VI-C.page-touch-fall", Section: "VI-C",
		Statement: "Page-touch useful bandwidth falls steeply with the interval: 27.0 GB/s at 4 KiB to 0.043 GB/s at 2 MiB (a 628× fall for a 512× sparser touch)",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.5}, Direction: above(50), DirectionText: "falls more than 50×",
		Ambiguity: AmbPageTouch,
		Measure:   ratioAny(pageTouch(results.ModeManagedReuse, 4*kib), pageTouch(results.ModeManagedReuse, 2*mib), "×"),
		Explain: func(x *Check) string {
			return "fixed per-kernel costs set a floor: at 2 MiB the kernel touches 128 elements, and its time is launch-dominated (short_kernel), so the fall flattens"
		}})
	add(&Claim{ID: "VI-C.page-touch-64k", Section: "VI-C",
		Statement: "A 64 KiB page-touch interval reaches 1.85 GB/s, 6.9 % of the 4 KiB figure (16× sparser)",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.4}, Direction: below(25), DirectionText: "below a quarter of 4 KiB",
		Ambiguity: AmbPageTouch,
		Measure:   ratioAny(pageTouch(results.ModeManagedReuse, 64*kib), pageTouch(results.ModeManagedReuse, 4*kib), "%")})

	// VII-A.
	add(&Claim{ID: "VII-A.flat-below-capacity", Section: "VII-A",
		Statement: "Below the capacity boundary prefetched managed memory stays flat near resident bandwidth (4683–4736 GB/s from 25 % to 90 %)",
		Reference: GB200, Relation: Relation{Kind: AtMost, Bound: 3}, Ambiguity: AmbOversubPct,
		Measure: spreadBelow(results.ModeManagedPrefetch),
		Paper: func(_, _ *Run) (Quantity, error) {
			return Quantity{Value: 100 * (4736.0/4683 - 1), Unit: "%", Text: "4683–4736 GB/s (a range stated in VII-A, not a stored figure)"}, nil
		}})
	add(&Claim{ID: "VII-A.reuse-flat-below-capacity", Section: "VII-A",
		Statement: "Below the capacity boundary reused managed memory stays flat too (4674–4701 GB/s from 25 % to 90 %)",
		Reference: GB200, Relation: Relation{Kind: AtMost, Bound: 3}, Ambiguity: AmbOversubPct,
		Measure: spreadBelow(results.ModeManagedReuse),
		Paper: func(_, _ *Run) (Quantity, error) {
			return Quantity{Value: 100 * (4701.0/4674 - 1), Unit: "%", Text: "4674–4701 GB/s (a range stated in VII-A, not a stored figure)"}, nil
		}})
	add(&Claim{ID: "VII-A.cold-low-across", Section: "VII-A",
		Statement: "Cold first touch stays low across the sweep: it is dominated by page management before oversubscription matters",
		Reference: GB200, Relation: Relation{Kind: AtMost, Bound: 5}, Ambiguity: AmbOversubPct,
		Measure: func(a, _ *Run) (Quantity, error) {
			var worst float64
			text := ""
			for _, p := range a.pcts(oversub(results.ModeManagedCold, 0)) {
				if p > 100 {
					continue
				}
				c, err1 := get(a, oversub(results.ModeManagedCold, p))
				r, err2 := get(a, oversub(results.ModeManagedPrefetch, p))
				if err1 != nil || err2 != nil {
					continue
				}
				if v := 100 * c.v / r.v; v > worst || text == "" {
					worst, text = v, fmt.Sprintf("cold %s / prefetch %s at %g %%", c, r, p)
				}
			}
			if text == "" {
				return Quantity{}, notMeasured("no cold and prefetched oversubscription sweep at or below 100 %%")
			}
			return Quantity{Value: worst, Unit: "%", Text: "largest: " + text}, nil
		},
		Paper: func(ref, _ *Run) (Quantity, error) {
			q, err := ratio(stream(results.ModeManagedCold, 256*mib), stream(results.ModeManagedPrefetch, 256*mib), "%")(ref, nil)
			q.Text += " (the sweep's cold figures are in Fig. 7 only; the 256 MiB size sweep's)"
			return q, err
		}})
	for _, o := range []struct {
		mode string
		pct  float64
		id   string
		stmt string
	}{
		{results.ModeManagedPrefetch, 105, "VII-A.prefetch-105", "Just past the boundary, prefetched managed memory halves: 2385 GB/s at 105 % of CUDA-visible memory (against 4606 GB/s resident at 256 MiB)"},
		{results.ModeManagedPrefetch, 125, "VII-A.prefetch-125", "At 125 % prefetched managed memory falls to 968 GB/s"},
		{results.ModeManagedReuse, 125, "VII-A.reuse-125", "At 125 % reused managed memory falls to 1214 GB/s"},
	} {
		add(&Claim{ID: o.id, Section: "VII-A", Statement: o.stmt,
			Reference: GB200, Relation: Relation{Kind: NearAbs, Tol: 10}, Direction: below(80), DirectionText: "well below resident",
			Ambiguity: AmbOversubPct,
			Measure:   oversubDrop(o.mode, o.pct)})
	}
	add(&Claim{ID: "VII-A.gh200-125", Section: "VII-A",
		Statement: "GH200 shows the same transition: prefetched managed memory at 125 % falls to 424 GB/s",
		Reference: GH200, Relation: Relation{Kind: NearAbs, Tol: 10}, Direction: below(80), DirectionText: "well below resident",
		Ambiguity: AmbOversubPct,
		Measure:   oversubDrop(results.ModeManagedPrefetch, 125)})
	add(&Claim{ID: "VII-A.reuse-above-prefetch", Section: "VII-A",
		Statement: "Beyond the boundary reused managed memory degrades less than prefetched (2722 against 2385 GB/s at 105 %, 1214 against 968 at 125 %)",
		Reference: GB200, Relation: Relation{Kind: Same},
		Measure: func(a, _ *Run) (Quantity, error) {
			ok, n := true, 0
			var parts []string
			for _, p := range a.pcts(oversub(results.ModeManagedReuse, 0)) {
				if p <= 100 {
					continue
				}
				r, err1 := get(a, oversub(results.ModeManagedReuse, p))
				f, err2 := get(a, oversub(results.ModeManagedPrefetch, p))
				if err1 != nil || err2 != nil {
					continue
				}
				n++
				ok = ok && r.v > f.v
				parts = append(parts, fmt.Sprintf("%g %%: reuse %s, prefetch %s", p, r, f))
			}
			if n == 0 {
				return Quantity{}, oversubMissing(a)
			}
			return truth(ok, strings.Join(parts, "; ")), nil
		}})

	// VII-B.
	add(&Claim{ID: "VII-B.managed-extra", Section: "VII-B",
		Statement: "With one GPU pass per CPU update default managed memory is expensive: 217.9 ms of extra cost over a 54.2 ms CPU-only plus GPU-only baseline (1 GiB)",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.25}, Direction: above(0.5), DirectionText: "extra cost above half the baseline",
		Measure: func(a, _ *Run) (Quantity, error) {
			e, err := extra(a, model.Managed)
			if err != nil {
				return Quantity{}, err
			}
			b, err := baseline(a, model.Managed)
			if err != nil {
				return Quantity{}, err
			}
			q := ratioOf(e, b, "×")
			q.Text = fmt.Sprintf("extra %s / baseline %s", e, b)
			return q, nil
		},
		Explain: slowCPU})
	add(&Claim{ID: "VII-B.prefetch-removes-extra", Section: "VII-B",
		Statement: "Managed prefetch removes most of the managed handoff's extra cost (24.6 against 217.9 ms: 89 %)",
		Reference: GB200, Relation: Relation{Kind: NearAbs, Tol: 10}, Direction: above(50), DirectionText: "removes more than half",
		Measure: func(a, _ *Run) (Quantity, error) {
			m, err := extra(a, model.Managed)
			if err != nil {
				return Quantity{}, err
			}
			p, err := extra(a, model.ManagedPrefetch)
			if err != nil {
				return Quantity{}, err
			}
			return Quantity{Value: 100 * (1 - p.v/m.v), Unit: "%", Text: fmt.Sprintf("1 − prefetch extra %s / managed extra %s", p, m)}, nil
		},
		Explain: returnLeg})
	add(&Claim{ID: "VII-B.explicit-small-extra", Section: "VII-B",
		Statement: "Explicit copy adds only 5.4 ms over its baseline (about 10 % of it)",
		Reference: GB200, Relation: Relation{Kind: NearAbs, Tol: 5}, Direction: within(0, 25), DirectionText: "positive and below a quarter of the baseline", // an added cost must be positive to share the paper's direction
		Measure: func(a, _ *Run) (Quantity, error) {
			e, err := extra(a, model.ExplicitCopy)
			if err != nil {
				return Quantity{}, err
			}
			b, err := baseline(a, model.ExplicitCopy)
			if err != nil {
				return Quantity{}, err
			}
			q := ratioOf(e, b, "%")
			q.Text = fmt.Sprintf("extra %s / baseline %s", e, b)
			return q, nil
		},
		Explain: copyLeg, Unresolved: copiesExceedExtra})
	add(&Claim{ID: "VII-B.host-fastest-r1", Section: "VII-B",
		Statement: "At R = 1 host-mapped memory is (slightly) the fastest policy: 60.2 against 60.5 ms for explicit copy",
		Reference: GB200, Relation: Relation{Kind: Same},
		Measure: func(a, _ *Run) (Quantity, error) {
			ps, vs, err := order(a, 1)
			if err != nil {
				return Quantity{}, err
			}
			return truth(ps[0] == model.HostMapped, orderText(ps, vs)), nil
		},
		Explain: hostVsExplicit})
	add(&Claim{ID: "VII-B.order-r32", Section: "VII-B",
		Statement: "With 32 GPU passes per update the policies order explicit copy < managed prefetch < host-mapped < managed (73.3, 92.6, 218.7, 284.4 ms)",
		Reference: GB200, Relation: Relation{Kind: Same},
		Measure: func(a, _ *Run) (Quantity, error) {
			ps, vs, err := order(a, 32)
			if err != nil {
				return Quantity{}, err
			}
			want := []string{model.ExplicitCopy, model.ManagedPrefetch, model.HostMapped, model.Managed}
			return truth(strings.Join(ps, ",") == strings.Join(want, ","), orderText(ps, vs)), nil
		},
		Explain: func(x *Check) string {
			ps, err := params(x.Run, model.ExplicitCopy, model.HostMapped)
			if err != nil || ps[1].G <= 0 {
				return ""
			}
			r := ps[1].G / ps[0].G
			s := fmt.Sprintf("host-mapped pays its GPU pass over the host link 32 times: G = %s ms/pass here, %s× explicit's", num(ps[1].G), num(r))
			if l := link(x); l != "" {
				s += " (" + l + "); Table III's ratio is 12×"
			}
			return s
		}})

	// VIII.
	add(&Claim{ID: "VIII-A.hbm-vs-host", Section: "VIII-A",
		Statement: "The access term needs two bandwidths: local HBM (3963 GB/s triad) is about 13× host-mapped system memory (304 GB/s)",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.25}, Direction: above(2), DirectionText: "HBM at least 2× host",
		Measure: ratio(triad(gib), hostTriad(gib), "×"), Explain: link})
	add(&Claim{ID: "VIII-C.max-ape", Section: "VIII-C",
		Statement: "The reuse model T = F + R·G predicts explicit copy, host-mapped and managed within 0.4 % maximum APE (1 GiB, R = 2…32)",
		Reference: GB200, Relation: Relation{Kind: AtMost, Bound: 0.4}, Direction: below(5), DirectionText: "within 5 %",
		Ambiguity: "the paper's own rows give only R = 2 (two policies) and R = 32 of its validation points; Table III's errors rest on all of R = 2…32",
		Measure:   maxAPE(model.ExplicitCopy, model.HostMapped, model.Managed),
		Paper:     tableMaxAPE(model.ExplicitCopy, model.HostMapped, model.Managed),
		Explain:   modelNoise(model.ExplicitCopy, model.HostMapped, model.Managed)})
	add(&Claim{ID: "VIII-C.max-ape-prefetch", Section: "VIII-C",
		Statement: "Managed prefetch stays within 2.7 % maximum APE (1 GiB)",
		Reference: GB200, Relation: Relation{Kind: AtMost, Bound: 2.7}, Direction: below(10), DirectionText: "within 10 %",
		Measure: maxAPE(model.ManagedPrefetch),
		Paper:   tableMaxAPE(model.ManagedPrefetch),
		Explain: modelNoise(model.ManagedPrefetch)})
	add(&Claim{ID: "VIII-C.median-ape", Section: "VIII-C",
		Statement: "Across 16 MiB, 64 MiB, 256 MiB and 1 GiB the aggregate median APE over the validation reuse counts is about 0.40 %",
		Reference: GB200, Relation: Relation{Kind: AtMost, Bound: 0.5}, Direction: below(5), DirectionText: "within 5 %",
		Measure: func(a, _ *Run) (Quantity, error) {
			rep, err := a.fit()
			if err != nil {
				return Quantity{}, err
			}
			sizes := map[int64]bool{}
			for _, p := range rep.Points {
				if p.SizeBytes >= rep.MinSizeBytes {
					sizes[p.SizeBytes] = true
				}
			}
			if len(sizes) < 2 {
				return Quantity{}, notMeasured("the handoff sweep has %d size(s) of 16 MiB or more with validation points; the aggregate needs several", len(sizes))
			}
			return Quantity{Value: rep.MedianAPE, Unit: "%", Text: fmt.Sprintf("median over %d sizes ≥ 16 MiB", len(sizes))}, nil
		},
		Paper: func(_, _ *Run) (Quantity, error) {
			return Quantity{Value: 0.40, Unit: "%", Text: "stated in VIII-C (the paper's sweep below 1 GiB is not published)"}, nil
		},
		Explain: cpuNoise})
	add(&Claim{ID: "VIII-C.fastest-policy", Section: "VIII-C",
		Statement: "The model identifies the measured fastest policy for all 20 validation size–reuse combinations (16 MiB–1 GiB, R = 2…32)",
		Reference: GB200, Relation: Relation{Kind: Same},
		Measure: func(a, _ *Run) (Quantity, error) {
			rep, err := a.fit()
			if err != nil {
				return Quantity{}, err
			}
			if rep.Compared == 0 {
				return Quantity{}, notMeasured("no size of 16 MiB or more with several policies at the same R > 1")
			}
			return truth(rep.Matches == rep.Compared, fmt.Sprintf("%d of %d", rep.Matches, rep.Compared)), nil
		},
		Paper: func(_, _ *Run) (Quantity, error) {
			return truth(true, "20 of 20 (stated in VIII-C)"), nil
		},
		Explain: fastestMiss})
	add(&Claim{ID: "VIII-C.crossover", Section: "VIII-C",
		Statement: "Host-mapped and explicit placement cross at R* = (F_explicit − F_host)/(G_host − G_explicit) ≈ 1.06 passes (1 GiB)",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.1}, Direction: func(q float64) bool { return q >= 1 && q < 4 }, DirectionText: "a crossover within the first few passes (1 ≤ R* < 4)",
		Measure: func(a, _ *Run) (Quantity, error) {
			ps, err := params(a, model.ExplicitCopy, model.HostMapped)
			if err != nil {
				return Quantity{}, err
			}
			e, h := ps[0], ps[1]
			r := crossHostExplicit(e.F, h.F, e.G, h.G)
			return Quantity{Value: r, Text: fmt.Sprintf("F %s / %s ms, G %s / %s ms/pass (explicit / host-mapped, fitted at %s)", num(e.F), num(h.F), num(e.G), num(h.G), bytesText(e.SizeBytes))}, nil
		},
		Paper: func(ref, _ *Run) (Quantity, error) {
			t, err := tableIII(ref, model.ExplicitCopy, model.HostMapped)
			if err != nil {
				return Quantity{}, err
			}
			e, h := t[0], t[1]
			return Quantity{Value: crossHostExplicit(e.F, h.F, e.G, h.G), Text: "from Table III's F and G"}, nil
		},
		Explain: hostVsExplicit})
	add(&Claim{ID: "VIII-C.explicit-wins-r2", Section: "VIII-C",
		Statement: "Explicit copy is faster than host-mapped from R = 2 on (60.9 against 65.3 ms), with the gap increasing",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.1}, Direction: below(1), DirectionText: "explicit faster",
		Measure: ratio(handoff(model.ExplicitCopy, results.PhaseAlternating, 2), handoff(model.HostMapped, results.PhaseAlternating, 2), "×"),
		Explain: hostVsExplicit})
	add(&Claim{ID: "Table III.g-host", Section: "Table III",
		Statement: "Host-mapped access pays for remote access on every pass: its G is 12× that of explicit copy (5.119 against 0.415 ms/pass)",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.25}, Direction: above(2), DirectionText: "host-mapped pass at least 2× dearer",
		Measure: func(a, _ *Run) (Quantity, error) {
			ps, err := params(a, model.ExplicitCopy, model.HostMapped)
			if err != nil {
				return Quantity{}, err
			}
			return Quantity{Value: ps[1].G / ps[0].G, Unit: "×", Text: fmt.Sprintf("G %s / %s ms/pass", num(ps[1].G), num(ps[0].G))}, nil
		},
		Explain: link})
	add(&Claim{ID: "Table III.f-managed", Section: "Table III",
		Statement: "Default managed memory pays the largest fixed cost per exchange: F = 271.69 ms, 4.5× explicit copy's 60.07 ms",
		Reference: GB200, Relation: Relation{Kind: Near, Tol: 0.25}, Direction: above(1.2), DirectionText: "managed F above explicit's",
		Measure: func(a, _ *Run) (Quantity, error) {
			ps, err := params(a, model.ExplicitCopy, model.Managed)
			if err != nil {
				return Quantity{}, err
			}
			return Quantity{Value: ps[1].F / ps[0].F, Unit: "×", Text: fmt.Sprintf("F %s / %s ms", num(ps[1].F), num(ps[0].F))}, nil
		},
		Explain: slowCPU})
	add(&Claim{ID: "IX.gb200-resident-gh200", Section: "IX",
		Statement: "Relative to GH200, GB200 raises resident and prefetched bandwidth (prefetched streaming 4606 against 3121 GB/s)",
		Reference: GB200, Against: GH200, Relation: Relation{Kind: Near, Tol: 0.1}, Direction: above(1), DirectionText: "GB200 faster",
		Measure: cross(stream(results.ModeManagedPrefetch, 256*mib), "×")})
	return cs
}

// minRatio is min(prefetch, reuse)/explicit of the streaming kernel at
// size, in %.
func minRatio(a *Run, size int64) (Quantity, error) {
	return minRatioOf(a, func(mode string) sel { return stream(mode, size) })
}

// minRatioStride is minRatio of the strided kernel at stride.
func minRatioStride(a *Run, stride int64) (Quantity, error) {
	return minRatioOf(a, func(mode string) sel { return strided(mode, stride) })
}

// minRatioOf is min(prefetch, reuse)/explicit, in %, of the configurations
// at(mode) selects.
func minRatioOf(a *Run, at func(mode string) sel) (Quantity, error) {
	e, err := get(a, at(results.ModeExplicit))
	if err != nil {
		return Quantity{}, err
	}
	p, err := get(a, at(results.ModeManagedPrefetch))
	if err != nil {
		return Quantity{}, err
	}
	r, err := get(a, at(results.ModeManagedReuse))
	if err != nil {
		return Quantity{}, err
	}
	lo := p
	if r.v < lo.v {
		lo = r
	}
	q := ratioOf(lo, e, "%")
	q.Text = fmt.Sprintf("min(prefetch %s, reuse %s) / explicit %s", p, r, e)
	return q, nil
}

// spreadBelow is the spread (max/min − 1, %) of a mode's streaming
// oversubscription figures at or below 90 %.
func spreadBelow(mode string) func(a, _ *Run) (Quantity, error) {
	return func(a, _ *Run) (Quantity, error) {
		lo, hi := math.Inf(1), math.Inf(-1)
		var ps []string
		for _, p := range a.pcts(oversub(mode, 0)) {
			if p < 25 || p > 90 {
				continue
			}
			f, err := get(a, oversub(mode, p))
			if err != nil {
				continue
			}
			lo, hi = math.Min(lo, f.v), math.Max(hi, f.v)
			ps = append(ps, fmt.Sprintf("%g", p))
		}
		if len(ps) < 2 {
			return Quantity{}, notMeasured("no %s oversubscription sweep with two or more percentages between 25 and 90", mode)
		}
		return Quantity{Value: 100 * (hi/lo - 1), Unit: "%", Text: fmt.Sprintf("%s–%s GB/s at %s %%", num(lo), num(hi), strings.Join(ps, ", "))}, nil
	}
}

// oversubDrop is a mode's streaming bandwidth at pct as a percentage of
// its resident figure (the 256 MiB size sweep's).
func oversubDrop(mode string, pct float64) func(a, _ *Run) (Quantity, error) {
	return func(a, _ *Run) (Quantity, error) {
		o, err := get(a, oversub(mode, pct))
		if err != nil {
			return Quantity{}, oversubMissing(a)
		}
		r, err := get(a, stream(mode, 256*mib))
		if err != nil {
			return Quantity{}, err
		}
		q := ratioOf(o, r, "%")
		q.Text = fmt.Sprintf("%s at %g %% / %s resident (256 MiB)", o, pct, r)
		return q, nil
	}
}

// oversubMissing says why a run has no figure beyond the capacity.
func oversubMissing(a *Run) error {
	f := a.Facts
	if f.OversubMaxPct > 0 && !f.OversubAllowed {
		s := fmt.Sprintf("the sweep stopped at %g %%", f.OversubMaxPct)
		if f.OversubCapacityBytes > 0 {
			s += " of a capacity shrunk to " + bytesText(f.OversubCapacityBytes)
		}
		return notMeasured("%s; percentages above 100 need umbench run --allow-oversubscription (drivers have hung under oversubscription)", s)
	}
	return notMeasured("no oversubscription figure above 100 %% in this run")
}

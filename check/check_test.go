package check

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/umlab/umlab/results"
)

// synth makes trials of a few configurations: value v × scale[i] with
// relative Gaussian noise cv.
func synth(seed uint64, platform, uuid string, trials int, cv float64, scale map[int]float64) []results.Row {
	rng := rand.New(rand.NewPCG(seed, 7))
	var rows []results.Row
	configs := []struct {
		group, bench, mode string
		size               int64
		gbps               float64
	}{
		{"hbm", "triad", "explicit", 256 << 20, 4300},
		{"hbm", "copy", "explicit", 256 << 20, 4000},
		{"managed", "stream", "managed_prefetch", 256 << 20, 3900},
		{"managed", "stream", "managed_cold", 256 << 20, 21.6},
		{"transfer", "copy", "pinned", 1 << 30, 55.3},
		{"host", "triad", "host_mapped", 1 << 30, 73.6},
	}
	for i, c := range configs {
		s := 1.0
		if f, ok := scale[i]; ok {
			s = f
		}
		for t := 0; t < trials; t++ {
			r := results.NewRow()
			r.Group, r.Benchmark, r.Mode, r.SizeBytes = c.group, c.bench, c.mode, c.size
			r.Trial, r.Warmups, r.Verified = int64(t), 5, true
			r.Platform, r.GPUUUID = platform, uuid
			r.GBps = c.gbps * s * (1 + cv*rng.NormFloat64())
			r.KernelMs = float64(c.size) / r.GBps / 1e6
			r.TotalMs = r.KernelMs
			rows = append(rows, r)
		}
	}
	return rows
}

// testPrior is a calibration with 1 % spreads between processes and
// between nodes for every configuration, 0.2 % and 0.5 % common to a
// resource's configurations.
var testPrior = func() *Prior {
	p := &Prior{GPU: "NVIDIA H200", Source: "the tests", PerResource: map[string]ResourceSpread{}}
	for _, r := range results.Bounds {
		p.PerResource[r] = ResourceSpread{Default: Spread{0.01, 0.01}, Process: Spread{0.002, 0.005}}
	}
	return p
}()

func side(name, platform string, rows []results.Row) Side {
	return Side{Name: name, Rows: rows, Meta: results.Metadata{Platform: platform, Kind: "measured",
		Device: results.Device{Name: "NVIDIA " + platform}}}
}

func TestLargeRegressionFails(t *testing.T) {
	base := side("base", "H200", synth(1, "H200", "GPU-a", 25, 0.01, nil))
	run := side("run", "H200", synth(2, "H200", "GPU-a", 25, 0.01, map[int]float64{0: 0.90}))
	rep, err := Compare(run, base, Options{Prior: testPrior})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Results[0].Verdict != Fail || rep.Counts.Fail != 1 || rep.OK(false) || rep.GPU != Fail {
		t.Fatalf("10 %% regression: verdict %s, GPU %s, counts %+v", rep.Results[0].Verdict, rep.GPU, rep.Counts)
	}
	if !strings.HasPrefix(rep.SummaryLine, "GPU FAIL, host ") {
		t.Errorf("summary line %q", rep.SummaryLine)
	}
}

func TestNoiseNotFlagged(t *testing.T) {
	// 1 % noise on both sides, the quick suite's 5 trials against 25.
	for seed := uint64(1); seed <= 30; seed++ {
		base := side("base", "H200", synth(seed, "H200", "GPU-a", 25, 0.01, nil))
		run := side("run", "H200", synth(seed+1000, "H200", "GPU-a", 5, 0.01, nil))
		rep, err := Compare(run, base, Options{Prior: testPrior})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Counts.Fail > 0 || rep.GPU != Pass {
			t.Errorf("seed %d: 1 %% noise: GPU %s, %d failures", seed, rep.GPU, rep.Counts.Fail)
		}
	}
}

func TestMismatchedGPURefused(t *testing.T) {
	base := side("base", "H200", synth(1, "H200", "GPU-a", 25, 0.01, nil))
	run := side("run", "H100", synth(2, "H100", "GPU-b", 25, 0.01, nil))
	_, err := Compare(run, base, Options{Prior: testPrior})
	if !errors.Is(err, ErrNotComparable) || !strings.Contains(err.Error(), "H100") || !strings.Contains(err.Error(), "H200") {
		t.Fatalf("err = %v, want ErrNotComparable naming both models", err)
	}
	// Same platform column, different device names (H200 vs H200 NVL).
	run = side("run", "H200", synth(2, "H200", "GPU-b", 25, 0.01, nil))
	run.Meta.Device.Name = "NVIDIA H200 NVL"
	if _, err := Compare(run, base, Options{Prior: testPrior}); !errors.Is(err, ErrNotComparable) {
		t.Fatalf("different device names: err = %v", err)
	}
	// A published baseline.
	pub := base
	pub.Meta.Kind = "published"
	if _, err := Compare(side("run", "H200", synth(2, "H200", "GPU-b", 25, 0.01, nil)), pub, Options{Prior: testPrior}); !errors.Is(err, ErrNotComparable) {
		t.Fatalf("published baseline: err = %v", err)
	}
	// A simulated run against a measured baseline.
	sim := side("run", "H200", synth(2, "H200", "GPU-a", 25, 0.01, nil))
	sim.Meta.Kind = "simulated"
	if _, err := Compare(sim, base, Options{Prior: testPrior}); !errors.Is(err, ErrNotComparable) || !strings.Contains(err.Error(), "simulated") {
		t.Fatalf("simulated against measured: err = %v", err)
	}
}

func TestNothingInCommon(t *testing.T) {
	base := side("base", "H200", synth(1, "H200", "GPU-a", 25, 0.01, nil))
	rows := synth(2, "H200", "GPU-a", 5, 0.01, nil)
	for i := range rows {
		rows[i].SizeBytes = 1 << 20
	}
	_, err := Compare(side("run", "H200", rows), base, Options{Prior: testPrior})
	if !errors.Is(err, ErrNotComparable) {
		t.Fatalf("err = %v", err)
	}
}

func TestFleetModesNotPooled(t *testing.T) {
	base := synth(1, "H200", "GPU-a", 25, 0.01, nil)
	for i := range base {
		base[i].Note = "fleet=isolated"
	}
	run := synth(2, "H200", "GPU-a", 25, 0.01, nil)
	for i := range run {
		run[i].Note = "fleet=concurrent:2"
	}
	if _, err := Compare(side("run", "H200", run), side("base", "H200", base), Options{Prior: testPrior}); !errors.Is(err, ErrNotComparable) {
		t.Fatalf("isolated against concurrent: err = %v", err)
	}
}

func TestUnverifiedAndWaived(t *testing.T) {
	base := side("base", "H200", synth(1, "H200", "GPU-a", 25, 0.01, nil))
	rows := synth(2, "H200", "GPU-a", 25, 0.01, nil)
	rows[0].Verified = false // config 0
	for i := range rows {
		if i/25 == 5 { // config 5 waived
			rows[i].Waived, rows[i].Note, rows[i].GBps = true, "no HMM", 0
		}
	}
	rep, err := Compare(side("run", "H200", rows), base, Options{Prior: testPrior})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Results[0].Verdict != Fail || rep.Results[5].Verdict != Fail || !strings.Contains(rep.Results[0].Reason, "verification") {
		t.Fatalf("unverified → %s (%s), waived → %s", rep.Results[0].Verdict, rep.Results[0].Reason, rep.Results[5].Verdict)
	}
}

// Loaders leave unverified trials out of the rows and count them in the
// metadata (results.ScreenUnverified): the check judges with that count.
// A configuration with a trial that failed verification where the
// baseline's all passed fails, also one that lost every trial; one whose
// baseline lost trials does not fail for it.
func TestUnverifiedCountedByTheLoader(t *testing.T) {
	all := synth(2, "H200", "GPU-a", 25, 0.01, nil)
	label := func(i int) string { return Label(all[i*25]) }
	all[0].Verified = false // config 0: one of 25
	for i := 25; i < 50; i++ {
		all[i].Verified = false // config 1: all 25
	}
	rows, u := results.ScreenUnverified(all)
	run := side("run", "H200", rows)
	run.Meta.Unverified = u
	base := side("base", "H200", synth(1, "H200", "GPU-a", 25, 0.01, nil))
	rep, err := Compare(run, base, Options{Prior: testPrior})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Result{}
	for _, r := range rep.Results {
		got[r.Configuration] = r
	}
	for i, want := range map[int]string{0: "1 of 25 trials failed verification", 1: "25 of 25 trials failed verification"} {
		if r := got[label(i)]; r.Verdict != Fail || !strings.Contains(r.Reason, want) {
			t.Errorf("%s: %s (%s), want a failure: %s", label(i), r.Verdict, r.Reason, want)
		}
	}
	if rep.RunOnly != 0 || len(rep.Results) != 6 {
		t.Errorf("%d results, %d run-only configurations: want 6 and 0", len(rep.Results), rep.RunOnly)
	}
	// The other way round: the baseline lost them.
	rep, err = Compare(side("run", "H200", synth(3, "H200", "GPU-a", 25, 0.01, nil)), run, Options{Prior: testPrior})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if strings.Contains(r.Reason, "verification") {
			t.Errorf("%s failed for the baseline's unverified trials: %s", r.Configuration, r.Reason)
		}
	}
}

func TestMultiGPURun(t *testing.T) {
	base := side("base", "H200", synth(1, "H200", "GPU-a", 25, 0.01, nil))
	rows := append(synth(2, "H200", "GPU-b", 25, 0.01, nil), synth(3, "H200", "GPU-c", 25, 0.01, map[int]float64{1: 0.80})...)
	rep, err := Compare(side("run", "H200", rows), base, Options{Prior: testPrior})
	if err != nil {
		t.Fatal(err)
	}
	if rep.RunGPUs != 2 || len(rep.Results) != 12 || rep.Counts.Fail != 1 || rep.SameGPU {
		t.Fatalf("GPUs %d, results %d, counts %+v, same GPU %v", rep.RunGPUs, len(rep.Results), rep.Counts, rep.SameGPU)
	}
	for _, r := range rep.Results {
		if r.Verdict == Fail && (r.GPU != "GPU-c" || r.Group != "hbm") {
			t.Errorf("failure on %s %s, want GPU-c hbm copy", r.GPU, r.Configuration)
		}
	}
}

func TestWriters(t *testing.T) {
	base := side("h200-base", "H200", synth(1, "H200", "GPU-a", 25, 0.01, nil))
	run := side("results/run", "H200", synth(2, "H200", "GPU-a", 5, 0.01, map[int]float64{0: 0.8}))
	rep, err := Compare(run, base, Options{Prior: testPrior})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := rep.WriteTable(&b, false, false); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(b.String(), "\n") {
		if n := len([]rune(line)); n > results.TableWidth {
			t.Errorf("line of %d columns: %q", n, line)
		}
	}
	for _, want := range []string{"hbm triad explicit 256 MiB", "FAIL slower than -", "GPU FAIL", "gpu gpu_memory", "passed or were skipped"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	if err := rep.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "\n"); n != 7 {
		t.Errorf("CSV has %d lines, want 7", n)
	}
	b.Reset()
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var back struct {
		GPU     string `json:"gpu_verdict"`
		Results []struct {
			Ratio *float64 `json:"ratio"`
		} `json:"results"`
	}
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || back.GPU != "fail" || len(back.Results) != 6 || back.Results[0].Ratio == nil {
		t.Fatalf("JSON %v: %+v", err, back)
	}
}

func TestOptionsValidated(t *testing.T) {
	for _, o := range []Options{{FailPct: -1}, {FDR: 0.7}, {Confidence: 1.5}, {Resamples: 10}, {MinTrials: 1}} {
		if _, err := Compare(Side{}, Side{}, o); err == nil || errors.Is(err, ErrNotComparable) {
			t.Errorf("%+v: err = %v, want a threshold error", o, err)
		}
	}
}

// A run and a baseline whose memory states were rewritten in different
// ways say so: the states that depend on it differ by method.
func TestRewriteNoted(t *testing.T) {
	plan := func(rewrite string) any {
		c := map[string]any{"Trials": 25, "Modes": []string{"explicit", "managed_cold"}} // a memory-state group
		if rewrite != "" {
			c["Rewrite"] = rewrite
		}
		return map[string]any{"hbm": map[string]any{"Trials": 25}, "managed": c}
	}
	rows := synth(1, "H200", "GPU-a", 25, 0.01, nil)
	run, base := side("run", "H200", rows), side("base", "H200", rows)
	note := func(run, base Side) string {
		rep, err := Compare(run, base, Options{Prior: testPrior})
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(rep.Notes, "; ")
	}
	run.Meta.Config, base.Meta.Config = plan("reallocate"), plan("") // a baseline from before the setting
	if n := note(run, base); !strings.Contains(n, "rewritten by reallocate (run), home (baseline)") {
		t.Errorf("notes %q, want the two rewrites named", n)
	}
	base.Meta.Config = plan("reallocate")
	if n := note(run, base); strings.Contains(n, "rewritten by") {
		t.Errorf("notes %q for the same rewrite", n)
	}
	base.Meta.Config = map[string]any{"hbm": map[string]any{"Trials": 25}} // no memory-state group
	if n := note(run, base); strings.Contains(n, "rewritten by") {
		t.Errorf("notes %q without memory-state groups in the baseline", n)
	}
}

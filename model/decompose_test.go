package model_test

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

// gbRow is a bandwidth-style trial: ms is useful bytes at gbps.
func gbRow(group, benchmark, mode string, size, useful int64, gbps float64) results.Row {
	r := results.NewRow()
	r.Group, r.Benchmark, r.Mode, r.Pattern = group, benchmark, mode, "streaming"
	r.SizeBytes, r.UsefulBytes, r.GBps = size, useful, gbps
	r.KernelMs = float64(useful) / (gbps * 1e6)
	r.Platform = "GB200"
	return r
}

// gb200Decomp builds rows from GB200 figures in the paper. The paper does
// not state the stream kernel's useful bytes nor the handoff pass's; the
// test assumes one read and one write per element (2 × size) for the stream
// kernel and 1 GiB per handoff GPU pass.
func gb200Decomp() []results.Row {
	const s = 256 * mib
	u := 2 * s
	rows := []results.Row{
		gbRow("hbm", "triad", "explicit", gib, 3*gib, 3963),        // Section V-A
		gbRow("host", "triad", "host_mapped", gib, 3*gib, 304),     // Section V-A
		gbRow("managed", "stream", "explicit", s, u, 4582),         // Section V-C
		gbRow("managed", "stream", "managed_cold", s, u, 14.1),     // Section V-C
		gbRow("managed", "stream", "managed_prefetch", s, u, 4606), // Section V-C
		gbRow("managed", "stream", "managed_reuse", s, u, 4504),    // Section V-C
	}
	rows[2].TransferMs = float64(s) / 211e6 // Section V-B: 211 GB/s host-to-device copy (1 GiB)
	rows[4].PrefetchMs = float64(s) / 115e6 // Section V-B: 115 GB/s CPU-to-GPU prefetch (1 GiB)
	// Section VII-A: prefetched and reused managed memory at 90 % (lower end
	// of the 25–90 % range) and 125 % of the 189,471 MiB of CUDA-visible
	// memory (Table I); useful bytes taken as the footprint.
	for _, o := range []struct {
		mode string
		pct  float64
		gbps float64
	}{{"managed_prefetch", 90, 4683}, {"managed_prefetch", 125, 968}, {"managed_reuse", 90, 4674}, {"managed_reuse", 125, 1214}} {
		fp := int64(o.pct / 100 * 189471 * float64(mib))
		r := gbRow("oversub", "stream", o.mode, fp, fp, o.gbps)
		r.OversubPct = o.pct
		rows = append(rows, r)
	}
	// Section VII-B: CPU-only + GPU-only baselines: 54.2 ms for managed,
	// 79.9 − 24.6 = 55.3 ms for managed prefetch, 60.5 − 5.4 = 55.1 ms for
	// explicit copy; the GPU-only parts are Table III's G. Host-mapped's
	// CPU-only time is not given: its sync term must come out NaN.
	for _, p := range gb200 {
		g := handoffRow(p.policy, "gpu_only", gib, 1, p.g)
		g.UsefulBytes = gib
		rows = append(rows, g,
			handoffRow(p.policy, "alternating", gib, 1, p.t1),
			handoffRow(p.policy, "alternating", gib, 32, p.t32))
	}
	rows = append(rows,
		handoffRow(model.Managed, "cpu_only", gib, 1, 54.2-0.415),
		handoffRow(model.ManagedPrefetch, "cpu_only", gib, 1, 55.3-0.489),
		handoffRow(model.ExplicitCopy, "cpu_only", gib, 1, 55.1-0.415))
	return rows
}

func find(t *testing.T, ds []model.Decomposition, match func(d model.Decomposition) bool) model.Decomposition {
	t.Helper()
	for _, d := range ds {
		if match(d) {
			return d
		}
	}
	t.Fatal("configuration not decomposed")
	return model.Decomposition{}
}

func TestDecomposeGB200(t *testing.T) {
	ds, err := model.Decompose(gb200Decomp())
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 4+4+8 {
		t.Errorf("%d decompositions, want 16", len(ds))
	}
	for _, d := range ds {
		// The terms and the residual add up to the total.
		sum := d.ResidualMs
		for _, x := range []float64{d.ComputeMs, d.AccessHBMMs, d.AccessCPUMs, d.FaultMs, d.MigrationMs, d.EvictionMs, d.SyncMs} {
			if !math.IsNaN(x) {
				sum += x
			}
		}
		if math.Abs(sum-d.TotalMs) > 1e-9*d.TotalMs {
			t.Errorf("%s: terms add to %g, total %g", d.Label(), sum, d.TotalMs)
		}
		t.Logf("%-44s total %8.3f  dominant %-10s %s", d.Label(), d.TotalMs, d.Dominant, strings.Join(d.Notes, "; "))
	}
	mode := func(group, mode string) func(d model.Decomposition) bool {
		return func(d model.Decomposition) bool { return d.Group == group && d.Mode == mode && d.OversubPct != 90 }
	}
	// Section V-C / VIII-A: cold first touch is dominated by page management;
	// the migration part is bounded by the time a prefetch of the same bytes takes.
	cold := find(t, ds, mode("managed", "managed_cold"))
	explicitK := float64(512*mib) / 4582e6
	if cold.Dominant != model.TermFault || math.Abs(cold.FaultMs+cold.MigrationMs-(cold.TotalMs-explicitK)) > 1e-9 ||
		math.Abs(cold.MigrationMs-float64(256*mib)/115e6) > 1e-12 || math.Abs(cold.ResidualMs) > 1e-9 {
		t.Errorf("cold: %+v", cold)
	}
	if d := find(t, ds, mode("managed", "managed_prefetch")); d.Dominant != model.TermMigration {
		t.Errorf("prefetch: dominant %s", d.Dominant)
	}
	if d := find(t, ds, mode("managed", "managed_reuse")); d.Dominant != model.TermAccessHBM || d.FaultMs != 0 {
		t.Errorf("reuse: %+v", d)
	}
	// Section VIII-A: oversubscribed prefetch at 125 % is dominated by eviction.
	ov := find(t, ds, mode("oversub", "managed_prefetch"))
	if ov.OversubPct != 125 || ov.Dominant != model.TermEviction {
		t.Errorf("oversub 125 %%: %+v", ov)
	}
	// Section VII-B: handoff costs above the CPU-only + GPU-only baselines.
	for _, c := range []struct {
		policy string
		sync   float64
	}{{model.Managed, 217.9}, {model.ManagedPrefetch, 24.6}, {model.ExplicitCopy, 5.4}} {
		d := find(t, ds, func(d model.Decomposition) bool { return d.Policy == c.policy && d.ReusePasses == 1 })
		if math.Abs(d.SyncMs-c.sync) > 1e-9 || math.Abs(d.ResidualMs) > 1e-9 {
			t.Errorf("%s R=1: sync %g, residual %g; want %g, 0", c.policy, d.SyncMs, d.ResidualMs, c.sync)
		}
	}
	if d := find(t, ds, func(d model.Decomposition) bool { return d.Policy == model.Managed && d.ReusePasses == 1 }); d.Dominant != model.TermSync {
		t.Errorf("managed R=1: dominant %s", d.Dominant)
	}
	host := find(t, ds, func(d model.Decomposition) bool { return d.Policy == model.HostMapped && d.ReusePasses == 32 })
	if !math.IsNaN(host.SyncMs) || !strings.Contains(strings.Join(host.Notes, ";"), "no cpu_only rows") || host.Dominant != model.TermAccessCPU {
		t.Errorf("host_mapped R=32: %+v", host)
	}

	df := model.DecompositionFrame(ds)
	if df.Err != nil || df.Nrow() != len(ds) || df.Col("dominant").Elem(1).String() != cold.Dominant {
		t.Errorf("frame: %v, %d rows", df.Err, df.Nrow())
	}
	var buf bytes.Buffer
	if err := model.WriteDecomposition(&buf, ds); err != nil || !strings.Contains(buf.String(), "managed/stream managed_cold 256 MiB") {
		t.Errorf("table (%v):\n%s", err, buf.String())
	}
}

func TestDecomposeMissingInputs(t *testing.T) {
	rows := []results.Row{
		gbRow("managed", "stream", "managed_cold", gib, 2*gib, 14.2),
		gbRow("managed", "stream", "managed_reuse", gib, 2*gib, 4751),
	}
	ds, err := model.Decompose(rows)
	if err != nil {
		t.Fatal(err)
	}
	cold := ds[0]
	if !math.IsNaN(cold.HBMGBps) || !math.IsNaN(cold.AccessHBMMs) || !math.IsNaN(cold.MigrationMs) || math.IsNaN(cold.FaultMs) {
		t.Errorf("cold without references: %+v", cold)
	}
	notes := strings.Join(cold.Notes, "; ")
	for _, want := range []string{"HBM bandwidth unknown", "resident reference: managed_reuse", "fault includes migration"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes %q lack %q", notes, want)
		}
	}
	// The explicit stream stands in for the missing hbm triad.
	rows = append(rows, gbRow("managed", "stream", "explicit", gib, 2*gib, 4600))
	ds, err = model.Decompose(rows)
	if err != nil {
		t.Fatal(err)
	}
	if ds[0].HBMGBps != 4600 || !strings.Contains(strings.Join(ds[0].Notes, ";"), "HBM bandwidth from managed stream (explicit) at 1 GiB") {
		t.Errorf("fallback: %+v", ds[0])
	}

	bad := gbRow("managed", "stream", "managed_cold", gib, 2*gib, 14.2)
	bad.KernelMs = -3
	if _, err := model.Decompose([]results.Row{bad}); err == nil || !strings.Contains(err.Error(), "kernel_ms = -3") {
		t.Errorf("negative kernel: %v", err)
	}
	if _, err := model.Decompose([]results.Row{gbRow("hbm", "triad", "explicit", gib, 3*gib, 3963)}); err == nil {
		t.Error("nothing to decompose: no error")
	}
}

// TestDecomposeCounted: a strided cold kernel that touches a quarter of its
// pages. Without counts the migration term assumes the whole allocation
// moved (the prefetch time); with the counted bytes it is a quarter of it,
// and the fault term takes the rest of the excess.
func TestDecomposeCounted(t *testing.T) {
	const s = 256 * mib
	rows := []results.Row{
		gbRow("hbm", "triad", "explicit", s, 3*s, 4000),
		gbRow("pattern", "strided", "explicit", s, s/8, 400),
		gbRow("pattern", "strided", "managed_prefetch", s, s/8, 400),
		gbRow("pattern", "strided", "managed_cold", s, s/8, 2),
	}
	for i := range rows {
		rows[i].Pattern, rows[i].StrideElements = "strided", 64
	}
	rows[2].PrefetchMs = 5 // the whole 256 MiB at 53.7 GB/s
	excess := rows[3].KernelMs - rows[1].KernelMs

	plain, err := model.Decompose(rows)
	if err != nil {
		t.Fatal(err)
	}
	cold := find(t, plain, func(d model.Decomposition) bool { return d.Mode == "managed_cold" })
	if cold.MigrationMs != 5 || math.Abs(cold.FaultMs-(excess-5)) > 1e-9 || !math.IsNaN(cold.CountedHtoDBytes) {
		t.Errorf("without counts: migration %g fault %g counted %g, want 5, %g, NaN", cold.MigrationMs, cold.FaultMs, cold.CountedHtoDBytes, excess-5)
	}

	key := rows[3]
	counted := []model.Counted{{Config: key, HtoDBytes: float64(s / 4), GPUFaultGroups: 300}}
	ds, err := model.DecomposeCounted(rows, counted)
	if err != nil {
		t.Fatal(err)
	}
	cold = find(t, ds, func(d model.Decomposition) bool { return d.Mode == "managed_cold" })
	if math.Abs(cold.MigrationMs-1.25) > 1e-9 || math.Abs(cold.FaultMs-(excess-1.25)) > 1e-9 {
		t.Errorf("with counts: migration %g fault %g, want 1.25 and %g", cold.MigrationMs, cold.FaultMs, excess-1.25)
	}
	if cold.CountedHtoDBytes != float64(s/4) || cold.CountedGPUFaultGroups != 300 || !strings.Contains(strings.Join(cold.Notes, ";"), "64 MiB counted host to device") {
		t.Errorf("with counts: %+v", cold)
	}
	// Counts of another configuration change nothing.
	other := key
	other.StrideElements = 128
	ds, err = model.DecomposeCounted(rows, []model.Counted{{Config: other, HtoDBytes: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if c := find(t, ds, func(d model.Decomposition) bool { return d.Mode == "managed_cold" }); c.MigrationMs != 5 {
		t.Errorf("counts of stride 128 used for stride 64: migration %g", c.MigrationMs)
	}
	f := model.DecompositionFrame(ds)
	if f.Err != nil || !slices.Contains(f.Names(), "counted_htod_bytes") {
		t.Errorf("frame: %v %v", f.Err, f.Names())
	}
}

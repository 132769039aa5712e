package model_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

// TestDecomposeRemoteAccess: accessed-by and preferred-CPU are remote
// access (CPU memory read in place), not fault and migration; a counter
// pass that saw a migration turns them back into first touch.
func TestDecomposeRemoteAccess(t *testing.T) {
	const s = 256 * mib
	u := 2 * s
	rows := []results.Row{
		gbRow("hbm", "triad", "explicit", s, 3*s, 4000),
		gbRow("host", "triad", "host_mapped", s, 3*s, 50),
		gbRow("managed", "stream", "explicit", s, u, 3900),
		gbRow("managed", "stream", "managed_prefetch", s, u, 3900),
		gbRow("managed", "stream", "advise_accessed_by", s, u, 48),
		gbRow("managed", "stream", "advise_preferred_cpu", s, u, 45),
		gbRow("managed", "stream", "advise_preferred_gpu", s, u, 20),
	}
	rows[3].PrefetchMs = 5
	ds, err := model.Decompose(rows)
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"advise_accessed_by", "advise_preferred_cpu"} {
		d := find(t, ds, func(d model.Decomposition) bool { return d.Mode == mode })
		if d.FaultMs != 0 || d.MigrationMs != 0 || d.AccessHBMMs != 0 {
			t.Errorf("%s: fault %g migration %g access HBM %g, want 0, 0, 0", mode, d.FaultMs, d.MigrationMs, d.AccessHBMMs)
		}
		if want := float64(u) / 50e6; math.Abs(d.AccessCPUMs-want) > 1e-9 {
			t.Errorf("%s: access CPU %g ms, want %g (useful bytes at the host triad's bandwidth)", mode, d.AccessCPUMs, want)
		}
		if !strings.Contains(strings.Join(d.Notes, ";"), "remote access") {
			t.Errorf("%s: notes %v", mode, d.Notes)
		}
		if slices.Contains(d.Measured, model.TermFault) {
			t.Errorf("%s: fault listed as measured", mode)
		}
	}
	// Preferred-CPU far below the host's bandwidth (a fresh allocation mapped
	// through faults): the rest beyond remote access is inferred fault.
	slow := slices.Clone(rows)
	slow[5] = gbRow("managed", "stream", "advise_preferred_cpu", s, u, 3)
	dss, err := model.Decompose(slow)
	if err != nil {
		t.Fatal(err)
	}
	d := find(t, dss, func(d model.Decomposition) bool { return d.Mode == "advise_preferred_cpu" })
	if access := float64(u) / 50e6; d.MigrationMs != 0 || math.Abs(d.AccessCPUMs-access) > 1e-9 || !(d.FaultMs > 10*access) ||
		math.Abs(d.ResidualMs) > 1e-6*d.TotalMs || !strings.Contains(strings.Join(d.Notes, ";"), "mapping CPU pages") {
		t.Errorf("slow preferred_cpu: fault %g migration %g access CPU %g residual %g of %g ms, notes %v",
			d.FaultMs, d.MigrationMs, d.AccessCPUMs, d.ResidualMs, d.TotalMs, d.Notes)
	}
	if slices.Contains(d.Measured, model.TermFault) {
		t.Error("slow preferred_cpu: an inferred fault listed as measured")
	}
	// A counter pass that saw no GPU faults rules the faults out; without the
	// host triad's bandwidth nothing is separated.
	dss, err = model.DecomposeCounted(slow, []model.Counted{{Config: slow[5], HtoDBytes: 0, GPUFaultGroups: 0}})
	if err != nil {
		t.Fatal(err)
	}
	if d := find(t, dss, func(d model.Decomposition) bool { return d.Mode == "advise_preferred_cpu" }); d.FaultMs != 0 || !(d.ResidualMs > 0) {
		t.Errorf("slow preferred_cpu, no faults counted: fault %g residual %g", d.FaultMs, d.ResidualMs)
	}
	// A counter pass that counted GPU faults (the H200's reallocated
	// preferred CPU at 256 MiB: nothing migrated, 3393 fault groups) keeps
	// the inferred fault and names the count.
	dss, err = model.DecomposeCounted(slow, []model.Counted{{Config: slow[5], HtoDBytes: 0, GPUFaultGroups: 3393}})
	if err != nil {
		t.Fatal(err)
	}
	if d := find(t, dss, func(d model.Decomposition) bool { return d.Mode == "advise_preferred_cpu" }); !(d.FaultMs > 0) ||
		!strings.Contains(strings.Join(d.Notes, ";"), "0 B migrated, 3393 GPU fault groups") {
		t.Errorf("slow preferred_cpu, faults counted: fault %g, notes %v", d.FaultMs, d.Notes)
	}
	dss, err = model.Decompose(slices.Delete(slices.Clone(slow), 1, 2))
	if err != nil {
		t.Fatal(err)
	}
	if d := find(t, dss, func(d model.Decomposition) bool { return d.Mode == "advise_preferred_cpu" }); !math.IsNaN(d.FaultMs) ||
		strings.Contains(strings.Join(d.Notes, ";"), "no fault") {
		t.Errorf("slow preferred_cpu without host rows: fault %g, notes %v", d.FaultMs, d.Notes)
	}
	// Preferred-GPU migrates: fault and migration as for first touch.
	if d := find(t, ds, func(d model.Decomposition) bool { return d.Mode == "advise_preferred_gpu" }); d.MigrationMs != 5 || !(d.FaultMs > 0) {
		t.Errorf("preferred_gpu: migration %g fault %g", d.MigrationMs, d.FaultMs)
	}
	// A counter pass that saw half the allocation migrate overrules.
	ds, err = model.DecomposeCounted(rows, []model.Counted{{Config: rows[4], HtoDBytes: float64(s / 2)}})
	if err != nil {
		t.Fatal(err)
	}
	if d := find(t, ds, func(d model.Decomposition) bool { return d.Mode == "advise_accessed_by" }); !(d.MigrationMs > 0) {
		t.Errorf("accessed_by with migrated bytes counted: migration %g", d.MigrationMs)
	}
	// The migration of prefetch and explicit modes is measured.
	if d := find(t, ds, func(d model.Decomposition) bool { return d.Mode == "managed_prefetch" }); !slices.Contains(d.Measured, model.TermMigration) {
		t.Errorf("managed_prefetch measured terms %v", d.Measured)
	}
}

// TestDecomposeHandoffParts: with the alternating trial's measured parts,
// the handoff's fault (managed), migration (prefetch, copy) and sync come
// from them, and the terms add up to the total.
func TestDecomposeHandoffParts(t *testing.T) {
	const s = gib
	rows := []results.Row{gbRow("hbm", "triad", "explicit", s, 3*s, 4000), gbRow("host", "triad", "host_mapped", s, 3*s, 50)}
	add := func(policy string, cpuOnly, g, cpu, kernel, prefetch, transfer, sync float64) {
		c := handoffRow(policy, "cpu_only", s, 0, cpuOnly)
		gp := handoffRow(policy, "gpu_only", s, 1, g)
		gp.UsefulBytes = 2 * s
		rows = append(rows, c, gp)
		for _, r := range []int64{1, 4} {
			a := handoffRow(policy, "alternating", s, r, 0)
			k := kernel + float64(r-1)*g
			a.CPUMs, a.KernelMs, a.PrefetchMs, a.TransferMs, a.SyncMs = cpu, k, prefetch, transfer, sync
			a.TotalMs = cpu + k + nzf(prefetch) + nzf(transfer) + sync
			rows = append(rows, a)
		}
	}
	nan := math.NaN()
	add(model.Managed, 160, 0.6, 260, 90, nan, nan, 0.05)         // 100 ms CPU-side faults, 89.4 GPU-side
	add(model.ManagedPrefetch, 160, 0.6, 250, 0.6, 80, nan, 0.05) // prefetch measured, 90 ms CPU-side faults
	add(model.ExplicitCopy, 160, 0.6, 160, 0.6, nan, 40, 0.05)
	add(model.HostMapped, 160, 25, 160, 25, nan, nan, 0.05)
	ds, err := model.Decompose(rows)
	if err != nil {
		t.Fatal(err)
	}
	get := func(p string) model.Decomposition {
		return find(t, ds, func(d model.Decomposition) bool { return d.Policy == p && d.ReusePasses == 4 })
	}
	if d := get(model.Managed); math.Abs(d.FaultMs-(100+89.4)) > 1e-9 || d.MigrationMs != 0 || d.SyncMs != 0.05 {
		t.Errorf("managed: fault %g migration %g sync %g, want 189.4, 0, 0.05", d.FaultMs, d.MigrationMs, d.SyncMs)
	}
	if d := get(model.ManagedPrefetch); d.MigrationMs != 80 || math.Abs(d.FaultMs-90) > 1e-9 || !slices.Contains(d.Measured, model.TermMigration) {
		t.Errorf("managed_prefetch: migration %g fault %g measured %v", d.MigrationMs, d.FaultMs, d.Measured)
	}
	if d := get(model.ExplicitCopy); d.MigrationMs != 40 || d.FaultMs != 0 {
		t.Errorf("explicit_copy: migration %g fault %g", d.MigrationMs, d.FaultMs)
	}
	if d := get(model.HostMapped); d.FaultMs != 0 || d.MigrationMs != 0 || !(d.AccessCPUMs > 0) {
		t.Errorf("host_mapped: fault %g migration %g access CPU %g", d.FaultMs, d.MigrationMs, d.AccessCPUMs)
	}
	for _, d := range ds {
		if d.Group == "handoff" && math.Abs(d.ResidualMs) > 1e-6 {
			t.Errorf("%s: residual %g, want 0 (the measured parts add up)", d.Label(), d.ResidualMs)
		}
	}
}

func nzf(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return x
}

package model

import (
	"fmt"
	"math"
	"strings"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/stats"
)

// MissAPE is the median APE (%) above which a policy's misses at a size
// are explained in a note.
const MissAPE = 2.0

// Parts of an alternating trial, as the handoff group writes them.
const (
	partCPU = iota
	partMove
	partKernel
	partSync
)

// parts are the medians of one alternating configuration's trial parts,
// indexed by part; NaN where the rows do not carry one.
type parts [4]float64

// partNamesOf lists the parts a policy's trials have, and labels them, the
// movement after the column that holds it (managed and host-mapped memory
// move inside the update and the passes).
func partNamesOf(policy string) ([]int, [4]string) {
	label := [4]string{"the CPU update (cpu_ms)", "the movement", "the GPU passes beyond R·G (kernel_ms)", "the rest (sync_ms)"}
	switch policy {
	case ManagedPrefetch:
		label[partMove] = "the prefetches (prefetch_ms)"
	case ExplicitCopy:
		label[partMove] = "the copies (transfer_ms)"
	default:
		return []int{partCPU, partKernel, partSync}, label
	}
	return []int{partCPU, partMove, partKernel, partSync}, label
}

// collectParts takes, per alternating configuration, the median of each
// part over its trials. Movement is prefetch_ms or transfer_ms, whichever
// the policy writes; a policy that moves nothing explicitly counts 0.
func collectParts(rows []results.Row) map[hkey]parts {
	accs := map[hkey]*[4][]float64{}
	for _, r := range rows {
		if r.Group != groupHandoff || r.Phase != phaseAlt || r.Waived || math.IsNaN(r.TotalMs) {
			continue
		}
		k := hkey{r.Policy, phaseAlt, r.SizeBytes, r.ReusePasses}
		a := accs[k]
		if a == nil {
			a = new([4][]float64)
			accs[k] = a
		}
		move := 0.0
		switch {
		case !math.IsNaN(r.PrefetchMs):
			move = r.PrefetchMs
		case !math.IsNaN(r.TransferMs):
			move = r.TransferMs
		}
		for i, v := range [4]float64{r.CPUMs, move, r.KernelMs, r.SyncMs} {
			a[i] = append(a[i], v)
		}
	}
	out := make(map[hkey]parts, len(accs))
	for k, a := range accs {
		var p parts
		for i := range a {
			p[i] = stats.Median(a[i])
		}
		out[k] = p
	}
	return out
}

// explainMisses notes every calibrated policy and size (counted in the
// aggregate) whose median APE exceeds MissAPE. F comes from R = 1, so a
// miss T(R) − F − R·G is the sum over the parts of part(R) − part(1) (less
// (R − 1)·G from the passes): the note gives each part's share of those
// deviations, the leading part's range and what the counter passes saw.
func (h *handoff) explainMisses(rep *Report, counted []Counted) {
	if h.parts == nil || !rep.Model.fitted { // published parameters: F is not the R = 1 configuration's
		return
	}
	counts := countedAlt(counted)
	for _, c := range rep.Calibration {
		p, s := c.Policy, c.SizeBytes
		if s < rep.MinSizeBytes || c.Points == 0 || !(c.MedianAPE > MissAPE) {
			continue
		}
		note := fmt.Sprintf("%s %s: median APE %.2f %%, above %.0f %%", p, formatSize(s), c.MedianAPE, MissAPE)
		if ci := c.MedianAPECI; !math.IsNaN(ci.Lo) {
			note += fmt.Sprintf(" (95 %% CI %.2f–%.2f %%", ci.Lo, ci.Hi)
			if ci.Lo <= MissAPE {
				note += ": within the noise of its medians"
			}
			note += ")"
		}
		note += ". "
		names, label := partNamesOf(p)
		share, ok := h.missShares(rep, p, []int64{s}, names)
		if !ok {
			rep.Notes = append(rep.Notes, note+"These rows carry no trial parts (cpu_ms, kernel_ms, …) to say where the misses sit.")
			continue
		}
		var split []string
		lead := names[0]
		for _, name := range names {
			split = append(split, fmt.Sprintf("%s %.0f %%", label[name], share[name]))
			if share[name] > share[lead] {
				lead = name
			}
		}
		note += "F is the R = 1 configuration's handoff; the other R configurations' parts differ from it, and the misses split: " +
			strings.Join(split, ", ") + ". " + h.leadRange(p, s, lead, label[lead])
		if ev := missEvidence(counts, p, s, rep.RMin, rep.RMax); ev != "" {
			note += " " + ev
		}
		rep.Notes = append(rep.Notes, note)
	}
}

// missShares returns each part's share (percent) of the absolute
// deviations from R = 1, each relative to T(R); false without parts.
func (h *handoff) missShares(rep *Report, p string, sizes []int64, names []int) (map[int]float64, bool) {
	sum := map[int]float64{}
	total := 0.0
	for _, s := range sizes {
		e, err := rep.Model.At(p, s)
		base, ok1 := h.parts[hkey{p, phaseAlt, s, 1}]
		if err != nil || !ok1 {
			continue
		}
		for _, r := range h.rs {
			if r == 1 {
				continue
			}
			at, ok := h.parts[hkey{p, phaseAlt, s, r}]
			t, okT := h.get(p, phaseAlt, s, r)
			if !ok || !okT || t <= 0 {
				continue
			}
			for _, name := range names {
				d := at[name] - base[name]
				if name == partKernel {
					d -= float64(r-1) * e.G
				}
				if math.IsNaN(d) {
					return nil, false
				}
				sum[name] += math.Abs(d) / t
				total += math.Abs(d) / t
			}
		}
	}
	if total == 0 {
		return nil, false
	}
	for k := range sum {
		sum[k] *= 100 / total
	}
	return sum, true
}

// leadRange describes the leading part across R at one size, next to the
// CPU-only update when the lead is the CPU update.
func (h *handoff) leadRange(p string, s int64, lead int, label string) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	var rLo, rHi int64
	for _, r := range h.rs {
		at, ok := h.parts[hkey{p, phaseAlt, s, r}]
		if !ok {
			continue
		}
		v := at[lead]
		if lead == partKernel {
			if g, ok := h.get(p, phaseGPU, s, 0); ok {
				v -= float64(r) * g
			}
		}
		if v < lo {
			lo, rLo = v, r
		}
		if v > hi {
			hi, rHi = v, r
		}
	}
	if math.IsInf(lo, 0) {
		return ""
	}
	out := fmt.Sprintf("At %s the median of %s runs from %.3g ms (R = %d) to %.3g ms (R = %d)", formatSize(s), label, lo, rLo, hi, rHi)
	if c, ok := h.get(p, phaseCPU, s, 0); ok && lead == partCPU {
		out += fmt.Sprintf("; the same update alone (cpu_only) takes %.3g ms", c)
	}
	return out + "."
}

// countedAlt indexes the alternating counter passes by configuration.
func countedAlt(counted []Counted) map[hkey]Counted {
	out := map[hkey]Counted{}
	for _, c := range counted {
		if r := c.Config; r.Group == groupHandoff && r.Phase == phaseAlt {
			out[hkey{r.Policy, phaseAlt, r.SizeBytes, r.ReusePasses}] = c
		}
	}
	return out
}

// missEvidence quotes the counter passes of one iteration at both ends of
// the R range: bytes migrated each way and page faults on each side.
func missEvidence(counts map[hkey]Counted, p string, s, rMin, rMax int64) string {
	var parts []string
	for _, r := range []int64{rMin, rMax} {
		c, ok := counts[hkey{p, phaseAlt, s, r}]
		if !ok {
			return "No counter passes at " + formatSize(s) + " for it (umbench run --counters, or umbench model --counters DATASET)."
		}
		parts = append(parts, fmt.Sprintf("R = %d: %s host to device, %s device to host, %s CPU page faults, %s GPU fault groups",
			r, countBytes(c.HtoDBytes), countBytes(c.DtoHBytes), count(c.CPUPageFaults), count(c.GPUFaultGroups)))
	}
	src := ""
	if c := counts[hkey{p, phaseAlt, s, rMin}]; c.Source != "" {
		src = " (" + c.Source + ")"
	}
	return "Counter passes" + src + ", one iteration at " + formatSize(s) + ": " + strings.Join(parts, "; ") + "."
}

func countBytes(b float64) string {
	if math.IsNaN(b) {
		return "? B"
	}
	return formatSize(int64(b))
}

func count(x float64) string {
	if math.IsNaN(x) {
		return "?"
	}
	return fmt.Sprintf("%.0f", x)
}

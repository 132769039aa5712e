package datasets

// The canonical runs of our own machine, one per kind: what the README's
// figures, the claims tests and the notebooks' default data rest on. A
// newer run replaces one here; the one it replaces leaves the embedded set
// (git history keeps it, and README.md in this directory names the commit
// that still has it).
const (
	CanonicalFull            = "h200-2026-12-02-setuploops"    // the whole default suite
	CanonicalQuick           = "h200-2026-12-03-quick"         // umbench run --quick
	CanonicalLive            = "h200live-2026-12-01"           // the notebooks' live mode
	CanonicalTwoGPU          = "h200x2-2026-11-29-isolated"    // two GPUs of one node, one at a time
	CanonicalCounters        = "h200counters-2026-12-03-quick" // counter passes of every group, quick sizes
	CanonicalHandoffCounters = "h200counters-2026-12-02-sweep" // handoff counter passes at 256 MiB and 1 GiB
)

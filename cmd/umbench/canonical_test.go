package main

// canonical are the embedded datasets that stay in the binary (issue 31):
// the paper's three and one run of each kind of our own. Tests that run a
// command on "every dataset" run it on these, as table tests.
var canonical = []string{
	"paper-gb200", "paper-gh200", "paper-gb10",
	"h200-2026-12-02-setuploops",    // the whole default suite
	"h200-2026-12-03-quick",         // --quick
	"h200live-2026-12-01",           // the notebooks' live mode
	"h200x2-2026-11-29-isolated",    // two GPUs
	"h200counters-2026-12-02-sweep", // counter passes: handoff
	"h200counters-2026-12-03-quick", // counter passes: managed
	"h200counters-2026-12-03-quick", // counter passes: managed, pattern, oversub
}

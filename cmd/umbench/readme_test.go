package main

import (
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/results"
)

// readmeCell names a row of the README's H200 results table by its first
// cell and the summary configurations (group and configuration, as
// `umbench summary` prints them) whose medians and intervals its second
// cell gives, joined by " / ".
type readmeCell struct {
	label   string
	configs []string
}

var readmeTable = []readmeCell{
	{"triad, 1 GiB per array (HBM), median of 25", []string{"hbm triad explicit 1 GiB"}},
	{"copy, 1 GiB", []string{"hbm copy explicit 1 GiB"}},
	{"pinned copy h2d / d2h, 1 GiB", []string{"transfer copy pinned h2d 1 GiB", "transfer copy pinned d2h 1 GiB"}},
	{"host-mapped triad, 1 GiB", []string{"host triad host_mapped 1 GiB"}},
	{"managed prefetch CPU→GPU / GPU→CPU, 1 GiB", []string{"transfer prefetch managed h2d 1 GiB", "transfer prefetch managed d2h 1 GiB"}},
	{"streaming kernel, 256 MiB: explicit / cold / prefetched / reused", []string{
		"managed stream explicit 256 MiB", "managed stream managed_cold 256 MiB", "managed stream managed_prefetch 256 MiB", "managed stream managed_reuse 256 MiB"}},
	{"streaming kernel, 1 GiB: explicit / prefetched / reused", []string{
		"managed stream explicit 1 GiB", "managed stream managed_prefetch 1 GiB", "managed stream managed_reuse 1 GiB"}},
	{"oversubscription 90 % (capacity 2 GiB), streaming: cold / prefetched / reused", []string{
		"oversub streaming managed_cold 1.8 GiB 90%", "oversub streaming managed_prefetch 1.8 GiB 90%", "oversub streaming managed_reuse 1.8 GiB 90%"}},
}

// summaryLine is one configuration of `umbench summary`'s table: group,
// configuration, n, median [lo, hi].
var summaryLine = regexp.MustCompile(`^(\S+)\s+(\S.*?)\s{2,}\d+\s+(\S+) \[(\S+), (\S+)\]`)

// TestReadmeFiguresFromData checks the figures of the README's H200
// results and model sections against the dataset they cite: every cell of
// the results table is the summary's median and interval, the model row and
// paragraph are `umbench model`'s aggregate, fastest-policy counts and
// per-policy APEs at 1 GiB, and the commit, the one uninterrupted process,
// its wall time and the handoff trials' count and times are the dataset's
// metadata and rows. (The per-group times come from the run's log; runs
// since group_times was added record them in meta.json.)
func TestReadmeFiguresFromData(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	m := regexp.MustCompile("\\| measurement \\(`([^`]+)`\\) \\|").FindStringSubmatch(readme)
	if m == nil {
		t.Fatal("README: no results table headed | measurement (`DATASET`) |")
	}
	name := m[1]
	from, to := strings.Index(readme, "## Results on an H200"), strings.Index(readme, "## The paper's claims")
	if from < 0 || to < from {
		t.Fatal(`README: no "## Results on an H200" section before "## The paper's claims"`)
	}
	cited := readme[from:to]
	for _, other := range regexp.MustCompile("h200-\\d{4}-\\d\\d-\\d\\d-[a-z]+").FindAllString(cited, -1) {
		if other != name && strings.Contains(cited, "--dataset "+other) {
			t.Errorf("README: the results and model sections run commands on %s, but the table cites %s", other, name)
		}
	}

	code, sum, stderr := umbench(t, "summary", "--all", "--dataset", name)
	wantCode(t, []string{"summary", "--dataset", name}, 0, code, sum, stderr)
	medians := map[string]string{}
	for _, l := range strings.Split(sum, "\n") {
		if s := summaryLine.FindStringSubmatch(l); s != nil {
			medians[s[1]+" "+s[2]] = fmt.Sprintf("%s (%s–%s)", s[3], s[4], s[5])
		}
	}
	row := func(label string) []string {
		for _, l := range strings.Split(readme, "\n") {
			if strings.HasPrefix(l, "| "+label+" | ") {
				return strings.Split(strings.Trim(l, "| "), " | ")
			}
		}
		t.Errorf("README: no table row %q", label)
		return nil
	}
	for _, c := range readmeTable {
		var parts []string
		for _, k := range c.configs {
			v, ok := medians[k]
			if !ok {
				t.Fatalf("summary of %s has no configuration %q", name, k)
			}
			parts = append(parts, v)
		}
		want := strings.Join(parts, " / ") + " GB/s"
		if r := row(c.label); r != nil && (len(r) < 2 || r[1] != want) {
			t.Errorf("README row %q: %q, but the summary of %s gives %q", c.label, r, name, want)
		}
	}

	code, mod, stderr := umbench(t, "model", "--dataset", name)
	wantCode(t, []string{"model", "--dataset", name}, 0, code, mod, stderr)
	modFlat := strings.Join(strings.Fields(mod), " ") // the output wraps its sentences
	find := func(re string) []string {
		s := regexp.MustCompile(re).FindStringSubmatch(mod)
		if s == nil {
			s = regexp.MustCompile(re).FindStringSubmatch(modFlat)
		}
		if s == nil {
			t.Fatalf("umbench model --dataset %s: no match for %s:\n%s", name, re, mod)
		}
		return s
	}
	agg := find(`Aggregate median APE over sizes ≥ 16 MiB: (\S+) % \(95 % CI (\S+)\)`)
	fast := find(`Fastest policy predicted: (\d+ of \d+) validation`)
	noise := find(`differ beyond their 95 % intervals: (\d+ of \d+); always naming (\S+) would score (\d+ of \d+)`)
	modelRow := fmt.Sprintf("%s %% (95 %% CI %s), %s (%s beyond noise; always naming %s would score %s)", agg[1], agg[2], fast[1], noise[1], noise[2], noise[3])
	if r := row("model T = F + R·G (≥ 16 MiB): median APE, fastest policy"); r != nil && (len(r) < 2 || r[1] != modelRow) {
		t.Errorf("README model row: %q, but umbench model gives %q", r, modelRow)
	}
	paragraph := []string{
		fmt.Sprintf("median APE\n%s %% (95 %% CI %s %%), fastest policy %s, %s at the\npoints beyond noise", agg[1], agg[2], fast[1], noise[1]),
	}
	var perPolicy []string
	for _, p := range []string{"explicit_copy", "host_mapped", "managed", "managed_prefetch"} {
		s := find(`(?m)^` + p + `\s+1 GiB\s+\S+\s+\S+\s+(\S+)\s+\S+\s+(\S+)\s+\d+$`)
		perPolicy = append(perPolicy, fmt.Sprintf("%s %s / %s %%", p, s[1], s[2]))
	}
	paragraph = append(paragraph, strings.Join(perPolicy, ", "))
	// Why the interval is wide: the calibration's noise, as model says it.
	spread := find(`calibration noise: (at \S+ [KMG]iB and R = 1 .*? above it)`)
	paragraph = append(paragraph, spread[1])
	flat := strings.Join(strings.Fields(cited), " ")
	for _, p := range paragraph {
		if !strings.Contains(flat, strings.Join(strings.Fields(p), " ")) {
			t.Errorf("README model paragraph does not say %q (from umbench model --dataset %s)", p, name)
		}
	}

	rows, meta, err := datasets.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	if len(meta.Commit) < 7 {
		t.Fatalf("%s's meta.json records no commit (%q)", name, meta.Commit)
	}
	for _, n := range meta.Notes {
		if strings.HasPrefix(n, "resumes run ") {
			t.Errorf("README calls %s one uninterrupted process, but its meta.json notes a resume: %s", name, n)
		}
	}
	var trials int
	var totalMs, cpuMs float64
	for _, r := range rows {
		if r.Group == "handoff" {
			trials++
			totalMs += r.TotalMs
			if !math.IsNaN(r.CPUMs) {
				cpuMs += r.CPUMs
			}
		}
	}
	ms := func(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }
	for _, want := range []string{
		fmt.Sprintf("at one commit, `%s`", meta.Commit[:7]),
		"in one process, " + minSec(meta.End.Sub(meta.Start)),
		fmt.Sprintf("%s timed trials add up to %s", thousands(trials), minSec(ms(totalMs))),
		fmt.Sprintf("their single-threaded CPU update (`cpu_ms`) %s", minSec(ms(cpuMs))),
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("README results section does not say %q (from %s's rows and meta.json)", want, name)
		}
	}
	// The wall time by group and its parts, as summary prints them.
	if len(meta.GroupTimes) == 0 {
		t.Errorf("%s's meta.json records no group times", name)
	}
	var printed strings.Builder
	printGroupTimes(&printed, meta.GroupTimes, true)
	if block := "```\n" + printed.String() + "```"; !strings.Contains(cited, block) {
		t.Errorf("README results section lacks the group times of %s's meta.json:\n%s", name, block)
	}
}

// minSec writes d to the second as the README does, e.g. "21 m 38 s".
func minSec(d time.Duration) string {
	d = d.Round(time.Second)
	return fmt.Sprintf("%d m %d s", int(d.Minutes()), int(d.Seconds())%60)
}

// thousands writes n with a comma between thousands, as the README does.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// TestReadmeQuickTimeFromData checks the `--quick` wall times the README
// quotes (its first screen and the paragraph on --quick) against the
// dataset they cite: a --quick run in one process, its wall time from
// meta.json's start and end, its commit, date and group times.
func TestReadmeQuickTimeFromData(t *testing.T) {
	flat := readmeFlat(t)
	first := regexp.MustCompile("\\((\\d+) s on an H200, (\\d{4}-\\d\\d-\\d\\d): `datasets/([^`]+)`\\)").FindStringSubmatch(flat)
	para := regexp.MustCompile("`--quick` runs every group at fewer sizes, percentages and trials: (\\d+) s in one process on an H200 at `([0-9a-f]+)` " +
		"\\((\\d{4}-\\d\\d-\\d\\d), `datasets/([^`]+)`: hbm, host, transfer, managed, pattern and oversub (\\d+) s, of which oversub (\\d+) s, handoff (\\d+) s\\)").FindStringSubmatch(flat)
	if first == nil || para == nil {
		t.Fatalf("README: the first screen's quick time (%v) or the --quick paragraph (%v) is not in the expected form", first != nil, para != nil)
	}
	if first[3] != para[4] {
		t.Errorf("README: the first screen cites %s, the --quick paragraph %s", first[3], para[4])
	}
	_, meta, err := datasets.Load(para[4])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(meta.Command, "--quick") || strings.Contains(meta.Command, "--groups") {
		t.Errorf("%s was not a whole --quick run: %s", para[4], meta.Command)
	}
	for _, n := range meta.Notes {
		if strings.HasPrefix(n, "resumes run ") {
			t.Errorf("README calls %s one process, but its meta.json notes a resume: %s", para[4], n)
		}
	}
	secs := func(d time.Duration) string { return fmt.Sprint(int(d.Round(time.Second).Seconds())) }
	wall := secs(meta.End.Sub(meta.Start))
	date := meta.Start.UTC().Format("2006-01-02")
	if first[1] != wall || para[1] != wall || first[2] != date || para[3] != date || !strings.HasPrefix(meta.Commit, para[2]) || len(para[2]) < 7 {
		t.Errorf("README quotes %s s on %s (first screen) and %s s at %s on %s, but %s ran %s s at %.7s on %s",
			first[1], first[2], para[1], para[2], para[3], para[4], wall, meta.Commit, date)
	}
	var before, oversub, handoff time.Duration
	for _, g := range meta.GroupTimes {
		d := g.End.Sub(g.Start)
		switch g.Group {
		case "handoff":
			handoff += d
		case "oversub":
			oversub += d
			before += d
		default:
			before += d
		}
	}
	if got := []string{secs(before), secs(oversub), secs(handoff)}; !slices.Equal(got, para[5:8]) {
		t.Errorf("README: the groups before handoff, oversub and handoff took %v s, but %s's group times give %v", para[5:8], para[4], got)
	}
}

// TestReadmeMissesFromData checks what the README's model section says of
// the rows that miss by more than 2 % against `umbench model` run as the
// README gives it (with its --counters): each row's APE, interval and the
// share of its leading part, and the counter passes quoted for it (managed
// at 16 MiB's, or a row's that moves the same each way with no fault).
func TestReadmeMissesFromData(t *testing.T) {
	flat, mod, args := readmeModel(t)
	rows := regexp.MustCompile(`(explicit_copy|host_mapped|managed|managed_prefetch) at (\d+ [KMG]iB) \((\S+) %, (?:95 % )?CI (\S+)–(\S+) %\) has (\d+) % (?:of its misses )?in the (CPU update|GPU passes)`).FindAllStringSubmatch(flat, -1)
	if len(rows) == 0 {
		t.Fatal("README: the model section names no row above 2 % in the expected form")
	}
	for _, r := range rows {
		note := fmt.Sprintf("%s %s: median APE %s %%, above 2 %% (95 %% CI %s–%s %%", r[1], r[2], r[3], r[4], r[5])
		i := strings.Index(mod, note)
		if i < 0 {
			t.Errorf("README says %q, but umbench model %v does not note %q", r[0], args[1:], note)
			continue
		}
		end := strings.Index(mod[i+1:], "Note: ")
		if end < 0 {
			end = len(mod) - i - 1
		}
		body := mod[i : i+1+end]
		part := map[string]string{"CPU update": "the CPU update (cpu_ms) ", "GPU passes": "the GPU passes beyond R·G (kernel_ms) "}[r[7]]
		if !strings.Contains(body, part+r[6]+" %") {
			t.Errorf("README gives %s %s %s %% in the %s, but the note says: %s", r[1], r[2], r[6], r[7], body)
		}
		quiet := regexp.MustCompile(`(managed prefetch|managed|explicit copy|host-mapped) at (\d+ [KMG]iB) moves (\d+ [KMG]iB|0 B) each way with no CPU page fault and no GPU fault group at R = 1 and at R = 32`)
		for _, q := range quiet.FindAllStringSubmatch(flat, -1) {
			if strings.ReplaceAll(strings.ReplaceAll(q[1], " ", "_"), "-", "_") != r[1] || q[2] != r[2] {
				continue
			}
			for _, want := range []string{
				fmt.Sprintf("R = 1: %s host to device, %s device to host, 0 CPU page faults, 0 GPU fault groups", q[3], q[3]),
				fmt.Sprintf("R = 32: %s host to device, %s device to host, 0 CPU page faults, 0 GPU fault groups", q[3], q[3]),
			} {
				if !strings.Contains(body, want) {
					t.Errorf("README quotes %q, but the note lacks %q: %s", q[0], want, body)
				}
			}
		}
		if r[1] == "managed" && r[2] == "16 MiB" {
			m := regexp.MustCompile(`moves (\d+ MiB) each way with (\d+) CPU page faults at both ends \((\d+) and (\d+) GPU fault groups\)`).FindStringSubmatch(flat)
			if m == nil {
				t.Error("README: no counter passes quoted for managed at 16 MiB")
				continue
			}
			for _, want := range []string{
				fmt.Sprintf("R = 1: %s host to device, %s device to host, %s CPU page faults, %s GPU fault groups", m[1], m[1], m[2], m[3]),
				fmt.Sprintf("R = 32: %s host to device, %s device to host, %s CPU page faults, %s GPU fault groups", m[1], m[1], m[2], m[4]),
			} {
				if !strings.Contains(body, want) {
					t.Errorf("README quotes managed 16 MiB's counter passes as %q, but the note lacks %q: %s", m[0], want, body)
				}
			}
		}
	}
}

// TestReadmeFDependsOnRFromData: each "T(R) − R·G rises (falls) by X ms"
// the model section quotes is a note of `umbench model` on the same
// command, with the same interval and sign, and the section counts the
// sizes at which host-mapped F depends on R as the notes do.
func TestReadmeFDependsOnRFromData(t *testing.T) {
	flat, mod, args := readmeModel(t)
	notes := regexp.MustCompile(`Note: (\S+) (\d+ [KMG]iB): F depends on R beyond noise: .*? a difference of (\S+) ms \((\S+) to (\S+)\)`).FindAllStringSubmatch(mod, -1)
	hostMapped := 0
	for _, n := range notes {
		if n[1] == "host_mapped" {
			hostMapped++
		}
	}
	count := regexp.MustCompile(`Host-mapped F depends on R beyond noise at (one size|two sizes|three sizes)`).FindStringSubmatch(flat)
	if count == nil {
		t.Fatal("README: no \"Host-mapped F depends on R beyond noise at N sizes\"")
	}
	if want := map[int]string{1: "one size", 2: "two sizes", 3: "three sizes"}[hostMapped]; count[1] != want {
		t.Errorf("README: host-mapped F depends on R at %s, but umbench model %v notes it at %d sizes", count[1], args[1:], hostMapped)
	}
	quoted := regexp.MustCompile(`T\(R\) − R·G (rises|falls) by (\S+) ms \((?:95 % CI )?(\S+)–(\S+)\) from R = 1 to R = 32 at (\d+ [KMG]iB)`).FindAllStringSubmatch(flat, -1)
	quoted = append(quoted, regexp.MustCompile(`(rises|falls) by (\S+) ms \((?:95 % CI )?(\S+)–(\S+)\) at (\d+ [KMG]iB)`).FindAllStringSubmatch(flat, -1)...)
	if len(quoted) != hostMapped {
		t.Errorf("README quotes %d host-mapped changes of T(R) − R·G, but umbench model notes %d", len(quoted), hostMapped)
	}
	for _, q := range quoted {
		found := false
		for _, n := range notes {
			if n[1] != "host_mapped" || n[2] != q[5] {
				continue
			}
			found = true
			d := n[3]
			sign := "rises"
			if strings.HasPrefix(d, "-") {
				sign, d = "falls", d[1:]
			}
			lo, hi := n[4], n[5]
			if sign == "falls" { // the interval of the fall is the negated interval of the difference
				lo, hi = strings.TrimPrefix(n[5], "-"), strings.TrimPrefix(n[4], "-")
			}
			if got := []string{sign, d, lo, hi}; !slices.Equal(got, q[1:5]) {
				t.Errorf("README: host-mapped at %s %v, but umbench model notes %v", q[5], q[1:5], got)
			}
		}
		if !found {
			t.Errorf("README: host-mapped T(R) − R·G changes at %s, but umbench model %v notes no F depending on R there", q[5], args[1:])
		}
	}
}

// readmeModel runs `umbench model` as the README's model section gives it
// (`umbench model --dataset D --counters C`, whose counter passes …) and
// returns the flattened README, the flattened output and the arguments.
func readmeModel(t *testing.T) (flat, mod string, args []string) {
	t.Helper()
	flat = readmeFlat(t)
	cmd := regexp.MustCompile("`umbench model --dataset (\\S+) --counters (\\S+)`, whose counter passes").FindStringSubmatch(flat)
	if cmd == nil {
		t.Fatal("README: no `umbench model --dataset D --counters C`, whose counter passes … in the model section")
	}
	args = []string{"model", "--dataset", cmd[1], "--counters", cmd[2]}
	code, out, errs := umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	return flat, strings.Join(strings.Fields(out), " "), args
}

// readmeFlat returns the README with every run of white space one space,
// so that a sentence matches wherever its lines break.
func readmeFlat(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(strings.Fields(string(b)), " ")
}

// TestReadmeEarlierRunsFromData checks what the README's results and
// model sections say of earlier full runs against their datasets: each
// embedded run's commit, wall time, timed regions and rewrites (and the
// cited run's own, "here"), the handoff group's timed regions, and every
// aggregate median APE quoted with its commit. A run quoted by commit whose
// dataset was removed must have its row in datasets/README.md, with the
// same aggregate and the git show that recovers its rows.
func TestReadmeEarlierRunsFromData(t *testing.T) {
	flat := readmeFlat(t)
	// seconds writes a time in seconds as minSec does.
	seconds := func(s float64) string { return minSec(time.Duration(s * float64(time.Second))) }
	type run struct {
		commit                         string
		wall, timed, rewrite, hto, hvf float64 // seconds; hto, hvf: handoff's timed regions and verification
		verify                         float64 // seconds: every group's verification
	}
	load := func(name string) run {
		_, meta, err := datasets.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		r := run{commit: meta.Commit, wall: meta.End.Sub(meta.Start).Seconds()}
		for _, g := range meta.GroupTimes {
			r.timed += g.Parts.TimedS
			r.rewrite += g.Parts.RewriteS
			r.verify += g.Parts.VerifyS
			if g.Group == "handoff" {
				r.hto += g.Parts.TimedS
				r.hvf += g.Parts.VerifyS
			}
		}
		if len(meta.GroupTimes) == 0 || len(r.commit) < 7 {
			t.Fatalf("%s's meta.json records no group times or commit", name)
		}
		return r
	}
	other := regexp.MustCompile("`datasets/(h200-[0-9a-z-]+)` at `([0-9a-f]+)` in (\\d+ m \\d+ s) \\(timed(?: regions)? (\\d+ m \\d+ s), rewrites (\\d+ m \\d+ s)\\)").FindAllStringSubmatch(flat, -1)
	here := regexp.MustCompile(`against (\d+ m \d+ s) and (\d+ m \d+ s) here\.`).FindStringSubmatch(flat)
	verify := regexp.MustCompile("checked the handoff group's data after every trial, (\\d+) s of verification in each; since `([0-9a-f]{7})` one check of the accumulated data at the end of each block covers every iteration of it \\(each adds exactly 1 and R to every element\\), (\\d+\\.\\d) s on `(h200-[0-9a-z-]+)` and (\\d+\\.\\d) s here").FindStringSubmatch(flat)
	allVerify := regexp.MustCompile("The whole suite's verification took (\\d+\\.\\d) s here against (\\d+\\.\\d) s on `(h200-[0-9a-z-]+)`").FindStringSubmatch(flat)
	handoff := regexp.MustCompile(`The handoff group's timed regions took (\d+ m \d+ s(?:, \d+ m \d+ s)*) and (\d+ m \d+ s) on those hosts and (\d+ m \d+ s) here`).FindStringSubmatch(flat)
	cited := regexp.MustCompile("\\| measurement \\(`([^`]+)`\\) \\|").FindStringSubmatch(flat)
	if len(other) < 2 || here == nil || verify == nil || allVerify == nil || handoff == nil || cited == nil {
		t.Fatalf("README: the other runs' times (%d, want at least 2), this run's (%v), the handoff verification (%v), the whole verification (%v) and timed regions (%v) or the results table's dataset (%v) are not in the expected form",
			len(other), here != nil, verify != nil, allVerify != nil, handoff != nil, cited != nil)
	}
	var handoffTimed []string
	for _, o := range other {
		r := load(o[1])
		if !strings.HasPrefix(r.commit, o[2]) || len(o[2]) < 7 {
			t.Errorf("README: %s at %s, but its meta.json records %s", o[1], o[2], r.commit)
		}
		if got := []string{seconds(r.wall), seconds(r.timed), seconds(r.rewrite)}; !slices.Equal(got, o[3:6]) {
			t.Errorf("README: %s took %v (wall, timed, rewrites), but its meta.json gives %v", o[1], o[3:6], got)
		}
		handoffTimed = append(handoffTimed, seconds(r.hto))
		// The runs before the block-end check spent about 16 s; the one
		// named with its block-end time is checked below.
		if got := fmt.Sprintf("%.0f", r.hvf); o[1] != verify[4] && got != verify[1] {
			t.Errorf("README: %s spent %s s verifying handoff data, but its meta.json gives %s s", o[1], verify[1], got)
		}
	}
	this := load(cited[1])
	if got := []string{seconds(this.timed), seconds(this.rewrite)}; !slices.Equal(got, here[1:3]) {
		t.Errorf("README: %s's timed regions and rewrites %v, but its meta.json gives %v", cited[1], here[1:3], got)
	}
	first := load(verify[4])
	if got := fmt.Sprintf("%.1f", first.hvf); got != verify[3] || !strings.HasPrefix(first.commit, verify[2]) {
		t.Errorf("README: block-end checks since %s took %s s on %s, but it ran at %s and its meta.json gives %s s", verify[2], verify[3], verify[4], first.commit, got)
	}
	if got := fmt.Sprintf("%.1f", this.hvf); got != verify[5] {
		t.Errorf("README: block-end checks took %s s here, but %s's meta.json gives %s s", verify[5], cited[1], got)
	}
	if got := []string{fmt.Sprintf("%.1f", this.verify), fmt.Sprintf("%.1f", load(allVerify[3]).verify)}; !slices.Equal(got, allVerify[1:3]) {
		t.Errorf("README: the whole suite's verification took %v (here, on %s), but the runs' meta.json give %v", allVerify[1:3], allVerify[3], got)
	}
	quotedTimes := append(strings.Split(handoff[1], ", "), handoff[2], handoff[3])
	if got := append(handoffTimed, seconds(this.hto)); !slices.Equal(got, quotedTimes) {
		t.Errorf("README: the handoff group's timed regions %v, but the runs' meta.json give %v", quotedTimes, got)
	}

	// The floor of a run's wall time: its timed regions and its CPU
	// writes of fresh buffers, each configuration's warm-ups at the mean
	// of its trials' cpu_ms; for this run also the rest (wall time less
	// the floor) and what the rest may take within 20 minutes.
	floorOf := func(name string) float64 {
		rows, _, err := datasets.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		type acc struct {
			sum     float64
			n       int
			warmups int64
		}
		writes := map[string]*acc{}
		for _, r := range rows {
			switch r.Group {
			case "managed", "pattern", "pattern.sparse", "oversub":
			default:
				continue
			}
			if math.IsNaN(r.CPUMs) {
				continue
			}
			k := results.ConfigKey(r)
			if writes[k] == nil {
				writes[k] = &acc{warmups: r.Warmups}
			}
			writes[k].sum += r.CPUMs
			writes[k].n++
		}
		writeS := 0.0
		for _, a := range writes {
			writeS += a.sum / float64(a.n) * float64(int64(a.n)+a.warmups) / 1000
		}
		return load(name).timed + writeS
	}
	floor := regexp.MustCompile(`warm-ups counted at their configuration's mean\) add up to (\d+ m \d+ s) here, and everything else \(the allocations, frees, verification, settling and the rest\) to (\d+ m \d+ s), within the (\d+) s that 20 minutes leave it`).FindStringSubmatch(flat)
	if floor == nil {
		t.Fatal("README: no floor of the run's wall time (timed regions and CPU writes) and rest in the expected form")
	}
	f := floorOf(cited[1])
	if got := []string{seconds(f), seconds(this.wall - f), fmt.Sprintf("%.0f", 1200-f)}; !slices.Equal(got, floor[1:4]) {
		t.Errorf("README: floor, rest and the rest within 20 minutes %v, but %s gives %v", floor[1:4], cited[1], got)
	}
	for _, o := range regexp.MustCompile("[Oo]n `(h200-[0-9a-z-]+)`'s host the same sum is (\\d+ m \\d+ s)").FindAllStringSubmatch(flat, -1) {
		if got := seconds(floorOf(o[1])); got != o[2] {
			t.Errorf("README: %s's floor is %s, but its data give %s", o[1], o[2], got)
		}
	}

	// Aggregates quoted by commit: recomputed where the dataset is embedded.
	byCommit := map[string]string{}
	for _, d := range datasets.List() {
		if _, meta, err := datasets.Load(d.Name); err == nil && len(meta.Commit) >= 7 && strings.HasPrefix(d.Name, "h200-") {
			byCommit[meta.Commit[:7]] = d.Name
		}
	}
	dsReadme, err := os.ReadFile("../../datasets/README.md")
	if err != nil {
		t.Fatal(err)
	}
	quoted := regexp.MustCompile("(\\d+\\.\\d\\d) % \\((?:95 % CI )?(\\S+)–(\\S+) %, at `([0-9a-f]{7})`\\)").FindAllStringSubmatch(flat, -1)
	if len(quoted) < 2 {
		t.Fatalf("README: %d earlier aggregates quoted by commit, want at least 2", len(quoted))
	}
	embedded := 0
	for _, q := range quoted {
		name, ok := byCommit[q[4]]
		if !ok {
			recoverable := false
			for _, l := range strings.Split(string(dsReadme), "\n") {
				recoverable = recoverable || (strings.Contains(l, "(removed; `git show ") && strings.Contains(l, "`"+q[4]+"`") && strings.Contains(l, q[1]+" % (95 % CI "+q[2]+"–"+q[3]+")"))
			}
			if !recoverable {
				t.Errorf("README quotes %s %% at %s, whose dataset is not embedded, and no removed dataset's row of datasets/README.md gives that commit, that aggregate and the git show that recovers it", q[1], q[4])
			}
			continue
		}
		embedded++
		args := []string{"model", "--dataset", name}
		code, out, errs := umbench(t, args...)
		wantCode(t, args, 0, code, out, errs)
		want := fmt.Sprintf("Aggregate median APE over sizes ≥ 16 MiB: %s %% (95 %% CI %s–%s)", q[1], q[2], q[3])
		if !strings.Contains(out, want) {
			t.Errorf("README quotes %q for %s, but umbench model %v does not say %q", q[0], q[4], args[1:], want)
		}
	}
	if embedded < 2 {
		t.Errorf("README: %d of the earlier aggregates are of embedded datasets, want at least 2", embedded)
	}
}

package nb

import (
	"fmt"
	"slices"
	"strings"

	"github.com/go-gota/gota/dataframe"

	"github.com/umlab/umlab/claims"
	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/plots"
	"github.com/umlab/umlab/results"
)

// sections are the paper's sections each notebook checks, in its order.
var sections = map[string][]string{
	"01": {"V-A", "V-B", "VIII-A"},
	"02": {"Abstract", "V-C", "VI-A", "IX"},
	"03": {"VI-B", "VI-C"},
	"04": {"VII-A"},
	"05": {"VII-B"},
	"06": {"VIII-B", "VIII-C", "Table III"},
}

// cache keeps the last claims run and its checks in this process, so that
// the figures of one cell (or of a test) fit the handoff model once.
var cache struct {
	key    string
	run    *claims.Run
	gpu    string
	checks map[string][]claims.Check // by notebook
}

// localRun is the claims' view of the last Load's local rows (of one GPU:
// the first, when a run measured several, named in gpu), or nil without
// local rows.
func localRun() (run *claims.Run, gpu string, err error) {
	key := fmt.Sprint(last.sources, len(last.local))
	if cache.key == key {
		return cache.run, cache.gpu, nil
	}
	run, gpu, err = newLocalRun()
	if err == nil {
		cache.key, cache.run, cache.gpu, cache.checks = key, run, gpu, map[string][]claims.Check{}
	}
	return run, gpu, err
}

func newLocalRun() (run *claims.Run, gpu string, err error) {
	rows := last.local
	if gpus := distinctGPUs(rows); len(gpus) > 1 {
		gpu = gpus[0]
		rows = plots.Where(rows, results.ColGPUUUID, gpu)
	}
	if len(rows) == 0 {
		return nil, "", nil
	}
	name := last.localSrc.Name
	run, err = claims.NewRun(name, rows, last.meta)
	if err != nil {
		return nil, "", err
	}
	for _, n := range strings.Split(name, " + ") {
		if c, err := datasets.Counters(n); err == nil {
			run.Counters = append(run.Counters, c...)
		}
	}
	return run, gpu, nil
}

func distinctGPUs(rows []results.Row) []string {
	var out []string
	for _, r := range rows {
		if r.GPUUUID != "" && !slices.Contains(out, r.GPUUUID) {
			out = append(out, r.GPUUUID)
		}
	}
	return out
}

// notebookChecks are every check a notebook states, in its order: the
// claims under its figures, then the rest of its sections'.
func notebookChecks(run *claims.Run, notebook string) ([]claims.Check, error) {
	if xs, ok := cache.checks[notebook]; ok && run == cache.run && run != nil {
		return xs, nil
	}
	ids := figureClaims(notebook)
	for _, c := range claims.Sections(sections[notebook]...) {
		if !slices.Contains(ids, c.ID) {
			ids = append(ids, c.ID)
		}
	}
	xs, err := claims.CheckIDs(run, ids...)
	if err == nil && run != nil && run == cache.run {
		cache.checks[notebook] = xs
	}
	return xs, err
}

// figureClaims are the claims said under a notebook's figures, in order.
func figureClaims(notebook string) []string {
	var ids []string
	for _, n := range plots.Catalog() {
		if n.Notebook == notebook {
			ids = append(ids, n.Claims...)
		}
	}
	return ids
}

// reasons numbers the distinct clauses of a notebook's reasons (a
// reason is clauses joined by "; ": a verdict's own and shared ones such as
// the host link's) in the order they are first met, with the claim that
// first states each, so that each clause is written out once.
type reasons struct {
	order []string
	by    map[string]string // clause -> id of the first claim stating it
}

func newReasons(xs []claims.Check) *reasons {
	r := &reasons{by: map[string]string{}}
	for _, x := range xs {
		for _, c := range clauses(x.Reason) {
			if _, ok := r.by[c]; !ok {
				r.order, r.by[c] = append(r.order, c), x.Claim.ID
			}
		}
	}
	return r
}

func (r *reasons) number(clause string) int { return slices.Index(r.order, clause) + 1 }

// numbers are the numbers of a reason's clauses.
func (r *reasons) numbers(reason string) []string {
	var out []string
	for _, c := range clauses(reason) {
		out = append(out, fmt.Sprint(r.number(c)))
	}
	return out
}

// say writes x's reason: each clause in full where x is the first claim to
// state it, by number where an earlier one did.
func (r *reasons) say(x claims.Check) string {
	var parts []string
	for _, c := range clauses(x.Reason) {
		if r.by[c] == x.Claim.ID {
			parts = append(parts, fmt.Sprintf("reason %d: %s", r.number(c), Text(c)))
		} else {
			parts = append(parts, fmt.Sprintf("reason %d, above", r.number(c)))
		}
	}
	return strings.Join(parts, "; ")
}

// clauses splits a reason at the "; " outside parentheses.
func clauses(reason string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(reason); i++ {
		switch reason[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ';':
			if depth == 0 {
				out = append(out, strings.TrimSpace(reason[start:i]))
				start = i + 1
			}
		}
	}
	if last := strings.TrimSpace(reason[start:]); last != "" {
		out = append(out, last)
	}
	return out
}

// sayClaims writes the checks of ids on run as short Markdown bullets: the
// paper's statement, the figure here and the paper's, the verdict; each
// clause of a reason in full the first time the notebook states it, as
// "reason N, above" after.
func sayClaims(run *claims.Run, notebook string, ids []string) (string, error) {
	all, err := notebookChecks(run, notebook)
	if err != nil {
		return "", err
	}
	rs := newReasons(all)
	var b strings.Builder
	for _, x := range all {
		if !slices.Contains(ids, x.Claim.ID) {
			continue
		}
		fmt.Fprintf(&b, "- The paper: *%s.* ", Text(strings.TrimSuffix(x.Claim.Statement, ".")))
		if x.Verdict == claims.NotMeasured {
			fmt.Fprintf(&b, "**Not measured** here")
		} else {
			fmt.Fprintf(&b, "Here %s; the paper's %s %s: **%s**", Text(quantity(x.Measured)), Text(x.Ref.Meta.Platform), Text(quantity(x.Paper)), x.Verdict)
		}
		if x.Reason != "" {
			fmt.Fprintf(&b, " (%s)", rs.say(x))
		}
		b.WriteString(".\n")
	}
	return b.String(), nil
}

// quantity writes a checked figure with how it was obtained.
func quantity(q claims.Quantity) string {
	if q.Text == "" || q.Text == q.String() {
		return q.String()
	}
	return q.String() + " (" + q.Text + ")"
}

// claimsFrame lays a notebook's checks out as a table: id, section,
// statement, paper, here, verdict and the number of its reason (written
// out under the figures, or under the table for those not said there).
func claimsFrame(xs []claims.Check, rs *reasons) dataframe.DataFrame {
	type X = claims.Check
	col := results.StringField[X]
	return results.Build(xs,
		col("id", func(x *X) string { return x.Claim.ID }),
		col("section", func(x *X) string { return x.Claim.Section }),
		col("claim", func(x *X) string { return x.Claim.Statement }),
		col("paper", func(x *X) string { return quantity(x.Paper) }),
		col("here", func(x *X) string { return quantity(x.Measured) }),
		col("verdict", func(x *X) string { return x.Verdict.String() }),
		col("reason", func(x *X) string { return strings.Join(rs.numbers(x.Reason), ", ") }))
}

// claimsParts are what ClaimsTable shows: a heading line, the table, and
// the reasons not yet written under a figure.
func claimsParts(notebook string) (head string, df dataframe.DataFrame, rest []string, err error) {
	run, gpu, err := localRun()
	if err != nil {
		return "", df, nil, err
	}
	all, err := notebookChecks(run, notebook)
	if err != nil {
		return "", df, nil, err
	}
	var xs []claims.Check
	for _, c := range claims.Sections(sections[notebook]...) {
		for _, x := range all {
			if x.Claim.ID == c.ID {
				xs = append(xs, x)
			}
		}
	}
	rs := newReasons(all)
	said := figureClaims(notebook)
	for i, c := range rs.order {
		if !slices.Contains(said, rs.by[c]) {
			rest = append(rest, fmt.Sprintf("%d. %s", i+1, Text(c)))
		}
	}
	on := "the paper's own GB200 figures (no local run is loaded)"
	if run != nil {
		on = run.Describe() + " (" + run.Name + ")"
		if gpu != "" {
			on += ", GPU " + gpu
		}
	}
	return fmt.Sprintf("**The paper's claims of sections %s on %s:** %s.", strings.Join(sections[notebook], ", "), on, claims.CountsText(xs)),
		claimsFrame(xs, rs), rest, nil
}

// ClaimsTable shows the paper's claims of a notebook's sections checked on
// the local rows of the last Data call: a line of counts, the table (ids
// stay here, out of the prose), and the reasons no figure above stated.
func ClaimsTable(notebook string) {
	head, df, rest, err := claimsParts(notebook)
	if err != nil {
		fail(err)
		return
	}
	Markdown(head)
	Table(df)
	if len(rest) > 0 {
		Markdown("Reasons not stated above:\n\n" + strings.Join(rest, "\n"))
	}
}

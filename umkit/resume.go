package umkit

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/umlab/umlab/results"
)

// ErrNotSameRun is matched by the error Run returns when --resume would
// continue a different run.
var ErrNotSameRun = errors.New("resume refused: the results directory holds a different run")

// checkResume refuses to continue the run in dir unless the run about to
// start is the same: the same columns, kind, GPU and plan. The error lists
// every difference. A directory without rows is fine; one with rows but an
// unreadable meta.json is refused.
func checkResume(dir string, now results.Metadata) error {
	csvPath := filepath.Join(dir, results.CSVName)
	head, rows, err := csvHead(csvPath)
	if err != nil || !rows {
		return err
	}
	metaPath := filepath.Join(dir, results.MetaName)
	old, err := results.ReadMetadata(metaPath)
	if err != nil {
		return fmt.Errorf("%w: %s cannot be read (%v), so the run it holds cannot be identified; nothing was changed. "+
			"Start a new run with another --out", ErrNotSameRun, metaPath, err)
	}
	var diffs []string
	if want := strings.Join(results.Names(results.Columns), ","); head != want {
		diffs = append(diffs, fmt.Sprintf("results.csv columns: on disk %s; this umbench writes %s", head, want))
	}
	if was, is := cmp.Or(old.Kind, "measured"), cmp.Or(now.Kind, "measured"); was != is {
		diffs = append(diffs, fmt.Sprintf("kind: on disk %s, now %s", was, is))
	}
	if old.Device.UUID != now.Device.UUID {
		diffs = append(diffs, fmt.Sprintf("GPU: on disk %s (%s), now %s (%s)", old.Device.UUID, old.Device.Name, now.Device.UUID, now.Device.Name))
	}
	a, err := jsonValue(old.Config)
	if err != nil {
		return err
	}
	b, err := jsonValue(now.Config)
	if err != nil {
		return err
	}
	diffs = append(diffs, diffJSON("plan", a, b)...)
	if len(diffs) == 0 {
		return nil
	}
	hint := ""
	if strings.Contains(strings.Join(diffs, "\n"), ".Rewrite: ") {
		w := results.PlanRewrite(old)
		hint = fmt.Sprintf(" The run on disk rewrote its memory states by %s: resume it with --rewrite %s.", w, w)
	}
	return fmt.Errorf("%w (%s):\n  %s\n"+
		"Resume only with the same command line on the same GPU.%s To measure something else, use a new --out; "+
		"to combine different runs afterwards, use umbench merge --out DIR %s OTHER", ErrNotSameRun, dir, strings.Join(diffs, "\n  "), hint, dir)
}

// csvHead returns the header line of a results.csv and whether rows follow.
func csvHead(path string) (string, bool, error) {
	f, err := results.OpenLimited(path, results.MaxCSVBytes)
	if errors.Is(err, os.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	if !sc.Scan() {
		return "", false, sc.Err()
	}
	head := strings.TrimRight(sc.Text(), "\r")
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) != "" {
			return head, true, nil
		}
	}
	return head, false, nil
}

// jsonValue turns a value into its generic JSON form, so that a plan read
// back from meta.json and a Plan compare alike.
func jsonValue(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	err = json.Unmarshal(b, &out)
	return out, err
}

// impliedBefore holds the plan settings added after runs were already
// recorded, with the value those runs measured with: a run on disk without
// the key resumes when this run has that value.
var impliedBefore = map[string]any{"Rewrite": RewriteHome}

// diffJSON lists the paths where two generic JSON values differ.
func diffJSON(path string, a, b any) []string {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		keys := maps.Clone(am)
		maps.Copy(keys, bm)
		var out []string
		for _, k := range slices.Sorted(maps.Keys(keys)) {
			av, ain := am[k]
			bv, bin := bm[k]
			switch {
			case !ain && reflect.DeepEqual(impliedBefore[k], bv):
			case !ain:
				out = append(out, fmt.Sprintf("%s.%s: not in the run on disk, now %s", path, k, show(bv)))
			case !bin:
				out = append(out, fmt.Sprintf("%s.%s: on disk %s, not in this run", path, k, show(av)))
			default:
				out = append(out, diffJSON(path+"."+k, av, bv)...)
			}
		}
		return out
	}
	if reflect.DeepEqual(a, b) {
		return nil
	}
	return []string{fmt.Sprintf("%s: on disk %s, now %s", path, show(a), show(b))}
}

func show(v any) string {
	b, _ := json.Marshal(v)
	s := string(b)
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// completeFor returns the test SetAsidePartial applies on resume: a
// configuration is finished when all its trials are on disk, each once, or
// it is one waived row; for handoff the unit is one block (repKey). Groups
// the plan does not have are left as they are.
func completeFor(p Plan) (key func(results.Row) string, complete func(rows []results.Row) bool) {
	want := map[string]int{}
	for _, c := range p.Configs() {
		want[c.Group] = max(want[c.Group], c.Rows)
	}
	sweep := 0 // configurations in a handoff sweep
	if h, ok := DefinitionOf[HandoffConfig](p); ok {
		sweep = len(h.Defaults().Reuse)
	}
	key = func(r results.Row) string {
		if r.Group == results.GroupHandoff {
			return repKey(r)
		}
		return results.ConfigKey(r)
	}
	complete = func(rows []results.Row) bool {
		if len(rows) == 1 && rows[0].Waived {
			return true
		}
		n, ok := want[rows[0].Group]
		if !ok {
			return true
		}
		if inSweep(rows[0]) {
			n *= sweep
		}
		seen := map[[3]int64]bool{}
		for _, r := range rows {
			if r.Waived {
				return false
			}
			seen[[3]int64{r.ReusePasses, r.Repetition, r.Trial}] = true
		}
		return len(rows) == n && len(seen) == n
	}
	return key, complete
}

// describeBlock names a block of trials for messages: a configuration, or
// a handoff sweep (every R of one policy and size).
func describeBlock(r results.Row) string {
	if inSweep(r) {
		r.ReusePasses = 0
		return describeRow(r) + " R sweep"
	}
	return describeRow(r)
}

// describeRow names a configuration for messages.
func describeRow(r results.Row) string {
	parts := []string{r.Group, r.Benchmark, r.Mode}
	for _, s := range []string{r.Pattern, r.Policy, r.Phase, r.Direction} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	if r.SizeBytes > 0 {
		parts = append(parts, fmtBytes(r.SizeBytes))
	}
	if r.StrideElements > 1 {
		parts = append(parts, fmt.Sprintf("stride %d", r.StrideElements))
	}
	if r.PageIntervalBytes > 0 {
		parts = append(parts, fmt.Sprintf("interval %d", r.PageIntervalBytes))
	}
	if r.OversubPct > 0 {
		parts = append(parts, fmt.Sprintf("%g%%", r.OversubPct))
	}
	if r.ReusePasses > 0 {
		parts = append(parts, fmt.Sprintf("R=%d", r.ReusePasses))
	}
	return strings.Join(parts, " ")
}

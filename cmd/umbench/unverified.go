package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/umlab/umlab/fleet"
	"github.com/umlab/umlab/results"
)

// sayUnverified prints, when the loaders left trials out as unverified
// (results.ScreenUnverified), one line saying how many and (where it fits)
// of which configurations, after whose ("" or "the baseline: "): on stdout
// before a table, on stderr beside CSV or JSON.
func sayUnverified(c *cobra.Command, table bool, whose string, us ...results.Unverified) {
	u := joinUnverified(us...)
	if u.Trials == 0 {
		return
	}
	w := c.OutOrStdout()
	if !table {
		w = c.ErrOrStderr()
	}
	line := whose + u.String()
	if len([]rune(line)) > results.TableWidth { // String's count, without the configurations named
		count, _, _ := strings.Cut(u.String(), ":")
		line = whose + count + fmt.Sprintf(", in %d configurations (umbench summary flags them)", len(u.Configs))
	}
	fmt.Fprintln(w, line)
}

// joinUnverified counts a configuration of one run that several of us
// hold (the parts of one dataset) once.
func joinUnverified(us ...results.Unverified) results.Unverified {
	var all results.Unverified
	for _, u := range us {
		all.Configs = append(all.Configs, u.Configs...)
	}
	seen := map[string]bool{}
	return unverifiedOf(all, func(r results.Row) bool {
		k := results.ConfigKey(r) + "|" + r.RunID
		first := !seen[k]
		seen[k] = true
		return first
	})
}

// unverifiedOf keeps the configurations of u that keep accepts.
func unverifiedOf(u results.Unverified, keep func(results.Row) bool) results.Unverified {
	var out results.Unverified
	for _, c := range u.Configs {
		if keep(c.Config) {
			out.Configs = append(out.Configs, c)
			out.Trials += c.Unverified
		}
	}
	return out
}

// screenParts returns what the parts' digests and loaders left out as
// unverified, for sayUnverified to join.
func screenParts(parts []fleet.Part) (us []results.Unverified) {
	for i := range parts {
		us = append(us, parts[i].UnverifiedTrials(), parts[i].Meta.Unverified)
	}
	return us
}

// flagFewerTrials, a flag summary adds to results.Summarize's: fewer
// trials than the run planned, where verification does not account for
// the difference.
const flagFewerTrials = "fewer_trials"

// trialCounts says, for the summary's n column and flags, how many trials
// each configuration should have had (meta.json's plan) and how many the
// loader left out as unverified.
type trialCounts struct {
	planned    map[string]int // definition name → trials × repetitions
	unverified results.Unverified
}

func newTrialCounts(meta results.Metadata) trialCounts {
	return trialCounts{planned: plannedTrials(meta.Config), unverified: meta.Unverified}
}

// plannedTrials reads each definition's trials per configuration (times
// its Repetitions) from a run's plan; none where the plan does not say.
func plannedTrials(config any) map[string]int {
	b, err := json.Marshal(config)
	if err != nil {
		return nil
	}
	var plan map[string]map[string]any
	if json.Unmarshal(b, &plan) != nil {
		return nil
	}
	out := map[string]int{}
	for name, def := range plan {
		t, ok := def["Trials"].(float64)
		if !ok || t < 1 {
			continue
		}
		if r, ok := def["Repetitions"].(float64); ok && r >= 1 {
			t *= r
		}
		out[name] = int(t)
	}
	return out
}

// of returns how many trials r's configuration should have had (0 when
// unknown) and how many verification left out.
func (tc trialCounts) of(r results.Row) (want, unverified int) {
	unverified, want = tc.unverified.Of(r)
	// The definition: GROUP.SET where the benchmark starts with SET
	// (pattern.sparse runs sparse_random), else GROUP.
	best := ""
	for name := range tc.planned {
		group, set, dotted := strings.Cut(name, ".")
		switch {
		case group != r.Group:
		case dotted && strings.HasPrefix(r.Benchmark, set) && len(name) > len(best):
			best = name
		case !dotted && best == "":
			best = name
		}
	}
	if best != "" {
		want = max(want, tc.planned[best])
	}
	return want, unverified
}

// flag adds FlagUnverified to each summary whose configuration lost
// trials to verification, and flagFewerTrials to one with fewer trials
// than planned otherwise. Waived configurations measured nothing.
func (tc trialCounts) flag(sum []results.SummaryRow) {
	for i, s := range sum {
		if slices.Contains(s.Flags, results.FlagWaived) {
			continue
		}
		want, unverified := tc.of(s.Config)
		if unverified > 0 && !slices.Contains(s.Flags, results.FlagUnverified) {
			sum[i].Flags = append(sum[i].Flags, results.FlagUnverified)
		}
		if s.N+unverified < want {
			sum[i].Flags = append(sum[i].Flags, flagFewerTrials)
		}
	}
}

// n is the summary's n column: the trials used, and "3/5" where the
// configuration should have had more.
func (tc trialCounts) n(s results.SummaryRow) string {
	if want, _ := tc.of(s.Config); s.N < want && !slices.Contains(s.Flags, results.FlagWaived) {
		return fmt.Sprintf("%d/%d", s.N, want)
	}
	return fmt.Sprint(s.N)
}

// legend explains what flag and n add to results.FlagLegend.
func (tc trialCounts) legend(sum []results.SummaryRow) []string {
	var out []string
	if slices.ContainsFunc(sum, func(s results.SummaryRow) bool { return slices.Contains(s.Flags, flagFewerTrials) }) {
		out = append(out, flagFewerTrials+": fewer trials than the run planned, and not for failed verification "+
			"(a trial lost or the file cut): the interval rests on fewer")
	}
	if slices.ContainsFunc(sum, func(s results.SummaryRow) bool { return strings.Contains(tc.n(s), "/") }) {
		out = append(out, "n a/b: a trials used of the b the configuration should have (unverified trials are left out of every statistic)")
	}
	return out
}

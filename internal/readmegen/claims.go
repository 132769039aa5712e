package main

import (
	"fmt"

	"github.com/umlab/umlab/claims"
	"github.com/umlab/umlab/datasets"
)

// claimsBlock is `umbench reproduce`'s verdict count on the full run with
// its handoff counter passes, and on the quick run.
func claimsBlock() (string, error) {
	line := func(names ...string) (string, error) {
		run, err := claims.Load(names...)
		if err != nil {
			return "", err
		}
		xs, err := claims.Evaluate(run, claims.Options{})
		if err != nil {
			return "", err
		}
		return claims.CountsText(xs), nil
	}
	full, err := line(datasets.CanonicalFull, datasets.CanonicalHandoffCounters)
	if err != nil {
		return "", err
	}
	quick, err := line(datasets.CanonicalQuick)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("    umbench reproduce --dataset %s,%s\n\ngives %s. On the quick run, `umbench reproduce --dataset %s` gives %s: a claim that names a size or group the run lacks (every claim about 1 GiB among them) is not measured, never judged on another size.\n",
		datasets.CanonicalFull, datasets.CanonicalHandoffCounters, full, datasets.CanonicalQuick, quick), nil
}

package claims_test

import (
	"fmt"

	"github.com/umlab/umlab/claims"
)

// Check one claim on the full H200 suite and on the paper's own data: the
// H200's figure carries its 95 % interval, which straddles the paper's
// tolerance (±25 % of 0.308 %), so noise decides.
func Example() {
	for _, name := range []string{"paper-gb200", "h200-2026-12-02-setuploops"} {
		run, err := claims.Load(name)
		if err != nil {
			fmt.Println(err)
			return
		}
		xs, err := claims.EvaluateClaims([]*claims.Claim{claims.ByID("V-C.cold-fraction")}, run, claims.Options{})
		if err != nil {
			fmt.Println(err)
			return
		}
		x := xs[0]
		fmt.Printf("%s: %s (%s), paper %s: %s\n", run.Meta.Platform, x.Measured.WithCI(), x.Measured.Text, x.Paper, x.Verdict)
	}
	// Output:
	// GB200: 0.308 % (14.1 GB/s / 4582 GB/s), paper 0.308 %: reproduces
	// H200: 0.484 % [0.376–0.644] (18.9 GB/s [18.5–19.1] / 3913 GB/s [3901–3922]), paper 0.308 %: inconclusive
}

package claims_test

import (
	"fmt"

	"github.com/umlab/umlab/claims"
)

// Check one claim on the newest H200 run and on the paper's own data.
func Example() {
	for _, name := range []string{"paper-gb200", "h200-2026-11-30-suite"} {
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
		fmt.Printf("%s: %s (%s), paper %s: %s\n", run.Meta.Platform, x.Measured, x.Measured.Text, x.Paper, x.Verdict)
	}
	// Output:
	// GB200: 0.308 % (14.1 GB/s / 4582 GB/s), paper 0.308 %: reproduces
	// H200: 0.554 % (21.6 GB/s / 3904 GB/s), paper 0.308 %: reproduces qualitatively
}

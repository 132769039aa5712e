package main

// skipUnderRace says whether a test that runs every embedded dataset leaves
// this one out: only under the race detector, which keeps one published
// and one measured dataset (the plain go test step runs them all).
func skipUnderRace(name string) bool {
	return raceEnabled && name != "paper-gb200" && name != "h200-2026-11-30-suite"
}

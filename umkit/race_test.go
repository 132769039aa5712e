//go:build race

package umkit_test

// raceEnabled: the race detector is on (go test -race), which makes the
// longest fake-GPU runs too slow for go test's default timeout.
const raceEnabled = true

//go:build race

package main

// raceEnabled: the race detector is on (go test -race). The tests that run
// every command on every embedded dataset are single-goroutine formatting,
// run whole by the plain go test step; under the race detector they take
// a few datasets, so the package stays inside go test's default timeout.
const raceEnabled = true

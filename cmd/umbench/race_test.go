//go:build race

package main

// raceEnabled: the race detector is on (go test -race); the end-to-end
// tests then build the umbench binary they run with it too.
const raceEnabled = true

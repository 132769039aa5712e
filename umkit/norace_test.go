//go:build !race

package umkit_test

const raceEnabled = false

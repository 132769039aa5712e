// Package fleettest makes synthetic results directories for the tests of
// fleet and fleet/node. The numbers are synthetic: they exercise the
// arithmetic of merge and compare and are not measurements of any GPU.
//
// It imports results and nothing else of umlab; only tests import it.
package fleettest

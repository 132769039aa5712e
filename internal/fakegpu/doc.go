// Package fakegpu is a deterministic stand-in for a GPU that implements
// umkit.Device, so the benchmark library's logic, state machine and schema
// are tested without hardware. Buffers hold real data (up to DataLimit
// bytes each; larger ones are symbolic), every operation is applied to it,
// and time is simulated from a simple model of where pages are: GPU-resident
// data streams at HBMGBps, host memory at LinkGBps, and cold managed data
// costs a fault-and-migrate rate. The numbers it produces are made up and
// must never be reported as measurements.
//
// It imports cuda (for its error values) and umkit (the interface it
// implements); only tests, nb's simulated mode and umbench may import it.
package fakegpu

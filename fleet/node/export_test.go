package node

import "github.com/umlab/umlab/results"

// ReadReport reads a workers.json file.
func ReadReport(path string) (Report, error) { return results.ReadJSON[Report](path) }

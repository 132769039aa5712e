package fleet

import "github.com/umlab/umlab/results"

// FromRows makes parts of rows that are already loaded, such as an embedded
// dataset: one part per host and GPU, sorted and labelled as [Load] does
// for a results directory. name stands for the directory in Part.Dir.
func FromRows(name string, rows []results.Row, meta results.Metadata) []Part {
	head := make([]string, len(results.Columns))
	for i, c := range results.Columns {
		head[i] = c.Name
	}
	parts := splitPlain(name, head, rows, meta)
	sortParts(parts)
	labelParts(parts)
	return parts
}

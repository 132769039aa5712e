package datasets

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/umlab/umlab/fleet"
)

// Parts resolves references to the per-GPU parts that fleet merges and
// compares: an embedded dataset's name gives its parts (fleet.FromRows), a
// directory every results directory below it (fleet.Load, leaving out
// skip). Labels that two references share are told apart by the base name
// of the directory or dataset they come from. The warnings are fleet.Load's.
func Parts(refs, skip []string) ([]fleet.Part, []string, error) {
	var parts []fleet.Part
	var dirs []string
	for _, ref := range refs {
		if strings.ContainsAny(ref, `/\`) {
			dirs = append(dirs, ref)
			continue
		}
		rows, meta, err := Load(ref)
		switch {
		case errors.Is(err, ErrUnknown):
			dirs = append(dirs, ref)
		case err != nil:
			return nil, nil, err
		default:
			parts = append(parts, fleet.FromRows(ref, rows, meta)...)
		}
	}
	var warns []string
	if len(dirs) > 0 {
		ps, w, err := fleet.Load(dirs, skip)
		warns = w
		if err != nil {
			return nil, warns, err
		}
		parts = append(ps, parts...)
	}
	seen := map[string]int{}
	for _, p := range parts {
		seen[p.Label]++
	}
	for i := range parts {
		if seen[parts[i].Label] > 1 {
			parts[i].Label = filepath.Base(parts[i].Dir) + ":" + parts[i].Label
		}
	}
	return parts, warns, nil
}

package datasets

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/umlab/umlab/results"
)

// OpenRuns opens a reference as Open does, and also a directory of runs:
// a directory without results.csv whose subdirectories each hold one
// (`umbench run --repeat N`, or runs collected by hand). Their rows are
// put together, each keeping its own run ID, so that a node check can
// measure the spread between them; the metadata is the first run's, with
// a note naming the others. Runs of different GPU models or kinds are
// refused.
func OpenRuns(ref string) (Source, error) {
	if _, err := os.Stat(filepath.Join(ref, results.CSVName)); err == nil || !isDir(ref) {
		return Open(ref)
	}
	dirs, _ := filepath.Glob(filepath.Join(ref, "*", results.CSVName))
	sort.Strings(dirs)
	if len(dirs) == 0 {
		return Source{}, fmt.Errorf("%s: neither a results directory nor a directory of them (no %s in it or one level below)", ref, results.CSVName)
	}
	var out Source
	for i, f := range dirs {
		s, err := Open(filepath.Dir(f))
		if err != nil {
			return Source{}, err
		}
		if i == 0 {
			out = Source{Ref: ref, Name: ref, Meta: s.Meta}
		} else if s.Meta.Platform != out.Meta.Platform || s.Meta.Kind != out.Meta.Kind {
			return Source{}, fmt.Errorf("%s: runs of %s %s and %s %s: a directory of runs holds one GPU model's runs of one kind",
				ref, out.Meta.Kind, out.Meta.Platform, s.Meta.Kind, s.Meta.Platform)
		}
		out.Rows = append(out.Rows, s.Rows...)
	}
	out.Meta.Notes = append(out.Meta.Notes, fmt.Sprintf("%d runs of %s, put together (datasets.OpenRuns)", len(dirs), ref))
	return out, nil
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir() || errors.Is(err, os.ErrPermission)
}

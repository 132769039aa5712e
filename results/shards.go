package results

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ShardsDir is the folder of a sharded results directory (one that umbench
// merge writes) that holds its rows: each part's results.csv in a folder
// of its own, parts/<name>/results.csv, read in the order of their names.
// A merged fleet's rows would pass every limit on one file; sharded,
// each stays a GPU's results directory, readable on its own.
const ShardsDir = "parts"

// Shards returns the results.csv files of a sharded results directory in
// order, and false when dir is not one (it has a results.csv, or no
// shards).
func Shards(dir string) ([]string, bool) {
	if _, err := os.Stat(filepath.Join(dir, CSVName)); !errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	paths, _ := filepath.Glob(filepath.Join(dir, ShardsDir, "*", CSVName))
	return paths, len(paths) > 0
}

// readShards reads the rows of every shard, in order. Together they may
// not pass MaxCSVBytes, the limit of one results.csv: a whole fleet is
// read part by part (umbench summary and compare do), not into memory.
func readShards(dir string, paths []string) ([]Row, error) {
	var total int64
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if total += fi.Size(); total > MaxCSVBytes {
			return nil, fmt.Errorf("results: %s holds more than %d bytes of rows in %d shards: too many to load at once (umbench summary and compare read a merged fleet part by part)",
				dir, int64(MaxCSVBytes), len(paths))
		}
	}
	var rows []Row
	for _, p := range paths {
		f, err := OpenLimited(p, MaxCSVBytes)
		if err != nil {
			return nil, err
		}
		rs, err := ReadCSV(f, p)
		f.Close()
		if err != nil {
			return nil, err
		}
		rows = append(rows, rs...)
	}
	return rows, nil
}

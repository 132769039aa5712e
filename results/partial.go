package results

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Names of the files where a resumed run keeps what it could not use.
const (
	// PartialName holds the rows of configurations found incomplete (fewer
	// or more trials than the run asks for) when a run was resumed: they are
	// measured again whole, and their old rows are kept here, never mixed in.
	PartialName = "results.partial.csv"
	// TornName holds the bytes of a results.csv line cut short by a crash.
	TornName = "results.torn.txt"
)

// SetAsidePartial moves the rows of every configuration that complete
// rejects out of results.csv into results.partial.csv (appended to what an
// earlier resume put there), so that those configurations count as not done
// and are measured again whole. complete gets all rows of one unit (rows
// with the same key: ConfigKey, or a finer key such as one repetition of a
// configuration), in file order. Both files are replaced atomically (the partial file
// first: a crash in between leaves rows in both, never in neither). It
// returns the number of configurations set aside.
func (a *Appender) SetAsidePartial(key func(Row) string, complete func(rows []Row) bool) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	byKey := map[string][]Row{}
	for _, r := range a.rows {
		k := key(r)
		byKey[k] = append(byKey[k], r)
	}
	bad := map[string]bool{}
	for k, rows := range byKey {
		if !complete(rows) {
			bad[k] = true
		}
	}
	if len(bad) == 0 {
		return 0, nil
	}
	var keep, aside []Row
	for _, r := range a.rows {
		if bad[key(r)] {
			aside = append(aside, r)
		} else {
			keep = append(keep, r)
		}
	}
	d, err := openDir(a.dir, true)
	if err != nil {
		return 0, err
	}
	defer d.Close()
	ppath := filepath.Join(a.dir, PartialName)
	var old []Row
	if b, err := readIn(d, PartialName, ppath, MaxCSVBytes); err == nil {
		if old, err = ReadCSV(bytes.NewReader(b), ppath); err != nil {
			return 0, fmt.Errorf("results: cannot add to %s: %w", ppath, err)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return 0, err
	}
	if err := writeCSVFile(ppath, append(old, aside...)); err != nil {
		return 0, err
	}
	if err := writeCSVFile(a.path, keep); err != nil {
		return 0, err
	}
	f, err := openIn(d, CSVName, a.path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return 0, err
	}
	a.f.Close()
	a.f, a.rows = f, keep
	a.done = map[string]bool{}
	for _, r := range keep {
		a.done[ConfigKey(r)] = true
	}
	return len(bad), nil
}

// keepTorn appends the bytes of a line cut short to results.torn.txt.
func keepTorn(dir string, torn []byte) error {
	d, err := openDir(dir, true)
	if err != nil {
		return err
	}
	defer d.Close()
	f, err := openIn(d, TornName, filepath.Join(dir, TornName), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(append([]byte(nil), torn...), '\n')); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Abandon stops the appender for good: later Appends fail and write
// nothing. Run calls it when it gives up on a goroutine still blocked in a
// hung device, so that nothing that goroutine does afterwards reaches the
// file.
func (a *Appender) Abandon() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.abandoned = true
}

package nb

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
)

// Options choose what a notebook's data holds. The zero value is what
// [Data] and [Load] use: every group, umkit's quick sizes and iteration
// counts, the mode from the environment ([Mode]). A notebook sets them in a
// cell:
//
//	rows := nb.Options{Groups: []string{"managed"}, Sizes: []int64{256 << 20, 1 << 30}, Trials: umkit.N(10)}.Data()
//
// Sizes, Full, Trials and Warmups apply to live and simulated measurements
// (bundled data is what it is); each distinct choice, and each GPU, has its
// own cache directory.
type Options struct {
	Groups  []string    // benchmark groups (umkit.Groups); none: all
	Sizes   []int64     // the size sweeps of the groups that have one; nil: quick sizes (or the full sweeps with Full)
	Full    bool        // the paper's full sweeps and counts instead of umkit's quick ones
	Trials  umkit.Count // trials per configuration; unset: quick's (or the paper's with Full)
	Warmups umkit.Count // warm-ups; unset: quick's (or the paper's with Full); umkit.N(0) runs none
	// Mode is live, bundled, simulated (or fake), or "" for the
	// environment's (UMLAB_NOTEBOOK_MODE, else live when a GPU is present).
	Mode string

	device umkit.Device // tests: the device of a live or simulated run
}

// KindSimulated is the Source kind of rows made by the simulated GPU.
const KindSimulated = "simulated"

// Data is Load that panics on error, failing the notebook cell.
func (o Options) Data() []results.Row {
	rows, err := o.Load()
	if err != nil {
		failCell(err)
	}
	return rows
}

// check says what is wrong with o, naming what is allowed.
func (o Options) check() error {
	for _, g := range o.Groups {
		if !slices.Contains(umkit.Groups, g) {
			return fmt.Errorf("nb: unknown group %q: groups are %s", g, strings.Join(umkit.Groups, ", "))
		}
	}
	for _, s := range o.Sizes {
		if s < 16 || s%16 != 0 {
			return fmt.Errorf("nb: size %d bytes: allowed multiples of 16 bytes, e.g. 256 << 20", s)
		}
	}
	if o.Trials.IsSet() && o.Trials.Int() < 1 {
		return fmt.Errorf("nb: trials %d: allowed 1 or more", o.Trials.Int())
	}
	if o.Warmups.Int() < 0 {
		return fmt.Errorf("nb: warm-ups %d: allowed 0 or more", o.Warmups.Int())
	}
	return nil
}

// mode resolves o.Mode against the environment.
func (o Options) mode() (mode, why string, err error) {
	m := strings.ToLower(strings.TrimSpace(o.Mode))
	if m == "" {
		return Mode()
	}
	if mode, why, ok := parseMode(m, "Options.Mode"); ok {
		return mode, why, nil
	}
	return "", "", fmt.Errorf("nb: Options.Mode %q: want live, bundled, simulated (or fake), or empty for the environment's", o.Mode)
}

// choices writes o's measurement choices as the name of its cache
// directory (key: what a measurement depends on besides the GPU and the
// group, "quick-sizes-1MiB-trials-2") and as Go for its runs' command
// (desc: "{Sizes: [1048576], Trials: 2}").
func (o Options) choices() (key, desc string) {
	k, d := []string{"quick"}, []string{}
	if o.Full {
		k[0] = "full"
		d = append(d, "Full: true")
	}
	if o.Sizes != nil {
		var names []string
		for _, b := range o.Sizes {
			names = append(names, sizeName(b))
		}
		k = append(k, "sizes", strings.Join(names, "_"))
		d = append(d, fmt.Sprintf("Sizes: %v", o.Sizes))
	}
	for _, c := range []struct {
		name  string
		count umkit.Count
	}{{"Trials", o.Trials}, {"Warmups", o.Warmups}} {
		if c.count.IsSet() {
			k = append(k, strings.ToLower(c.name), fmt.Sprint(c.count.Int()))
			d = append(d, fmt.Sprintf("%s: %d", c.name, c.count.Int()))
		}
	}
	return strings.Join(k, "-"), "{" + strings.Join(d, ", ") + "}"
}

// sizeName writes a size for a directory name: 256MiB, 1GiB, 4096B.
func sizeName(b int64) string {
	for _, u := range []struct {
		n string
		v int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if b >= u.v && b%u.v == 0 {
			return fmt.Sprintf("%d%s", b/u.v, u.n)
		}
	}
	return fmt.Sprintf("%dB", b)
}

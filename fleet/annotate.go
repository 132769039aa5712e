package fleet

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/umlab/umlab/results"
)

// Fleet modes: how the GPUs of one node were measured.
const (
	Isolated   = "isolated"   // one worker at a time: no GPU shares the host with another measurement
	Concurrent = "concurrent" // every GPU at once: figures include contention for host memory, PCIe, CPUs
)

// Environment variables through which a node-level run (or a Slurm task)
// tells an `umbench run` worker what it is part of. Without them umbench
// run is a plain single-GPU run.
const (
	EnvMode  = "UMBENCH_FLEET_MODE"  // isolated or concurrent
	EnvPeers = "UMBENCH_FLEET_PEERS" // how many GPUs of the node the run covers (concurrent: measured at once)
	EnvGPUs  = "UMBENCH_FLEET_GPUS"  // their ordinals, e.g. 0,1,2,3 (informative)
	EnvCPUs  = "UMBENCH_FLEET_CPUS"  // the CPUs the worker must run on, e.g. 0-15
)

// Annotation says how a worker's GPU was measured within its node.
type Annotation struct {
	Mode  string // Isolated or Concurrent
	Peers int    // how many GPUs of the node the run covers
	GPUs  string // their ordinals, e.g. "0,1,2,3" (may be empty)
	CPUs  string // the CPUs the worker was pinned to (may be empty)
}

// Env returns the environment that passes the annotation to a worker.
func (a Annotation) Env() []string {
	env := []string{EnvMode + "=" + a.Mode, EnvPeers + "=" + strconv.Itoa(a.Peers)}
	if a.GPUs != "" {
		env = append(env, EnvGPUs+"="+a.GPUs)
	}
	if a.CPUs != "" {
		env = append(env, EnvCPUs+"="+a.CPUs)
	}
	return env
}

// AnnotationFromEnv reads the annotation a supervisor or a Slurm task
// passed; ok is false when this process is not a fleet worker (EnvMode
// unset). An unknown mode is an error.
func AnnotationFromEnv() (a Annotation, ok bool, err error) {
	a.Mode = os.Getenv(EnvMode)
	if a.Mode == "" {
		return a, false, nil
	}
	if a.Mode != Isolated && a.Mode != Concurrent {
		return a, false, fmt.Errorf("%s=%q: want %s or %s", EnvMode, a.Mode, Isolated, Concurrent)
	}
	a.Peers = 1
	if s := os.Getenv(EnvPeers); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return a, false, fmt.Errorf("%s=%q: want a positive number of GPUs", EnvPeers, s)
		}
		a.Peers = n
	}
	a.GPUs, a.CPUs = os.Getenv(EnvGPUs), os.Getenv(EnvCPUs)
	if a.CPUs != "" {
		if _, err := ParseCPUs(a.CPUs); err != nil {
			return a, false, fmt.Errorf("%s: %w", EnvCPUs, err)
		}
	}
	return a, true, nil
}

// RowNote is the token added to the note column of every row:
// "fleet=isolated" or "fleet=concurrent:N" (N GPUs measured at once).
func (a Annotation) RowNote() string {
	if a.Mode == Concurrent {
		return fmt.Sprintf("fleet=%s:%d", a.Mode, a.Peers)
	}
	return "fleet=" + a.Mode
}

// metaPrefix starts the metadata note Annotate writes.
const metaPrefix = "fleet: "

// MetaNote is the sentence added to the run's metadata notes.
func (a Annotation) MetaNote() string {
	var b strings.Builder
	b.WriteString(metaPrefix)
	gpus := ""
	if a.GPUs != "" {
		gpus = " (" + a.GPUs + ")"
	}
	if a.Mode == Concurrent {
		fmt.Fprintf(&b, "concurrent: measured at the same time as the other GPUs of its node, %d in all%s; the figures include contention for host memory, PCIe and CPU cores", a.Peers, gpus)
	} else {
		fmt.Fprintf(&b, "isolated: one of %d GPUs of its node%s, measured one at a time", a.Peers, gpus)
	}
	if a.CPUs != "" {
		fmt.Fprintf(&b, "; worker pinned to CPUs %s", a.CPUs)
	}
	return b.String()
}

// withToken replaces any fleet token of a note by tok.
func withToken(note, tok string) string {
	var keep []string
	for _, f := range strings.Split(note, ";") {
		f = strings.TrimSpace(f)
		if f != "" && !strings.HasPrefix(f, "fleet=") {
			keep = append(keep, f)
		}
	}
	return strings.Join(append(keep, tok), "; ")
}

// Annotate adds RowNote to the note column of every row of a worker's
// results.csv and MetaNote to the notes of its meta.json, replacing an
// earlier annotation. A directory without results is left alone; a last
// line cut short by a killed worker is dropped, as --resume would. It
// works under the directory's lock: one another process holds is left
// alone, with an error wrapping results.ErrLocked.
func Annotate(dir string, a Annotation) error {
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	lock, err := results.LockDir(dir, "umbench fleet annotate")
	if err != nil {
		return err
	}
	defer lock.Unlock()
	csvPath := filepath.Join(dir, results.CSVName)
	if _, err := os.Stat(csvPath); err == nil {
		if err := annotateCSV(csvPath, a.RowNote()); err != nil {
			return err
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	metaPath := filepath.Join(dir, results.MetaName)
	m, err := results.ReadMetadata(metaPath)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	m.Notes = slices.DeleteFunc(m.Notes, func(n string) bool { return strings.HasPrefix(n, metaPrefix) })
	m.Notes = append(m.Notes, a.MetaNote())
	return results.WriteMetadata(metaPath, m)
}

func annotateCSV(path, tok string) error {
	b, err := results.ReadFileLimited(path, results.MaxCSVBytes)
	if err != nil {
		return err
	}
	if len(b) == 0 {
		return nil
	}
	if i := bytes.LastIndexByte(b, '\n'); i != len(b)-1 {
		b = b[:i+1]
	}
	rows, err := results.ReadCSV(bytes.NewReader(b), path)
	if err != nil {
		return err
	}
	for i := range rows {
		rows[i].Note = withToken(rows[i].Note, tok)
	}
	var buf bytes.Buffer
	if err := results.WriteCSV(&buf, rows); err != nil {
		return err
	}
	return results.WriteFileAtomic(path, buf.Bytes(), 0o644)
}

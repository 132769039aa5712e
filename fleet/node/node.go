package node

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/umlab/umlab/fleet"
	"github.com/umlab/umlab/results"
)

// ReportName is the file, in each node's directory, that records every
// worker's outcome.
const ReportName = "workers.json"

// Report is a node-level run: what was run and how each worker ended.
type Report struct {
	Host       string    `json:"host"`
	Mode       string    `json:"mode"` // isolated or concurrent
	Command    string    `json:"command,omitempty"`
	Timeout    string    `json:"worker_timeout,omitempty"`
	Stall      string    `json:"worker_stall,omitempty"`
	Start      time.Time `json:"start"`
	End        time.Time `json:"end,omitzero"`
	Warnings   []string  `json:"warnings,omitempty"`
	Workers    []Outcome `json:"workers"`
	Failed     int       `json:"failed"`
	Successful int       `json:"successful"`
}

// WriteReport writes a report as indented JSON, atomically.
func WriteReport(path string, r Report) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return results.WriteFileAtomic(path, append(b, '\n'), 0o644)
}

// NodeOptions configure RunNode.
type NodeOptions struct {
	Executable string   // the umbench binary (os.Executable())
	Args       []string // worker arguments before --gpu and --out, e.g. run --quick=true
	Root       string   // results root: worker i writes Root/<host>/gpu<i>
	Host       string   // default: os.Hostname()
	GPUs       []GPU
	Concurrent bool
	Timeout    time.Duration // per worker (0: none)
	Stall      time.Duration // per worker, without output (0: none)
	Grace      time.Duration // SIGTERM → SIGKILL (default 10 s)
	Log        io.Writer     // live, prefixed worker stderr (nil: none)
	Command    string        // recorded in workers.json
	Warnings   []string      // recorded in workers.json (e.g. from Discover)
}

// NodeDir is the directory of one node's results below a root.
func NodeDir(root, host string) string { return filepath.Join(root, SafeName(host)) }

// WorkerDir is the results directory of GPU ordinal on host.
func WorkerDir(root, host string, ordinal int) string {
	return filepath.Join(NodeDir(root, host), "gpu"+strconv.Itoa(ordinal))
}

// SafeName makes a host name usable as one path element.
func SafeName(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r < ' ' {
			return '_'
		}
		return r
	}, s)
	if s == "" || s == "." || s == ".." {
		return "unknown-host"
	}
	return s
}

// FailedError is returned by RunNode when some workers did not succeed.
type FailedError struct {
	Failed []Outcome
	Total  int
	Report string // path of workers.json
}

func (e *FailedError) Error() string {
	var parts []string
	for _, o := range e.Failed {
		parts = append(parts, fmt.Sprintf("GPU %d %s", o.GPU, o.State))
	}
	return fmt.Sprintf("%d of %d workers did not finish (%s); see %s", len(e.Failed), e.Total, strings.Join(parts, ", "), e.Report)
}

// RunNode measures every GPU of o.GPUs with one worker process each
// (o.Executable o.Args --gpu N --out Root/<host>/gpuN), pinned to the CPUs
// nearest its GPU (AssignCPUs), one at a time or all at once, as its
// environment says (EnvMode and the others). Each worker's results are
// annotated with the mode when it ends (Annotate), unless it was refused
// (Outcome.Refused). Root/<host> is locked for the whole run (a second
// supervisor is refused with results.ErrLocked), directories below it are
// made without following a symbolic link, and Root/<host>/workers.json is
// kept current. The error is a *FailedError when any worker failed, timed
// out, stalled or was interrupted; the others finish.
func RunNode(ctx context.Context, o NodeOptions) (Report, error) {
	if o.Host == "" {
		o.Host, _ = os.Hostname()
	}
	mode := fleet.Isolated
	if o.Concurrent {
		mode = fleet.Concurrent
	}
	rep := Report{Host: o.Host, Mode: mode, Command: o.Command, Start: time.Now().UTC(), Warnings: o.Warnings}
	if o.Timeout > 0 {
		rep.Timeout = o.Timeout.String()
	}
	if o.Stall > 0 {
		rep.Stall = o.Stall.String()
	}
	if len(o.GPUs) == 0 {
		return rep, fmt.Errorf("fleet: no GPUs to run on")
	}
	nodeDir := NodeDir(o.Root, o.Host)
	// One supervisor per node directory: a second is refused before it
	// starts a worker or writes workers.json.
	lock, err := results.LockDir(nodeDir, o.Command)
	if err != nil {
		return rep, err
	}
	defer lock.Unlock()
	workers, notes := nodeWorkers(o, mode)
	l := reportLog{rep: &rep, path: filepath.Join(nodeDir, ReportName), annotErr: make([]string, len(workers))}
	annotated := make([]bool, len(workers))
	outs := Supervise(ctx, workers, SuperviseOptions{
		Concurrent: o.Concurrent, Timeout: o.Timeout, Stall: o.Stall, Grace: o.Grace, Log: o.Log,
		Update: func(outs []Outcome) {
			for i, oc := range outs {
				if !annotated[i] && oc.State != StatePending && oc.State != StateRunning && oc.State != StateNotStarted {
					annotated[i] = true
					if oc.Refused {
						continue // it measured nothing: its directory is not this run's to label
					}
					if err := fleet.Annotate(workers[i].Out, notes[i]); err != nil {
						l.annotErr[i] = err.Error()
					}
				}
			}
			l.save(outs)
		},
	})
	rep.End = time.Now().UTC()
	rep.Failed = len(slices.DeleteFunc(slices.Clone(outs), Outcome.OK))
	rep.Successful = len(outs) - rep.Failed
	l.save(outs)
	failed := slices.DeleteFunc(slices.Clone(rep.Workers), Outcome.OK)
	if l.err != nil {
		return rep, fmt.Errorf("fleet: writing %s: %w", l.path, l.err)
	}
	if len(failed) > 0 {
		return rep, &FailedError{Failed: failed, Total: len(outs), Report: l.path}
	}
	return rep, nil
}

// nodeWorkers makes one worker per GPU of o, with the annotation of its
// results.
func nodeWorkers(o NodeOptions, mode string) ([]Worker, []fleet.Annotation) {
	var ords []string
	for _, g := range o.GPUs {
		ords = append(ords, strconv.Itoa(g.Ordinal))
	}
	cpus := AssignCPUs(o.GPUs, o.Concurrent)
	workers := make([]Worker, len(o.GPUs))
	notes := make([]fleet.Annotation, len(o.GPUs))
	for i, g := range o.GPUs {
		dir := WorkerDir(o.Root, o.Host, g.Ordinal)
		args := append(append([]string(nil), o.Args...), "--gpu", strconv.Itoa(g.Ordinal), "--out", dir)
		a := fleet.Annotation{Mode: mode, Peers: len(o.GPUs), GPUs: strings.Join(ords, ","), CPUs: fleet.FormatCPUs(cpus[i])}
		workers[i] = Worker{GPU: g.Ordinal, UUID: g.UUID, Path: o.Executable, Args: args, Out: dir, CPUs: cpus[i], Env: a.Env()}
		notes[i] = a
	}
	return workers, notes
}

// reportLog keeps workers.json current as workers start and end.
type reportLog struct {
	mu       sync.Mutex
	rep      *Report
	path     string
	annotErr []string // of each worker, annotating its results
	err      error    // the first error writing the report
}

func (l *reportLog) save(outs []Outcome) {
	l.mu.Lock()
	defer l.mu.Unlock()
	outs = append([]Outcome(nil), outs...)
	for i := range outs {
		if l.annotErr[i] != "" {
			outs[i].Error = strings.TrimPrefix(outs[i].Error+"; annotating its results: "+l.annotErr[i], "; ")
		}
	}
	l.rep.Workers = outs
	if err := WriteReport(l.path, *l.rep); err != nil && l.err == nil {
		l.err = err
	}
}

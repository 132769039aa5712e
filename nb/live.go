package nb

import (
	"context"
	"fmt"
	"html"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/janpfeifer/gonb/gonbui"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
	"github.com/umlab/umlab/umkit/simgpu"
)

// CacheDir returns the root of the live-results cache: $UMLAB_CACHE_DIR,
// or umlab/notebooks under the user's cache directory (~/.cache).
func CacheDir() (string, error) {
	if d := os.Getenv(EnvCacheDir); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("nb: no cache directory (set %s): %w", EnvCacheDir, err)
	}
	return filepath.Join(d, "umlab", "notebooks"), nil
}

// sessionID names the GoNB kernel session: its temporary directory is
// unique per kernel and shared by its cells.
func sessionID() string { return os.Getenv("GONB_TMP_DIR") }

const sessionFile = ".umlab-session"

// refresh clears dir when UMLAB_REFRESH=1 asks to measure again and this
// kernel session has not done so yet. It reads and writes the session
// mark as results does a run's files: a FIFO or device in its place is not
// read (which would block), and the new mark replaces only a regular file.
func refresh(dir string) error {
	if v := os.Getenv(EnvRefresh); v == "" || v == "0" {
		return nil
	}
	id := sessionID()
	if id != "" {
		if b, err := results.ReadFileLimited(filepath.Join(dir, sessionFile), 4<<10); err == nil && string(b) == id {
			return nil // already measured again in this session
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := results.MakeDir(dir); err != nil {
		return err
	}
	return results.WriteFileAtomic(filepath.Join(dir, sessionFile), []byte(id), 0o644)
}

// loadLive measures (or reads back from the cache) each group of o on this
// machine's GPU 0, or with simulated on the simulated GPU of the tests
// (umkit/simgpu), and returns their rows. Results are cached under
// CacheDir()/<kind>/<GPU UUID>/<options>/<group>: a change of GPU or of
// options measures afresh, and the same call reads back.
func loadLive(o Options, simulated bool) ([]results.Row, Source, results.Metadata, error) {
	sub, kind := "gpu", Live
	dev := o.device
	if simulated {
		sub, kind = "simulated", KindSimulated
		if dev == nil {
			dev = simgpu.New()
		}
	} else if dev == nil {
		if ok, reason := umkit.Available(); !ok {
			return nil, Source{}, results.Metadata{}, fmt.Errorf("%w: %s", errNoLive, reason)
		}
		d, err := umkit.Open(0)
		if err != nil {
			return nil, Source{}, results.Metadata{}, fmt.Errorf("%w: %v", errNoLive, err)
		}
		defer d.Close()
		dev = d
	}
	groups := o.Groups
	if len(groups) == 0 {
		groups = umkit.Groups
	}
	root, err := CacheDir()
	if err != nil {
		return nil, Source{}, results.Metadata{}, err
	}
	key, desc := o.choices()
	root = filepath.Join(root, sub, cacheName(dev.Info().UUID), key)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var all []results.Row
	var meta results.Metadata
	src := Source{Name: root, Kind: kind}
	for _, g := range groups {
		dir := filepath.Join(root, g)
		if err := refresh(dir); err != nil {
			return nil, Source{}, results.Metadata{}, err
		}
		p := newProgress(g)
		uo := umkit.Options{Groups: []string{g}, Quick: !o.Full, Sizes: o.Sizes, Trials: o.Trials, Warmups: o.Warmups,
			Out: dir, Resume: true, Command: "notebook (nb.Options" + desc + ".Data)", Device: dev, Progress: p.update}
		if simulated {
			uo.Warn = func(string) {}
		}
		m, err := umkit.Run(ctx, uo)
		p.finish(err)
		if err != nil {
			return nil, Source{}, results.Metadata{}, fmt.Errorf("nb: live run of %s (results kept in %s): %w", g, dir, err)
		}
		rows, rm, err := datasets.LoadAny(dir)
		if err != nil {
			return nil, Source{}, results.Metadata{}, err
		}
		if m.Platform == "" {
			m = rm
		}
		if src.Platform == "" {
			meta = m
			src.Platform, src.Detail = m.Platform, describeRun(m)
			if src.Platform == "" && len(rows) > 0 {
				src.Platform = rows[0].Platform
			}
			if simulated {
				src.Detail = "simulated GPU, made-up numbers: " + src.Detail
			}
		}
		all = append(all, rows...)
	}
	return all, src, meta, nil
}

// cacheName makes a GPU UUID safe as a directory name.
func cacheName(uuid string) string {
	if uuid == "" {
		return "unknown-gpu"
	}
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '.' || r == '_' || ('0' <= r && r <= '9') || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') {
			return r
		}
		return '_'
	}, uuid)
}

// progress shows a live run's progress in the cell, updated in place at
// most every half second, and its outcome when it ends.
type progress struct {
	mu    sync.Mutex
	id    string
	group string
	start time.Time
	last  time.Time
	shown bool
}

func newProgress(group string) *progress {
	return &progress{id: "umlab-progress-" + gonbui.UniqueId(), group: group, start: time.Now()}
}

func (p *progress) update(pr umkit.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.shown && strings.HasSuffix(pr.Config, "(done earlier)") {
		return // umkit's resume skipping a cached configuration: nothing to show yet
	}
	if time.Since(p.last) < 500*time.Millisecond && pr.Done < pr.Total {
		return
	}
	p.last, p.shown = time.Now(), true
	pct := 0
	if pr.Total > 0 {
		pct = 100 * pr.Done / pr.Total
	}
	gonbui.UpdateHtml(p.id, fmt.Sprintf(
		`<div>measuring <b>%s</b>: %d of %d configurations <progress value="%d" max="100"></progress> %s elapsed, about %s left<br><small>%s</small></div>`,
		html.EscapeString(p.group), pr.Done, pr.Total, pct,
		pr.Elapsed.Round(time.Second), pr.ETA.Round(time.Second), html.EscapeString(pr.Config)))
}

func (p *progress) finish(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.shown {
		return // nothing was measured: the cache had it all
	}
	msg := fmt.Sprintf("measured <b>%s</b> in %s", html.EscapeString(p.group), time.Since(p.start).Round(time.Second))
	if err != nil {
		msg = fmt.Sprintf("measuring <b>%s</b> stopped after %s: %s", html.EscapeString(p.group),
			time.Since(p.start).Round(time.Second), html.EscapeString(strings.TrimSpace(err.Error())))
	}
	gonbui.UpdateHtml(p.id, "<div>"+msg+"</div>")
	gonbui.Sync()
}

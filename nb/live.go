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
)

// LiveOptions is what Data asks of a live run; it mirrors the fields of
// umkit.Options that the notebooks use.
type LiveOptions struct {
	Groups   []string // benchmark groups to measure
	Quick    bool     // umkit's small, quick sizes
	Out      string   // results directory
	Resume   bool     // keep the configurations already in Out
	Progress func(LiveProgress)
}

// LiveProgress mirrors umkit.Progress.
type LiveProgress struct {
	Done, Total  int
	Config       string
	Elapsed, ETA time.Duration
}

// The live path, set to umkit.Available and umkit.Run by live_umkit.go;
// tests replace them with fakes.
var (
	liveAvailable = func() (bool, string) { return false, "no live runner" }
	liveRun       func(ctx context.Context, o LiveOptions) (results.Metadata, error)
	fakeRun       func(ctx context.Context, o LiveOptions) (results.Metadata, error)
)

// allGroups is every benchmark group, measured one at a time so that each
// has its own cache directory, shared by the notebooks that show it.
var allGroups = []string{"hbm", "host", "transfer", "managed", "pattern", "oversub", "handoff"}

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
// kernel session has not done so yet.
func refresh(dir string) error {
	if v := os.Getenv(EnvRefresh); v == "" || v == "0" {
		return nil
	}
	id := sessionID()
	if id != "" {
		if b, err := os.ReadFile(filepath.Join(dir, sessionFile)); err == nil && string(b) == id {
			return nil // already measured again in this session
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, sessionFile), []byte(id), 0o644)
}

// loadLive measures (or reads back from the cache) each group and returns
// their rows; with fake, on the simulated GPU, cached apart.
func loadLive(groups []string, fake bool) ([]results.Row, Source, error) {
	run, kind := liveRun, Live
	if fake {
		run, kind = fakeRun, Fake
	} else if ok, reason := liveAvailable(); !ok || liveRun == nil {
		return nil, Source{}, fmt.Errorf("%w: %s", errNoLive, reason)
	}
	if run == nil {
		return nil, Source{}, fmt.Errorf("%w: no runner for mode %s", errNoLive, kind)
	}
	if len(groups) == 0 {
		groups = allGroups
	}
	root, err := CacheDir()
	if err != nil {
		return nil, Source{}, err
	}
	if fake {
		root = filepath.Join(root, "fake")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var all []results.Row
	src := Source{Name: root, Kind: kind}
	for _, g := range groups {
		dir := filepath.Join(root, g)
		if err := refresh(dir); err != nil {
			return nil, Source{}, err
		}
		p := newProgress(g)
		m, err := run(ctx, LiveOptions{Groups: []string{g}, Quick: true, Out: dir, Resume: true, Progress: p.update})
		p.finish(err)
		if err != nil {
			return nil, Source{}, fmt.Errorf("nb: live run of %s (results kept in %s): %w", g, dir, err)
		}
		rows, rm, err := datasets.LoadAny(dir)
		if err != nil {
			return nil, Source{}, err
		}
		if m.Platform == "" {
			m = rm
		}
		if src.Platform == "" {
			src.Platform, src.Detail = m.Platform, describeRun(m)
			if src.Platform == "" && len(rows) > 0 {
				src.Platform = rows[0].Platform
			}
		}
		all = append(all, rows...)
	}
	return all, src, nil
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
	done  int
}

func newProgress(group string) *progress {
	return &progress{id: "umlab-progress-" + gonbui.UniqueId(), group: group, start: time.Now()}
}

func (p *progress) update(pr LiveProgress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done = pr.Done
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

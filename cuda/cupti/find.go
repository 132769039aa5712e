package cupti

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

// EnvLibrary is the environment variable that names the libcupti to use,
// e.g. UMLAB_CUPTI=/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13. When
// set, nothing else is searched; it must be an absolute path. No library is
// ever loaded from the working directory or any relative path: the search
// is the dynamic loader's (by soname), the CUDA toolkit's absolute
// locations and pip wheels in absolute site directories.
const EnvLibrary = "UMLAB_CUPTI"

// Library is the libcupti in use.
type Library struct {
	Path        string // the file (or soname) dlopen was given
	APIVersion  uint32 // cuptiGetVersion
	CUDAVersion int    // the toolkit release of APIVersion, 1000*major + 10*minor (0: unknown)
	Layout      Layout // how its Unified Memory counter records are laid out
	// Found says how it was found: "UMLAB_CUPTI", "dynamic loader",
	// "CUDA toolkit directory" or "pip wheel".
	Found string
	table *libTable
}

func (l Library) String() string {
	return fmt.Sprintf("%s (found by %s; CUPTI API %d, %s; records %s)", l.Path, l.Found, l.APIVersion, describeAPI(l.APIVersion), l.Layout)
}

// search is where to look for libcupti, in order of preference.
type search struct {
	env     string             // UMLAB_CUPTI; when set, the only candidate
	majors  []int              // CUPTI majors usable with the driver, preferred first
	sonames func(int) []string // names for the dynamic loader's own search
	roots   func() []string    // toolkit, HPC SDK and conda directories holding libcupti
	sites   func() []string    // Python site-packages directories (pip wheels)
	driver  int                // CUDA version the driver supports (0: unknown)
}

func defaultSearch(driver int) search {
	s := search{env: os.Getenv(EnvLibrary), driver: driver, majors: []int{13, 12}, roots: libraryDirs, sites: pythonSiteDirs}
	if driver > 0 && driver < 13000 {
		s.majors = []int{12} // CUPTI 13 needs a CUDA 13 (R580) driver
	}
	s.sonames = func(major int) []string { return []string{fmt.Sprintf("libcupti.so.%d", major)} }
	return s
}

// libraryDirs lists the CUDA toolkit layouts (extras/CUPTI/lib64, lib64,
// targets/<arch>/lib) under $CUDA_HOME, $CUDA_PATH, /usr/local/cuda*,
// /opt/cuda and the NVIDIA HPC SDK, then $CONDA_PREFIX/lib.
func libraryDirs() []string {
	target := map[string]string{"amd64": "x86_64-linux", "arm64": "sbsa-linux"}[runtime.GOARCH]
	hpc := map[string]string{"amd64": "Linux_x86_64", "arm64": "Linux_aarch64"}[runtime.GOARCH]
	var roots []string
	for _, e := range []string{"CUDA_HOME", "CUDA_PATH"} {
		if v := os.Getenv(e); v != "" {
			roots = append(roots, v)
		}
	}
	roots = append(roots, "/usr/local/cuda")
	roots = append(roots, globNewestFirst("/usr/local/cuda-*")...)
	roots = append(roots, "/opt/cuda")
	roots = append(roots, globNewestFirst("/opt/nvidia/hpc_sdk/"+hpc+"/*/cuda/*")...)
	roots = append(roots, globNewestFirst("/opt/nvidia/hpc_sdk/"+hpc+"/*/cuda")...)
	var dirs []string
	for _, r := range roots {
		dirs = append(dirs, filepath.Join(r, "extras/CUPTI/lib64"), filepath.Join(r, "lib64"))
		if target != "" {
			dirs = append(dirs, filepath.Join(r, "targets", target, "lib"))
		}
	}
	if c := os.Getenv("CONDA_PREFIX"); c != "" {
		dirs = append(dirs, filepath.Join(c, "lib"))
	}
	return dirs
}

// pythonSiteDirs lists site-packages directories: the absolute entries of
// PYTHONPATH, python3's own sys.path and site directories (which include an
// active virtual environment's), then the usual system, user, conda and
// venv locations. python3 runs isolated (-I): it ignores PYTHONPATH, whose
// empty or relative entries ("", ".") it would otherwise turn into the
// working directory, and never adds the working directory itself.
func pythonSiteDirs() []string {
	var dirs []string
	for _, p := range filepath.SplitList(os.Getenv("PYTHONPATH")) {
		if filepath.IsAbs(p) {
			dirs = append(dirs, p)
		}
	}
	if py, err := exec.LookPath("python3"); err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, py, "-I", "-c",
			"import sys, site\n"+
				"p = list(sys.path)\n"+
				"try:\n    p += site.getsitepackages() + [site.getusersitepackages()]\n"+
				"except Exception:\n    pass\n"+
				"print('\\n'.join(x for x in p if x))").Output()
		if err == nil {
			dirs = append(dirs, strings.Split(strings.TrimSpace(string(out)), "\n")...)
		}
	}
	home, _ := os.UserHomeDir()
	var bases []string
	for _, e := range []string{"VIRTUAL_ENV", "CONDA_PREFIX"} {
		if v := os.Getenv(e); v != "" {
			bases = append(bases, v)
		}
	}
	bases = append(bases, filepath.Join(home, ".venv"), filepath.Join(home, ".local"), "/opt/venv", "/opt/conda", "/usr/local", "/usr")
	for _, b := range bases {
		dirs = append(dirs, globNewestFirst(filepath.Join(b, "lib/python3*/site-packages"))...)
		dirs = append(dirs, globNewestFirst(filepath.Join(b, "lib/python3*/dist-packages"))...)
	}
	dirs = append(dirs, "/usr/lib/python3/dist-packages")
	return dirs
}

// untrusted says why a library file found by searching must not be
// loaded ("" when it may): another user could have put it there. That is
// so when it, or a directory above it, can be written by every user, or
// when it sits in a directory every user may add to (such as /tmp, sticky)
// and belongs to neither root nor this user.
func untrusted(path string) string {
	child := ""
	var childOwner uint32
	for p := path; ; p = filepath.Dir(p) {
		var st syscall.Stat_t
		if err := syscall.Stat(p, &st); err != nil {
			return "cannot check " + p + ": " + err.Error()
		}
		perm, dir, sticky := st.Mode&0o777, st.Mode&syscall.S_IFMT == syscall.S_IFDIR, st.Mode&syscall.S_ISVTX != 0
		if perm&0o002 != 0 && !(dir && sticky) {
			return fmt.Sprintf("not loaded: %s is writable by every user (%#o), so anyone could have put a library there", p, perm)
		}
		if perm&0o002 != 0 && child != "" && childOwner != 0 && int(childOwner) != os.Geteuid() {
			return fmt.Sprintf("not loaded: %s, in %s where every user may add files, belongs to user %d", child, p, childOwner)
		}
		if p == filepath.Dir(p) {
			return ""
		}
		child, childOwner = p, st.Uid
	}
}

// relativeLoaderEntry returns the first empty or relative entry of
// LD_LIBRARY_PATH (the dynamic loader reads those from the working
// directory) that holds name, or "" when there is none.
func relativeLoaderEntry(name string) (string, bool) {
	for _, d := range strings.Split(os.Getenv("LD_LIBRARY_PATH"), ":") {
		if filepath.IsAbs(d) {
			continue
		}
		if _, err := os.Stat(filepath.Join(d, name)); err == nil {
			return d, true
		}
	}
	return "", false
}

func unique(dirs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, d := range dirs {
		d = filepath.Clean(d)
		if !filepath.IsAbs(d) {
			continue // never a library from a path relative to the working directory
		}
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

func globNewestFirst(pattern string) []string {
	m, _ := filepath.Glob(pattern)
	sort.Sort(sort.Reverse(sort.StringSlice(m)))
	return m
}

// wheelDirs are where the pip wheels put libcupti inside a site directory:
// nvidia-cuda-cupti (CUDA 13) and nvidia-cuda-cupti-cu12.
var wheelDirs = map[int]string{13: "nvidia/cu13/lib", 12: "nvidia/cuda_cupti/lib"}

// attempt is one candidate tried, for the error message.
type attempt struct{ path, outcome string }

// find loads the first usable libcupti: a known record layout and a major
// version the driver supports. It installs nothing.
func find(s search) (Library, error) {
	var tried []attempt
	versionRefused := false
	seen := map[string]bool{}
	try := func(path string) (Library, bool) {
		if filepath.IsAbs(path) && path != s.env {
			if why := untrusted(path); why != "" {
				tried = append(tried, attempt{path, why})
				return Library{}, false
			}
		}
		key := path
		if real, err := filepath.EvalSymlinks(path); err == nil {
			key = real
		}
		if seen[key] {
			return Library{}, false
		}
		seen[key] = true
		lib, why, refused := tryLoad(path, s.driver)
		if why != "" {
			tried = append(tried, attempt{path, why})
			versionRefused = versionRefused || refused
			return Library{}, false
		}
		return lib, true
	}
	found := func(lib Library, how string) (Library, error) {
		lib.Found = how
		return lib, nil
	}
	if s.env != "" {
		if !filepath.IsAbs(s.env) {
			return Library{}, fmt.Errorf("%w: %s=%s is not an absolute path: a library is never loaded from a path relative to the "+
				"working directory. Give the full path, e.g. %s=/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13", ErrNotFound, EnvLibrary, s.env, EnvLibrary)
		}
		if lib, ok := try(s.env); ok {
			return found(lib, EnvLibrary)
		}
		err := ErrNotFound
		if versionRefused {
			err = ErrUnsupportedVersion
		}
		return Library{}, fmt.Errorf("%w: %s=%s: %s. Unset %s to search the usual places, or point it at a libcupti.so.12 or libcupti.so.13",
			err, EnvLibrary, s.env, tried[0].outcome, EnvLibrary)
	}
	inDirs := func(dirs []string, name func(major int) string) (Library, bool) {
		for _, m := range s.majors {
			for _, d := range dirs {
				p := filepath.Join(d, name(m))
				if _, err := os.Stat(p); err != nil {
					continue
				}
				if lib, ok := try(p); ok {
					return lib, true
				}
			}
		}
		return Library{}, false
	}
	// 1. The dynamic loader: LD_LIBRARY_PATH, ld.so.cache, the system lib directories.
	for _, m := range s.majors {
		for _, so := range s.sonames(m) {
			if strings.ContainsRune(so, '/') {
				continue // a soname only: the loader's own search
			}
			if d, ok := relativeLoaderEntry(so); ok {
				tried = append(tried, attempt{so, fmt.Sprintf("not loaded through the dynamic loader: LD_LIBRARY_PATH entry %q "+
					"is relative (the working directory) and holds %s; name the directory absolutely", d, so)})
				continue
			}
			if lib, ok := try(so); ok {
				return found(lib, "dynamic loader")
			}
		}
	}
	// 2. CUDA toolkits, the HPC SDK, conda: versioned names, then the bare libcupti.so link.
	roots := unique(s.roots())
	if lib, ok := inDirs(roots, func(m int) string { return fmt.Sprintf("libcupti.so.%d", m) }); ok {
		return found(lib, "CUDA toolkit directory")
	}
	for _, d := range roots {
		p := filepath.Join(d, "libcupti.so")
		if _, err := os.Stat(p); err == nil {
			if lib, ok := try(p); ok {
				return found(lib, "CUDA toolkit directory")
			}
		}
	}
	// 3. pip wheels in Python site directories.
	sites := unique(s.sites())
	wheel := func(m int) string { return filepath.Join(wheelDirs[m], fmt.Sprintf("libcupti.so.%d", m)) }
	if lib, ok := inDirs(sites, wheel); ok {
		return found(lib, "pip wheel")
	}
	return Library{}, notFound(s, roots, sites, tried, versionRefused)
}

func notFound(s search, roots, sites []string, tried []attempt, versionRefused bool) error {
	var b strings.Builder
	err := ErrNotFound
	if versionRefused {
		err = ErrUnsupportedVersion
	}
	fmt.Fprintf(&b, "%v: %s is unset, and none of these held a usable libcupti:", err, EnvLibrary)
	var sonames []string
	for _, m := range s.majors {
		sonames = append(sonames, s.sonames(m)...)
	}
	fmt.Fprintf(&b, "\n  - the dynamic loader (LD_LIBRARY_PATH=%q, ld.so.cache) for %s", os.Getenv("LD_LIBRARY_PATH"), strings.Join(sonames, ", "))
	fmt.Fprintf(&b, "\n  - CUDA toolkit and HPC SDK directories: %s", summarize(roots))
	var wheels []string
	for _, m := range s.majors {
		wheels = append(wheels, wheelDirs[m])
	}
	fmt.Fprintf(&b, "\n  - %s under the Python site directories: %s", strings.Join(wheels, " and "), summarize(sites))
	for _, t := range tried {
		fmt.Fprintf(&b, "\n  - tried %s: %s", t.path, t.outcome)
	}
	if slices.Contains(s.majors, 13) {
		b.WriteString("\nlibcupti ships with the CUDA toolkit (extras/CUPTI/lib64), not with the driver. Install the " +
			"toolkit or `pip install nvidia-cuda-cupti` (CUDA 13; `nvidia-cuda-cupti-cu12` for CUDA 12), or set " +
			EnvLibrary + "=/path/to/libcupti.so.N")
	} else {
		b.WriteString("\nlibcupti ships with the CUDA toolkit (extras/CUPTI/lib64), not with the driver. This driver " +
			"supports CUDA 12, so it needs CUPTI 12: install the CUDA 12 toolkit or `pip install nvidia-cuda-cupti-cu12`, " +
			"or set " + EnvLibrary + "=/path/to/libcupti.so.12")
	}
	return wrapMsg{err, b.String()}
}

// wrapMsg is an error with a message of its own that matches a sentinel.
type wrapMsg struct {
	sentinel error
	msg      string
}

func (w wrapMsg) Error() string { return w.msg }
func (w wrapMsg) Unwrap() error { return w.sentinel }

// summarize lists directories, existing ones in full and the rest counted.
func summarize(dirs []string) string {
	var have []string
	for _, d := range dirs {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			have = append(have, d)
		}
	}
	s := fmt.Sprintf("%d places", len(dirs))
	if len(have) > 0 {
		s += " (present: " + strings.Join(have, ", ") + ")"
	} else {
		s += " (none present)"
	}
	return s
}

// tryLoad opens one candidate. why is empty on success; refused reports a
// library that loaded but whose version umlab cannot use.
func tryLoad(path string, driver int) (lib Library, why string, refused bool) {
	t, rc, msg := cLoad(path)
	switch rc {
	case 0:
	case 1:
		return lib, "cannot open: " + msg, false
	default:
		return lib, "not a usable libcupti: " + msg, false
	}
	v, r := t.version()
	if r != Success {
		return lib, "cuptiGetVersion: " + r.Name(), false
	}
	l, err := LayoutFor(v)
	if err != nil {
		return lib, err.Error(), true
	}
	cv := CUDAVersion(v)
	if driver > 0 && cv/1000 > driver/1000 {
		return lib, fmt.Sprintf("CUPTI %s needs a CUDA %d driver; this driver supports CUDA %s",
			versionString(cv), cv/1000, versionString(driver)), true
	}
	return Library{Path: path, APIVersion: v, CUDAVersion: cv, Layout: l, table: t}, "", false
}

var (
	libMu      sync.Mutex
	installed  *Library // the library every call goes through
	registered bool     // callbacks registered: the choice is final
)

// Probe finds and loads libcupti without touching the driver: UMLAB_CUPTI
// if set, else the dynamic loader's path, CUDA toolkit directories and pip
// wheels, preferring CUPTI 13 to 12. It reports the library Open would use
// on a CUDA 13 driver; errors wrap ErrNotFound or ErrUnsupportedVersion and
// name every place searched.
func Probe() (Library, error) { return load(0) }

// load returns the installed library, or finds and installs one for a
// driver supporting CUDA version driver (0: unknown).
func load(driver int) (Library, error) {
	libMu.Lock()
	defer libMu.Unlock()
	if installed != nil {
		cv := installed.CUDAVersion
		if driver == 0 || cv/1000 <= driver/1000 || registered {
			return *installed, nil
		}
	}
	lib, err := find(defaultSearch(driver))
	if err != nil {
		return lib, err
	}
	lib.table.install()
	installed = &lib
	return lib, nil
}

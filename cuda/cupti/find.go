package cupti

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
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

// search is where to look for libcupti, in order of preference, and what
// was tried there.
type search struct {
	env    string          // UMLAB_CUPTI; when set, the only candidate
	majors []int           // CUPTI majors usable with the driver, preferred first
	soname string          // the dynamic loader's name, a format of the major: "libcupti.so.%d"
	roots  func() []string // toolkit, HPC SDK and conda directories holding libcupti
	sites  func() []string // Python site-packages directories (pip wheels)
	driver int             // CUDA version the driver supports (0: unknown)

	tried          []attempt
	seen           map[string]bool
	versionRefused bool // a library loaded but its version was refused
}

// attempt is one candidate tried, for the error message.
type attempt struct{ path, outcome string }

// find loads the first usable libcupti: a known record layout and a major
// version the driver supports. It installs nothing.
func find(s search) (Library, error) {
	s.seen = map[string]bool{}
	if s.env != "" {
		return s.fromEnv()
	}
	// 1. The dynamic loader: LD_LIBRARY_PATH, ld.so.cache, the system lib directories.
	if lib, ok := s.viaLoader(); ok {
		return found(lib, "dynamic loader")
	}
	// 2. CUDA toolkits, the HPC SDK, conda: versioned names, then the bare libcupti.so link.
	roots := unique(s.roots())
	if lib, ok := s.inDirs(roots, func(m int) string { return fmt.Sprintf("libcupti.so.%d", m) }); ok {
		return found(lib, "CUDA toolkit directory")
	}
	for _, d := range roots {
		if lib, ok := s.tryFile(filepath.Join(d, "libcupti.so")); ok {
			return found(lib, "CUDA toolkit directory")
		}
	}
	// 3. pip wheels in Python site directories.
	sites := unique(s.sites())
	wheel := func(m int) string { return filepath.Join(wheelDirs[m], fmt.Sprintf("libcupti.so.%d", m)) }
	if lib, ok := s.inDirs(sites, wheel); ok {
		return found(lib, "pip wheel")
	}
	return Library{}, s.notFound(roots, sites)
}

func found(lib Library, how string) (Library, error) {
	lib.Found = how
	return lib, nil
}

// fromEnv loads the library UMLAB_CUPTI names, and nothing else.
func (s *search) fromEnv() (Library, error) {
	if !filepath.IsAbs(s.env) {
		return Library{}, fmt.Errorf("%w: %s=%s is not an absolute path: a library is never loaded from a path relative to the "+
			"working directory. Give the full path, e.g. %s=/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13", ErrNotFound, EnvLibrary, s.env, EnvLibrary)
	}
	if lib, ok := s.try(s.env); ok {
		return found(lib, EnvLibrary)
	}
	return Library{}, fmt.Errorf("%w: %s=%s: %s. Unset %s to search the usual places, or point it at a libcupti.so.12 or libcupti.so.13",
		s.sentinel(), EnvLibrary, s.env, s.tried[0].outcome, EnvLibrary)
}

// viaLoader tries the sonames through the dynamic loader's own search,
// unless a relative LD_LIBRARY_PATH entry (the working directory) holds one.
func (s *search) viaLoader() (Library, bool) {
	for _, m := range s.majors {
		so := fmt.Sprintf(s.soname, m)
		if d, ok := relativeLoaderEntry(so); ok {
			s.tried = append(s.tried, attempt{so, fmt.Sprintf("not loaded through the dynamic loader: LD_LIBRARY_PATH entry %q "+
				"is relative (the working directory) and holds %s; name the directory absolutely", d, so)})
			continue
		}
		if lib, ok := s.try(so); ok {
			return lib, true
		}
	}
	return Library{}, false
}

// inDirs tries name(major) in every directory, preferred major first.
func (s *search) inDirs(dirs []string, name func(major int) string) (Library, bool) {
	for _, m := range s.majors {
		for _, d := range dirs {
			if lib, ok := s.tryFile(filepath.Join(d, name(m))); ok {
				return lib, true
			}
		}
	}
	return Library{}, false
}

// tryFile is try for a file that exists.
func (s *search) tryFile(path string) (Library, bool) {
	if _, err := os.Stat(path); err != nil {
		return Library{}, false
	}
	return s.try(path)
}

// try loads path unless another user could have put it there (a path found
// by searching) or it was tried already.
func (s *search) try(path string) (Library, bool) {
	if filepath.IsAbs(path) && path != s.env {
		if why := untrusted(path); why != "" {
			s.tried = append(s.tried, attempt{path, why})
			return Library{}, false
		}
	}
	key := path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		key = real
	}
	if s.seen[key] {
		return Library{}, false
	}
	s.seen[key] = true
	lib, why, refused := tryLoad(path, s.driver)
	if why != "" {
		s.tried = append(s.tried, attempt{path, why})
		s.versionRefused = s.versionRefused || refused
		return Library{}, false
	}
	return lib, true
}

// sentinel is the error a failed search wraps.
func (s *search) sentinel() error {
	if s.versionRefused {
		return ErrUnsupportedVersion
	}
	return ErrNotFound
}

// notFound says what was searched and tried, and how to install libcupti.
func (s *search) notFound(roots, sites []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, ": %s is unset, and none of these held a usable libcupti:", EnvLibrary)
	var sonames, wheels []string
	for _, m := range s.majors {
		sonames = append(sonames, fmt.Sprintf(s.soname, m))
		wheels = append(wheels, wheelDirs[m])
	}
	fmt.Fprintf(&b, "\n  - the dynamic loader (LD_LIBRARY_PATH=%q, ld.so.cache) for %s", os.Getenv("LD_LIBRARY_PATH"), strings.Join(sonames, ", "))
	fmt.Fprintf(&b, "\n  - CUDA toolkit and HPC SDK directories: %s", summarize(roots))
	fmt.Fprintf(&b, "\n  - %s under the Python site directories: %s", strings.Join(wheels, " and "), summarize(sites))
	for _, t := range s.tried {
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
	return fmt.Errorf("%w%s", s.sentinel(), b.String())
}

// summarize lists directories, existing ones in full and the rest counted.
func summarize(dirs []string) string {
	var have []string
	for _, d := range dirs {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			have = append(have, d)
		}
	}
	if len(have) == 0 {
		return fmt.Sprintf("%d places (none present)", len(dirs))
	}
	return fmt.Sprintf("%d places (present: %s)", len(dirs), strings.Join(have, ", "))
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

package cupti

// Where to look for libcupti, and what may not be loaded from there.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"
)

func defaultSearch(driver int) search {
	s := search{env: os.Getenv(EnvLibrary), driver: driver, majors: []int{13, 12}, soname: "libcupti.so.%d",
		roots: libraryDirs, sites: pythonSiteDirs}
	if driver > 0 && driver < 13000 {
		s.majors = []int{12} // CUPTI 13 needs a CUDA 13 (R580) driver
	}
	return s
}

// libraryDirs lists the CUDA toolkit layouts (extras/CUPTI/lib64, lib64,
// targets/<arch>/lib) under $CUDA_HOME, $CUDA_PATH, /usr/local/cuda*,
// /opt/cuda and the NVIDIA HPC SDK, then $CONDA_PREFIX/lib.
func libraryDirs() []string {
	target := map[string]string{"amd64": "x86_64-linux", "arm64": "sbsa-linux"}[runtime.GOARCH]
	hpc := map[string]string{"amd64": "Linux_x86_64", "arm64": "Linux_aarch64"}[runtime.GOARCH]
	roots := slices.Concat(envDirs("CUDA_HOME", "CUDA_PATH"), []string{"/usr/local/cuda"},
		globNewestFirst("/usr/local/cuda-*"), []string{"/opt/cuda"},
		globNewestFirst("/opt/nvidia/hpc_sdk/"+hpc+"/*/cuda/*"), globNewestFirst("/opt/nvidia/hpc_sdk/"+hpc+"/*/cuda"))
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

// envDirs returns the values of the variables that are set.
func envDirs(vars ...string) []string {
	var out []string
	for _, e := range vars {
		if v := os.Getenv(e); v != "" {
			out = append(out, v)
		}
	}
	return out
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
	bases := append(envDirs("VIRTUAL_ENV", "CONDA_PREFIX"),
		filepath.Join(home, ".venv"), filepath.Join(home, ".local"), "/opt/venv", "/opt/conda", "/usr/local", "/usr")
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

// unique cleans dirs and drops repeats and relative paths: never a library
// from a path relative to the working directory.
func unique(dirs []string) []string {
	var out []string
	for _, d := range dirs {
		if d = filepath.Clean(d); filepath.IsAbs(d) && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

func globNewestFirst(pattern string) []string {
	m, _ := filepath.Glob(pattern)
	slices.Sort(m)
	slices.Reverse(m)
	return m
}

// wheelDirs are where the pip wheels put libcupti inside a site directory:
// nvidia-cuda-cupti (CUDA 13) and nvidia-cuda-cupti-cu12.
var wheelDirs = map[int]string{13: "nvidia/cu13/lib", 12: "nvidia/cuda_cupti/lib"}

package cupti

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A relative UMLAB_CUPTI is refused before anything is loaded.
func TestRelativeEnvironmentPathRefused(t *testing.T) {
	for _, env := range []string{"libcupti.so.13", "./libcupti.so.13", "lib/../libcupti.so.13"} {
		s := absent(t, 0)
		s.env = env
		_, err := find(s)
		if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "not an absolute path") {
			t.Errorf("%s=%s: %v", EnvLibrary, env, err)
		}
	}
}

// A libcupti planted in the working directory (or under a relative
// toolkit or site directory) is never loaded, and the one loaded says how
// it was found.
func TestNoLibraryFromTheWorkingDirectory(t *testing.T) {
	s := absent(t, 13000)
	wd := t.TempDir()
	old, _ := os.Getwd()
	if err := os.Chdir(wd); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(old)
	fakeCUPTI(t, filepath.Join(wd, "rel/libcupti.so.13"), 130001, "")
	fakeCUPTI(t, filepath.Join(wd, "site/nvidia/cu13/lib/libcupti.so.13"), 130001, "")
	fakeCUPTI(t, filepath.Join(wd, ".venv/lib/python3.12/site-packages/nvidia/cu13/lib/libcupti.so.13"), 130001, "")
	root := s.roots()[0]
	s.roots = func() []string { return []string{"rel", "./rel", root} }
	s.sites = func() []string { return []string{"site", "."} }
	if lib, err := find(s); err == nil {
		t.Fatalf("loaded %s from a relative path", lib.Path)
	}
	if dirs := pythonSiteDirs(); strings.Contains(strings.Join(dirs, "\n"), filepath.Join(wd, ".venv")) {
		t.Errorf("the working directory's .venv is searched: %v", dirs)
	}
	// The same library in an absolute toolkit directory is found, and says so.
	fakeCUPTI(t, filepath.Join(root, "libcupti.so.13"), 130001, "")
	lib, err := find(s)
	if err != nil {
		t.Fatal(err)
	}
	if lib.Found != "CUDA toolkit directory" || !strings.Contains(lib.String(), "found by CUDA toolkit directory") {
		t.Errorf("found %q: %s", lib.Found, lib)
	}
}

package cupti

import (
	"errors"
	"os"
	"os/exec"
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

// plantLib builds a shared library whose constructor writes marker: had
// it ever been loaded, marker exists.
func plantLib(t *testing.T, path, marker string) {
	t.Helper()
	c := filepath.Join(t.TempDir(), "planted.c")
	src := "#include <stdio.h>\n__attribute__((constructor)) static void planted(void) {\n" +
		"  FILE *f = fopen(MARKER, \"w\"); if (f) { fputs(\"the planted library ran\", f); fclose(f); }\n}\n"
	if err := os.WriteFile(c, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("cc", "-shared", "-fPIC", "-o", path, c, `-DMARKER="`+marker+`"`).CombinedOutput()
	if err != nil {
		t.Skipf("cannot build a planted library: %v: %s", err, out)
	}
}

// PYTHONPATH holding "." or an empty entry (both the working directory to
// Python) never makes the working directory a place to load libcupti
// from; an absolute PYTHONPATH entry is still searched.
func TestPythonPathNeverTheWorkingDirectory(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3: its sys.path is not searched")
	}
	wd := t.TempDir()
	old, _ := os.Getwd()
	if err := os.Chdir(wd); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(old)
	marker := filepath.Join(t.TempDir(), "ran")
	plantLib(t, filepath.Join(wd, "nvidia/cu13/lib/libcupti.so.13"), marker)
	for _, pp := range []string{".", ":", ".:/nonexistent", "nvidia/.."} {
		t.Setenv("PYTHONPATH", pp)
		s := absent(t, 13000)
		s.sites = pythonSiteDirs
		if lib, err := find(s); err == nil && strings.HasPrefix(lib.Path, wd) {
			t.Errorf("PYTHONPATH=%q: loaded %s", pp, lib.Path)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("PYTHONPATH=%q: the planted library in the working directory was loaded (its constructor ran)", pp)
		}
		if dirs := strings.Join(pythonSiteDirs(), "\n"); strings.Contains(dirs+"\n", wd+"\n") {
			t.Errorf("PYTHONPATH=%q: the working directory is searched:\n%s", pp, dirs)
		}
	}
	abs := t.TempDir()
	fakeCUPTI(t, filepath.Join(abs, "nvidia/cu13/lib/libcupti.so.13"), 130001, "")
	t.Setenv("PYTHONPATH", ".:"+abs)
	s := absent(t, 13000)
	s.sites = pythonSiteDirs
	lib, err := find(s)
	if err != nil || !strings.HasPrefix(lib.Path, abs) || lib.Found != "pip wheel" {
		t.Errorf("an absolute PYTHONPATH entry: %v, %v", lib, err)
	}
}

// A library in a directory every user can write, or put there by another
// user in a sticky directory such as /tmp, is not loaded.
func TestWritableByOthersNotLoaded(t *testing.T) {
	s := absent(t, 13000)
	root := s.roots()[0]
	marker := filepath.Join(t.TempDir(), "ran")
	plantLib(t, filepath.Join(root, "libcupti.so.13"), marker)
	if err := os.Chmod(root, 0o777); err != nil {
		t.Fatal(err)
	}
	_, err := find(s)
	if err == nil || !strings.Contains(err.Error(), "writable by every user") {
		t.Errorf("a world-writable toolkit directory: %v", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the library in a world-writable directory was loaded")
	}
	os.Chmod(root, 0o755)
	if os.Geteuid() != 0 {
		return // chown needs root
	}
	sticky := t.TempDir()
	os.Chmod(sticky, 0o777|os.ModeSticky)
	theirs := filepath.Join(sticky, "cuda")
	plantLib(t, filepath.Join(theirs, "libcupti.so.13"), marker)
	os.Chown(theirs, 4242, 4242)
	s.roots = func() []string { return []string{theirs} }
	if _, err := find(s); err == nil || !strings.Contains(err.Error(), "belongs to user 4242") {
		t.Errorf("another user's directory in a sticky one: %v", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("another user's library was loaded")
	}
}

// An empty or relative LD_LIBRARY_PATH entry (the working directory, to
// the dynamic loader) that holds the library stops the loader's search
// by name. The loader reads LD_LIBRARY_PATH when the process starts, so
// this runs in a child process started with it.
func TestLoaderRelativeEntryNotUsed(t *testing.T) {
	if os.Getenv("UMLAB_CUPTI_TEST_CHILD") == "1" {
		s := absent(t, 13000)
		s.soname = "libcupti-umlab-planted.so.%d"
		_, err := find(s)
		if err == nil || !strings.Contains(err.Error(), "LD_LIBRARY_PATH entry") {
			t.Errorf("find: %v", err)
		}
		return
	}
	wd := t.TempDir()
	marker := filepath.Join(t.TempDir(), "ran")
	plantLib(t, filepath.Join(wd, "libcupti-umlab-planted.so.13"), marker)
	exe, _ := os.Executable()
	cmd := exec.Command(exe, "-test.run=^TestLoaderRelativeEntryNotUsed$", "-test.count=1")
	cmd.Dir = wd
	cmd.Env = append(os.Environ(), "UMLAB_CUPTI_TEST_CHILD=1", "LD_LIBRARY_PATH=:/nonexistent")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("child: %v\n%s", err, out)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the dynamic loader loaded the planted library from the working directory")
	}
}

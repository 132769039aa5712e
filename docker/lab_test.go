// Package docker_test checks docker/lab.sh, the JupyterLab start of the
// image, with a stand-in jupyter that records its command line and
// environment: .ci/container.sh builds and runs the image itself.
package docker_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// lab runs lab.sh with env; it returns the stand-in jupyter's command
// line, the token it was given, lab.sh's output and error.
func lab(t *testing.T, env ...string) (args, token, out string, err error) {
	t.Helper()
	bin, rec := t.TempDir(), t.TempDir()
	fake := "#!/bin/bash\nprintf '%s\\n' \"$*\" >" + rec + "/args\nprintf '%s' \"${JUPYTER_TOKEN-unset}\" >" + rec + "/token\n" +
		"printf '%s' \"${JUPYTER_TOKEN_FILE-unset}\" >" + rec + "/file\n"
	if err := os.WriteFile(filepath.Join(bin, "jupyter"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "lab.sh")
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "JUPYTER_TOKEN=", "JUPYTER_TOKEN_FILE=")
	cmd.Env = append(cmd.Env, env...)
	b, err := cmd.CombinedOutput()
	a, _ := os.ReadFile(filepath.Join(rec, "args"))
	tok, _ := os.ReadFile(filepath.Join(rec, "token"))
	if f, _ := os.ReadFile(filepath.Join(rec, "file")); len(f) > 0 && string(f) != "unset" {
		t.Errorf("JUPYTER_TOKEN_FILE reached jupyter: %q", f)
	}
	return string(a), string(tok), string(b), err
}

// Without a token file a new 256-bit token is made, given to JupyterLab
// in its environment (never on its command line) and printed once.
func TestLabGeneratesTokenPrintedOnce(t *testing.T) {
	args, token, out, err := lab(t)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(token) {
		t.Fatalf("token %q is not 64 hex digits", token)
	}
	if strings.Contains(args, token) {
		t.Errorf("the token is on jupyter's command line: %s", args)
	}
	if n := strings.Count(out, token); n != 1 || !strings.Contains(out, "/lab?token="+token) {
		t.Errorf("the token is printed %d times, want once in the URL:\n%s", n, out)
	}
	if !strings.Contains(args, "lab") || !strings.Contains(args, "--no-browser") {
		t.Errorf("jupyter started as %q", args)
	}
	if _, again, _, _ := lab(t); again == token {
		t.Error("two starts generated the same token")
	}
}

// A token file (a mounted secret) is read, never printed; a bad one is
// refused with its name.
func TestLabTokenFromFile(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "token")
	const secret = "s3cret-from-a-file-0123456789"
	os.WriteFile(f, []byte(secret+"\n"), 0o600)
	args, token, out, err := lab(t, "JUPYTER_TOKEN_FILE="+f)
	if err != nil || token != secret {
		t.Fatalf("token %q, %v\n%s", token, err, out)
	}
	if strings.Contains(out, secret) || strings.Contains(args, secret) {
		t.Errorf("the token from the file was printed or passed as an argument:\n%s\n%s", out, args)
	}
	if strings.Contains(out, "warning") {
		t.Errorf("a private token file drew a warning:\n%s", out)
	}
	os.Chmod(f, 0o644)
	if _, _, out, _ := lab(t, "JUPYTER_TOKEN_FILE="+f); !strings.Contains(out, "readable by every user") {
		t.Errorf("a world-readable token file: no warning:\n%s", out)
	}
	for name, content := range map[string]string{"short": "abc\n", "spaces": "a token with spaces in it\n"} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o600)
		if _, _, out, err := lab(t, "JUPYTER_TOKEN_FILE="+p); err == nil || !strings.Contains(out, "error") {
			t.Errorf("%s token accepted:\n%s", name, out)
		}
	}
	if _, _, out, err := lab(t, "JUPYTER_TOKEN_FILE="+filepath.Join(dir, "missing")); err == nil || !strings.Contains(out, "missing") {
		t.Errorf("a missing token file: %v\n%s", err, out)
	}
}

// JUPYTER_TOKEN from the environment still works, with a warning that
// docker inspect shows it.
func TestLabTokenFromEnvironmentWarns(t *testing.T) {
	_, token, out, err := lab(t, "JUPYTER_TOKEN=env-token-0123456789abcdef")
	if err != nil || token != "env-token-0123456789abcdef" || !strings.Contains(out, "docker inspect") {
		t.Errorf("token %q, %v\n%s", token, err, out)
	}
}

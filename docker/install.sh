#!/usr/bin/env bash
# install.sh sets up everything the umlab notebooks need, in the repository:
#
#   .venv/     Python venv with JupyterLab, nbclient and nbconvert (pinned below),
#              plus the gonb kernel and goimports, built from tools/go.mod
#   .jupyter/  JUPYTER_DATA_DIR holding the GoNB kernelspec, installed with
#              --go_work=<repo> so notebooks import this module's packages
#
# Both are git-ignored. The script is idempotent and takes about a second
# when everything is in place. CI (.ci/notebooks.sh) and the Docker image
# (docker/Dockerfile) run it, so these steps are the tested ones.
#
# Usage:
#   bash docker/install.sh          # install or check the setup
#   bash docker/install.sh lab      # ... then start JupyterLab on notebooks/
#   bash docker/install.sh env      # print the environment to source: eval "$(bash docker/install.sh env)"
#
# JupyterLab (docker/lab.sh) listens on $UMLAB_LAB_IP:$UMLAB_LAB_PORT (default
# 127.0.0.1:8888) and asks for a token: read from $JUPYTER_TOKEN_FILE or
# /run/secrets/jupyter_token, otherwise a random one printed once with the URL.
#
# Requirements: go (1.26, as go.mod says), python3 (>= 3.9) with the venv
# module, gcc (cgo), and access to PyPI and the Go module proxy the first time.
set -euo pipefail

# ---- pinned versions: the one place to change them -------------------------
# Python packages (PyPI). GoNB v0.11.4 and goimports v0.52.0 are pinned in
# tools/go.mod (a separate module, so their dependencies stay out of go.mod).
PY_PINS=(
  jupyterlab==4.6.6
  nbclient==0.11.0
  nbconvert==7.17.2
  nbformat==5.11.1
)
# ------------------------------------------------------------------------------

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$REPO/.venv"
export JUPYTER_DATA_DIR="$REPO/.jupyter"
export PATH="$VENV/bin:$PATH"

say() { printf 'install.sh: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

print_env() {
  printf 'export JUPYTER_DATA_DIR=%q\n' "$JUPYTER_DATA_DIR"
  printf 'export PATH=%q:"$PATH"\n' "$VENV/bin"
}

setup() {
  command -v go >/dev/null || die "go is not on PATH (need Go 1.26)"
  command -v python3 >/dev/null || die "python3 is not on PATH"
  command -v gcc >/dev/null || say "warning: gcc not found; packages that use cgo will not build in notebooks"

  # 1. Python venv with pinned Jupyter packages. A stamp records what was
  #    installed, so a second run does not call pip at all.
  local stamp="$VENV/.umlab-pins" want
  want="$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])') ${PY_PINS[*]}"
  if [[ ! -x "$VENV/bin/python" ]]; then
    say "creating $VENV"
    python3 -m venv "$VENV" || die "python3 -m venv failed (on Debian/Ubuntu: apt-get install python3-venv)"
  fi
  if [[ "$(cat "$stamp" 2>/dev/null)" != "$want" ]]; then
    say "pip install ${PY_PINS[*]}"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${PY_PINS[@]}"
    printf '%s' "$want" >"$stamp"
  fi

  # 2. gonb and goimports from tools/go.mod into the venv's bin, so one PATH
  #    entry gives jupyter, gonb and goimports. `go install tool` is the way
  #    to pin gonb: the proxy refuses `go install gonb@version`.
  local tstamp="$VENV/.umlab-tools" twant
  twant="$(go env GOVERSION) $(cat "$REPO/tools/go.mod" "$REPO/tools/go.sum" | sha256sum | cut -c1-16)"
  if [[ ! -x "$VENV/bin/gonb" || ! -x "$VENV/bin/goimports" || "$(cat "$tstamp" 2>/dev/null)" != "$twant" ]]; then
    say "go install tool (gonb, goimports) -> $VENV/bin"
    (cd "$REPO/tools" && GOBIN="$VENV/bin" GOFLAGS=-mod=mod go install tool)
    printf '%s' "$twant" >"$tstamp"
  fi

  # 3. The GoNB kernelspec, repo-local. --go_work puts this repository on
  #    every notebook's go.work (no setup cell needed), --raw_error gives
  #    plain-text compile errors, --force_deps skips the gopls requirement.
  local kjson="$JUPYTER_DATA_DIR/kernels/gonb/kernel.json"
  if [[ ! -f "$kjson" ]] || ! grep -q -- "go_work=$REPO\"" "$kjson" || ! grep -q -- "\"$VENV/bin/gonb\"" "$kjson"; then
    say "registering the GoNB kernel in $JUPYTER_DATA_DIR"
    mkdir -p "$JUPYTER_DATA_DIR"
    gonb --install --force_deps --raw_error --go_work="$REPO" >/dev/null 2>&1 || {
      # gonb logs to stderr; show it only when the install failed.
      gonb --install --force_deps --raw_error --go_work="$REPO"; die "gonb --install failed"; }
  fi
  [[ -f "$kjson" ]] || die "no kernelspec at $kjson"

  # 4. The module's dependencies, so notebooks (whose own go.mod resolves
  #    them) need no network after setup.
  (cd "$REPO" && go mod download)
}

case "${1:-}" in
  env)
    print_env ;;
  ""|setup)
    setup
    say "ready: eval \"\$(bash docker/install.sh env)\"; jupyter lab notebooks/   (or: bash docker/install.sh lab)" ;;
  lab)
    setup
    shift
    exec bash "$REPO/docker/lab.sh" "$@" ;;
  -h|--help|help)
    sed -n '2,25p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' ;;
  *)
    die "unknown argument $1 (want: lab, env, setup or nothing)" ;;
esac

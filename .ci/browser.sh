#!/usr/bin/env bash
# browser.sh checks that a notebook runs and renders in a real browser:
# it starts JupyterLab on 127.0.0.1 (a throw-away copy of notebooks/, so the
# committed notebooks are never touched), opens notebook 01 in Debian's
# chromium driven by playwright-core (npm), runs all cells, waits for the
# rendered figure (an img in an output area) and saves screenshots.
#
# Usage: bash .ci/browser.sh [notebook.ipynb]     (default 01-baseline-paths.ipynb)
# Artefacts: .ci/browser/artifacts/<notebook>/{figure,page}.png, and the
# JupyterLab log; the path is printed at the end, with the timings.
#
# Needs: what docker/install.sh needs, node and npm (20), and chromium
# (installed with apt-get when missing and running as root).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
NB="${1:-01-baseline-paths.ipynb}"
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
t0=$(now)

# 1. Setup: notebooks kernel, chromium, playwright-core.
bash docker/install.sh
eval "$(bash docker/install.sh env)"
if [[ ! -x /usr/bin/chromium ]]; then
  [[ $(id -u) -eq 0 ]] || { echo "browser.sh: /usr/bin/chromium missing: apt-get install chromium" >&2; exit 1; }
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi
(cd .ci/browser && if [[ ! -d node_modules/playwright-core ]]; then
   PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error; fi)
t_setup=$(now)

# 2. JupyterLab on 127.0.0.1, on a free port, with a random token, serving a
#    copy of the notebooks; the app is exposed so the test can drive it.
art="$REPO/.ci/browser/artifacts/${NB%.ipynb}"
rm -rf "$art"; mkdir -p "$art"
work="$(mktemp -d "${TMPDIR:-/tmp}/umlab-browser.XXXXXX")"
cp notebooks/*.ipynb "$work/"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
token=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
export UMLAB_NOTEBOOK_MODE="${UMLAB_NOTEBOOK_MODE:-bundled}" JUPYTER_TOKEN="$token"
root=(); [[ $(id -u) -eq 0 ]] && root=(--allow-root)   # CI runs as root
jupyter lab "${root[@]}" --no-browser --ServerApp.ip=127.0.0.1 --ServerApp.port="$port" \
  --ServerApp.root_dir="$work" --LabApp.expose_app_in_browser=True \
  --ServerApp.disable_check_xsrf=False >"$art/jupyterlab.log" 2>&1 &
lab=$!
cleanup() { kill "$lab" 2>/dev/null || true; wait "$lab" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
for _ in $(seq 1 120); do
  curl -fsS "http://127.0.0.1:$port/api/status?token=$token" >/dev/null 2>&1 && break
  kill -0 "$lab" 2>/dev/null || { echo "browser.sh: JupyterLab exited; log:" >&2; tail -30 "$art/jupyterlab.log" >&2; exit 1; }
  sleep 0.5
done
t_lab=$(now)

# 3. The browser.
rc=0
LAB_URL="http://127.0.0.1:$port" LAB_TOKEN="$token" NOTEBOOK="$NB" OUT="$art" \
  node .ci/browser/run.mjs || rc=$?
t_end=$(now)
echo "browser.sh: timings: setup $(secs "$t0" "$t_setup") s, JupyterLab start $(secs "$t_setup" "$t_lab") s, browser run $(secs "$t_lab" "$t_end") s, total $(secs "$t0" "$t_end") s"
echo "browser.sh: artefacts in $art"
if [[ $rc -ne 0 ]]; then
  echo "browser.sh: FAILED (JupyterLab log: $art/jupyterlab.log)" >&2
  exit 1
fi
echo "browser.sh: ok"

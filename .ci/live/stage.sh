#!/usr/bin/env bash
# stage.sh makes the bundle run.sh needs on a GPU host without Go, Jupyter
# or network, in DIR (default .devbin/live): the Go toolchain without tests
# and docs (go.tar.xz, ~35 MB), gonb and goimports (tools.tar.xz), a module
# cache pruned to the packages the notebooks build (mod.tar.xz, ~24 MB
# unpacked), Jupyter's executor as Python 3.12 wheels (whl/, ~3 MB), this
# checkout's committed tree (repo.tar.xz) and the scripts. Run it from the
# repository root on an x86-64 machine with Go and network (module proxy,
# PyPI). Everything fits one 64 MiB device call.
set -euo pipefail
REPO="$(git rev-parse --show-toplevel)"
D="$(mkdir -p "${1:-$REPO/.devbin/live}" && cd "${1:-$REPO/.devbin/live}" && pwd)"
T="$(mktemp -d)"
trap 'chmod -R u+w "$T"; rm -rf "$T"' EXIT
cd "$REPO"
cp .ci/live/run.sh .ci/live/measure.py .ci/live/check.py "$D/"

GOROOT_DIR="$(go env GOROOT)"
tar -C "$(dirname "$GOROOT_DIR")" --exclude='*_test.go' --exclude=testdata --exclude=go/test --exclude=go/doc \
  --exclude=go/api --exclude=go/misc --exclude=go/lib/wasm --exclude=go/pkg/tool/linux_amd64/pprof \
  --exclude=go/pkg/tool/linux_amd64/trace -cf - "$(basename "$GOROOT_DIR")" | xz -T0 -6 > "$D/go.tar.xz"

mkdir -p "$T/bin"
(cd tools && GOBIN="$T/bin" GOFLAGS=-mod=mod go install -trimpath -ldflags="-s -w" tool)
tar -C "$T" -cf - bin | xz -T0 -6 > "$D/tools.tar.xz"

# A module cache holding only the packages (and their embedded files) that
# the notebooks' cells build, plus the go.mod files of the module graph.
export GOMODCACHE="$T/mod" GOFLAGS=-mod=mod
pkgs=(./nb ./plots ./model ./datasets ./results)
for p in claims check; do [[ -d $p ]] && pkgs+=("./$p"); done
go build "${pkgs[@]}"
go list -m all >/dev/null
go list -deps -f '{{if .Module}}{{if not .Module.Main}}{{.Dir}}{{range .EmbedFiles}}|{{.}}{{end}}{{end}}{{end}}' "${pkgs[@]}" > "$T/keep"
python3 - "$T/mod" "$T/keep" <<'PY'
import os, shutil, sys
root, keepf = sys.argv[1], sys.argv[2]
dirs, files = set(), set()
for l in open(keepf):
    parts = l.strip().split("|")
    if parts[0]:
        dirs.add(parts[0]); files.update(os.path.join(parts[0], e) for e in parts[1:])
mods = []
for dp, dns, fns in os.walk(root):
    if dp.startswith(os.path.join(root, "cache")):
        dns[:] = []
    elif "@" in os.path.basename(dp):
        mods.append(dp); dns[:] = []
for m in mods:
    for dp, _, _ in os.walk(m):
        os.chmod(dp, 0o755)
    if not any(d == m or d.startswith(m + "/") for d in dirs):
        shutil.rmtree(m); continue
    for dp, _, fns in os.walk(m):
        for fn in fns:
            p = os.path.join(dp, fn)
            if dp == m and (fn in ("go.mod", "go.sum") or fn.startswith("LICENSE")):
                continue
            if p in files or (dp in dirs and fn.endswith((".go", ".s", ".c", ".h")) and not fn.endswith("_test.go")):
                continue
            os.chmod(p, 0o644); os.remove(p)
    for dp, _, _ in os.walk(m, topdown=False):
        if dp != m and not os.listdir(dp):
            os.rmdir(dp)
PY
find "$T/mod/cache/download" -name '*.zip' -delete
tar -C "$T" -cf - mod | xz -T0 -6 > "$D/mod.tar.xz"
unset GOFLAGS GOMODCACHE

rm -rf "$D/whl" && mkdir -p "$D/whl"
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux1_x86_64 --platform any -d "$D/whl" \
  nbconvert==7.17.2 nbclient==0.11.0 nbformat==5.11.1 jupyter_client==8.10.0 jupyter_core==5.9.1 traitlets==5.16.1 \
  platformdirs==4.14.9 pyzmq==27.3.0 tornado==6.6.1 fastjsonschema==2.22.3 jsonschema==4.26.0 \
  jsonschema_specifications==2025.9.1 referencing==0.37.0 rpds_py==2026.9.1 bleach==6.4.0 tinycss2==1.5.1 \
  webencodings==0.6.1 mistune==3.4.0 pandocfilters==1.5.1 defusedxml==0.7.1 beautifulsoup4==4.15.0 soupsieve==4.1.3 \
  jupyterlab_pygments==0.3.0
# (jinja2, markupsafe, pygments, packaging, attrs, python-dateutil come with the H200 image's python)

git archive HEAD | xz -T0 -6 > "$D/repo.tar.xz"
du -sh "$D"/* 
du -sh "$D"

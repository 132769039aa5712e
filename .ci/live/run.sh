#!/usr/bin/env bash
# run.sh runs the six notebooks in live mode on a GPU host that has python3
# (3.12, pip), gcc and an NVIDIA driver but no Go, no Jupyter and no network,
# from the bundle stage.sh made (see README "Development"). It executes each
# notebook with the GoNB kernel headless, as .ci/notebooks.sh --live does
# (jupyter nbconvert --execute), measures each notebook's wall time and peak
# memory (measure.py), checks the executed notebook (check.py), runs
# notebooks 01 and 02 a second time to show the cache being read, and writes
# everything to $OUT (default ./live-out):
#   log.txt, timings.jsonl, checks.jsonl, notebooks.tgz (executed notebooks),
#   cache.tgz (the live measurements: one results directory per group).
set -uo pipefail
S="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="${OUT:-$PWD/live-out}"
W="${UMLAB_LIVE_WORK:-/tmp/umlab-live}"
mkdir -p "$OUT" "$W"
exec > >(tee -a "$OUT/log.txt") 2>&1
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
t0=$(now)
echo "run.sh: $(date -u) on $(hostname)"
nvidia-smi --query-gpu=name,uuid,driver_version,memory.total --format=csv,noheader || true

tar -C "$W" -xJf "$S/go.tar.xz" && tar -C "$W" -xJf "$S/tools.tar.xz" && tar -C "$W" -xJf "$S/mod.tar.xz" || exit 1
mkdir -p "$W/repo" && tar -C "$W/repo" -xJf "$S/repo.tar.xz" || exit 1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$W/site" "$S"/whl/*.whl || exit 1
export PYTHONPATH="$W/site" PATH="$W/go/bin:$W/bin:$W/site/bin:$PATH" GOROOT="$W/go" GOMODCACHE="$W/mod" \
  GOPROXY=off GOTOOLCHAIN=local GOCACHE="$W/gocache" GOPATH="$W/gopath" GOFLAGS= JUPYTER_DATA_DIR="$W/jupyter" \
  UMLAB_NOTEBOOK_MODE="${UMLAB_NOTEBOOK_MODE:-live}" UMLAB_CACHE_DIR="$W/cache" PYTHONWARNINGS=ignore PYTHONUNBUFFERED=1
go version && gonb --install --force_deps --raw_error --go_work="$W/repo" >/dev/null 2>&1
[[ -f $W/jupyter/kernels/gonb/kernel.json ]] || { echo "run.sh: gonb kernel not installed"; exit 1; }
echo "run.sh: setup $(secs "$t0" "$(now)") s"

run_nb() { # name notebook outdir
  python3 "$S/measure.py" "$1" "$OUT/timings.jsonl" -- python3 -m nbconvert --to notebook --execute \
    --ExecutePreprocessor.timeout=600 --ExecutePreprocessor.record_timing=True --output-dir "$3" "$2" \
    > "$W/$1.nbconvert.log" 2>&1
  local rc=$?
  grep -v '^[IWE][0-9]\{4\} \|gopls\|^$\|^```\|standard Go toolkit\|provide contextual\|with:$' "$W/$1.nbconvert.log" | tail -5
  python3 "$S/check.py" "$3/$(basename "$2")" >> "$OUT/checks.jsonl"
  tail -n 1 "$OUT/checks.jsonl" | cut -c1-400
  return $rc
}
# UMLAB_LIVE_BUDGET: seconds after which no further notebook is started
# (a device call may run 10 minutes; the archives below must still be made).
budget=${UMLAB_LIVE_BUDGET:-0}
late() { [[ $budget -gt 0 ]] && awk -v a="$t0" -v b="$(now)" -v m="$budget" 'BEGIN { exit !(b - a > m) }'; }
fail=0
for nb in "$W"/repo/notebooks/*.ipynb; do
  if late; then echo "run.sh: out of time, not running $nb"; fail=1; continue; fi
  run_nb "$(basename "$nb" .ipynb)" "$nb" "$W/executed" || fail=1
done
for n in 01-baseline-paths 02-managed-states; do
  if late; then echo "run.sh: out of time, no second run of $n"; continue; fi
  run_nb "$n-second" "$W/repo/notebooks/$n.ipynb" "$W/second" || fail=1
done
mkdir -p "$W/executed" "$W/second"
tar -C "$W" -czf "$OUT/notebooks.tgz" executed second
tar -C "$W" -czf "$OUT/cache.tgz" cache
echo "run.sh: total $(secs "$t0" "$(now)") s, fail=$fail"
exit $fail

#!/usr/bin/env bash
# notebooks.sh executes every notebook in notebooks/ headless, in bundled
# mode (no GPU needed), and checks the result:
#
#   - no error output, and no panic / fatal error / "exit status N" line in
#     any stream (nbconvert's exit code misses some failures: GoNB reports a
#     failing !shell line, for one, only as text);
#   - at least one image/png and one HTML table per notebook;
#   - the committed notebook carries outputs, and re-executing it gives the
#     same number and kinds of outputs, cell by cell (content may change when
#     the data changes; differences are listed, not failed).
#
# Then it executes every notebook again with two other local datasets
# (UMLAB_LOCAL_DATASET: the paper's GH200 alone, and two H200s of one
# node), with the same error checks and no comparison: a notebook must run
# on any data.
#
# Usage:
#   bash .ci/notebooks.sh            # set up (docker/install.sh), execute, check
#   bash .ci/notebooks.sh --update   # ... bundled only, and write the outputs into notebooks/
#   bash .ci/notebooks.sh --dataset NAME|DIR   # execute with that local dataset only (repeatable)
#   bash .ci/notebooks.sh --fake     # execute in fake mode instead: the live
#                                    # path on umkit's simulated GPU (progress,
#                                    # cache); no comparison with the committed
#                                    # outputs, which come from bundled mode
#   bash .ci/notebooks.sh --live     # execute in live mode (a GPU host): measure
#                                    # with quick sizes, cache in ~/.cache/umlab
#   bash .ci/notebooks.sh --figures DIR   # also write every figure to
#                                    # DIR/<notebook>--<cell id>--<n>.png
#   bash .ci/notebooks.sh [flags] notebooks/01-baseline-paths.ipynb ...
#
# The setup is idempotent and takes about a second when already done. The
# notebooks run with GOPROXY=off: they may import only this module's
# packages, whose dependencies install.sh downloads, so they never ask the
# module proxy for @latest.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
update=0
mode=bundled
figures=""
nbs=()
others=(paper-gh200 h200x2-2026-11-29-isolated)
chosen=()
while [[ $# -gt 0 ]]; do
  a="$1"; shift
  case "$a" in
    --update) update=1 ;;
    --fake) mode=fake ;;
    --live) mode=live ;;
    --figures) figures="$(mkdir -p "$1" && cd "$1" && pwd)"; shift ;;
    --dataset) chosen+=("$1"); shift ;;
    -h|--help) sed -n '2,37p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "notebooks.sh: unknown flag $a" >&2; exit 2 ;;
    *) nbs+=("$a") ;;
  esac
done
if [[ $update -eq 1 && $mode != bundled ]]; then
  echo "notebooks.sh: --update writes bundled outputs only" >&2; exit 2
fi
if [[ ${#nbs[@]} -eq 0 ]]; then
  nbs=(notebooks/*.ipynb)
fi
# Runs: "" is the bundled default (compared with the committed outputs),
# any other entry a local dataset (checked, not compared).
runs=("")
if [[ ${#chosen[@]} -gt 0 ]]; then
  runs=("${chosen[@]}")
elif [[ $update -eq 0 && $mode == bundled ]]; then
  runs+=("${others[@]}")
fi

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
t0=$(now)

bash docker/install.sh
eval "$(bash docker/install.sh env)"
t_setup=$(now)
echo "notebooks.sh: setup $(secs "$t0" "$t_setup") s"

out="$(mktemp -d "${TMPDIR:-/tmp}/umlab-notebooks.XXXXXX")"
trap 'rm -rf "$out"' EXIT
export UMLAB_NOTEBOOK_MODE=$mode
if [[ $mode != live ]]; then
  export UMLAB_CACHE_DIR="$out/cache"   # fake-mode results live and die with this run
fi
export GOPROXY=off
export PYTHONWARNINGS=ignore

fail=0
report=()
for run in "${runs[@]}"; do
for nbpath in "${nbs[@]}"; do
  name="$(basename "$nbpath" .ipynb)"
  label="$name${run:+ on $run}"
  ts=$(now)
  dir="$out/${run//\//_}"
  mkdir -p "$dir"
  log="$dir/$name.log"
  if ! UMLAB_LOCAL_DATASET="$run" jupyter nbconvert --to notebook --execute \
      --ExecutePreprocessor.timeout=600 --ExecutePreprocessor.record_timing=False \
      --output-dir "$dir" "$nbpath" >"$log" 2>&1; then
    echo "notebooks.sh: FAIL $label: nbconvert failed; its log:" >&2
    grep -v '^[IW][0-9]\{4\} ' "$log" | tail -40 >&2
    fail=1
    report+=("$label FAIL $(secs "$ts" "$(now)")s")
    continue
  fi
  committed="$nbpath"
  # --update, --fake and another dataset: nothing to compare with
  [[ $update -eq 1 || $mode != bundled || -n $run ]] && committed="$dir/$name.ipynb"
  if ! FIGURES="$figures" "$REPO/.venv/bin/python" - "$committed" "$dir/$name.ipynb" <<'PYEOF'
import base64, json, os, re, sys

committed_path, executed_path = sys.argv[1], sys.argv[2]
figures = os.environ.get("FIGURES", "")
fail_line = re.compile(r"(?m)^(exit status \d+|panic: |fatal error: |\[ERROR\])")
problems, notes = [], []

def load(p):
    with open(p) as f:
        return json.load(f)

def kinds(cell):
    ks = []
    for o in cell.get("outputs", []):
        t = o["output_type"]
        if t == "stream":
            ks.append("stream:" + o["name"])
        elif t in ("display_data", "execute_result", "update_display_data"):
            ks.append(t + ":" + "+".join(sorted(o.get("data", {}))))
        else:
            ks.append(t)
    return sorted(ks)

def text(o):
    if o["output_type"] == "stream":
        return "".join(o["text"])
    return "".join(o.get("evalue", "")) + "".join(o.get("traceback", []))

executed, committed = load(executed_path), load(committed_path)
pngs = tables = 0
for c in executed["cells"]:
    if c["cell_type"] != "code":
        continue
    for o in c.get("outputs", []):
        if o["output_type"] == "error":
            problems.append(f"cell {c.get('id')}: error output {o.get('ename')}: {o.get('evalue', '')[:300]}")
        if o["output_type"] == "stream" and fail_line.search(text(o)):
            problems.append(f"cell {c.get('id')}: {o['name']}: {text(o)[:300]}")
        data = o.get("data", {})
        if "image/png" in data and figures:
            stem = os.path.basename(executed_path)[:-len(".ipynb")]
            n = sum(1 for f in os.listdir(figures) if f.startswith(f"{stem}--{c.get('id')}--"))
            with open(os.path.join(figures, f"{stem}--{c.get('id')}--{n}.png"), "wb") as f:
                f.write(base64.b64decode("".join(data["image/png"])))
        pngs += "image/png" in data
        if "<table" in "".join(data.get("text/html", "")):
            tables += 1
if pngs == 0:
    problems.append("no image/png output")
if tables == 0:
    problems.append("no HTML table output")

ex = {c.get("id"): c for c in executed["cells"] if c["cell_type"] == "code"}
co = {c.get("id"): c for c in committed["cells"] if c["cell_type"] == "code"}
if not any(c.get("outputs") for c in co.values()):
    problems.append("the committed notebook carries no outputs (run .ci/notebooks.sh --update)")
else:
    for cid, c in co.items():
        if cid not in ex:
            problems.append(f"cell {cid}: missing after execution")
            continue
        if kinds(c) != kinds(ex[cid]):
            problems.append(f"cell {cid}: outputs {kinds(ex[cid])}, committed {kinds(c)} (run .ci/notebooks.sh --update)")
            continue
        for a, b in zip(c.get("outputs", []), ex[cid].get("outputs", [])):
            if a.get("data") != b.get("data") or a.get("text") != b.get("text"):
                notes.append(cid)
                break
for p in problems:
    print("  problem:", p)
if notes:
    print(f"  note: content differs from the committed outputs in cells {', '.join(notes)} (data or code changed; --update refreshes them)")
print(f"  {pngs} images, {tables} tables")
sys.exit(1 if problems else 0)
PYEOF
  then
    echo "notebooks.sh: FAIL $label" >&2
    fail=1
    report+=("$label FAIL $(secs "$ts" "$(now)")s")
    continue
  fi
  if [[ $update -eq 1 ]]; then
    cp "$dir/$name.ipynb" "$nbpath"
  fi
  report+=("$label ok $(secs "$ts" "$(now)")s")
done
done

echo "notebooks.sh: $mode mode, timings (setup $(secs "$t0" "$t_setup") s, total $(secs "$t0" "$(now)") s)"
printf '  %s\n' "${report[@]}"
if [[ $fail -ne 0 ]]; then
  echo "notebooks.sh: FAILED" >&2
  exit 1
fi
[[ $update -eq 1 ]] && echo "notebooks.sh: notebooks updated with the outputs of this run"
[[ -n $figures ]] && echo "notebooks.sh: figures in $figures"
echo "notebooks.sh: ok"

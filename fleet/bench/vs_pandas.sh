#!/usr/bin/env bash
# vs_pandas.sh times umbench summary against the same summary in pandas and
# in polars (fleet/bench/summary.py: the same medians, the same 1,000
# bootstrap resamples) on one run, and on the same run with ten times the
# trials. CPU seconds (user + sys) of each whole process, interpreter and
# imports included, as a user runs them; the three are run in turn, REPEAT
# times, and the medians compared. It checks that every median agrees
# exactly and says how far the intervals differ, in units of their width
# (two bootstraps of the same data differ by resampling noise).
#
# usage: fleet/bench/vs_pandas.sh          (installs pandas, polars and
# NumPy from PyPI into a virtual environment under /tmp the first time)
# environment: REPEAT (default 5), FROM (default h200-2026-12-02-setuploops),
# VENV (default /tmp/umlab-bench-venv), BENCH_DIR (default /tmp/umlab-pandas-bench).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
here=$repo/fleet/bench
work=${BENCH_DIR:-/tmp/umlab-pandas-bench}
venv=${VENV:-/tmp/umlab-bench-venv}
repeat=${REPEAT:-5}
from=${FROM:-h200-2026-12-02-setuploops}
mkdir -p "$work"
if [ ! -x "$venv/bin/python" ]; then
	python3 -m venv "$venv"
	"$venv/bin/pip" install --quiet pandas polars numpy
fi
py=$venv/bin/python
(cd "$repo" && go build -o "$work/umbench" ./cmd/umbench)
echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# umbench $(git -C "$repo" rev-parse --short HEAD); $("$py" -c 'import sys, pandas, polars, numpy; print("Python", sys.version.split()[0], "pandas", pandas.__version__, "polars", polars.__version__, "NumPy", numpy.__version__)')"

# The run, and the run with ten times the trials (each trial ten times,
# trial indices kept distinct).
mkdir -p "$work/x1" "$work/x10"
cp "$repo/datasets/$from/results.csv" "$repo/datasets/$from/meta.json" "$work/x1/"
cp "$repo/datasets/$from/meta.json" "$work/x10/"
"$py" - "$work/x1/results.csv" "$work/x10/results.csv" <<'EOF'
import sys
import pandas as pd
df = pd.read_csv(sys.argv[1], dtype=str, keep_default_na=False)
t = df["trial"].astype(int)
span = t.max() + 1
parts = []
for k in range(10):
    c = df.copy()
    c["trial"] = (t + k * span).astype(str)
    parts.append(c)
pd.concat(parts).to_csv(sys.argv[2], index=False)
EOF

cpu() { # prints user+sys seconds of one run of the command
	/usr/bin/time -f '%U %S' -o "$work/time" "$@" >/dev/null 2>"$work/stderr" || {
		echo "failed: $*" >&2
		tail -5 "$work/stderr" >&2
		exit 1
	}
	awk '{printf "%.3f\n", $1 + $2}' "$work/time"
}
med() { sort -n | awk '{a[NR] = $0} END {print a[int((NR + 1) / 2)]}'; }

printf '| %-10s | %-8s | %8s | %8s | %8s | %10s | %10s |\n' data rows umbench pandas polars "÷ pandas" "÷ polars"
printf '| %-10s | %-8s | %8s | %8s | %8s | %10s | %10s |\n' ---------- -------- -------- -------- -------- ---------- ----------
for x in x1 x10; do
	dir=$work/$x
	: >"$work/go.t" && : >"$work/pd.t" && : >"$work/pl.t"
	for _ in $(seq "$repeat"); do # interleaved
		cpu "$work/umbench" summary --data "$dir" --format csv >>"$work/go.t"
		cpu "$py" "$here/summary.py" pandas "$dir/results.csv" "$work/pd.csv" >>"$work/pd.t"
		cpu "$py" "$here/summary.py" polars "$dir/results.csv" "$work/pl.csv" >>"$work/pl.t"
	done
	g=$(med <"$work/go.t") p=$(med <"$work/pd.t") l=$(med <"$work/pl.t")
	rows=$(($(wc -l <"$dir/results.csv") - 1))
	awk -v x="$x" -v r="$rows" -v g="$g" -v p="$p" -v l="$l" \
		'BEGIN {printf "| %-10s | %-8s | %8.2f | %8.2f | %8.2f | %10.2f | %10.2f |\n", x, r, g, p, l, g / p, g / l}'
	"$work/umbench" summary --data "$dir" --format csv >"$work/go.csv"
	"$py" - "$work/go.csv" "$work/pd.csv" "$work/pl.csv" "$x" <<'EOF'
import sys
import numpy as np
import pandas as pd
strs = ["group", "benchmark", "mode", "pattern", "policy", "phase", "direction"]
nums = ["size_bytes", "footprint_bytes", "stride_elements", "page_interval_bytes", "oversub_pct", "reuse_passes", "cpu_threads"]
def read(path):
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    for c in df.columns:
        if c not in strs + ["platform", "gpu_uuid", "flags"]:
            df[c] = pd.to_numeric(df[c], errors="coerce")
    return df
keys = strs + nums
go = read(sys.argv[1])
for name, path in (("pandas", sys.argv[2]), ("polars", sys.argv[3])):
    other = read(path)
    m = go.merge(other, on=keys, suffixes=("", "_o"), how="outer", indicator=True)
    assert (m["_merge"] == "both").all(), f"{name}: configurations differ"
    exact = ["n", "median_gbps", "min_gbps", "max_gbps", "median_kernel_ms", "median_total_ms"]
    bad = [c for c in exact if not np.array_equal(m[c].to_numpy(float), m[c + "_o"].to_numpy(float), equal_nan=True)]
    d = []
    for c in ("median_gbps", "median_total_ms"):
        w = (m[c + "_hi"] - m[c + "_lo"]).to_numpy(float)
        for e in ("_lo", "_hi"):
            x = np.abs(m[c + e] - m[c + e + "_o"]).to_numpy(float)
            ok = w > 0
            d.extend((x[ok] / w[ok]).tolist())
    d = np.array(d)
    print(f"  {sys.argv[4]} vs {name}: {len(m)} configurations; medians, minima, maxima and counts "
          f"{'equal' if not bad else 'DIFFER in ' + ', '.join(bad)}; interval ends differ by "
          f"{np.median(d):.2f} (median), {np.percentile(d, 95):.2f} (95th percentile), {d.max():.2f} (most) of the interval's width")
EOF
done

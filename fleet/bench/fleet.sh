#!/usr/bin/env bash
# fleet.sh times umbench's analysis commands on synthetic fleets made from
# one embedded run (fleet/bench/mkfleet: synthetic numbers, not
# measurements), in CPU seconds (user + sys) and peak resident memory,
# each the median of REPEAT runs:
#   - one run (N = 1): summary, reproduce, report, and a notebook cell's
#     data (fleet/bench/nbcell: nb.Load as it is, and from datasets.Cover);
#   - N GPUs: compare, merge and a fleet-wide summary (umbench summary of
#     the merged directory), each cold (no results.summary.cache beside
#     the GPUs' results) and warm (read from those caches).
# It ends with the growth exponent of each fleet command: the slope of
# log(CPU) against log(N) from the largest two sizes.
#
# usage: fleet/bench/fleet.sh [N ...]          (default: 1 64 256 1024)
# environment: BENCH_DIR (default /tmp/umlab-fleet-bench; about 6 MB of
# disk per GPU, twice over for the merge), REPEAT (default 3), COMMANDS
# (default "compare merge summary": the fleet commands to time),
# FROM (default h200-2026-12-02-setuploops), UMBENCH_BASE (an older
# umbench binary: its one-run and compare figures are printed beside).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=${BENCH_DIR:-/tmp/umlab-fleet-bench}
repeat=${REPEAT:-3}
commands=" ${COMMANDS:-compare merge summary} "
from=${FROM:-h200-2026-12-02-setuploops}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1 64 256 1024)
max=$(printf '%s\n' "${sizes[@]}" | sort -n | tail -1)
mkdir -p "$work"
echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "# umbench $(git -C "$repo" rev-parse --short HEAD)$(git -C "$repo" diff --quiet || echo ' (modified)'); load average $(cut -d' ' -f1-3 /proc/loadavg)"
(cd "$repo" && go build -o "$work/umbench" ./cmd/umbench && go build -o "$work/nbcell" ./fleet/bench/nbcell)
fleet=$work/fleet-$max
if [ ! -d "$fleet" ]; then
	(cd "$repo" && go run ./fleet/bench/mkfleet -from "$from" -n "$max" -out "$fleet")
fi

# cpu CMD...: runs CMD once; prints "user+sys maxrss_kib".
cpu() {
	/usr/bin/time -f '%U %S %M' -o "$work/time" "$@" >/dev/null 2>"$work/stderr" || {
		echo "failed: $*" >&2
		tail -5 "$work/stderr" >&2
		return 1
	}
	awk '{printf "%.2f %d\n", $1 + $2, $3}' "$work/time"
}

# median REPEAT timings of: prepare-command; timed-command...
# (prepare runs before each repetition and is not timed).
median() {
	local prep=$1
	shift
	for _ in $(seq "$repeat"); do
		eval "$prep"
			cpu "$@" || echo "n/a 0"
	done | sort -n | awk '{a[NR] = $0} END {print a[int((NR + 1) / 2)]}'
}

row() { printf '| %-28s | %5s | %9s | %10s |\n' "$@"; }
show() { # label N "cpu rss"
	local c m
	read -r c m <<<"$3"
	row "$1" "$2" "$c" "$((m / 1024))"
}
row command N "CPU s" "peak MiB"
row ---------------------------- ----- --------- ----------
ub=$work/umbench
uncache() { find "$@" -name results.summary.cache -delete; }
declare -A cold
for n in "${sizes[@]}"; do
	if [ "$n" = 1 ]; then
		show "summary (one run)" 1 "$(median : "$ub" summary --dataset "$from")"
		show "reproduce" 1 "$(median : "$ub" reproduce --dataset "$from")"
		show "report" 1 "$(median : "$ub" report --dataset "$from" --out "$work/report.html")"
		show "notebook cell: nb.Load" 1 "$(median : "$work/nbcell" -way load hbm host handoff)"
		show "notebook cell: Cover" 1 "$(median : "$work/nbcell" -way cover hbm host handoff)"
		if [ -n "${UMBENCH_BASE:-}" ]; then
			show "  before: summary" 1 "$(median : "$UMBENCH_BASE" summary --dataset "$from")"
			show "  before: reproduce" 1 "$(median : "$UMBENCH_BASE" reproduce --dataset "$from")"
			show "  before: report" 1 "$(median : "$UMBENCH_BASE" report --dataset "$from" --out "$work/report.html")"
		fi
		continue
	fi
	nodes=$(((n + 7) / 8))
	dirs=()
	for i in $(seq 0 $((nodes - 1))); do dirs+=("$fleet/$(printf node%03d "$i")"); done
	out=$work/merged-$n
	if [[ $commands == *" compare "* ]]; then
		cold[compare,$n]=$(median "uncache ${dirs[*]}" "$ub" compare "${dirs[@]}")
		show "compare, cold" "$n" "${cold[compare,$n]}"
		show "compare, warm" "$n" "$(median : "$ub" compare "${dirs[@]}")"
	fi
	if [[ $commands == *" merge "* ]]; then
		cold[merge,$n]=$(median "rm -rf $out; uncache ${dirs[*]}" "$ub" merge --out "$out" "${dirs[@]}")
		show "merge, cold" "$n" "${cold[merge,$n]}"
		show "merge, warm" "$n" "$(median "rm -rf $out" "$ub" merge --out "$out" "${dirs[@]}")"
	fi
	if [[ $commands == *" summary "* ]]; then
		[ -d "$out" ] || "$ub" merge --out "$out" "${dirs[@]}" >/dev/null
		cold[summary,$n]=$(median "uncache $out" "$ub" summary --data "$out")
		show "fleet summary, cold" "$n" "${cold[summary,$n]}"
		show "fleet summary, warm" "$n" "$(median : "$ub" summary --data "$out")"
	fi
	rm -rf "$out"
	if [ -n "${UMBENCH_BASE:-}" ] && [ "$n" -le 128 ]; then
		show "  before: compare" "$n" "$(median : "$UMBENCH_BASE" compare "${dirs[@]}")"
	fi
done
# Growth: the slope of log CPU against log N between the largest two sizes.
big=($(printf '%s\n' "${sizes[@]}" | grep -vx 1 | sort -n | tail -2))
if [ ${#big[@]} = 2 ]; then
	for c in $commands; do
		a=${cold[$c,${big[0]}]%% *} b=${cold[$c,${big[1]}]%% *}
		awk -v c="$c" -v a="$a" -v b="$b" -v n0="${big[0]}" -v n1="${big[1]}" \
			'BEGIN {printf "growth of %s (cold) from N = %d to %d: CPU ∝ N^%.2f\n", c, n0, n1, log(b / a) / log(n1 / n0)}'
	done
fi

# lib.sh: the small helpers .ci/container.sh and .ci/slurm.sh share.
# Source it after setting NAME (the script's name for its messages).
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
say() { echo "$NAME: $*"; }
# need_root WHY: stop with exit 2 unless running as root.
need_root() {
  if [[ $(id -u) -ne 0 ]]; then
    say "must run as root ($1)" >&2
    exit 2
  fi
}

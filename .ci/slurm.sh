#!/usr/bin/env bash
# slurm.sh runs slurm/umbench.sbatch on a real, one-node Slurm cluster on
# this machine, without GPUs:
#
#   1. installs Debian's slurmctld, slurmd, slurm-client and munge if they
#      are missing;
#   2. builds umbench;
#   3. writes a slurm.conf for this host on the loopback interface (CPUs as
#      nproc, no GPUs, no cgroups, no accounting) and a munge key, all under
#      a temporary directory, and starts munged, slurmctld and slurmd there;
#   4. submits the batch script in its no-GPU smoke mode
#      (UMBENCH_ARGS="summary --dataset paper-gb200 --format csv"):
#        - as an array of 3 tasks, then its collect step as a dependent job;
#        - as one job of 2 srun tasks, one of which fails (a wrapper around
#          umbench exits non-zero in task 1): the failure is recorded and
#          the other task's result is kept;
#   5. checks that every task left its part (<root>/<host>/<part>/ with
#      task.json and the command's CSV) and that tasks.tsv lists one line
#      per task, with the states expected;
#   6. stops the daemons and removes the temporary directory.
#
# Every step is time-bounded; on failure the Slurm and munge logs and the
# job outputs are printed. Must run as root (it starts the daemons).
#
# Usage: bash .ci/slurm.sh [--keep]     (--keep: leave the temporary directory)
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
keep=0
[[ ${1:-} == --keep ]] && keep=1

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
say() { echo "slurm.sh: $*"; }
t0=$(now)

if [[ $(id -u) -ne 0 ]]; then
  say "must run as root (it installs packages and starts the Slurm daemons)" >&2
  exit 2
fi

# --- 1. install ---------------------------------------------------------
pkgs=(slurmctld slurmd slurm-client munge)
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  say "installing ${pkgs[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # Keep the packages' maintainer scripts from starting the daemons (no
  # systemd here; this script starts its own).
  policy=/usr/sbin/policy-rc.d
  made_policy=0
  if [[ ! -e $policy ]]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy"
    chmod 755 "$policy"
    made_policy=1
  fi
  install() { timeout 900 apt-get install -y -q --no-install-recommends "${pkgs[@]}" >/tmp/slurm-ci-apt.log 2>&1; }
  if ! install; then
    say "apt-get install failed; updating the package lists and retrying"
    timeout 300 apt-get update -q >>/tmp/slurm-ci-apt.log 2>&1 || true
    install || {
      tail -n 40 /tmp/slurm-ci-apt.log >&2
      [[ $made_policy -eq 1 ]] && rm -f "$policy"
      exit 1
    }
  fi
  [[ $made_policy -eq 1 ]] && rm -f "$policy"
fi
t_install=$(now)
say "install: $(secs "$t0" "$t_install") s ($(slurmctld -V 2>/dev/null || echo '?'))"

# --- 2. build -----------------------------------------------------------
tmp="$(mktemp -d "${TMPDIR:-/tmp}/umlab-slurm.XXXXXX")"
chmod 755 "$tmp" # slurmd reads the spool and log directories below it
mkdir -p "$tmp"/{bin,etc,log,run,state,spool,munge,results,out}
timeout 600 go build -o "$tmp/bin/umbench" ./cmd/umbench
t_build=$(now)
say "build: $(secs "$t_install" "$t_build") s"

# --- 3. configure and start ---------------------------------------------
node=$(hostname -s)  # the Slurm node name
hostdir=$(uname -n)  # the host directory the tasks write (umbench's os.Hostname)
ncpu=$(nproc)
ctld_port=${SLURM_CI_CTLD_PORT:-16817}
slurmd_port=${SLURM_CI_SLURMD_PORT:-16818}
key="$tmp/munge/munge.key"
sock="$tmp/munge/munge.socket"
dd if=/dev/urandom of="$key" bs=1024 count=1 status=none
chmod 600 "$key"
chmod 711 "$tmp/munge" # munged wants its socket directory searchable
conf="$tmp/etc/slurm.conf"
cat >"$conf" <<EOF
# One-node cluster for .ci/slurm.sh; everything under $tmp.
ClusterName=umlabci
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sock
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/run/slurmctld.pid
SlurmdPidFile=$tmp/run/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MailProg=/bin/true
MinJobAge=600
KillWait=5
InactiveLimit=0
SlurmdTimeout=60
NodeName=$node NodeAddr=127.0.0.1 CPUs=$ncpu State=UNKNOWN
PartitionName=ci Nodes=$node Default=YES MaxTime=30 State=UP
EOF
export SLURM_CONF="$conf"

pids=()
cleanup() {
  local rc=$?
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    kill "${pids[i]}" 2>/dev/null || true
  done
  for p in "${pids[@]}"; do
    for _ in $(seq 50); do
      kill -0 "$p" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "$p" 2>/dev/null || true
  done
  if [[ $rc -ne 0 ]]; then
    say "FAILED (exit $rc); logs follow" >&2
    for f in "$tmp"/log/* "$tmp"/out/*; do
      [[ -f $f ]] || continue
      echo "----- $f (last 60 lines)" >&2
      tail -n 60 "$f" >&2
    done
    find "$tmp/results" -name tasks.tsv -exec sh -c 'echo "----- $1"; cat "$1"' _ {} \; >&2 2>/dev/null || true
  fi
  if [[ $keep -eq 1 ]]; then
    say "kept $tmp"
  else
    rm -rf "$tmp"
  fi
  exit $rc
}
trap cleanup EXIT

munged --force --key-file="$key" --socket="$sock" --pid-file="$tmp/run/munged.pid" \
  --log-file="$tmp/log/munged.log" --seed-file="$tmp/munge/munged.seed" --foreground >>"$tmp/log/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  [[ -S $sock ]] && break
  sleep 0.1
done
[[ -S $sock ]] || { say "munged did not start" >&2; exit 1; }
slurmctld -D -f "$conf" >>"$tmp/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$conf" -N "$node" >>"$tmp/log/slurmd.out" 2>&1 &
pids+=($!)

state=""
for _ in $(seq 120); do # 60 s
  state=$(timeout 5 sinfo -h -n "$node" -o '%T' 2>/dev/null || true)
  [[ $state == idle ]] && break
  sleep 0.5
done
[[ $state == idle ]] || { say "node $node is '${state:-unreachable}', not idle, after 60 s" >&2; exit 1; }
t_start=$(now)
say "daemons up, node $node idle with $ncpu CPUs: $(secs "$t_build" "$t_start") s"

# --- 4. submit ------------------------------------------------------------
smoke="summary --dataset paper-gb200 --format csv"
submit() { timeout 30 sbatch --parsable --chdir="$tmp" "$@"; }

array_root="$tmp/results/array"
array_job=$(UMBENCH="$tmp/bin/umbench" UMBENCH_RESULTS="$array_root" UMBENCH_ARGS="$smoke" \
  submit --array=0-2 --output="$tmp/out/array-%A_%a.out" slurm/umbench.sbatch)
collect_job=$(UMBENCH="$tmp/bin/umbench" UMBENCH_RESULTS="$array_root" UMBENCH_ARGS="$smoke" \
  submit --dependency="afterany:$array_job" --output="$tmp/out/collect-%j.out" slurm/umbench.sbatch collect)

# A wrapper that fails in task 1 of a step: a task failure must be recorded
# without stopping the job.
cat >"$tmp/bin/umbench-flaky" <<EOF
#!/bin/sh
if [ "\${SLURM_PROCID:-}" = 1 ]; then
  echo "umbench: simulated failure in task 1" >&2
  exit 3
fi
exec "$tmp/bin/umbench" "\$@"
EOF
chmod 755 "$tmp/bin/umbench-flaky"
step_root="$tmp/results/step"
step_job=$(UMBENCH="$tmp/bin/umbench-flaky" UMBENCH_RESULTS="$step_root" UMBENCH_ARGS="$smoke" UMBENCH_SRUN_OPTS="--ntasks=2" \
  submit --ntasks=2 --output="$tmp/out/step-%j.out" slurm/umbench.sbatch)
say "submitted array job $array_job (3 tasks), collect job $collect_job, step job $step_job (2 tasks)"

jobs=("$array_job" "$collect_job" "$step_job")
# finished: every job (and array task) is in a final state.
finished() {
  local j st
  for j in "${jobs[@]}"; do
    st=$(timeout 10 scontrol show job "$j" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p') || return 1
    [[ -n $st ]] || return 1
    while read -r s; do
      case $s in COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | PREEMPTED | BOOT_FAIL | DEADLINE) ;; *) return 1 ;; esac
    done <<<"$st"
  done
}
deadline=$((SECONDS + 300))
until finished; do
  if ((SECONDS > deadline)); then
    say "jobs not finished after 300 s:" >&2
    timeout 10 squeue >&2 || true
    exit 1
  fi
  sleep 1
done
t_jobs=$(now)
say "jobs finished: $(secs "$t_start" "$t_jobs") s"

# --- 5. check -------------------------------------------------------------
job_state() { timeout 10 scontrol show job "$1" | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -n 1; }
fail=0
check() { # check DESCRIPTION COMMAND...
  if "${@:2}"; then
    say "ok: $1"
  else
    say "FAIL: $1" >&2
    fail=1
  fi
}
states() { awk -F'\t' 'NR > 1 { print $3 }' "$1" | sort | tr '\n' ' '; }

for t in 0 1 2; do
  check "array task $t COMPLETED" test "$(job_state "${array_job}_$t")" = COMPLETED
done
check "collect job COMPLETED" test "$(job_state "$collect_job")" = COMPLETED
check "array: tasks.tsv lists 3 tasks, all ok" test "$(states "$array_root/tasks.tsv" 2>/dev/null)" = "ok ok ok "
for t in 0 1 2; do
  part="$array_root/$hostdir/task$t"
  check "array: part $hostdir/task$t has task.json and the summary CSV" \
    grep -q '^group,benchmark,mode' "$part/stdout.log"
  check "array: task.json of task $t says ok" grep -q '"state": "ok"' "$part/task.json"
done
check "step job FAILED (one task failed, recorded, job ran to its end)" test "$(job_state "$step_job")" = FAILED
check "step: tasks.tsv lists 2 tasks, one failed" test "$(states "$step_root/tasks.tsv" 2>/dev/null)" = "failed ok "
check "step: task 0's part has the summary CSV" grep -q '^group,benchmark,mode' "$step_root/$hostdir/task0/stdout.log"
check "step: task 1's failure is in its stderr.log" grep -q 'simulated failure in task 1' "$step_root/$hostdir/task1/stderr.log"
check "step: the job output names the failed task" grep -q "FAILED: $hostdir/task1" "$tmp/out/step-$step_job.out"
check "step: the two tasks ran at once, marked concurrent" grep -q '"fleet_mode": "concurrent"' "$step_root/$hostdir/task0/task.json"

t_end=$(now)
say "install $(secs "$t0" "$t_install") s, build $(secs "$t_install" "$t_build") s, daemons $(secs "$t_build" "$t_start") s, jobs $(secs "$t_start" "$t_jobs") s; total $(secs "$t0" "$t_end") s"
[[ $fail -eq 0 ]] || exit 1
say "all checks passed"

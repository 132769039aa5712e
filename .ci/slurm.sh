#!/usr/bin/env bash
# slurm.sh runs slurm/umbench.sbatch on a real two-node Slurm cluster on this
# machine, without GPUs:
#
#   1. installs Debian's slurmctld, slurmd, slurm-client and munge if they
#      are missing;
#   2. checks the script's refusals that need no cluster (UMBENCH_PART
#      with "/" or "..");
#   3. builds umbench, and the simulated umbench the run jobs use (below);
#   4. makes three network namespaces, each with its own hostname (a UTS
#      namespace) and an address that exists only inside them: "ctl"
#      (10.99.18.1, on a bridge) and the compute nodes "n1" and "n2"
#      (10.99.18.11, .12, on veth pairs to that bridge). No namespace has a
#      default route: the cluster's traffic stays on loopback and
#      10.99.18.0/24. The shared filesystem is this machine's;
#   5. starts munged (one socket, under a temporary directory), slurmctld in
#      "ctl" and a slurmd in "n1" and in "n2" (1 CPU each, so two tasks of
#      an array run on different nodes);
#   6. submits, from "ctl":
#        a. an array of 2 umbench runs on the simulated GPU (one per node),
#           then the collect step as a dependent job: both parts are merged
#           (umbench merge) and compared (umbench compare) across the hosts;
#        b. one job over both nodes, one srun task per node, whose task on
#           n2 fails: n2's failure is reported, n1's task runs to its end
#           and its results are kept;
#        c. an array of 2 in no-GPU smoke mode (umbench summary);
#   7. checks every part, tasks.tsv, the merged results and comparison, the
#      job states and outputs;
#   8. tears everything down: kills the daemons and every process left in
#      the namespaces, deletes the namespaces and the temporary directory.
#      This also happens when a step fails or the script is interrupted; at
#      the start the script checks it, by running itself with
#      --fail-after-start (the cluster comes up, then the script fails) and
#      looking for anything left behind.
#
# The simulated umbench: cmd/umbench's test binary, whose
# TestCIUmbenchSimulated runs umbench's own code on umkit/simgpu with a
# GPU UUID per host (cmd/umbench/ci_simulated_test.go). With
# SLURM_CI_USE_SIMULATE=1, "umbench run --simulate" instead, where this
# umbench has it (issue 14); the checks expect one GPU UUID per host.
#
# Every step is time-bounded; on failure the Slurm and munge logs and the
# job outputs are printed. Must run as root (packages, namespaces, daemons).
#
# Usage: bash .ci/slurm.sh [--keep]     (--keep: leave the temporary directory)
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
keep=0
fail_after_start=0
for a in "$@"; do
  case $a in
    --keep) keep=1 ;;
    --fail-after-start) fail_after_start=1 ;; # the teardown self-test
    *) echo "slurm.sh: unknown argument $a (want --keep)" >&2; exit 2 ;;
  esac
done

NAME=slurm.sh
# shellcheck source=lib.sh
source "$REPO/.ci/lib.sh"
t0=$(now)
need_root "it installs packages, makes network namespaces and starts the Slurm daemons"

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
command -v ip >/dev/null && command -v unshare >/dev/null && command -v nsenter >/dev/null ||
  { say "needs ip (iproute2), unshare and nsenter (util-linux)" >&2; exit 1; }
t_install=$(now)
[[ $fail_after_start -eq 1 ]] || say "install: $(secs "$t0" "$t_install") s ($(slurmctld -V 2>/dev/null || echo '?'))"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/umlab-slurm.XXXXXX")"
chmod 755 "$tmp" # slurmd reads the spool and log directories below it
mkdir -p "$tmp"/{bin,etc,log,run,state,spool/n1,spool/n2,munge,results,out}
ns=umci$$ # namespace names: $ns-ctl, $ns-n1, $ns-n2
nodes=(n1 n2)
pids=()
made_ns=()
fail=0

# teardown: kill what we started and whatever still runs in our namespaces
# (job steps), delete the namespaces, remove the directory. Runs on every
# exit, success or not.
cleanup() {
  local rc=$? p n i sig left
  trap - EXIT INT TERM
  # The daemons (behind nsenter/unshare) and any job step left: every
  # process in our namespaces, TERM then KILL, waiting until none is left.
  for n in "${made_ns[@]}"; do
    for sig in TERM KILL; do
      for _ in $(seq 50); do
        left=$(ip netns pids "$n" 2>/dev/null || true)
        [[ -z $left ]] && break
        # shellcheck disable=SC2086
        kill -s "$sig" $left 2>/dev/null || true
        sleep 0.1
      done
    done
    [[ -z $(ip netns pids "$n" 2>/dev/null || true) ]] || say "processes left in network namespace $n: $(ip netns pids "$n" | tr '\n' ' ')" >&2
    ip netns del "$n" 2>/dev/null || say "could not delete network namespace $n" >&2
  done
  # munged, and the shells that started the daemons (reaping them).
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
  wait 2>/dev/null || true
  if [[ $rc -ne 0 && $fail_after_start -eq 0 ]]; then
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
trap 'exit 130' INT
trap 'exit 143' TERM

# --- 2. refusals that need no cluster ---------------------------------------
if [[ $fail_after_start -eq 0 ]]; then
  # The part name becomes a directory under <root>/<host>/: "/" or ".."
  # would put it elsewhere. The task must refuse, write nothing, exit 2.
  for bad in ../escaped a/b .. . x/../../escaped -rf; do
    root="$tmp/results/part-check"
    rc=0
    UMBENCH=/bin/false UMBENCH_RESULTS="$root" UMBENCH_ARGS="summary" UMBENCH_PART="$bad" SLURM_ARRAY_TASK_ID=0 \
      bash slurm/umbench.sbatch >"$tmp/out/part-check.out" 2>&1 || rc=$?
    if [[ $rc -eq 2 ]] && grep -q 'UMBENCH_PART' "$tmp/out/part-check.out" &&
      [[ -z $(find "$tmp/results" -mindepth 1 -not -path "$root" -print -quit) && ! -e $tmp/escaped ]]; then
      say "ok: UMBENCH_PART='$bad' refused ($(head -n 1 "$tmp/out/part-check.out"))"
    else
      say "FAIL: UMBENCH_PART='$bad': exit $rc, want 2 and nothing written; output:" >&2
      cat "$tmp/out/part-check.out" >&2
      find "$tmp/results" "$tmp/escaped" >&2 2>/dev/null || true
      fail=1
    fi
    rm -rf "$tmp/results/part-check" "$tmp/escaped"
  done
fi

# --- 3. build -----------------------------------------------------------
if [[ -n ${SLURM_CI_BIN:-} ]]; then
  cp -a "$SLURM_CI_BIN"/. "$tmp/bin/" # the teardown self-test reuses the parent's
else
  timeout 600 go build -o "$tmp/bin/umbench" ./cmd/umbench
  if [[ ${SLURM_CI_USE_SIMULATE:-0} == 1 ]] && "$tmp/bin/umbench" run -h 2>&1 | grep -q -- '-simulate'; then
    printf '#!/bin/sh\nexec %q "$@"\n' "$tmp/bin/umbench" >"$tmp/bin/umbench-sim"
    sim_args="run --simulate --quick --groups hbm,host"
    echo "umbench run --simulate" >"$tmp/bin/simulated-by"
  else
    timeout 600 go test -c -o "$tmp/bin/umbench.test" ./cmd/umbench
    cat >"$tmp/bin/umbench-sim" <<EOF
#!/bin/sh
# umbench on umkit/simgpu (cmd/umbench/ci_simulated_test.go)
UMBENCH_CI_ARGS="\$*" exec "$tmp/bin/umbench.test" -test.run '^TestCIUmbenchSimulated\$'
EOF
    echo "cmd/umbench's TestCIUmbenchSimulated" >"$tmp/bin/simulated-by"
  fi
  chmod 755 "$tmp/bin/umbench-sim"
  echo "${sim_args:-run --quick --groups hbm,host}" >"$tmp/bin/simulated-args"
fi
sim_args=$(cat "$tmp/bin/simulated-args")
t_build=$(now)
[[ $fail_after_start -eq 1 ]] || say "build: $(secs "$t_install" "$t_build") s (simulated GPU: $(cat "$tmp/bin/simulated-by"))"

# The teardown self-test: run this script with --fail-after-start and look
# for what it leaves behind (its namespaces, directory, processes).
if [[ $fail_after_start -eq 0 ]]; then
  rc=0
  SLURM_CI_BIN="$tmp/bin" timeout 120 bash "${BASH_SOURCE[0]}" --fail-after-start >"$tmp/out/teardown-check.out" 2>&1 || rc=$?
  child_ns=$(sed -n 's/^slurm.sh: namespaces \([^ ]*\) up.*/\1/p' "$tmp/out/teardown-check.out")
  child_tmp=$(sed -n 's/^slurm.sh: directory \(.*\)$/\1/p' "$tmp/out/teardown-check.out")
  left=""
  if [[ -n $child_ns ]]; then
    left+=$(ip netns list | grep -- "^$child_ns-" || true)
  fi
  if [[ -n $child_tmp ]]; then
    [[ -e $child_tmp ]] && left+=" $child_tmp"
    for p in /proc/[0-9]*; do
      grep -qsF -- "$child_tmp" "$p/cmdline" && left+=" pid ${p#/proc/}"
    done
  fi
  if [[ $rc -eq 3 && -n $child_ns && -n $child_tmp && -z $left ]] && grep -q 'failing on purpose' "$tmp/out/teardown-check.out"; then
    say "ok: a run that fails after the cluster is up leaves nothing behind (namespaces $child_ns-*, $child_tmp, no processes)"
  else
    say "FAIL: teardown after a failure: exit $rc (want 3), left behind: ${left:-nothing}; its output:" >&2
    cat "$tmp/out/teardown-check.out" >&2
    fail=1
  fi
fi

# --- 4. network namespaces ------------------------------------------------
net=10.99.18
declare -A addr=([ctl]=$net.1 [n1]=$net.11 [n2]=$net.12)
# inns NAME COMMAND...: run in network namespace NAME. nsenter, not "ip
# netns exec", which mounts a sysfs of its own, without /sys/fs/cgroup
# (slurmd needs it).
inns() { local n=$1; shift; nsenter --net="/run/netns/$ns-$n" -- "$@"; }
hosts="$tmp/etc/hosts"
{
  echo "127.0.0.1 localhost"
  for n in ctl "${nodes[@]}"; do echo "${addr[$n]} $n"; done
} >"$hosts"
for n in ctl "${nodes[@]}"; do
  ip netns add "$ns-$n"
  made_ns+=("$ns-$n")
  ip -n "$ns-$n" link set lo up
done
ip -n "$ns-ctl" link add br0 type bridge
ip -n "$ns-ctl" addr add "${addr[ctl]}/24" dev br0
ip -n "$ns-ctl" link set br0 up
for n in "${nodes[@]}"; do
  ip link add "v-$n" netns "$ns-ctl" type veth peer name eth0 netns "$ns-$n"
  ip -n "$ns-ctl" link set "v-$n" master br0 up
  ip -n "$ns-$n" addr add "${addr[$n]}/24" dev eth0
  ip -n "$ns-$n" link set eth0 up
done
say "namespaces $ns up: ctl ${addr[ctl]}, n1 ${addr[n1]}, n2 ${addr[n2]}"
say "directory $tmp"

# --- 5. configure and start ---------------------------------------------
ctld_port=16817
slurmd_port=16818
key="$tmp/munge/munge.key"
sock="$tmp/munge/munge.socket"
dd if=/dev/urandom of="$key" bs=1024 count=1 status=none
chmod 600 "$key"
chmod 711 "$tmp/munge" # munged wants its socket directory searchable
conf="$tmp/etc/slurm.conf"
cat >"$conf" <<EOF
# Two-node cluster for .ci/slurm.sh; everything under $tmp, every address
# inside the network namespaces $ns-*.
ClusterName=umlabci
SlurmctldHost=ctl(${addr[ctl]})
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SrunPortRange=60001-60100
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sock
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool/%n
SlurmctldPidFile=$tmp/run/slurmctld.pid
SlurmdPidFile=$tmp/run/slurmd-%n.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd-%n.log
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
NodeName=n1 NodeHostname=n1 NodeAddr=${addr[n1]} CPUs=1 State=UNKNOWN
NodeName=n2 NodeHostname=n2 NodeAddr=${addr[n2]} CPUs=1 State=UNKNOWN
PartitionName=ci Nodes=n1,n2 Default=YES MaxTime=30 State=UP
EOF
export SLURM_CONF="$conf"

# in_host NAME COMMAND...: run in namespace NAME with hostname NAME and
# $hosts as /etc/hosts (a private mount namespace).
in_host() {
  local n=$1
  shift
  inns "$n" unshare --uts --mount --propagation private \
    sh -c 'hostname "$1" && mount --bind "$2" /etc/hosts && shift 2 && exec "$@"' sh "$n" "$hosts" "$@"
}

munged --force --key-file="$key" --socket="$sock" --pid-file="$tmp/run/munged.pid" \
  --log-file="$tmp/log/munged.log" --seed-file="$tmp/munge/munged.seed" --foreground >>"$tmp/log/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  [[ -S $sock ]] && break
  sleep 0.1
done
[[ -S $sock ]] || { say "munged did not start" >&2; exit 1; }
in_host ctl slurmctld -D -f "$conf" >>"$tmp/log/slurmctld.out" 2>&1 &
pids+=($!)
for n in "${nodes[@]}"; do
  in_host "$n" slurmd -D -f "$conf" -N "$n" >>"$tmp/log/slurmd-$n.out" 2>&1 &
  pids+=($!)
done

idle=""
for _ in $(seq 120); do # 60 s
  idle=$(inns ctl timeout 5 sinfo -h -N -t idle -o '%N' 2>/dev/null | sort -u | tr '\n' ' ' || true)
  [[ $idle == "n1 n2 " ]] && break
  sleep 0.5
done
[[ $idle == "n1 n2 " ]] || {
  say "nodes not idle after 60 s: $(inns ctl timeout 5 sinfo -h -N -o '%N %T' 2>&1 | tr '\n' ' ')" >&2
  exit 1
}
t_start=$(now)
say "daemons up, nodes n1 and n2 idle: $(secs "$t_build" "$t_start") s"
if [[ $fail_after_start -eq 1 ]]; then
  say "failing on purpose (--fail-after-start)"
  exit 3
fi

# --- 6. submit (from ctl) ---------------------------------------------------
submit() { inns ctl timeout 30 sbatch --parsable --chdir="$tmp" "$@"; }

run_root="$tmp/results/run"
run_job=$(UMBENCH="$tmp/bin/umbench-sim" UMBENCH_RESULTS="$run_root" UMBENCH_ARGS="$sim_args" \
  submit --array=0-1 --output="$tmp/out/run-%A_%a.out" slurm/umbench.sbatch)
collect_job=$(UMBENCH="$tmp/bin/umbench-sim" UMBENCH_RESULTS="$run_root" UMBENCH_ARGS="$sim_args" \
  submit --dependency="afterany:$run_job" --output="$tmp/out/collect-%j.out" slurm/umbench.sbatch collect)

# A wrapper that fails on n2: a task failure on one node must be recorded
# without stopping the task on the other.
cat >"$tmp/bin/umbench-flaky" <<EOF
#!/bin/sh
if [ "\$(uname -n)" = n2 ]; then
  echo "umbench: simulated failure on n2" >&2
  exit 3
fi
exec "$tmp/bin/umbench-sim" "\$@"
EOF
chmod 755 "$tmp/bin/umbench-flaky"
step_root="$tmp/results/step"
step_job=$(UMBENCH="$tmp/bin/umbench-flaky" UMBENCH_RESULTS="$step_root" UMBENCH_ARGS="$sim_args" \
  UMBENCH_SRUN_OPTS="--ntasks=2 --ntasks-per-node=1" \
  submit --nodes=2 --ntasks-per-node=1 --output="$tmp/out/step-%j.out" slurm/umbench.sbatch)

smoke_root="$tmp/results/smoke"
smoke_job=$(UMBENCH="$tmp/bin/umbench" UMBENCH_RESULTS="$smoke_root" UMBENCH_ARGS="summary --dataset paper-gb200 --format csv" \
  submit --array=0-1 --output="$tmp/out/smoke-%A_%a.out" slurm/umbench.sbatch)
say "submitted run array $run_job (2 tasks), collect $collect_job, two-node step job $step_job, smoke array $smoke_job"

jobs=("$run_job" "$collect_job" "$step_job" "$smoke_job")
# finished: every job (and array task) is in a final state.
finished() {
  local j st
  for j in "${jobs[@]}"; do
    st=$(inns ctl timeout 10 scontrol show job "$j" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p') || return 1
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
    inns ctl timeout 10 squeue >&2 || true
    exit 1
  fi
  sleep 1
done
t_jobs=$(now)
say "jobs finished: $(secs "$t_start" "$t_jobs") s"

# --- 7. check -------------------------------------------------------------
job_state() { inns ctl timeout 10 scontrol show job "$1" | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -n 1; }
job_node() { inns ctl timeout 10 scontrol show job "$1" | sed -n 's/.* NodeList=\([^ ]*\).*/\1/p' | head -n 1; }
check() { # check DESCRIPTION COMMAND...
  if "${@:2}"; then
    say "ok: $1"
  else
    say "FAIL: $1" >&2
    fail=1
  fi
}
col() { awk -F'\t' -v c="$2" 'NR > 1 { print $c }' "$1" 2>/dev/null | sort | tr '\n' ' '; }
# csv_col FILE NAME: the distinct values of a CSV column (no quoted commas here).
csv_col() { awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i; next } c { print $c }' "$1" 2>/dev/null | sort -u | tr '\n' ' '; }
# merged_col DIR COLUMN: the distinct values of a column over a merged
# directory's shards (umbench merge writes DIR/parts/<part>/results.csv).
merged_col() { cat "$1"/parts/*/results.csv 2>/dev/null | awk -F, -v n="$2" 'FNR == 1 && !c { for (i = 1; i <= NF; i++) if ($i == n) c = i; next } $1 == "group" { next } c { print $c }' | sort -u | tr '\n' ' '; }

for n in "${nodes[@]}"; do
  check "no default route in $n: only ${net}.0/24 and loopback are reachable" \
    test "$(inns "$n" ip -4 route show | awk '{ print $1 }' | tr '\n' ' ')" = "$net.0/24 "
done
check "no default route in ctl" test "$(inns ctl ip -4 route show | awk '{ print $1 }' | tr '\n' ' ')" = "$net.0/24 "

# a. run array + collect: one part per node, merged and compared across hosts.
for t in 0 1; do
  check "run array task $t COMPLETED" test "$(job_state "${run_job}_$t")" = COMPLETED
done
check "run array: the two tasks ran on different nodes ($(job_node "${run_job}_0"), $(job_node "${run_job}_1"))" \
  test "$(printf '%s\n' "$(job_node "${run_job}_0")" "$(job_node "${run_job}_1")" | sort | tr '\n' ' ')" = "n1 n2 "
check "collect job COMPLETED" test "$(job_state "$collect_job")" = COMPLETED
check "run: tasks.tsv lists a task on n1 and one on n2, both ok" \
  test "$(col "$run_root/tasks.tsv" 1)/$(col "$run_root/tasks.tsv" 3)" = "n1 n2 /ok ok "
for n in "${nodes[@]}"; do
  part=$(find "$run_root/$n" -mindepth 2 -maxdepth 2 -name results.csv -printf '%h\n' 2>/dev/null | head -n 1)
  check "run: $n's part has results.csv written on $n" test "$(csv_col "${part:-/nonexistent}/results.csv" host)" = "$n "
done
check "run: merge took 2 parts from 2 hosts" grep -q 'merged 2 part(s) from 2 host(s)' "$run_root/merge.txt"
check "run: the merged shards hold rows of n1 and n2" test "$(merged_col "$run_root/merged" host)" = "n1 n2 "
check "run: the merged shards hold two GPUs" test "$(merged_col "$run_root/merged" gpu_uuid | wc -w)" = 2
check "run: compare.txt compares n1's GPU with n2's" \
  bash -c 'grep -Eq "^ +n1 " "$1" && grep -Eq "^ +n2 " "$1" && grep -q "over 2 GPUs" "$1"' _ "$run_root/compare.txt"

# b. two-node step job, the task on n2 fails.
check "step job FAILED (n2's task failed, recorded; the job ran to its end)" test "$(job_state "$step_job")" = FAILED
check "step: the job ran on n1 and n2" test "$(job_node "$step_job")" = "n[1-2]"
check "step: tasks.tsv: n1 ok, n2 failed" \
  test "$(awk -F'\t' 'NR > 1 { print $1 ":" $3 }' "$step_root/tasks.tsv" 2>/dev/null | sort | tr '\n' ' ')" = "n1:ok n2:failed "
n1part=$(awk -F'\t' '$1 == "n1" { print $6 }' "$step_root/tasks.tsv" 2>/dev/null)
n2part=$(awk -F'\t' '$1 == "n2" { print $6 }' "$step_root/tasks.tsv" 2>/dev/null)
check "step: n1's task finished its run (results.csv, 'done in' in its stdout)" \
  bash -c 'test -s "$1/results.csv" && grep -q "^done in" "$1/stdout.log"' _ "${n1part:-/nonexistent}"
check "step: n2's failure is in its stderr.log" grep -q 'simulated failure on n2' "${n2part:-/nonexistent}/stderr.log"
check "step: the job output names the failed task on n2" grep -q "FAILED: n2/" "$tmp/out/step-$step_job.out"
check "step: n1's results were merged all the same" test "$(merged_col "$step_root/merged" host)" = "n1 "

# c. smoke array.
for t in 0 1; do
  check "smoke array task $t COMPLETED" test "$(job_state "${smoke_job}_$t")" = COMPLETED
done
check "smoke: tasks.tsv absent (no collect job), each part has the summary CSV" \
  bash -c 'test "$(find "$1" -mindepth 3 -maxdepth 3 -name stdout.log -exec grep -l "^group,benchmark,mode" {} + | wc -l)" = 2' _ "$smoke_root"

t_end=$(now)
say "install $(secs "$t0" "$t_install") s, build $(secs "$t_install" "$t_build") s, daemons $(secs "$t_build" "$t_start") s, jobs $(secs "$t_start" "$t_jobs") s; total $(secs "$t0" "$t_end") s"
[[ $fail -eq 0 ]] || exit 1
say "all checks passed"

#!/usr/bin/env bash
# container.sh builds the umlab image (docker/Dockerfile) with podman, on a
# Debian base made here by mmdebstrap (no Docker daemon, no image registry),
# runs it, and checks it from outside the container:
#
#   1. installs podman, runc and mmdebstrap (Debian) if missing, and
#      chromium and playwright-core (as .ci/browser.sh does);
#   2. makes the base: mmdebstrap --variant=minbase bookworm (the suite of
#      the image's default base, debian:bookworm-slim) into a tarball,
#      imported as localhost/umlab-ci-base:<sha256 of the tarball>;
#   3. podman build -f docker/Dockerfile --ignorefile
#      docker/Dockerfile.dockerignore --build-arg BASE_IMAGE=<that base>;
#   4. podman run -p 127.0.0.1:<free port>:8888 with a random token in a
#      file mounted read-only at /run/secrets/jupyter_token (as
#      docker/README.md tells users; never -e JUPYTER_TOKEN, which podman
#      inspect shows) and UMLAB_NOTEBOOK_MODE=bundled, the image's own
#      command, and checks:
#        - the port is published on the loopback interface only;
#        - JupyterLab read the token from the file, and it is in neither
#          the container's configuration (podman inspect) nor a command
#          line in the container;
#        - JupyterLab answers with the token (GET /api/status: 200);
#        - it refuses requests without the token or with a wrong one (403
#          from the API, /lab redirects to /login);
#        - every process in the container runs as the image's user umlab
#          (uid 1001), the JupyterLab server, GoNB kernel included;
#        - notebook 01 runs in a real browser (chromium, .ci/browser/run.mjs)
#          against the published port: every cell runs inside the
#          container, without errors, renders a figure, and its output
#          says "Data mode: bundled";
#   5. runs the image as slurm/umbench.sbatch's container mode does
#      (UMBENCH_CONTAINER=podman, the image's umbench, the job's uid), and
#      as an arbitrary uid without a passwd entry that owns the task
#      directory (--user 4242:4242): umbench runs and writes there;
#   6. removes the container (also when a step fails).
#
# Caching between runs (all optional; a fresh machine builds everything):
# the base tarball is kept in $UMLAB_CI_CACHE (default
# /var/cache/umlab-ci) and made again once a day (UTC); it is reproducible
# (SOURCE_DATE_EPOCH), so a day without new Debian packages gives the same
# tarball, the same base image and podman's layer cache keeps every step of
# the build whose inputs did not change. Old tarballs and dangling images
# are removed.
#
# Podman runs with runc, the cgroupfs cgroup manager and no default ulimits
# (CONTAINERS_CONF, written below): without them, on this CI machine
# (no systemd, cgroup v1 inside a VM) podman's setrlimit and its cgroup
# setup are refused. The machine reaches PyPI, the Go proxy and Debian only
# through a TLS-intercepting proxy whose CA the host trusts: the host's
# /usr/local/share/ca-certificates/*.crt are passed to the build as
# EXTRA_CA_CERTS (docker/README.md).
#
# Usage: bash .ci/container.sh [--keep]   (--keep: leave the container running)
# Artefacts: .ci/browser/artifacts/container/ (screenshots, JupyterLab log).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
keep=0
[[ ${1:-} == --keep ]] && keep=1
NAME=container.sh
# shellcheck source=lib.sh
source "$REPO/.ci/lib.sh"
t0=$(now)
need_root "podman's storage, mmdebstrap"

# --- 1. tools ---------------------------------------------------------------
need=()
for c in podman runc mmdebstrap; do command -v "$c" >/dev/null || need+=("$c"); done
[[ -x /usr/bin/chromium ]] || need+=(chromium)
if [[ ${#need[@]} -gt 0 ]]; then
  say "installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  inst() { timeout 900 apt-get install -y -q --no-install-recommends "${need[@]}" >/tmp/container-ci-apt.log 2>&1; }
  if ! inst; then
    timeout 300 apt-get update -q >>/tmp/container-ci-apt.log 2>&1 || true
    inst || { tail -n 40 /tmp/container-ci-apt.log >&2; exit 1; }
  fi
fi
(cd .ci/browser && if [[ ! -d node_modules/playwright-core ]]; then
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error; fi)
cache=${UMLAB_CI_CACHE:-/var/cache/umlab-ci}
mkdir -p "$cache"
export CONTAINERS_CONF="$cache/containers.conf"
cat >"$CONTAINERS_CONF" <<'EOF'
# Written by .ci/container.sh.
[containers]
default_ulimits = []
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
EOF
t_tools=$(now)
say "tools: $(secs "$t0" "$t_tools") s ($(podman --version))"

# --- 2. base ----------------------------------------------------------------
suite=bookworm
mirrors=(
  "deb http://deb.debian.org/debian $suite main"
  "deb http://deb.debian.org/debian $suite-updates main"
  "deb http://deb.debian.org/debian-security $suite-security main"
)
day=$(date -u +%Y-%m-%d)
argsum=$(printf '%s\n' minbase "$suite" "${mirrors[@]}" | sha256sum | cut -c1-8)
tarball="$cache/debian-$suite-minbase-$argsum-$day.tar"
if [[ ! -s $tarball ]]; then
  say "mmdebstrap --variant=minbase $suite -> $tarball"
  # A fixed SOURCE_DATE_EPOCH makes the tarball reproducible: the same
  # packages give the same bytes, hence the same base image.
  SOURCE_DATE_EPOCH=1700000000 timeout 900 mmdebstrap --quiet --variant=minbase --format=tar "$suite" "$tarball.tmp" "${mirrors[@]}" \
    >"$cache/mmdebstrap.log" 2>&1 || { tail -n 30 "$cache/mmdebstrap.log" >&2; rm -f "$tarball.tmp"; exit 1; }
  mv "$tarball.tmp" "$tarball"
fi
find "$cache" -maxdepth 1 -name "debian-$suite-minbase-*.tar" ! -name "$(basename "$tarball")" -delete
base="localhost/umlab-ci-base:$(sha256sum "$tarball" | cut -c1-16)"
if ! podman image exists "$base"; then
  say "podman import $tarball $base"
  podman import --quiet "$tarball" "$base" >/dev/null
fi
t_base=$(now)
say "base: $(secs "$t_tools" "$t_base") s ($base)"

# --- 3. build -------------------------------------------------------------
image=localhost/umlab:ci
ca=()
shopt -s nullglob
extra=(/usr/local/share/ca-certificates/*.crt)
shopt -u nullglob
[[ ${#extra[@]} -gt 0 ]] && ca=(--build-arg "EXTRA_CA_CERTS=$(cat "${extra[@]}")")
old_id=$(podman image inspect --format '{{.Id}}' "$image" 2>/dev/null || true)
blog="$cache/build.log"
if ! timeout 1800 podman build --layers -f docker/Dockerfile --ignorefile docker/Dockerfile.dockerignore \
  --build-arg "BASE_IMAGE=$base" "${ca[@]}" -t "$image" . >"$blog" 2>&1; then
  say "podman build failed; the end of its log ($blog):" >&2
  tail -n 60 "$blog" >&2
  exit 1
fi
new_id=$(podman image inspect --format '{{.Id}}' "$image")
cached=$(grep -c -- '--> Using cache' "$blog" || true)
steps=$(grep -c '^STEP ' "$blog" || true)
# Keep the layer cache of this build only: older bases and build tails go.
for img in $(podman images --format '{{.Repository}}:{{.Tag}}' --filter reference=localhost/umlab-ci-base); do
  [[ $img == "$base" ]] || podman rmi "$img" >/dev/null 2>&1 || true
done
podman image prune -f >/dev/null 2>&1 || true
t_build=$(now)
say "build: $(secs "$t_base" "$t_build") s ($cached of $steps steps cached; image ${new_id:0:12}$([[ $new_id == "$old_id" ]] && echo ', unchanged'))"

# --- 4. run and check from outside ----------------------------------------
art="$REPO/.ci/browser/artifacts/container"
rm -rf "$art"
mkdir -p "$art"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/umlab-container.XXXXXX")"
ctr="umlab-ci-$$"
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  podman logs "$ctr" >"$art/jupyterlab.log" 2>&1 || true
  if [[ $keep -eq 1 ]]; then
    say "kept container $ctr (podman rm -f $ctr)"
  else
    podman rm -f -t 5 "$ctr" >/dev/null 2>&1 || true
  fi
  rm -rf "$tmp"
  [[ $rc -eq 0 ]] || say "FAILED (exit $rc); JupyterLab's log: $art/jupyterlab.log" >&2
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail=0
check() { # check DESCRIPTION COMMAND...
  if "${@:2}"; then
    say "ok: $1"
  else
    say "FAIL: $1" >&2
    fail=1
  fi
}
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
token=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
# Only for the browser driver: expose JupyterLab's application object
# (window.jupyterapp), in an extra config directory (JUPYTER_CONFIG_PATH)
# mounted read-only. The command is the image's own.
mkdir -p "$tmp/jupyter"
echo '{"LabApp": {"expose_app_in_browser": true}}' >"$tmp/jupyter/jupyter_lab_config.json"
chmod -R a+rX "$tmp"
# The token as a user is told to give it: a file only the image's user
# (uid 1001) may read, mounted read-only as the secret docker/lab.sh reads.
(umask 077 && printf '%s\n' "$token" >"$tmp/token")
chown 1001:1001 "$tmp/token"
podman run -d --name "$ctr" -p "127.0.0.1:$port:8888" -v "$tmp/token:/run/secrets/jupyter_token:ro" -e UMLAB_NOTEBOOK_MODE=bundled \
  -v "$tmp/jupyter:/etc/umlab-ci-jupyter:ro" -e JUPYTER_CONFIG_PATH=/etc/umlab-ci-jupyter "$image" >/dev/null
url="http://127.0.0.1:$port"
code() { curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$@" || true; }
up=0
for _ in $(seq 240); do # 120 s
  [[ $(code "$url/api/status?token=$token") == 200 ]] && up=1 && break
  [[ $(podman inspect --format '{{.State.Running}}' "$ctr" 2>/dev/null) == true ]] || break
  sleep 0.5
done
t_up=$(now)
if [[ $up -ne 1 ]]; then
  say "JupyterLab did not answer on $url within 120 s; its log:" >&2
  podman logs "$ctr" 2>&1 | tail -n 40 >&2
  exit 1
fi
say "JupyterLab up on $url: $(secs "$t_build" "$t_up") s"

check "the port is published on 127.0.0.1 only ($(podman port "$ctr" 8888 | tr '\n' ' '))" \
  test "$(podman port "$ctr" 8888 | tr '\n' ' ')" = "127.0.0.1:$port "
check "nothing listens on port $port beyond 127.0.0.1" \
  test "$(ss -Hltn "sport = :$port" | awk '{ print $4 }' | sort -u | tr '\n' ' ')" = "127.0.0.1:$port "
check "JupyterLab read its token from the mounted file" \
  bash -c 'podman logs "$1" 2>&1 | grep -q "token read from /run/secrets/jupyter_token"' _ "$ctr"
check "the token is not in the container's configuration (podman inspect)" \
  bash -c '! podman inspect "$1" | grep -qF -- "$2"' _ "$ctr" "$token"
check "the token is on no command line in the container" \
  bash -c '! podman top "$1" args | grep -qF -- "$2"' _ "$ctr" "$token"
check "GET /api/status with the token: 200" test "$(code "$url/api/status?token=$token")" = 200
check "GET /api/status with the token in the header: 200" test "$(code -H "Authorization: token $token" "$url/api/status")" = 200
check "GET /api/status without the token: 403" test "$(code "$url/api/status")" = 403
check "GET /api/status with a wrong token: 403" test "$(code "$url/api/status?token=0$token")" = 403
check "GET /api/contents without the token: 403" test "$(code "$url/api/contents")" = 403
check "POST /api/kernels without the token: 403" test "$(code -X POST "$url/api/kernels")" = 403
check "GET /lab without the token: redirected to /login" \
  bash -c 'curl -s -o /dev/null -w "%{http_code} %{redirect_url}" --max-time 10 "$1/lab" | grep -q "^302 .*/login"' _ "$url"
check "the image's user is umlab" test "$(podman image inspect --format '{{.Config.User}}' "$image")" = umlab
check "podman exec: id is uid=1001(umlab)" bash -c 'podman exec "$1" id | grep -q "^uid=1001(umlab) gid=1001(umlab)"' _ "$ctr"

# Notebook 01 in chromium against the published port.
rc=0
LAB_URL="$url" LAB_TOKEN="$token" NOTEBOOK=01-baseline-paths.ipynb OUT="$art" EXPECT_TEXT="Data mode: bundled" \
  timeout 600 node .ci/browser/run.mjs >"$art/browser.log" 2>&1 || rc=$?
sed 's/^/  | /' "$art/browser.log"
check "notebook 01 ran in the container's JupyterLab, in bundled mode, rendering its figures" test "$rc" = 0
# The kernel is still running: every process, server and kernel, is umlab's.
# The host uid is read from /proc by host PID, not as podman's huser (a
# name from the host's /etc/passwd, which this script did not write).
users=$(podman top "$ctr" user hpid args 2>/dev/null | awk 'NR > 1')
echo "$users" | sed 's/^/  | /'
host_uids=$(awk '{ print $2 }' <<<"$users" | while read -r pid; do awk '/^Uid:/ { print $2 }' "/proc/$pid/status"; done | sort -u | tr '\n' ' ')
check "every process in the container runs as umlab (host uid 1001), the GoNB kernel included" \
  bash -c '[[ -n $1 && $2 == "1001 " ]] && ! grep -vq "^umlab " <<<"$1" && grep -q gonb <<<"$1" && grep -q jupyter-lab <<<"$1"' _ "$users" "$host_uids"
t_nb=$(now)

# --- 5. the image as Slurm's container mode runs it -------------------------
mkdir -p "$tmp/task" "$tmp/slurm"
chown 4242:4242 "$tmp/task"
chmod 700 "$tmp/task"
check "the image's umbench runs as uid 4242 (no passwd entry) and writes to a task directory only that uid may write" \
  bash -c 'podman run --rm --network none --user 4242:4242 -e HOME=/tmp -v "$2:$2" "$1" \
      sh -c "umbench summary --dataset paper-gb200 --format csv >$2/summary.csv" &&
    test "$(stat -c %u "$2/summary.csv")" = 4242 && grep -q "^group,benchmark,mode" "$2/summary.csv"' _ "$image" "$tmp/task"
rc=0
UMBENCH_CONTAINER=podman UMBENCH_IMAGE="$image" UMBENCH_RESULTS="$tmp/slurm" \
  UMBENCH_ARGS="summary --dataset paper-gb200 --format csv" SLURM_ARRAY_TASK_ID=0 \
  bash slurm/umbench.sbatch >"$tmp/sbatch.out" 2>&1 || rc=$?
check "slurm/umbench.sbatch with UMBENCH_CONTAINER=podman: the task ran umbench in the image" \
  bash -c 'test "$1" = 0 && grep -q "\"state\": \"ok\"" "$2"/*/task0/task.json && grep -q "^group,benchmark,mode" "$2"/*/task0/stdout.log' _ "$rc" "$tmp/slurm"
[[ $rc -eq 0 ]] || sed 's/^/  | /' "$tmp/sbatch.out" "$tmp"/slurm/*/task0/stderr.log 2>/dev/null || true
t_end=$(now)

say "tools $(secs "$t0" "$t_tools") s, base $(secs "$t_tools" "$t_base") s, build $(secs "$t_base" "$t_build") s, start $(secs "$t_build" "$t_up") s, checks and notebook $(secs "$t_up" "$t_nb") s, Slurm mode $(secs "$t_nb" "$t_end") s; total $(secs "$t0" "$t_end") s"
say "artefacts in $art"
[[ $fail -eq 0 ]] || exit 1
say "all checks passed"

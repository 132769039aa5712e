#!/usr/bin/env bash
# lab.sh starts JupyterLab on notebooks/; `bash docker/install.sh lab` (the
# image's command) runs it after the setup. Arguments go to jupyter lab.
#
# The token JupyterLab asks for, in order:
#   1. the file $JUPYTER_TOKEN_FILE, or /run/secrets/jupyter_token when it
#      exists (a Docker or Podman secret, or a file mounted read-only there);
#   2. $JUPYTER_TOKEN (works, but anyone who can run `docker inspect` or read
#      the container's configuration sees it: a warning says so);
#   3. otherwise a new random one (256 bits), printed once, in the URL to open.
# JupyterLab gets it in its environment, never on its command line (which
# `ps` shows to every user of the host), and masks it in its own log.
#
# JupyterLab listens on $UMLAB_LAB_IP:$UMLAB_LAB_PORT (default 127.0.0.1:8888).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
say() { printf 'lab.sh: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

file=${JUPYTER_TOKEN_FILE:-}
[[ -z $file && -f /run/secrets/jupyter_token ]] && file=/run/secrets/jupyter_token
printed=""
if [[ -n $file ]]; then
  [[ -f $file && -r $file ]] || die "JUPYTER_TOKEN_FILE=$file is not a readable file"
  token=$(head -c 4096 -- "$file" | tr -d '\r\n')
  [[ ${#token} -ge 16 ]] || die "the token in $file has ${#token} characters; use at least 16 (e.g. python3 -c 'import secrets; print(secrets.token_urlsafe(32))' > $file)"
  (($(stat -c '%a' -- "$file") % 10 >= 4)) && say "warning: $file is readable by every user of this system; chmod o-r it"
  say "token read from $file"
elif [[ -n ${JUPYTER_TOKEN:-} ]]; then
  token=$JUPYTER_TOKEN
  say "warning: JUPYTER_TOKEN came from the environment, which docker inspect shows; mount a file at /run/secrets/jupyter_token instead (docker/README.md)"
else
  token=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
  printed=1
fi
[[ $token =~ ^[[:graph:]]+$ ]] || die "the token holds spaces or control characters"
unset JUPYTER_TOKEN_FILE
export JUPYTER_TOKEN=$token

ip=${UMLAB_LAB_IP:-127.0.0.1} port=${UMLAB_LAB_PORT:-8888}
if [[ -n $printed ]]; then
  say "open http://127.0.0.1:$port/lab?token=$token (on the host: the port published for $port; this token is new and printed only here)"
else
  say "open http://127.0.0.1:$port/lab and give the token (on the host: the port published for $port)"
fi
cd "$REPO/notebooks"
root=()
[[ $(id -u) -eq 0 ]] && root=(--allow-root)
exec jupyter lab "${root[@]}" --no-browser --ServerApp.ip="$ip" --ServerApp.port="$port" \
  --ServerApp.root_dir="$REPO/notebooks" "$@"

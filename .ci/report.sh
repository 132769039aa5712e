#!/usr/bin/env bash
# report.sh renders `umbench report` for embedded datasets and opens each
# HTML file from disk in Debian's chromium (playwright-core, as
# .ci/browser.sh): no console or page errors, no request leaving the file,
# every figure decoded (naturalWidth > 0), the claims table present. A
# full-page screenshot of each is kept.
#
# Usage: bash .ci/report.sh [DATASET[,DATASET...] ...]
#   default: paper-gb200 and h200-2026-11-30-suite,h200-2026-12-01-handoff-interleaved,h200-2026-11-30-counters,h200-2026-12-01-handoff-counters
# Artefacts: .ci/report/artifacts/<name>/{report.html,report.png}
#
# Needs: Go, node and npm (20), and chromium (installed with apt-get when
# missing and running as root). No GPU.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
sets=("$@")
if [[ ${#sets[@]} -eq 0 ]]; then
  sets=(paper-gb200 h200-2026-11-30-suite,h200-2026-12-01-handoff-interleaved,h200-2026-11-30-counters,h200-2026-12-01-handoff-counters)
fi
if [[ ! -x /usr/bin/chromium ]]; then
  [[ $(id -u) -eq 0 ]] || { echo "report.sh: /usr/bin/chromium missing: apt-get install chromium" >&2; exit 1; }
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi
(cd .ci/browser && if [[ ! -d node_modules/playwright-core ]]; then
   PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error; fi)

bin="$(mktemp -d "${TMPDIR:-/tmp}/umlab-report.XXXXXX")"
trap 'rm -rf "$bin"' EXIT
CGO_CFLAGS="${CGO_CFLAGS:--O2 -g -Wno-deprecated-declarations}" go build -o "$bin/umbench" ./cmd/umbench

fail=0
for s in "${sets[@]}"; do
  name="${s%%,*}"
  art="$REPO/.ci/report/artifacts/$name"
  rm -rf "$art"; mkdir -p "$art"
  "$bin/umbench" report --dataset "$s" --out "$art/report.html"
  if REPORT="$art/report.html" OUT="$art" node .ci/browser/report.mjs; then
    echo "report.sh: $name ok ($art)"
  else
    echo "report.sh: $name FAILED ($art)" >&2
    fail=1
  fi
done
exit $fail

#!/usr/bin/env bash
# report.sh renders `umbench report` for embedded datasets and for a run
# on the simulated GPU, and opens each HTML file from disk in Debian's
# chromium (playwright-core, as .ci/browser.sh): no console or page errors,
# no request leaving the file, every figure an SVG (or PNG) data URI that
# decodes, the table of contents resolving, the methods paragraph, the
# claims table, and the SIMULATED banner on the simulated run only. A
# full-page screenshot of each is kept.
#
# Usage: bash .ci/report.sh [DATASET[,DATASET...] ...]
#   default: paper-gb200, h200-2026-12-02-setuploops, and "simulated" (a
#   quick run of two groups on the simulated GPU, made here)
# Artefacts: .ci/report/artifacts/<name>/{report.html,report.png}
#
# Needs: Go, node and npm (20), and chromium (installed with apt-get when
# missing and running as root). No GPU.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
sets=("$@")
if [[ ${#sets[@]} -eq 0 ]]; then
  sets=(paper-gb200 h200-2026-12-02-setuploops simulated)
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
  sim=0
  if [[ $s == simulated ]]; then
    sim=1
    "$bin/umbench" run --simulate --quick --groups hbm,managed --out "$bin/simulated" >/dev/null
    "$bin/umbench" report "$bin/simulated" --out "$art/report.html"
  else
    "$bin/umbench" report --dataset "$s" --out "$art/report.html"
  fi
  if REPORT="$art/report.html" OUT="$art" SIMULATED=$sim node .ci/browser/report.mjs; then
    echo "report.sh: $name ok ($art)"
  else
    echo "report.sh: $name FAILED ($art)" >&2
    fail=1
  fi
done
exit $fail

#!/usr/bin/env bash
# Regenerates check/prior_h200.json: the six back-to-back quick runs of
# datasets/h200-2026-12-03-repeat (one node) and, for the spread between
# nodes, the default suites of five other H200s and the quick run of a
# sixth, which left the embedded datasets at 25260de and are read from git
# history (the configurations they share with the quick suite).
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
hosts=()
for d in h200-2026-12-02-setuploops h200-2026-12-02-blockcheck h200-2026-12-02-rerun h200-2026-12-02-reallocate h200-2026-12-01-reallocate; do
  mkdir -p "$tmp/$d"
  for f in results.csv meta.json; do git show "af1c2cd:datasets/$d/$f" >"$tmp/$d/$f"; done
  hosts+=("$tmp/$d")
done
node=$(ls -d datasets/h200-2026-12-03-repeat/run* | paste -sd,)
go run ./check/internal/calibrate -gpu "NVIDIA H200" \
  -source "datasets/h200-2026-12-03-repeat (six quick runs on one node) and five default suites on other H200 nodes (git af1c2cd: h200-2026-12-0{1,2}-*)" \
  -node "$node" -hosts "$(IFS=,; echo "${hosts[*]}")" >"$tmp/prior.json"
mv "$tmp/prior.json" check/prior_h200.json

#!/usr/bin/env bash
# Regenerates check/prior_sim.json: the simulated GPU's calibration, made the
# way the H200's is (h200.sh) from six quick runs of `umbench run
# --simulate` with run-to-run noise (UMLAB_SIM_NOISE=1…6), so that
# `umbench check --simulate` judges simulated runs against the variation
# the simulator really has. The simulator is deterministic for a seed.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/umbench" ./cmd/umbench
node=()
for seed in 1 2 3 4 5 6; do
  UMLAB_SIM_NOISE=$seed "$tmp/umbench" run --simulate --quick --out "$tmp/run$seed" >/dev/null 2>"$tmp/log" || { cat "$tmp/log" >&2; exit 1; }
  node+=("$tmp/run$seed")
done
go run ./check/internal/calibrate -gpu "Fake GPU" \
  -source "six umbench run --simulate --quick processes, UMLAB_SIM_NOISE=1…6 (check/internal/calibrate/sim.sh)" \
  -node "$(IFS=,; echo "${node[*]}")" >"$tmp/prior.json"
mv "$tmp/prior.json" check/prior_sim.json

#!/bin/bash
# The coupled model's benchmark (docs/performance.md, "2026-11-26: coupled model"): time per coupling step and per
# simulated day (48 steps) of Ocean : Atmosphere, each on a site of its own, interleaved round by round:
#   native: each site started by its mpirun (nativempi inside the site), tcp between the sites;
#   tcp:    the same layout started by Weft's agent, --methods tcp (tcp everywhere).
# The papers' coupled climate model: 51.5 s (native inside, tcp between) against 65.9 s (tcp everywhere) per day.
# Usage: benchmarks/scripts/coupled.sh [ROUNDS] [RANKS_PER_COMPONENT] [NX] [NY]
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
np=${2:-2}
nx=${3:-1024}
ny=${4:-512}
cp=examples/target/classes
opts=(--nx "$nx" --ny "$ny" --steps 25 --substeps 8 --bench)
for i in $(seq "$rounds"); do
  for layout in native tcp; do
    if [ "$layout" = native ]; then
      launch=(--site "ocean:$np" --site "atmosphere:$np" --site-launcher ocean=mpirun --site-launcher atmosphere=mpirun)
    else
      launch=(--site "ocean:$np" --site "atmosphere:$np" --site-launcher ocean=weft --site-launcher atmosphere=weft
        --methods tcp)
    fi
    bin/weftrun "${launch[@]}" -cp "$cp" Ocean "${opts[@]}" : -np "$np" -cp "$cp" Atmosphere "${opts[@]}" 2>&1 \
      | awk -v l="$layout" -v i="$i" '$1=="BENCH"{print l, i, $2, $4 " ms/step", $7 " s/day"}'
  done
  uptime
done

#!/bin/bash
# The software cost of one-sided calls (docs/performance.md, "fifth session: one-sided per-call path"): per round,
# `weft bench windowcalls` (8-byte put + flush, get + flush, lock + put + unlock, fence on a window of one process;
# median and least of 15 rounds) from this build, from OTHER=DIR's build if given (another Weft tree, e.g. main's),
# and its C twin under Open MPI (benchmarks/src/main/c/window-calls.c), in that order; then `uptime`.
# Usage: [OTHER=DIR] benchmarks/scripts/window-calls.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpicc -O2 -o "$work/window-calls" benchmarks/src/main/c/window-calls.c
jar=$(ls benchmarks/target/benchmarks-*.jar | head -1)
builds=("$PWD")
[ -n "${OTHER:-}" ] && builds+=("$OTHER")
for i in $(seq "$rounds"); do
  for b in "${builds[@]}"; do # the benchmark's class from this tree, run by each build (the mpi API only)
    echo "# round $i, Weft $b"
    timeout 300 "$b/bin/weftrun" -np 1 -cp "$jar" org.weft.bench.path.WindowCalls 2>&1 | grep -v '^#' || true
  done
  echo "# round $i, Open MPI C"
  timeout 150 mpirun --allow-run-as-root -np 1 "$work/window-calls" 2>&1 | grep -v '^#' || true
  uptime
done

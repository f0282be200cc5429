#!/bin/bash
# One-sided figures, interleaved with their references (docs/performance.md, "2026-11-26: one-sided"):
# per round, the 0 B ping-pong without and with an idle window (--window), then 8-byte put and get latency with
# flush and with lock/unlock, Weft against Open MPI's C twin. Usage: benchmarks/scripts/one-sided.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-4}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpicc -O2 -o "$work/one-sided" benchmarks/src/main/c/one-sided.c
for i in $(seq "$rounds"); do
  for w in none --window; do
    arg=$w; [ "$w" = none ] && arg=""
    echo "pingpong $i $w $(timeout 150 bin/weft bench latency -m 0 -i 20000 $arg 2>&1 | awk '$1=="0"{print $2}')"
  done
  for op in put get; do
    for s in flush lock; do
      j=$(timeout 150 bin/weft bench "${op}_latency" -m 8 -i 1000 -s "$s" 2>&1 | awk '$1=="8"{print $2}')
      c=$(timeout 150 mpirun --allow-run-as-root -np 2 "$work/one-sided" "$op" "$s" 8 2>&1 | awk '$1=="8"{print $2}')
      echo "$op-$s $i java $j c $c"
    done
  done
  uptime
done

#!/bin/bash
# One-sided figures, interleaved with their references (docs/performance.md, "2026-11-26: one-sided"):
# per round, the 0 B ping-pong without and with an idle window (--window), then 8-byte put and get latency with
# flush, with lock/unlock and with fence, and the 1 MiB put with flush, Weft against Open MPI's C twin; with
# OTHER=DIR (another Weft build's tree, e.g. main's) the same Weft rows again from that build, in the same round.
# The 8-byte rows run 10 000 operations, as the C twin does (until the fifth session -i 1000, a tenth of C's).
# Usage: [OTHER=DIR] benchmarks/scripts/one-sided.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-4}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpicc -O2 -o "$work/one-sided" benchmarks/src/main/c/one-sided.c
builds=("$PWD")
[ -n "${OTHER:-}" ] && builds+=("$OTHER")
row() { # a Weft benchmark's figure for SIZE: row SIZE TREE ARGS...
  local size=$1 tree=$2; shift 2
  (timeout 300 "$tree/bin/weft" bench "$@" 2>&1 || true) | awk -v s="$size" '$1==s{print $2}' # a failed run: empty
}
for i in $(seq "$rounds"); do
  for b in "${builds[@]}"; do
    echo "pingpong $i $b $(row 0 "$b" latency -m 0 -i 5000) window $(row 0 "$b" latency -m 0 -i 5000 --window)"
  done
  for op in put get; do
    for s in flush lock fence; do
      line="$op-$s $i"
      for b in "${builds[@]}"; do
        line="$line $b $(row 8 "$b" "${op}_latency" -m 8 -s "$s")" # 10 000 iterations, as the C twin
      done
      c=$( (timeout 150 mpirun --allow-run-as-root -np 2 "$work/one-sided" "$op" "$s" 8 2>&1 || true) \
        | awk '$1=="8"{print $2}')
      echo "$line c $c"
    done
  done
  line="put-1MiB-flush $i"
  for b in "${builds[@]}"; do
    line="$line $b $(row 1048576 "$b" put_latency -m 1048576 -i 100 -s flush)"
  done
  c=$( (timeout 150 mpirun --allow-run-as-root -np 2 "$work/one-sided" put flush 1048576 2>&1 || true) \
    | awk '$1=="1048576"{print $2}')
  echo "$line c $c"
  uptime
done

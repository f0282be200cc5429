#!/usr/bin/env bash
# A/B of two Weft builds on the software cost of a message: `selfcost` (a send+recv to oneself over the rank's own
# shm ring, both ranks looping) from build A (BASE, another built checkout) and from this tree, ROUNDS times
# interleaved; pools the timed rounds of every run (5 per run, 1 M send+recv each) and prints per build the
# pool's percentiles. No other core is involved, so a change of a few nanoseconds shows where
# a ping-pong's placement noise hides it. Both builds run this tree's benchmark classes.
# Usage: BASE=../weft-base [SIZE=0] benchmarks/scripts/ab-selfcost.sh ROUNDS
rounds=${1:?ROUNDS}
base=$(cd "${BASE:?BASE=another built Weft checkout}" && pwd)
. "$(dirname "$0")/compare-common.sh"
classes=$PWD/benchmarks/target/classes
size=${SIZE:-0}

selfcost() { # $1: the build's directory; prints every timed round, one per line
  (cd "$1" && bin/weftrun -np 2 --param methods=shm -cp "$classes" org.weft.bench.path.SelfSendRecv -m "$size" \
    -i 1000000) | awk -v s="$size" '$1 == "#" && $2 == "rounds" && $3 == s ":" { for (i = 4; i <= NF; i++) print $i }'
}

for r in $(seq "$rounds"); do
  selfcost "$base" | sed 's/^/A /' >> "$work/all"
  selfcost "$PWD" | sed 's/^/B /' >> "$work/all"
done
for build in A B; do
  printf '%s ns per send+recv, %s B: %s\n' "$build" "$size" \
    "$(awk -v b=$build '$1 == b { print $2 }' "$work/all" | percentiles)"
done

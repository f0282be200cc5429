#!/usr/bin/env bash
# Weft against Open MPI's C in long runs of one size, ROUNDS times: each round runs Weft's steady ping-pong
# (org.weft.bench.path.SteadyLatency) and then its C twin (steady-latency.c) under mpirun's defaults, and prints both
# one-way medians and their ratio. Rounds in which the VM changed placement between the two runs show up as outlying
# ratios, so the median of the per-round ratios is the figure to quote. The weftrun arguments choose the methods
# (default -np 2; --site a:2 for nativempi). SIZE (default 0) and ITERATIONS (per window, default 100000) apply to both.
# With BASE (another built checkout) each round first runs that build too, printed in a last column (its ratio to
# Open MPI's C in the round is base/ompi-C): an A/B of two builds that also says in which placement each round ran.
# Usage: [BASE=../weft-base] [SIZE=0] benchmarks/scripts/steady-ratio.sh ROUNDS [WEFTRUN-ARGS...]
rounds=${1:?ROUNDS}
shift
[ $# -eq 0 ] && set -- -np 2
. "$(dirname "$0")/compare-common.sh"
mpicc -O2 -o "$work/steady-latency" benchmarks/src/main/c/steady-latency.c
size=${SIZE:-0}
iterations=${ITERATIONS:-100000}
one_way() { awk '/^steady/ { print $5 }'; }
# $1: the build's directory; the rest: weftrun arguments
steady() { steady_run "$1" "$size" "$iterations" "${@:2}" | one_way; }
columns="weft ompi-C ratio${BASE:+ base}"
printf '%-8s %-8s %-6s %s\n' $columns
for r in $(seq "$rounds"); do
  base=${BASE:+$(steady "$BASE" "$@")}
  weft=$(steady "$PWD" "$@")
  ompi=$(mpirun -np 2 "$work/steady-latency" "$size" "$iterations" | one_way)
  echo "$weft $ompi $base" | awk '{ printf "%-8s %-8s %-6.3f %s\n", $1, $2, $1 / $2, $3 }' | tee -a "$work/all"
done
for column in $(seq $(echo $columns | wc -w)); do
  values=$(awk -v c=$column '{ print $c }' "$work/all")
  printf '%-6s median %s\n' "$(echo $columns | cut -d' ' -f$column)" "$(echo "$values" | median)"
done

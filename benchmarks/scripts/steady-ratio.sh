#!/usr/bin/env bash
# Weft against Open MPI's C in long runs of one size, ROUNDS times: each round runs Weft's steady ping-pong
# (org.weft.bench.path.SteadyLatency) and then its C twin (steady-latency.c) under mpirun's defaults, and prints both
# one-way medians and their ratio. Rounds in which the VM changed placement between the two runs show up as outlying
# ratios, so the median of the per-round ratios is the figure to quote. The weftrun arguments choose the methods
# (default -np 2; --site a:2 for nativempi). SIZE (default 0) and ITERATIONS (per window, default 100000) apply to both.
# Usage: [SIZE=0] benchmarks/scripts/steady-ratio.sh ROUNDS [WEFTRUN-ARGS...]
rounds=${1:?ROUNDS}
shift
[ $# -eq 0 ] && set -- -np 2
. "$(dirname "$0")/compare-common.sh"
mpicc -O2 -o "$work/steady-latency" benchmarks/src/main/c/steady-latency.c
size=${SIZE:-0}
iterations=${ITERATIONS:-100000}
one_way() { awk '/^steady/ { print $5 }'; }
printf '%-8s %-8s %s\n' weft ompi-C ratio
for r in $(seq "$rounds"); do
  weft=$(bin/weftrun "$@" -cp benchmarks/target/classes org.weft.bench.path.SteadyLatency -m "$size" \
    -i "$iterations" | one_way)
  ompi=$(mpirun -np 2 "$work/steady-latency" "$size" "$iterations" | one_way)
  echo "$weft $ompi" | awk '{ printf "%-8s %-8s %.3f\n", $1, $2, $1 / $2 }' | tee -a "$work/all"
done
for column in 1 2 3; do
  values=$(awk -v c=$column '{ print $c }' "$work/all")
  printf '%-6s median %s\n' "$(echo "weft ompi-C ratio" | cut -d' ' -f$column)" "$(echo "$values" | median)"
done

#!/usr/bin/env bash
# A/B of two Weft builds on the ping-pong, with Open MPI's C in the same rounds: `steady` (SteadyLatency: windows of
# 100 000 round trips) from build A (BASE, another built checkout), from this tree, then steady-latency.c under
# mpirun, ROUNDS times interleaved. Pools the last 20 windows of every run and prints each one's percentiles: the
# VM's placement changes move whole windows, so the low percentiles compare the builds when it leaves them alone.
# The weftrun arguments choose the methods (default -np 2). Both builds run this tree's benchmark classes.
# ITERATIONS= sets the round trips of a window (default 100 000; fewer on a loaded machine, where a window of
# 100 000 can take a minute).
# Usage: BASE=../weft-base [SIZE=0] [ITERATIONS=100000] benchmarks/scripts/ab-steady.sh ROUNDS [WEFTRUN-ARGS...]
rounds=${1:?ROUNDS}
shift
[ $# -eq 0 ] && set -- -np 2
base=$(cd "${BASE:?BASE=another built Weft checkout}" && pwd)
. "$(dirname "$0")/compare-common.sh"
mpicc -O2 -o "$work/steady-latency" benchmarks/src/main/c/steady-latency.c
size=${SIZE:-0}
iterations=${ITERATIONS:-100000}

windows() { sed -n 's/^steady.*(windows \(.*\))$/\1/p' | tr ' ' '\n' | grep . | tail -20; }
# $1: the build's directory; the rest: weftrun arguments
steady() { steady_run "$1" "$size" "$iterations" "${@:2}" | windows; }

for r in $(seq "$rounds"); do
  steady "$base" "$@" | sed 's/^/A /' >> "$work/all"
  steady "$PWD" "$@" | sed 's/^/B /' >> "$work/all"
  mpirun -np 2 "$work/steady-latency" "$size" "$iterations" | windows | sed 's/^/ompi-C /' >> "$work/all"
done
for what in A B ompi-C; do
  printf '%-6s one-way us, %s B: %s\n' "$what" "$size" "$(awk -v w=$what '$1 == w { print $2 }' "$work/all" | percentiles)"
done

#!/usr/bin/env bash
# A/B of two Weft builds: runs Latency (0 B and 1 KiB rows) from build A (BASE, another built checkout, e.g. a
# `git worktree add --detach ../weft-base REV` after `./mvnw -q package -DskipTests` there), then from this tree, then
# Open MPI's C ping-pong, ROUNDS times interleaved, and prints each one's median and rounds. The weftrun arguments
# choose the methods (at least `-np 2`, or `--site a:2` for nativempi). Both builds run this tree's benchmark classes.
# OMPI_BTL picks Open MPI's transports (default vader,self; tcp,self to compare with Weft's tcp).
# Usage: BASE=../weft-base [ITERATIONS=200000] benchmarks/scripts/ab-latency.sh ROUNDS WEFTRUN-ARGS...
# e.g.   BASE=../weft-base benchmarks/scripts/ab-latency.sh 5 -np 2 --methods self,shm
rounds=${1:?ROUNDS}
shift
base=$(cd "${BASE:?BASE=another built Weft checkout}" && pwd)
. "$(dirname "$0")/compare-common.sh"
classes=$PWD/benchmarks/target/classes

latency() { # $1: the build's directory; the rest: weftrun arguments
  local dir=$1
  shift
  (cd "$dir" && bin/weftrun "$@" -cp "$classes" org.weft.bench.osu.Latency -m 1024 -i "${ITERATIONS:-200000}") \
    | pick_sizes 0 1024
}

for r in $(seq "$rounds"); do
  latency "$base" "$@" | sed 's/^/A /' >> "$work/all"
  latency "$PWD" "$@" | sed 's/^/B /' >> "$work/all"
  mpirun -np 2 --mca pml ob1 --mca btl "${OMPI_BTL:-vader,self}" "$work/pingpong" 1024 | pick_sizes 0 1024 \
    | sed 's/^/ompi /' >> "$work/all"
done

for impl in A B ompi; do
  for size in 0 1024; do
    values=$(awk -v i=$impl -v s=$size '$1 == i && $2 == s { print $3 }' "$work/all")
    printf '%-5s %5s B  median %6s us  rounds %s\n' "$impl" "$size" "$(echo "$values" | median)" \
      "$(echo "$values" | sort -g | tr '\n' ' ')"
  done
done
echo "A = $base, B = $PWD"

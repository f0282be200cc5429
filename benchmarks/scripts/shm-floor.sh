#!/usr/bin/env bash
# Where a 0-byte shm one-way goes, ROUNDS times interleaved: the machine's floor (one cache line, a fresh line per
# message) and Weft's bare ring (weft bench ringfloor), Weft's RSR ping-pong below MPI (pphandle), Weft's MPI
# ping-pong (latency) and Open MPI's C ping-pong over its shared memory. Prints each one's median and rounds.
# Usage: benchmarks/scripts/shm-floor.sh [ROUNDS]
rounds=${1:-5}
. "$(dirname "$0")/compare-common.sh"
for r in $(seq "$rounds"); do
  bin/weft bench ringfloor -i 1000000 | awk '/^(line|fresh-line|ring) / { print $1, $2 }' >> "$work/all"
  bin/weft bench pphandle -m 1 -i 200000 | awk '$1 == 1 { print "pphandle", $2 }' >> "$work/all"
  bin/weft bench latency -m 0 -i 200000 | awk '$1 == 0 { print "weft-mpi", $2 }' >> "$work/all"
  mpirun -np 2 --mca pml ob1 --mca btl vader,self "$work/pingpong" 0 | awk '$1 == 0 { print "ompi-C", $2 }' \
    >> "$work/all"
done
for what in line fresh-line ring pphandle weft-mpi ompi-C; do
  values=$(awk -v w=$what '$1 == w { print $2 }' "$work/all")
  printf '%-10s median %6s us  rounds %s\n' "$what" "$(echo "$values" | median)" "$(echo "$values" | tr '\n' ' ')"
done

#!/usr/bin/env bash
# The software cost of a message, Weft against Open MPI's C, ROUNDS times interleaved: each rank sends to itself and
# receives (no cross-core traffic), Weft's `weft bench selfcost` over its self method and over its own shm ring,
# then self-sendrecv.c under Open MPI (ob1, self BTL). Prints each one's median nanoseconds per send+recv.
# Usage: [SIZE=0] benchmarks/scripts/self-cost.sh [ROUNDS]
rounds=${1:-5}
. "$(dirname "$0")/compare-common.sh"
mpicc -O2 -o "$work/self-sendrecv" benchmarks/src/main/c/self-sendrecv.c
size=${SIZE:-0}
nanos() { awk -v s="$size" '$1 == s { print $2 }'; }
for r in $(seq "$rounds"); do
  bin/weft bench -np 2 selfcost -m "$size" -i 3000000 | nanos | sed 's/^/weft-self /' >> "$work/all"
  bin/weft bench -np 2 --param methods=shm selfcost -m "$size" -i 3000000 | nanos | sed 's/^/weft-shm /' >> "$work/all"
  mpirun -np 2 --mca pml ob1 "$work/self-sendrecv" "$size" | awk '/^self/ { print "ompi-C", $4 }' >> "$work/all"
done
for what in weft-self weft-shm ompi-C; do
  values=$(awk -v w=$what '$1 == w { print $2 }' "$work/all")
  printf '%-10s median %6s ns  rounds %s\n' "$what" "$(echo "$values" | median)" "$(echo "$values" | tr '\n' ' ')"
done

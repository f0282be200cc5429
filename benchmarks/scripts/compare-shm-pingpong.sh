#!/usr/bin/env bash
# Weft on one host with its default methods (shared memory once the shm module is in: self > shm > tcp) vs
# Open MPI in C over shared memory (--mca pml ob1 --mca btl vader,self: ob1 so that the btl choice is the one
# used, not UCX's pml), interleaved for ROUNDS rounds. Prints medians of one-way latency (us) at 0 B and 1 KiB and
# of ping-pong bandwidth (MB/s, size / one-way time) at 1 MiB and 4 MiB, for Weft with direct buffers, Weft with
# byte[] (--heap) and Open MPI C, then Weft / Open MPI ratios (latency: below 1 is better; bandwidth: above 1).
# INSIDE=nativempi runs Weft's ranks as one site started by mpirun (weftrun --site a:2), so that they talk through
# Open MPI itself (the nativempi method, libmpi through FFM) instead of Weft's shm.
# Needs the build (./mvnw -q package -DskipTests) and Open MPI (apt-get install openmpi-bin libopenmpi-dev).
# Usage: [INSIDE=shm|nativempi] benchmarks/scripts/compare-shm-pingpong.sh [ROUNDS]
rounds=${1:-5}
ranks=(-np 2)
if [ "${INSIDE:-shm}" = nativempi ]; then ranks=(--site a:2); fi
max=$((4 << 20))
. "$(dirname "$0")/compare-common.sh"

# Lines "size latency_us" for the sizes of the table.
pick() { pick_sizes 0 1024 1048576 4194304; }

for r in $(seq "$rounds"); do
  bin/weftrun "${ranks[@]}" -cp benchmarks/target/classes org.weft.bench.osu.Latency -m $max -i 50000 \
    | pick | sed 's/^/weft /' >> "$work/all"
  bin/weftrun "${ranks[@]}" -cp benchmarks/target/classes org.weft.bench.osu.Latency -m $max -i 50000 --heap \
    | pick | sed 's/^/weft-heap /' >> "$work/all"
  mpirun -np 2 --mca pml ob1 --mca btl vader,self "$work/pingpong" $max | pick | sed 's/^/ompi /' >> "$work/all"
done

# The median one-way latency (us) of implementation $1 at size $2.
latency() { awk -v i="$1" -v s="$2" '$1 == i && $2 == s { print $3 }' "$work/all" | median; }
# Bandwidth (MB/s) of a message of $1 bytes taking $2 us one way.
bandwidth() { echo "$1 / $2" | bc -l; }

printf '%-15s %10s %11s %13s %13s\n' impl "0 B (us)" "1 KiB (us)" "1 MiB (MB/s)" "4 MiB (MB/s)"
for impl in weft weft-heap ompi; do
  l0=$(latency $impl 0)
  l1=$(latency $impl 1024)
  b1=$(bandwidth 1048576 "$(latency $impl 1048576)")
  b4=$(bandwidth 4194304 "$(latency $impl 4194304)")
  printf '%-15s %10.2f %11.2f %13.0f %13.0f\n' $impl "$l0" "$l1" "$b1" "$b4"
  echo "$impl $l0 $l1 $b1 $b4" >> "$work/medians"
done
read -r _ o0 o1 ob1 ob4 < <(grep '^ompi ' "$work/medians")
for impl in weft weft-heap; do
  read -r _ l0 l1 b1 b4 < <(grep "^$impl " "$work/medians")
  printf '%-15s %10.2f %11.2f %13.2f %13.2f   (ratio to Open MPI C)\n' "$impl/ompi" \
    "$(echo "$l0 / $o0" | bc -l)" "$(echo "$l1 / $o1" | bc -l)" \
    "$(echo "$b1 / $ob1" | bc -l)" "$(echo "$b4 / $ob4" | bc -l)"
done
echo "rounds: $rounds (medians); raw rows (impl size one-way-us):"
cat "$work/all"

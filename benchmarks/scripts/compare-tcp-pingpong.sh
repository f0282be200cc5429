#!/usr/bin/env bash
# Weft over TCP loopback vs Open MPI in C over TCP (--mca btl tcp,self), interleaved for ROUNDS rounds, medians
# of one-way latency (us) at 0 B and 1 KiB and of bandwidth (MB/s) at 1 MiB. Needs the build
# (./mvnw -q package -DskipTests) and Open MPI (apt-get install openmpi-bin libopenmpi-dev).
# Usage: benchmarks/scripts/compare-tcp-pingpong.sh [ROUNDS]
rounds=${1:-5}
. "$(dirname "$0")/compare-common.sh"

# Lines "size latency_us" for 0, 1024 and 1048576 bytes.
pick() { pick_sizes 0 1024 1048576; }

for r in $(seq "$rounds"); do
  bin/weftrun -np 2 --param methods=tcp -cp benchmarks/target/classes org.weft.bench.osu.Latency -m 1048576 -i 20000 \
    | pick | sed 's/^/weft /' >> "$work/all"
  mpirun -np 2 --mca btl tcp,self "$work/pingpong" 1048576 | pick | sed 's/^/ompi /' >> "$work/all"
done

printf '%-8s %12s %12s %14s\n' impl "0 B (us)" "1 KiB (us)" "1 MiB (MB/s)"
for impl in weft ompi; do
  l0=$(awk -v i=$impl '$1 == i && $2 == 0 { print $3 }' "$work/all" | median)
  l1=$(awk -v i=$impl '$1 == i && $2 == 1024 { print $3 }' "$work/all" | median)
  lm=$(awk -v i=$impl '$1 == i && $2 == 1048576 { print $3 }' "$work/all" | median)
  printf '%-8s %12.2f %12.2f %14.0f\n' $impl "$l0" "$l1" "$(echo "1048576 / $lm" | bc -l)"
  echo "$impl $l0 $l1 $lm" >> "$work/medians"
done
echo "rounds: $rounds (medians); raw rows (impl size one-way-us):"
cat "$work/all"

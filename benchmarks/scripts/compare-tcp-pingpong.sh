#!/usr/bin/env bash
# Weft over TCP loopback vs Open MPI in C over TCP (--mca btl tcp,self), interleaved for ROUNDS rounds, medians
# of one-way latency (us) at 0 B and 1 KiB and of bandwidth (MB/s) at 1 MiB. Needs the build
# (./mvnw -q package -DskipTests) and Open MPI (apt-get install openmpi-bin libopenmpi-dev).
# Usage: benchmarks/scripts/compare-tcp-pingpong.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpicc -O2 -o "$work/pingpong" benchmarks/src/main/c/pingpong.c
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# Lines "size latency_us" for 0, 1024 and 1048576 bytes.
pick() { awk '$1 == 0 || $1 == 1024 || $1 == 1048576 { print $1, $2 }'; }

for r in $(seq "$rounds"); do
  bin/weftrun -np 2 -cp benchmarks/target/classes org.weft.bench.osu.Latency -m 1048576 -i 5000 \
    | pick | sed 's/^/weft /' >> "$work/all"
  mpirun -np 2 --mca btl tcp,self "$work/pingpong" 1048576 | pick | sed 's/^/ompi /' >> "$work/all"
done

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
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

#!/usr/bin/env bash
# MPI-IO against dd: a collective write of MIB MiB through a strided view (blocks of BLOCK bytes dealt round NP
# ranks; org.weft.bench.io.CollectiveWrite, writeAll + sync) and dd's sequential write of as many bytes
# (bs=4M conv=fsync) to the same file system (DIR), interleaved ROUNDS times; with INDEPENDENT=1 also the same
# view written with independent writes. Prints each one's median MB/s and Weft's ratio to dd.
# Usage: [NP=2] [MIB=1024] [BLOCK=65536] [DIR=/tmp] [INDEPENDENT=1] benchmarks/scripts/io-write.sh [ROUNDS]
set -euo pipefail
rounds=${1:-5}
np=${NP:-2}
mib=${MIB:-1024}
block=${BLOCK:-65536}
dir=${DIR:-/tmp}
file=$(mktemp "$dir/weft-io-write.XXXXXX")
all=$(mktemp)
trap 'rm -f "$file" "$all"' EXIT
cp=benchmarks/target/classes
for _ in $(seq "$rounds"); do
  rm -f "$file"
  start=$(date +%s%N)
  dd if=/dev/zero of="$file" bs=4M count=$((mib / 4)) conv=fsync status=none
  end=$(date +%s%N)
  echo "dd $(( mib * 1048576 * 1000 / (end - start) ))" >> "$all"
  bin/weftrun -np "$np" -cp "$cp" org.weft.bench.io.CollectiveWrite "$file" "$mib" "$block" \
    | awk '{print "weft-collective", int($4)}' >> "$all"
  if [ "${INDEPENDENT:-0}" = 1 ]; then
    bin/weftrun -np "$np" -cp "$cp" org.weft.bench.io.CollectiveWrite "$file" "$mib" "$block" independent \
      | awk '{print "weft-independent", int($4)}' >> "$all"
  fi
done
median() { grep "^$1 " "$all" | awk '{print $2}' | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
dd_median=$(median dd)
for label in dd weft-collective weft-independent; do
  grep -q "^$label " "$all" || continue
  m=$(median "$label")
  echo "$label median ${m} MB/s ($(grep -c "^$label " "$all") runs; $(awk -v a="$m" -v b="$dd_median" \
    'BEGIN {printf "%.2f", a / b}') of dd)"
done

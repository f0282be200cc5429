#!/usr/bin/env bash
# MPI-IO against dd: a collective write of MIB MiB through a strided view (blocks of BLOCK bytes dealt round NP
# ranks; org.weft.bench.io.CollectiveWrite, writeAll + sync) and dd's sequential write of as many bytes
# (bs=4M, then sync of the file: conv=fsync's work, timed in two) to the same file system (DIR), interleaved ROUNDS
# times, each line with its write phase before the sync ("write W ms"); with INDEPENDENT=1 also the same
# view written with independent writes; with BASELINE=DIR also the collective write by another build of Weft (a
# directory holding its bin/weftrun), for A/B in the same rounds. Prints each round's MB/s (and the ranks' CPU
# seconds) and ratio to that round's dd (dd swings several-fold under load) with the load, then each one's medians.
# HINTS=KEY=VALUE,... gives this build's collective write those file hints (romio_cb_write=enable forces two-phase).
# On a loaded machine, run it under `chrt -r 1` (real-time round robin, inherited by dd, weftrun and the ranks) to
# get close to a quiet machine's figures.
# Usage: [NP=2] [MIB=1024] [BLOCK=65536] [DIR=/tmp] [INDEPENDENT=1] [BASELINE=DIR] [HINTS=...]
#        benchmarks/scripts/io-write.sh [ROUNDS]
set -euo pipefail
rounds=${1:-5}
np=${NP:-2}
mib=${MIB:-1024}
block=${BLOCK:-65536}
dir=${DIR:-/tmp}
file=$(mktemp "$dir/weft-io-write.XXXXXX")
all=$(mktemp)
trap 'rm -f "$file" "$all"' EXIT
# weft LABEL HOME [independent|HINTS]: one run of this tree's benchmark class (public API only) on the build at
# HOME; prints "LABEL MB/s CPU-seconds write-ms".
weft() {
  "$2/bin/weftrun" -np "$np" -cp benchmarks/target/classes org.weft.bench.io.CollectiveWrite "$file" "$mib" \
    "$block" ${3:+"$3"} | awk -v label="$1" '{print label, int($4), $5, int($6 * 1000)}'
}
for round in $(seq "$rounds"); do
  rm -f "$file"
  start=$(date +%s%N)
  dd if=/dev/zero of="$file" bs=4M count=$((mib / 4)) status=none
  written=$(date +%s%N)
  sync "$file"
  end=$(date +%s%N)
  line="dd $(( mib * 1048576 * 1000 / (end - start) )) - $(( (written - start) / 1000000 ))"
  line="$line
$(weft weft-collective . "${HINTS:-}")"
  if [ -n "${BASELINE:-}" ]; then
    line="$line
$(weft weft-baseline "$BASELINE")"
  fi
  if [ "${INDEPENDENT:-0}" = 1 ]; then
    line="$line
$(weft weft-independent . independent)"
  fi
  dd_round=$(echo "$line" | awk '$1 == "dd" {print $2}')
  echo "$line" | awk -v r="$round" -v dd="$dd_round" -v load="$(cut -d' ' -f1 /proc/loadavg)" \
    '{printf "round %d %s %d MB/s (%.2f of dd; load %s)%s write %s ms\n", r, $1, $2, $2 / dd, load,
      $3 == "-" ? "" : " CPU " $3 " s", $4}' | tee -a "$all"
done
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
for label in dd weft-collective weft-baseline weft-independent; do
  grep -q " $label " "$all" || continue
  m=$(grep " $label " "$all" | awk '{print $4}' | median)
  ratio=$(grep " $label " "$all" | sed 's/.*(\([0-9.]*\) of dd.*/\1/' | median)
  cpu=$(grep " $label " "$all" | { grep CPU || true; } | sed 's/.* CPU \([0-9.]*\) s.*/\1/' | median)
  echo "$label median ${m} MB/s, median ratio to its round's dd ${ratio}${cpu:+, median CPU $cpu s}" \
    "($(grep -c " $label " "$all") rounds)"
done

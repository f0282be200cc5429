#!/usr/bin/env bash
# A fresh job's first seconds (issue 20, item 13): `weft bench warmup` (WarmUp: a blocking ping-pong from right after
# MPI_Init, in windows of 300 ms) and its C twin warm-up.c under Open MPI's mpirun, interleaved ROUNDS times, for
# 1 MiB (bandwidth) and 0 B (latency). Prints, per window, the median over the rounds of each one's one-way time and
# bandwidth (and, for Weft, rank 0's JIT compilers' CPU in the window, ms: what the ranks lost to compiling); and
# the first window's one-way over the steady one (the median of the last half), Weft's and C's.
# With BASE=another built Weft checkout, its Weft too (A/B). The weftrun arguments choose the methods (-np 2).
# Usage: [BASE=../weft-base] [SIZES="1048576 0"] benchmarks/scripts/warm-up.sh [ROUNDS] [WEFTRUN-ARGS...]
rounds=${1:-5}
shift || true
[ $# -eq 0 ] && set -- -np 2
. "$(dirname "$0")/compare-common.sh"
mpicc -O2 -o "$work/warm-up" benchmarks/src/main/c/warm-up.c

# $1: label, $2: size, the rest: the command; keeps "label size window one_way_us gbps" and "label size ratio R".
run() {
  local label=$1 size=$2
  shift 2
  "$@" > "$work/out" 2>&1 || { echo "warm-up.sh: $label failed:" >&2; cat "$work/out" >&2; exit 1; }
  awk -v l="$label" -v s="$size" '$1 == "window" { print l, s, $2, $6, $8, ($10 == "jit-cpu" ? $11 : "") }
    $1 == "warm-up" { print l, s, "ratio", $NF }' "$work/out" >> "$work/all"
}

for _ in $(seq "$rounds"); do
  for size in ${SIZES:-1048576 0}; do
    run weft "$size" bin/weftrun "$@" -cp "$bench_classes" org.weft.bench.path.WarmUp -m "$size"
    if [ -n "${BASE:-}" ]; then
      run base "$size" "$BASE/bin/weftrun" "$@" -cp "$bench_classes" org.weft.bench.path.WarmUp -m "$size"
    fi
    run ompi-C "$size" mpirun -np 2 "$work/warm-up" "$size"
  done
done
for size in ${SIZES:-1048576 0}; do
  echo "$size B, median of $rounds fresh jobs: window  one-way us (GB/s) per build"
  labels="weft ${BASE:+base} ompi-C"
  for w in $(seq 10); do
    line=$(printf 'window %2d' "$w")
    for l in $labels; do
      us=$(awk -v l="$l" -v s="$size" -v w="$w" '$1 == l && $2 == s && $3 == w { print $4 }' "$work/all" | median)
      jit=""
      if [ "$l" != ompi-C ]; then
        jit=$(awk -v l="$l" -v s="$size" -v w="$w" '$1 == l && $2 == s && $3 == w { print $6 }' "$work/all" | median)
      fi
      line="$line  $l $(awk -v u="$us" -v s="$size" -v j="$jit" 'BEGIN { printf "%.3f (%.2f)%s", u, s / u / 1e3,
        j == "" ? "" : sprintf(" jit %.0f ms", j) }')"
    done
    echo "$line"
  done
  for l in $labels; do
    echo "$l first/steady: $(awk -v l="$l" -v s="$size" '$1 == l && $2 == s && $3 == "ratio" { print $4 }' \
      "$work/all" | median)"
  done
done

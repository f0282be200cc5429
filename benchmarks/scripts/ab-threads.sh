#!/usr/bin/env bash
# A/B of two Weft builds on THREAD_MULTIPLE round trips (issue 20, item 10): `weft bench threads` (ThreadedRoundTrips:
# T threads per rank share N blocking 0 B round trips, each thread on its own tag) from build A (BASE, another built
# checkout) and from this tree, over each method set of METHODS, ROUNDS times interleaved. Prints every run's
# microseconds per round trip for each thread count, then the medians over the rounds and the median of the per-round
# ratios T threads / 1 thread (the issue's target: at most 1). Both builds run this tree's benchmark classes.
# Extra arguments go to weftrun of both builds; A_ARGS and B_ARGS to one of them only (BASE defaults to this tree,
# so that e.g. A_ARGS="--param poll_hand_off=no" compares a parameter's two settings in one build).
# Usage: [BASE=../weft-base] [A_ARGS=...] [B_ARGS=...] [METHODS="self,tcp self,shm"] [THREADS=1,2,4]
#        [ITERATIONS=20000] benchmarks/scripts/ab-threads.sh ROUNDS [WEFTRUN-ARGS...]
rounds=${1:?ROUNDS}
shift
base=$(cd "${BASE:-.}" && pwd)
. "$(dirname "$0")/compare-common.sh"
methods=${METHODS:-self,tcp self,shm}
threads=${THREADS:-1,2,4}
iterations=${ITERATIONS:-20000}

# $1: the build's directory, $2: the methods; the rest: weftrun arguments. Prints "T us" per thread count.
threaded() {
  (cd "$1" && timeout 600 bin/weftrun -np 2 --param "methods=$2" "${@:3}" -cp "$bench_classes" \
    org.weft.bench.path.ThreadedRoundTrips -t "$threads" -i "$iterations") |
    awk '$1 == "threads" { print $2, $(NF - 4) }'
}

for r in $(seq "$rounds"); do
  for m in $methods; do
    for build in A B; do
      dir=$base
      extra=${A_ARGS:-}
      [ "$build" = B ] && dir=$PWD && extra=${B_ARGS:-}
      # shellcheck disable=SC2086 # an option list
      threaded "$dir" "$m" $extra "$@" | while read -r t us; do
        echo "$r $m $build $t $us" | tee -a "$work/all"
      done
    done
  done
  echo "# round $r done, load: $(cut -d' ' -f1-3 /proc/loadavg)"
done
echo "# medians over $rounds rounds, us per round trip (and T threads / 1 thread, median of the per-round ratios)"
for m in $methods; do
  for build in A B; do
    line="$m $build:"
    for t in ${threads//,/ }; do
      us=$(awk -v m="$m" -v b=$build -v t="$t" '$2 == m && $3 == b && $4 == t { print $5 }' "$work/all" | median)
      ratio=$(awk -v m="$m" -v b=$build -v t="$t" '$2 == m && $3 == b && $4 == 1 { one[$1] = $5 }
        $2 == m && $3 == b && $4 == t { mine[$1] = $5 } END { for (r in mine) if (r in one) print mine[r] / one[r] }' \
        "$work/all" | median)
      line="$line  $t: $us ($ratio)"
    done
    echo "$line"
  done
done

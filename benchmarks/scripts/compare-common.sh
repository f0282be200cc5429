# Sourced by the compare-*-pingpong.sh scripts: goes to the source root, builds the C reference ping-pong into a
# scratch directory ($work, removed on exit) and lets Open MPI run as root; defines median, pick_sizes, percentiles
# and steady_run.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpicc -O2 -o "$work/pingpong" benchmarks/src/main/c/pingpong.c
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# The median of the numbers on stdin, one per line.
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Keeps the "size latency_us" columns of the rows whose size is one of the arguments.
pick_sizes() { awk -v sizes=" $* " 'index(sizes, " " $1 " ") { print $1, $2 }'; }

# "count min p10 p25 median" of the numbers on stdin, one per line: for pools of windows from several runs, where
# the low percentiles show what a build does when the VM leaves it alone and the median what it does on the whole.
percentiles() {
  sort -g | awk '{ v[NR] = $1 } END { printf "n=%d min %s p10 %s p25 %s median %s\n", NR, v[1], v[int(NR * 0.1) + 1],
    v[int(NR * 0.25) + 1], v[int(NR / 2) + 1] }'
}

# Runs `weft bench steady` (SteadyLatency) of the build in directory $1 with this tree's benchmark classes, $2 bytes,
# $3 round trips a window; the rest are weftrun arguments. Prints the benchmark's output (A/B scripts run two builds).
steady_run() {
  local dir=$1 size=$2 iterations=$3
  shift 3
  (cd "$dir" && bin/weftrun "$@" -cp "$bench_classes" org.weft.bench.path.SteadyLatency -m "$size" -i "$iterations")
}
bench_classes=$PWD/benchmarks/target/classes

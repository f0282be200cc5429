# Sourced by the compare-*-pingpong.sh scripts: goes to the source root, builds the C reference ping-pong into a
# scratch directory ($work, removed on exit) and lets Open MPI run as root; defines median and pick_sizes.
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

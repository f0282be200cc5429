#!/usr/bin/env bash
# The Nexus papers' Figure 7 for Weft: what tcp beside shm costs the shm ping-pong, for a tcp_skip_poll sweep.
# Each round runs, interleaved, one `weft bench ppmulti` job with tcp absent (--param methods=self,shm) and, for
# every skip_poll N, one with tcp idle (methods=self,shm,tcp, tcp_skip_poll=N) and one with tcp busy (the same,
# plus --tcp-load: a tcp ping-pong in the same processes). Parameters are read when the device opens, hence one job
# per setting. Prints, per size, medians over the rounds: shm one-way latency in the three cases, the ratios to
# tcp absent, and the tcp one-way latency under load; then the raw rows.
# INSIDE=nativempi measures the same against native MPI instead of shm (issue 4's "polling across methods"): the two
# ranks then form one site started by mpirun (weftrun --site a:2), so thread A's startpoint is nativempi.
# Needs the build (./mvnw -q package -DskipTests). The figures are only worth something on an otherwise idle machine.
# Usage: [INSIDE=shm|nativempi] benchmarks/scripts/ppmulti-sweep.sh [ROUNDS [SKIP_POLL...]]
#   environment: SIZES (default 0; e.g. 0,1024), ITERATIONS per repetition (default 10000), REPETITIONS per job
#   (default 5; the job prints their median), TIMEOUT per job in seconds (default 120)
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
shift || true
if [ $# -gt 0 ]; then skips=("$@"); else skips=(1 2 4 8 16 64); fi
sizes=${SIZES:-0}
inside=${INSIDE:-shm}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Runs one job: $1 is ppmulti's extra option ("" or --tcp-load), the rest weft bench options. Keeps its data rows
# ("case skip_poll size A_us B_us") and its line naming the methods each thread used.
job() {
  local load=$1 out="$work/job.out"
  shift
  local launch=(bin/weft bench --timeout "${TIMEOUT:-120}" "$@" ppmulti)
  if [ "$inside" = nativempi ]; then
    launch=(bin/weftrun --timeout "${TIMEOUT:-120}" --site a:2 "$@" -cp "$(ls benchmarks/target/benchmarks-*.jar | head -1)"
      org.weft.bench.nexus.PpMulti)
  fi
  if "${launch[@]}" -s "$sizes" -i "${ITERATIONS:-10000}" -r "${REPETITIONS:-5}" $load > "$out" 2>&1; then
    grep -v '^#' "$out" >> "$work/rows" || true
    grep '^# methods' "$out" >> "$work/notes" || true
  else
    echo "ppmulti-sweep: job failed ($* $load):" >&2
    cat "$out" >&2
  fi
}

for r in $(seq "$rounds"); do
  job "" --param methods=self,$inside
  for n in "${skips[@]}"; do
    job "" --param methods=self,$inside,tcp --param tcp_skip_poll="$n"
    job --tcp-load --param methods=self,$inside,tcp --param tcp_skip_poll="$n"
  done
done

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# The median of column $4 (4 = shm us, 5 = tcp us) of the rows of case $1, skip_poll $2, size $3.
pick() { awk -v c="$1" -v k="$2" -v s="$3" -v col="$4" '$1 == c && $2 == k && $3 == s { print $col }' "$work/rows" | median; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0 || a == "nan" || b == "nan") print "nan"; else printf "%.3f", a / b }'; }

echo "# ppmulti sweep: $rounds rounds (medians), sizes $sizes, ${ITERATIONS:-10000} iterations x ${REPETITIONS:-5} per job"
echo "# load when it ended: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
for size in ${sizes//,/ }; do
  absent=$(pick absent - "$size" 4)
  echo "# size $size B; $inside one-way latency (us) with tcp absent: $absent"
  printf '%-9s %15s %10s %15s %10s %15s\n' skip_poll "$inside idle (us)" "/absent" "$inside busy (us)" "/absent" "tcp busy (us)"
  for n in "${skips[@]}"; do
    idle=$(pick idle "$n" "$size" 4)
    busy=$(pick busy "$n" "$size" 4)
    tcp=$(pick busy "$n" "$size" 5)
    printf '%-9s %15s %10s %15s %10s %15s\n' "$n" "$idle" "$(ratio "$idle" "$absent")" "$busy" \
      "$(ratio "$busy" "$absent")" "$tcp"
  done
done
echo "# methods each job used (rank 0):"
sort "$work/notes" | uniq -c
echo "# raw rows (case skip_poll size shm_us tcp_us):"
cat "$work/rows"

#!/usr/bin/env bash
# Weft's collectives on one host (default methods: shm) vs Open MPI in C (collectives.c over vader,self), in the
# same `weft bench --reference` invocation, interleaved for ROUNDS rounds (round by round, every collective and ranks
# count in turn): allreduce, bcast, reduce, allgather, alltoall, gather, scatter, barrier, reduce_scatter_block at 2
# and 4 ranks, sizes 4 B .. 4 MiB (1 B for the byte collectives; barrier: one row, 0 B). Writes to OUT:
#   COLL-npN.csv        per size the median over rounds of each side's average microseconds per call and
#                       Weft / Open MPI C (below 1: Weft is faster), one weft bench CSV per collective and ranks count;
#   COLL.png, COLL.csv  the ranks counts side by side (`weft bench compare --plot`);
#   collectives.csv     every row of those in one long table: collective,ranks,size,weft_us,openmpi_us,ratio;
#   collectives.md      the ratios as markdown, a table per ranks count (a row per collective, a column per size),
#                       then each collective's microseconds; with the load of every round;
#   ratios.csv, ratios.png   Weft / Open MPI C per collective and size, a panel per ranks count.
# COLLS may also name the nonblocking forms, each call started and waited for at once: iallreduce, ibarrier, ireduce,
# ireduce_scatter_block, ibcast, iallgather, ialltoall, igather, iscatter.
# Each run warms up for at least WARM seconds (default 1; both sides: passes of every size, as the timed one) so that
# the JIT has compiled before anything is timed.
# BIND chooses Weft's binding (the C twin's is mpirun's default: Open MPI 4.1 binds 2 ranks to cores and leaves 4 on
# 2 cores unbound). Unset: as weftrun runs programs (bind_to=auto: with as many ranks as CPUs, each rank's MPI thread
# to its core); BIND=none: nothing bound; BIND=core: every thread of each rank bound when the ranks fit the cores.
# See performance.md, "Idle figures at the eighth session's end", for what each does.
# QUICK=1 is a smoke test (sizes up to 1 KiB, 50 iterations, 1 round, no warm-up time); figures from it mean nothing.
# Needs the build (./mvnw -q package -DskipTests) and Open MPI (apt-get install openmpi-bin libopenmpi-dev).
# Usage: [COLLS="allreduce bcast"] [NPS="2 4"] [MAX=4194304] [ITER=1000] [WARM=1] [BIND=auto|none|core] [QUICK=1]
#        [OUT=dir] benchmarks/scripts/compare-collectives.sh [ROUNDS]
quick=${QUICK:-0}
rounds=${1:-$([ "$quick" = 1 ] && echo 1 || echo 3)}
. "$(dirname "$0")/compare-common.sh"
colls=${COLLS:-allreduce bcast reduce allgather alltoall gather scatter barrier reduce_scatter_block}
nps=${NPS:-2 4}
iterations=${ITER:-$([ "$quick" = 1 ] && echo 50 || echo 1000)}
max=${MAX:-$([ "$quick" = 1 ] && echo 1024 || echo $((4 << 20)))}
warm=${WARM:-$([ "$quick" = 1 ] && echo 0 || echo 1)}
out=${OUT:-benchmarks/target/compare-collectives}
mkdir -p "$out"
loads=()

for r in $(seq "$rounds"); do
  loads+=("round $r: $(uptime | sed 's/.*average: //')")
  echo "round $r of $rounds, load ${loads[-1]#*: }"
  for coll in $colls; do
    for np in $nps; do
      bind=()
      case "${BIND:-auto}" in
        none) bind=(--param bind_to=none) ;;
        core) [ "$np" -le "$(nproc)" ] && bind=(--param bind_to=core) ;;
      esac
      bin/weft bench "${bind[@]}" -np "$np" "$coll" -m "$max" -i "$iterations" -w "$warm" --reference \
        --csv "$work/$coll-np$np-$r.csv" \
        > "$work/$coll-np$np-$r.out" 2>&1 || { cat "$work/$coll-np$np-$r.out" >&2; exit 1; }
    done
  done
done
loads+=("after: $(uptime | sed 's/.*average: //')")

# Median per row and column of the CSVs $2.. (weft bench --csv with --reference: size, Weft, Open MPI C), with a
# third column Weft / Open MPI C, written as one weft bench CSV to $1.
median_csv() {
  local to=$1
  shift
  { grep -h '^# title' "$1"; echo "# rounds: $rounds (medians); load: ${loads[*]}"
    sed -n '/^[^#]/{p;q}' "$1" | sed 's/$/,Ratio [Weft \/ Open MPI C]/'
    awk -F, '!/^#/ && $1 ~ /^[0-9]+$/ { n = ++count[$1]; w[$1, n] = $2; o[$1, n] = $3; if (!seen[$1]++) order[++rows] = $1 }
      function med(a, key, n,    i, j, t, v) {
        for (i = 1; i <= n; i++) v[i] = a[key, i]
        for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
        return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
      }
      END { for (k = 1; k <= rows; k++) { s = order[k]; mw = med(w, s, count[s]); mo = med(o, s, count[s])
              printf "%s,%s,%s,%s\n", s, mw, mo, (mo > 0 ? mw / mo : "") } }' "$@"
  } > "$to"
}

echo "collective,ranks,size,weft_us,openmpi_us,ratio" > "$out/collectives.csv"
for coll in $colls; do
  tables=()
  for np in $nps; do
    median_csv "$out/$coll-np$np.csv" "$work/$coll-np$np-"*.csv
    tables+=("$out/$coll-np$np.csv")
    grep -v '^#' "$out/$coll-np$np.csv" | tail -n +2 | sed "s/^/$coll,$np,/" >> "$out/collectives.csv"
    echo "== $coll, $np ranks (median of $rounds rounds; us per call)"
    column -t -s, <(grep -v '^#' "$out/$coll-np$np.csv")
  done
  if [ ${#tables[@]} -ge 2 ]; then
    bin/weft bench compare "${tables[@]}" --plot "$out/$coll.png" --csv "$out/$coll.csv" > /dev/null
  fi
done

# The ratios, a weft bench CSV per ranks count (figure "Weft / Open MPI C at N ranks", a series per collective, a row
# per size), drawn together: a panel per ranks count.
sizes=$(cut -d, -f3 "$out/collectives.csv" | tail -n +2 | sort -gu | tr '\n' ' ')
ratio_tables=()
for np in $nps; do
  awk -F, -v np="$np" -v colls="$colls" -v sizes="$sizes" -v load="${loads[*]}" '
    NR > 1 && $2 == np { r[$1, $3] = $6 }
    END { n = split(colls, c, " "); m = split(sizes, s, " ")
      print "# title: Weft / Open MPI C, collectives on one host"; print "# load: " load
      printf "Size (bytes)"; for (i = 1; i <= n; i++) printf ",Weft / Open MPI C at %s ranks [%s]", np, c[i]; print ""
      for (j = 1; j <= m; j++) { printf "%s", s[j]; for (i = 1; i <= n; i++) printf ",%s", r[c[i], s[j]]; print "" } }' \
    "$out/collectives.csv" > "$out/ratios-$np-ranks.csv"
  ratio_tables+=("$out/ratios-$np-ranks.csv")
done
if [ ${#ratio_tables[@]} -ge 2 ]; then
  bin/weft bench compare "${ratio_tables[@]}" --plot "$out/ratios.png" --csv "$out/ratios.csv" > /dev/null
else
  echo "one ranks count: no ratios.png nor COLL.png (weft bench compare draws two tables or more)"
fi

# The markdown: ratios per ranks count (a row per collective, a column per size), then the microseconds.
awk -F, -v colls="$colls" -v nps="$nps" -v sizes="$sizes" -v rounds="$rounds" -v load="${loads[*]}" '
  function label(b) { return b >= 1048576 ? b / 1048576 " MiB" : b >= 1024 ? b / 1024 " KiB" : b " B" }
  NR > 1 { w[$1, $2, $3] = $4; o[$1, $2, $3] = $5; r[$1, $2, $3] = $6 }
  END { n = split(colls, c, " "); p = split(nps, q, " "); m = split(sizes, s, " ")
    printf "Weft / Open MPI C (below 1: Weft faster), medians of %d interleaved rounds; load (1, 5, 15 min): %s\n", rounds, load
    for (k = 1; k <= p; k++) {
      printf "\n| %s ranks |", q[k]; for (j = 1; j <= m; j++) printf " %s |", label(s[j]); printf "\n|---|"
      for (j = 1; j <= m; j++) printf "---|"; print ""
      for (i = 1; i <= n; i++) { printf "| %s |", c[i]
        for (j = 1; j <= m; j++) printf " %s |", ((c[i], q[k], s[j]) in r) ? sprintf("%.2f", r[c[i], q[k], s[j]]) : ""
        print "" } }
    for (i = 1; i <= n; i++) for (k = 1; k <= p; k++) {
      printf "\n%s, %s ranks, us per call\n\n| size | Weft | Open MPI C | ratio |\n|---|---|---|---|\n", c[i], q[k]
      for (j = 1; j <= m; j++) if ((c[i], q[k], s[j]) in r)
        printf "| %s | %.2f | %.2f | %.2f |\n", label(s[j]), w[c[i], q[k], s[j]], o[c[i], q[k], s[j]], r[c[i], q[k], s[j]] } }' \
  "$out/collectives.csv" > "$out/collectives.md"
echo "load: ${loads[*]}"
echo "tables and plots in $out (collectives.md, collectives.csv, ratios.png, COLL.png)"

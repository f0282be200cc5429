#!/usr/bin/env bash
# Weft's collectives on one host (default methods: shm) vs Open MPI in C (collectives.c over vader,self), in the
# same `weft bench --reference` invocation, interleaved for ROUNDS rounds: for every collective that both
# benchmarks have and 2 and 4 ranks, sizes 4 B .. 4 MiB, prints per size the median over rounds of each side's
# average microseconds per call and Weft / Open MPI (below 1: Weft is faster), and writes OUT/COLL.csv (medians
# of both ranks counts, one table per ranks count: OUT/COLL-npN.csv) and OUT/COLL.png (the two side by side,
# through `weft bench compare --plot`).
# barrier and reduceScatterBlock have no benchmark in weft bench nor collectives.c yet: not compared.
# Needs the build (./mvnw -q package -DskipTests) and Open MPI (apt-get install openmpi-bin libopenmpi-dev).
# Usage: [COLLS="allreduce bcast"] [NPS="2 4"] [ITER=1000] [OUT=dir] benchmarks/scripts/compare-collectives.sh [ROUNDS]
rounds=${1:-3}
. "$(dirname "$0")/compare-common.sh"
colls=${COLLS:-allreduce bcast allgather alltoall reduce gather scatter}
nps=${NPS:-2 4}
iterations=${ITER:-1000}
out=${OUT:-benchmarks/target/compare-collectives}
mkdir -p "$out"
max=$((4 << 20))
echo "load before: $(uptime)"

for r in $(seq "$rounds"); do
  for coll in $colls; do
    for np in $nps; do
      bin/weft bench -np "$np" "$coll" -m $max -i "$iterations" --reference --csv "$work/$coll-np$np-$r.csv" \
        > /dev/null
    done
  done
done

# Median per row and column of the CSVs $2.. (weft bench --csv with --reference: size, Weft, Open MPI C), with a
# third column Weft / Open MPI C, written as one weft bench CSV to $1.
median_csv() {
  local to=$1
  shift
  { grep -h '^# title' "$1"; echo "# rounds: $rounds (medians); load after: $(uptime | sed 's/.*average: //')"
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

for coll in $colls; do
  tables=()
  for np in $nps; do
    median_csv "$out/$coll-np$np.csv" "$work/$coll-np$np-"*.csv
    tables+=("$out/$coll-np$np.csv")
    echo "== $coll, $np ranks (median of $rounds rounds; us per call)"
    column -t -s, <(grep -v '^#' "$out/$coll-np$np.csv")
  done
  if [ ${#tables[@]} -ge 2 ]; then
    bin/weft bench compare "${tables[@]}" --plot "$out/$coll.png" --csv "$out/$coll.csv" > /dev/null
  fi
done
echo "load after: $(uptime)"
echo "tables and plots in $out"

#!/usr/bin/env bash
# Collectives inside one native site (weftrun --site a:N, its ranks started by Open MPI's mpirun, talking nativempi):
# the site's own MPI running them (nativempi_collectives=1, the default) against Weft's point-to-point schedules over
# nativempi (nativempi_collectives=0), and, with BASE=DIR, the build in DIR (e.g. a clone of main), each with Open
# MPI's C twin in the same `weft bench --reference` invocation; ROUNDS interleaved rounds (every collective, ranks
# count and side in turn), one CSV per run in OUT, then a table of the medians per size: us per call and / C.
# BASE_PARAMS: options for the base build's runs (e.g. "--param nativempi_collectives=1", the sixth session's opt-in).
# Usage: [COLLS="allreduce bcast barrier"] [NPS="2"] [MAX=65536] [ITER=2000] [OUT=dir] [BASE=dir] [BASE_PARAMS=...]
#        [SIDES="native"] benchmarks/scripts/ab-coll-site.sh [ROUNDS]
set -u
rounds=${1:-3}
out=${OUT:-benchmarks/target/ab-coll-site}
base=${BASE:-}
mkdir -p "$out"
sides="${SIDES:-native schedules}${base:+ base}"
for r in $(seq "$rounds"); do
  echo "round $r load $(uptime | sed 's/.*average: //')" | tee -a "$out/loads.txt"
  for np in ${NPS:-2}; do
    for coll in ${COLLS:-allreduce bcast barrier}; do
      for side in $sides; do
        case $side in
          native) weft=(bin/weft bench --param nativempi_collectives=1) ;;
          schedules) weft=(bin/weft bench --param nativempi_collectives=0) ;;
          base) weft=("$base/bin/weft" bench ${BASE_PARAMS:-}) ;;
        esac
        name="$coll-np$np-$side-r$r"
        "${weft[@]}" -np "$np" --site "a:$np" "$coll" -m "${MAX:-65536}" -i "${ITER:-2000}" --reference \
          --csv "$out/$name.csv" > "$out/$name.out" 2>&1 \
          || echo "failed: $coll np $np $side round $r (see $out/$name.out)"
      done
    done
  done
done
echo "after load $(uptime | sed 's/.*average: //')" | tee -a "$out/loads.txt"

# Medians over the rounds, per collective, ranks count, side and size: Weft's us, C's us (every run has its own C
# reference; the median of all of them), Weft / C.
for np in ${NPS:-2}; do
  for coll in ${COLLS:-allreduce bcast barrier}; do
    echo "== $coll, $np ranks in one native site: median us per call over $rounds rounds (Open MPI C: all runs)"
    awk -F, -v sides="$sides" '
      function med(list,    n, v, i, j, t) { n = split(list, v, " ")
        for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
        return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
      FNR == 1 { side = FILENAME; sub(/.*-np[0-9]+-/, "", side); sub(/-r[0-9]+\.csv$/, "", side) }
      !/^#/ && $1 ~ /^[0-9]+$/ { w[side, $1] = w[side, $1] " " $2; c[$1] = c[$1] " " $3; if (!seen[$1]++) order[++rows] = $1 }
      END { n = split(sides, s, " "); printf "%-10s", "size"; for (i = 1; i <= n; i++) printf " %12s %8s", s[i], "/C"
        printf " %10s\n", "C"
        for (k = 1; k <= rows; k++) { z = order[k]; mc = med(c[z]); printf "%-10s", z
          for (i = 1; i <= n; i++) { mw = med(w[s[i], z]); printf " %12.3f %8.2f", mw, (mc > 0 ? mw / mc : 0) }
          printf " %10.3f\n", mc } }' "$out/$coll-np$np-"*.csv
  done
done | tee "$out/medians.txt"

#!/usr/bin/env bash
# Collectives through the shared segment (coll_shm=1, the default) against the point-to-point schedules
# (coll_shm=0) in one build, each with Open MPI's C twin in the same `weft bench --reference` invocation;
# ROUNDS interleaved rounds (every collective, ranks count and setting in turn), one CSV per run in OUT.
# Usage: [COLLS="allreduce bcast barrier allgather"] [NPS="2 4"] [MAX=65536] [ITER=2000] [OUT=dir]
#        benchmarks/scripts/ab-coll-shm.sh [ROUNDS]
set -u
rounds=${1:-3}
out=${OUT:-benchmarks/target/ab-coll-shm}
mkdir -p "$out"
for r in $(seq "$rounds"); do
  echo "round $r load $(uptime | sed 's/.*average: //')" | tee -a "$out/loads.txt"
  for np in ${NPS:-2 4}; do
    for coll in ${COLLS:-allreduce bcast barrier allgather}; do
      for shm in 1 0; do
        bin/weft bench -np "$np" --param coll_shm=$shm "$coll" -m "${MAX:-65536}" -i "${ITER:-2000}" --reference \
          --csv "$out/$coll-np$np-shm$shm-r$r.csv" > "$out/$coll-np$np-shm$shm-r$r.out" 2>&1 \
          || echo "failed: $coll np $np coll_shm=$shm round $r (see $out/$coll-np$np-shm$shm-r$r.out)"
      done
    done
  done
done
echo "after load $(uptime | sed 's/.*average: //')" | tee -a "$out/loads.txt"

#!/usr/bin/env bash
# Collectives through the shared segment (coll_shm=1, the default) against the point-to-point schedules
# (coll_shm=0) in one build, each with Open MPI's C twin in the same `weft bench --reference` invocation;
# ROUNDS interleaved rounds (every collective, ranks count and setting in turn), one CSV per run in OUT.
# SETTINGS compares other parameters the same way (e.g. SETTINGS="shm_single_copy=cma shm_single_copy=none":
# large messages read out of the sender's memory against fragments through the ring).
# Usage: [COLLS="allreduce bcast barrier allgather"] [NPS="2 4"] [MAX=65536] [ITER=2000] [OUT=dir]
#        [SETTINGS="coll_shm=1 coll_shm=0"] benchmarks/scripts/ab-coll-shm.sh [ROUNDS]
set -u
rounds=${1:-3}
out=${OUT:-benchmarks/target/ab-coll-shm}
mkdir -p "$out"
for r in $(seq "$rounds"); do
  echo "round $r load $(uptime | sed 's/.*average: //')" | tee -a "$out/loads.txt"
  for np in ${NPS:-2 4}; do
    for coll in ${COLLS:-allreduce bcast barrier allgather}; do
      for setting in ${SETTINGS:-coll_shm=1 coll_shm=0}; do
        name="$coll-np$np-${setting//=/}-r$r"
        bin/weft bench -np "$np" --param "$setting" "$coll" -m "${MAX:-65536}" -i "${ITER:-2000}" --reference \
          --csv "$out/$name.csv" > "$out/$name.out" 2>&1 \
          || echo "failed: $coll np $np $setting round $r (see $out/$name.out)"
      done
    done
  done
done
echo "after load $(uptime | sed 's/.*average: //')" | tee -a "$out/loads.txt"

#!/bin/bash
# ab-two-level.sh: A/B interleaved: hierarchical schedules (coll_two_level=0) vs two levels (1), 2 sites x 2 ranks on the ws7 emulated
# link (20 ms rtt, 100 Mbit/s); sites of Weft's agents (intra-site: shared segment) or native mpiruns with
# nativempi_collectives=1 (intra-site: the site's MPI); and the same two sites on this host without the link
# Needs the emulated link up first: WEFT_WAN_PREFIX=ws7- WEFT_WAN_NET=10.77 bin/weft-wan up --sites 2 --hosts 1 \
#   --rtt 20ms --rate 100mbit (take it down after). Run from the repository's root after a build.
export WEFT_WAN_PREFIX=${WEFT_WAN_PREFIX:-ws7-} WEFT_WAN_NET=${WEFT_WAN_NET:-10.77}
CP=benchmarks/target/benchmarks-0.1.0-SNAPSHOT.jar
for round in 1 2 3; do
  for where in wan local; do
    for config in segment native; do
      if [ $config = segment ]; then extra="--site-launcher a=weft --site-launcher b=weft"; else extra="--param nativempi_collectives=1"; fi
      if [ $where = wan ]; then place=(--rsh "bin/weft-wan exec" --site a:2:${WEFT_WAN_PREFIX}a1 --site b:2:${WEFT_WAN_PREFIX}b1); iters=${ITERS:-30}; else place=(--site a:2 --site b:2); iters=${LOCAL_ITERS:-200}; fi
      for mode in 0 1; do
        echo "== round $round $where $config two_level=$mode load $(cut -d' ' -f1-3 /proc/loadavg)"
        timeout 300 bin/weftrun "${place[@]}" $extra --param coll_two_level=$mode -cp $CP \
          org.weft.bench.wan.CollectiveTimes -i $iters 2>&1 | grep -E "^(allreduce|bcast) |rror|xception" | head -6
      done
    done
  done
done
echo DONE

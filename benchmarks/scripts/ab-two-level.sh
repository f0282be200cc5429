#!/usr/bin/env bash
# A/B interleaved: hierarchical schedules (coll_two_level=0) against two levels (1), 2 sites x 2 ranks on an emulated
# link (20 ms round trip, 100 Mbit/s) and the same two sites on this host without the link; sites of Weft's agents
# (inside a site: the shared segment) or native mpiruns with nativempi_collectives=1 (inside a site: the site's MPI).
# ROUNDS interleaved rounds (default 3); ITERS (30) calls a size over the link, LOCAL_ITERS (200) on this host.
# Needs the emulated link up first, e.g.
#   WEFT_WAN_PREFIX=ws7- WEFT_WAN_NET=10.77 bin/weft-wan up --sites 2 --hosts 1 --rtt 20ms --rate 100mbit
# (the same WEFT_WAN_PREFIX and WEFT_WAN_NET in this script's environment; take it down after).
# Run from the repository's root after a build.
# Usage: [WEFT_WAN_PREFIX=ws7-] [WEFT_WAN_NET=10.77] [ITERS=30] [LOCAL_ITERS=200] benchmarks/scripts/ab-two-level.sh
#        [ROUNDS]
set -u
rounds=${1:-3}
export WEFT_WAN_PREFIX=${WEFT_WAN_PREFIX:-ws7-} WEFT_WAN_NET=${WEFT_WAN_NET:-10.77}
CP=benchmarks/target/benchmarks-0.1.0-SNAPSHOT.jar
for round in $(seq "$rounds"); do
  for where in wan local; do
    for config in segment native; do
      if [ $config = segment ]; then
        extra=(--site-launcher a=weft --site-launcher b=weft)
      else
        extra=(--param nativempi_collectives=1)
      fi
      if [ $where = wan ]; then
        place=(--rsh "bin/weft-wan exec" --site "a:2:${WEFT_WAN_PREFIX}a1" --site "b:2:${WEFT_WAN_PREFIX}b1")
        iters=${ITERS:-30}
      else
        place=(--site a:2 --site b:2)
        iters=${LOCAL_ITERS:-200}
      fi
      for mode in 0 1; do
        echo "== round $round $where $config two_level=$mode load $(cut -d' ' -f1-3 /proc/loadavg)"
        timeout 300 bin/weftrun "${place[@]}" "${extra[@]}" --param coll_two_level=$mode -cp $CP \
          org.weft.bench.wan.CollectiveTimes -i "$iters" 2>&1 | grep -E "^(allreduce|bcast) |rror|xception" | head -6
      done
    done
  done
done
echo DONE

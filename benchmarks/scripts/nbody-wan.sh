#!/usr/bin/env bash
# The N-body example (examples: nbody.NBody, direct summation, an allgather of all positions every step) between two
# emulated sites (bin/weft-wan, as root), one rank per site, so each step sends each site's half of the positions
# across the path. Every job times its steps on each stream setting in turn, one step at a time (the communicator's
# info key weft_streams: auto, the autotuned count, against 1, one stream), after a warm-up step on each (auto
# measures the path there); ROUNDS jobs. Prints per setting the median over rounds of each job's median time per
# step and per exchange, with every round's figure, and the streams the path chose; writes CSV to $CSV if set.
# Messages from MIN (64k) up are striped; the default path's 1 MiB would leave a 32768-particle step's 384 KiB
# blocks on the pair's connection. TLS sets tcp_tls (default none: at load 30 the autotuner's 32 TLS streams did not
# finish their handshakes within the HELLO's 5 s over the 100 ms path, 2026-11-26). WEFT_WAN_PREFIX / WEFT_WAN_NET choose the emulator's names (keep them your own).
# With PLOT=F.png it also draws the medians (a step, the exchange, per setting) through weft bench compare, from the
# table it writes beside it as ${PLOT%.png}-table.csv. The model's steps are shared out among the settings in turns.
# Usage: [RTT=100ms RATE=400mbit LOSS=0.01% MODEL="n=32768 steps=8" STREAMS=auto,1 MIN=64k TLS=none CSV=F PLOT=F.png]
#        benchmarks/scripts/nbody-wan.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
prefix=${WEFT_WAN_PREFIX:-wan-}
streams=${STREAMS:-auto,1}
work=$(mktemp -d)
trap 'bin/weft-wan down >/dev/null; rm -rf "$work"' EXIT
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

bin/weft-wan up --sites 2 --hosts 1 --rtt "${RTT:-100ms}" --rate "${RATE:-400mbit}" --loss "${LOSS:-0.01%}" >/dev/null
for r in $(seq "$rounds"); do
  # shellcheck disable=SC2086
  out=$(bin/weftrun --rsh "bin/weft-wan exec" --site "a:1:${prefix}a1" --site "b:1:${prefix}b1" --report \
    --param "tcp_tls=${TLS:-none}" --path a:b "min=${MIN:-64k}" -cp examples/target/classes nbody.NBody ${MODEL:-n=32768 steps=8} \
    "streams=$streams" every=1 warmup=1 verify=false 2>&1) || { echo "round $r failed: $out" >&2; continue; }
  grep -E '^(NBODY|ENERGY)|: path a:b' <<<"$out" >&2
  awk '/^streams=/ { sub(/^streams=/, "", $1); sub(/:$/, "", $1); print $1, $3, $7 }' <<<"$out" >>"$work/all"
  echo "round $r of $rounds done (load $(cut -d' ' -f1 /proc/loadavg))" >&2
done
[ -n "${CSV:-}" ] && { echo "streams,seconds_per_step,seconds_per_exchange"; tr ' ' ',' <"$work/all"; } >"$CSV"
if [ -n "${PLOT:-}" ]; then
  table=${PLOT%.png}-table.csv
  {
    echo "# title: N-body between two emulated sites (median of $rounds jobs)"
    echo "# model: ${MODEL:-n=32768 steps=8}; path --rtt ${RTT:-100ms} --rate ${RATE:-400mbit} --loss ${LOSS:-0.01%}"
    echo "# load: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "weft_streams,Seconds a step,Seconds of it the exchange"
    for s in ${streams//,/ }; do
      echo "$s,$(awk -v s="$s" '$1 == s { print $2 }' "$work/all" | median),$(awk -v s="$s" '$1 == s { print $3 }' \
        "$work/all" | median)"
    done
  } >"$table"
  bin/weft bench compare "$table" --plot "$PLOT" >/dev/null && echo "plot: $PLOT (table: $table)"
fi
for s in ${streams//,/ }; do
  printf 'streams=%-5s median %7.3f s a step, %7.3f s of it the exchange  rounds (step s): %s\n' "$s" \
    "$(awk -v s="$s" '$1 == s { print $2 }' "$work/all" | median)" \
    "$(awk -v s="$s" '$1 == s { print $3 }' "$work/all" | median)" \
    "$(awk -v s="$s" '$1 == s { print $2 }' "$work/all" | tr '\n' ' ')"
done

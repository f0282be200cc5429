#!/usr/bin/env bash
# Compression on a slow path between two emulated sites (bin/weft-wan, as root): one rank per site, a 64 MiB message
# of compressible data (a smooth field stored in plateaus) and one of random bytes from site a to site b
# (CompressedTransfer), with tcp_compress off, lz4 and auto (the default across sites: lz4 where the link finds its
# socket falling behind and the data compressible), ROUNDS times interleaved (the order rotating). Prints per setting
# and data the median seconds and MB/s with every round's figure, writes CSV to $CSV if set and a PNG to $PLOT if set
# (drawn by weft bench compare from the table it writes beside it as ${PLOT%.png}-table.csv). The message goes on
# the pair's connection, not striped (--path a:b min=1g): compression applies to a connection's frames, and striped
# chunks travel raw. Each job times REPS transfers of each kind (default 3) and reports their median: a job's first
# transfer carries its warm-up (the JIT on TLS's path, the congestion window), several seconds here under load.
# WEFT_WAN_PREFIX / WEFT_WAN_NET choose the emulator's names (keep them your own); RTT and RATE the link.
# Usage: [RTT=10ms RATE=100mbit BYTES=67108864 REPS=3 CSV=F PLOT=F.png] benchmarks/scripts/wan-compress.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
prefix=${WEFT_WAN_PREFIX:-wan-}
work=$(mktemp -d)
trap 'bin/weft-wan down >/dev/null; rm -rf "$work"' EXIT
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

bin/weft-wan up --sites 2 --hosts 1 --rtt "${RTT:-10ms}" --rate "${RATE:-100mbit}" >/dev/null
run() { # $1: tcp_compress value
  bin/weftrun --rsh "bin/weft-wan exec" --site "a:1:${prefix}a1" --site "b:1:${prefix}b1" --param "tcp_compress=$1" \
    --path a:b min=1g \
    -cp benchmarks/target/classes org.weft.bench.wan.CompressedTransfer -m "${BYTES:-67108864}" -i "${REPS:-3}" \
    2>/dev/null \
    | awk -v c="$1" '$1 == "compressible" || $1 == "random" { print c, $1, $2, $3 }' >>"$work/all" \
    || echo "tcp_compress=$1: the run failed (load $(cut -d' ' -f1 /proc/loadavg)); its figures are missing" >&2
}
for r in $(seq "$rounds"); do
  settings=(off lz4 auto)
  for i in 0 1 2; do run "${settings[$(((r - 1 + i) % 3))]}"; done
  echo "round $r of $rounds done (load $(cut -d' ' -f1 /proc/loadavg))" >&2
done
[ -n "${CSV:-}" ] && { echo "compression,data,seconds,megabytes_per_second"; tr ' ' ',' <"$work/all"; } >"$CSV"
for c in off lz4 auto; do
  for d in compressible random; do
    printf '%-4s %-13s median %7.3f s %8.2f MB/s  rounds(s): %s\n' "$c" "$d" \
      "$(awk -v c=$c -v d=$d '$1 == c && $2 == d { print $3 }' "$work/all" | median)" \
      "$(awk -v c=$c -v d=$d '$1 == c && $2 == d { print $4 }' "$work/all" | median)" \
      "$(awk -v c=$c -v d=$d '$1 == c && $2 == d { print $3 }' "$work/all" | tr '\n' ' ')"
  done
done
if [ -n "${PLOT:-}" ]; then
  table=${PLOT%.png}-table.csv
  {
    echo "# title: ${BYTES:-67108864} bytes over ${RTT:-10ms} / ${RATE:-100mbit} (median of $rounds rounds)"
    echo "# load: $(cut -d' ' -f1-3 /proc/loadavg)"
    printf 'Data'
    for f in 'Time (s)' 'Throughput (MB/s)'; do for c in off lz4 auto; do printf ',%s [%s]' "$f" "$c"; done; done
    echo
    for d in compressible random; do
      printf '%s' "$d"
      for f in 3 4; do
        for c in off lz4 auto; do
          printf ',%s' "$(awk -v c=$c -v d=$d -v f=$f '$1 == c && $2 == d { print $f }' "$work/all" | median)"
        done
      done
      echo
    done
  } >"$table"
  bin/weft bench compare "$table" --plot "$PLOT" >/dev/null && echo "plot: $PLOT (table: $table)"
fi

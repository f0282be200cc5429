#!/usr/bin/env bash
# The emulated wide area's own limits (bin/weft-wan, as root): a bulk TCP transfer from wan-a1 to wan-b1 across the
# emulator for SECONDS, ROUNDS times per link setting, and as the reference the same transfer inside site a (wan-a1
# to wan-agw, one bridge, no emulator) in the same rounds. Prints per setting the median Mbit/s, the emulator's CPU
# (% of one core, user + system, over the transfer's seconds), the packets per second it took in (both directions)
# and how late it delivered a:b packets on average (µs; its own error on the delay).
# Usage: benchmarks/scripts/wan-ceiling.sh [ROUNDS] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
seconds=${2:-8}
wan=bin/weft-wan
state=/run/weft-wan/wan
port=7090
work=$(mktemp -d)
trap '$wan down; rm -rf "$work"' EXIT

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ticks() { awk '{ print $14 + $15 }' "/proc/$(cat $state/emulator.pid)/stat"; }
received() {
  awk '/ received [0-9]+ packets/ { for (i = 1; i <= NF; i++) if ($i == "received") s += $(i + 1) }
       END { print s + 0 }' "$state/statistics" 2>/dev/null || echo 0
}

late() { sed -n 's/^a:b .*late by \([0-9.]*\) us on average.*/\1/p' "$state/statistics" 2>/dev/null || echo 0; }

# one transfer: NAME STREAMS FROM TO-ADDRESS; appends "NAME mbit cpu% pps late-us" to $work/all
transfer() {
  local name=$1 streams=$2 from=$3 to=$4 p0 n0 line mbit busy p1 n1 hz
  hz=$(getconf CLK_TCK)
  sleep 1.2 # the statistics file settles
  p0=$(ticks) n0=$(received)
  line=$($wan probe "$from" bulk "$to" $port "$seconds" "$streams")
  mbit=$(echo "$line" | sed 's/.*bulk_mbit=\([0-9.]*\).*/\1/')
  busy=$(echo "$line" | sed 's/.*seconds=\([0-9.]*\).*/\1/')
  sleep 1.2
  p1=$(ticks) n1=$(received)
  echo "$name $mbit $(echo "($p1 - $p0) / $hz / $busy * 100" | bc -l) $(echo "($n1 - $n0) / $busy" | bc -l) $(late)" \
    >>"$work/all"
}

setting() { # NAME STREAMS LINK-OPTIONS...
  local name=$1 streams=$2
  shift 2
  $wan set "$@" >/dev/null
  transfer "$name" "$streams" wan-a1 10.81.2.2
}

$wan up --sites 2 --hosts 1 --rtt 0ms >/dev/null
($wan probe wan-b1 serve $port >/dev/null 2>&1 &)
($wan probe wan-agw serve $port >/dev/null 2>&1 &)
sleep 3
for r in $(seq "$rounds"); do
  transfer "reference-in-site-1-stream" 1 wan-a1 10.81.1.254
  setting "no-delay-no-rate-1-stream" 1 --rtt 0ms
  setting "no-delay-no-rate-4-streams" 4 --rtt 0ms
  setting "rtt-100ms-400mbit-8-streams" 8 --rtt 100ms --rate 400mbit
  setting "rtt-100ms-400mbit-8-batch-200us" 8 --rtt 100ms --rate 400mbit --batch 200us
  setting "rtt-100ms-200mbit-8-streams" 8 --rtt 100ms --rate 200mbit
done
printf '%-30s %8s %13s %10s %8s   %s\n' setting Mbit/s emulator-CPU% packets/s late-us "rounds (Mbit/s)"
for name in $(awk '{ print $1 }' "$work/all" | awk '!seen[$0]++'); do
  printf '%-30s %8.1f %13.1f %10.0f %8.1f   %s\n' "$name" \
    "$(awk -v n="$name" '$1 == n { print $2 }' "$work/all" | median)" \
    "$(awk -v n="$name" '$1 == n { print $3 }' "$work/all" | median)" \
    "$(awk -v n="$name" '$1 == n { print $4 }' "$work/all" | median)" \
    "$(awk -v n="$name" '$1 == n { print $5 }' "$work/all" | median)" \
    "$(awk -v n="$name" '$1 == n { printf "%s ", $2 }' "$work/all")"
done

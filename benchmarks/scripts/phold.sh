#!/usr/bin/env bash
# PHOLD (examples: phold.Phold, Time Warp) committed events per second with tcp aggregation off, fixed and adaptive,
# on three paths: shm (2 ranks on this host; shm never aggregates, so its three rows measure the same code), tcp
# loopback (2 ranks, --methods tcp) and two emulated sites (bin/weft-wan as root, one rank per site, RTT). ROUNDS
# times, every configuration once per round (interleaved). Prints per path and policy the median events/s with every
# round's figure and the medians of rollbacks and RSRs per frame; writes CSV to $CSV if set, and a PNG to $PLOT if set
# (the medians: events/s and events/s against aggregation off, a series per path, drawn by weft bench compare from
# the table it writes beside it as ${PLOT%.png}-table.csv). The order of the policies rotates from round to round
# (use a multiple of 3 rounds).
# WEFT_WAN_PREFIX / WEFT_WAN_NET choose the emulator's names (keep them your own); PATHS limits the paths.
# Usage: [RTT=10ms PATHS="shm tcp wan" MODEL="lps=1024 end=10" CSV=F PLOT=F.png] benchmarks/scripts/phold.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
paths=${PATHS:-shm tcp wan}
model=${MODEL:-lps=1024 population=16 end=10 gvt-every=5000 window=20}
prefix=${WEFT_WAN_PREFIX:-wan-}
work=$(mktemp -d)
trap '[[ " $paths " == *" wan "* ]] && bin/weft-wan down >/dev/null; rm -rf "$work"' EXIT
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

[[ " $paths " == *" wan "* ]] && bin/weft-wan up --sites 2 --hosts 1 --rtt "${RTT:-10ms}" >/dev/null
where() {
  case $1 in
    shm) echo "-np 2 --methods self,shm" ;;
    tcp) echo "-np 2 --methods self,tcp" ;;
    wan) echo "--rsh bin/weft-wan\ exec --site a:1:${prefix}a1 --site b:1:${prefix}b1" ;;
  esac
}
run() { # PATH POLICY
  local out
  # shellcheck disable=SC2046
  out=$(eval bin/weftrun --report $(where "$1") --param "tcp_aggregate=$2" -cp examples/target/classes phold.Phold \
    "$model" 2>&1) || { echo "$1 $2 failed: $out" >&2; return; }
  grep -q VERIFIED <<<"$out" || { echo "$1 $2 not verified: $out" >&2; return; }
  awk -v p="$1" -v a="$2" '
    /^PHOLD committed/ { rate = $8; rb = $11 }
    /: tcp to rank .* RSRs in/ {
      for (i = 1; i <= NF; i++) if ($(i + 1) == "RSRs" && $(i + 2) == "in") { r += $i; f += $(i + 3) }
    }
    END { print p, a, rate, rb, (f > 0 ? r / f : 1) }' <<<"$out" >>"$work/all"
}
policies=(off fixed adaptive)
for r in $(seq "$rounds"); do
  for p in $paths; do
    # each round starts with the next policy: a run's place in the round (the first was seen slower) rotates too
    for i in 0 1 2; do run "$p" "${policies[$(((r - 1 + i) % 3))]}"; done
  done
  echo "round $r of $rounds done (load $(cut -d' ' -f1 /proc/loadavg))" >&2
done
[ -n "${CSV:-}" ] && { echo "path,aggregation,events_per_second,rollbacks,rsrs_per_frame"; tr ' ' ',' <"$work/all"
} >"$CSV"
for p in $paths; do
  for a in off fixed adaptive; do
    printf '%-4s %-9s median %9.0f events/s  rollbacks %7.0f  RSRs/frame %5.2f  rounds: %s\n' "$p" "$a" \
      "$(awk -v p=$p -v a=$a '$1 == p && $2 == a { print $3 }' "$work/all" | median)" \
      "$(awk -v p=$p -v a=$a '$1 == p && $2 == a { print $4 }' "$work/all" | median)" \
      "$(awk -v p=$p -v a=$a '$1 == p && $2 == a { print $5 }' "$work/all" | median)" \
      "$(awk -v p=$p -v a=$a '$1 == p && $2 == a { printf "%.0f ", $3 }' "$work/all")"
  done
done
if [ -n "${PLOT:-}" ]; then
  table=${PLOT%.png}-table.csv
  {
    echo "# title: PHOLD across paths (median of $rounds rounds)"
    echo "# model: $model"
    echo "# load: $(cut -d' ' -f1-3 /proc/loadavg)"
    printf 'Aggregation'
    for p in $paths; do printf ',Committed events/s [%s]' "$p"; done
    for p in $paths; do printf ',Events/s against off [%s]' "$p"; done
    echo
    for a in off fixed adaptive; do
      printf '%s' "$a"
      for p in $paths; do
        printf ',%s' "$(awk -v p=$p -v a=$a '$1 == p && $2 == a { print $3 }' "$work/all" | median)"
      done
      for p in $paths; do
        off=$(awk -v p=$p '$1 == p && $2 == "off" { print $3 }' "$work/all" | median)
        printf ',%s' "$(awk -v p=$p -v a=$a -v off="$off" '$1 == p && $2 == a { print $3 / off }' "$work/all" | median)"
      done
      echo
    done
  } >"$table"
  bin/weft bench compare "$table" --plot "$PLOT" >/dev/null && echo "plot: $PLOT (table: $table)"
fi

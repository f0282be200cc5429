#!/usr/bin/env bash
# Start-up of a whole job, as a user sees it: the wall time of examples' Hello (every rank says hello) under
# `weftrun -np N` and of the same program in C under Open MPI's `mpirun -np N --oversubscribe` (the reference:
# Open MPI's Java bindings take about its time here), interleaved ROUNDS times; also Hello as a singleton (plain
# `java`, no launcher), with and without the ranks' AOT cache, and a Java program that does nothing (the JVM's floor).
# With BASE=another built Weft checkout, its weftrun too. Prints each one's median and its ratio to C's median.
# Usage: [BASE=../weft-base] [NP=4] benchmarks/scripts/startup.sh [ROUNDS]
rounds=${1:-10}
np=${NP:-4}
. "$(dirname "$0")/compare-common.sh"
mpicc -O2 -o "$work/hello" benchmarks/src/main/c/hello.c
# WEFT_JAVA_BIN, WEFT_CP and WEFT_AOT_DIR of this tree, as bin/weftrun finds them ($0 tells weft-env.sh where it is)
{ read -r WEFT_JAVA_BIN; read -r WEFT_CP; read -r WEFT_AOT_DIR; } < <(bash -c '. bin/weft-env.sh
  printf "%s\n%s\n%s\n" "$WEFT_JAVA_BIN" "$WEFT_CP" "$WEFT_AOT_DIR"' bin/weftrun)
java=$WEFT_JAVA_BIN/java
examples=$PWD/examples/target/classes
printf 'public class Nothing { public static void main(String[] a) { } }\n' > "$work/Nothing.java"
"$WEFT_JAVA_BIN/javac" -d "$work" "$work/Nothing.java"
singleton_aot=()
[ -f "$WEFT_AOT_DIR/rank.aot" ] && singleton_aot=(-XX:AOTCache="$WEFT_AOT_DIR/rank.aot" -Xlog:aot=off -XX:+UnlockDiagnosticVMOptions \
  -XX:ArchiveRelocationMode=0) # as weftrun gives ranks (plan.AotCache)

# Runs the command given, its output thrown away; appends "LABEL seconds" to $work/all (a failure stops the script).
timed() {
  local label=$1 start end
  shift
  start=$(date +%s%N)
  "$@" > /dev/null 2>&1 || { echo "startup.sh: $label failed: $*" >&2; exit 1; }
  end=$(date +%s%N)
  echo "$label $(( (end - start) / 1000 ))" >> "$work/all"
}

for _ in $(seq "$rounds"); do
  timed ompi-C mpirun -np "$np" --oversubscribe "$work/hello"
  timed weftrun bin/weftrun -np "$np" -cp "$examples" Hello
  if [ -n "${BASE:-}" ]; then
    timed base-weftrun "$BASE/bin/weftrun" -np "$np" -cp "$examples" Hello
  fi
  timed singleton "$java" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow \
    "${singleton_aot[@]}" -cp "$WEFT_CP:$examples" Hello
  timed singleton-no-aot "$java" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow \
    -cp "$WEFT_CP:$examples" Hello
  timed java-nothing "$java" -cp "$work" Nothing
done
c=$(awk '$1 == "ompi-C" { print $2 }' "$work/all" | median)
echo "start-up, median of $rounds interleaved rounds (np $np; ratio to Open MPI's C hello in the same rounds):"
for what in ompi-C weftrun base-weftrun singleton singleton-no-aot java-nothing; do
  grep -q "^$what " "$work/all" || continue
  m=$(awk -v w=$what '$1 == w { print $2 }' "$work/all" | median)
  awk -v w="$what" -v m="$m" -v c="$c" 'BEGIN { printf "%-17s %7.3f s  %5.2fx\n", w, m / 1e6, m / c }'
done

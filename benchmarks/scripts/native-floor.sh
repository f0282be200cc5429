#!/usr/bin/env bash
# Where a 0-byte nativempi one-way goes, ROUNDS times interleaved: libmpi through FFM alone, as the module calls it
# (org.weft.bench.path.FfmFloor: 0 B, and the 48-byte RSR of a 0-byte Weft message), Weft's MPI ping-pong in a site
# of two (latency over nativempi) and Open MPI's C ping-pong under the same mpirun defaults. Prints each one's
# median and rounds. Usage: benchmarks/scripts/native-floor.sh [ROUNDS]
rounds=${1:-5}
. "$(dirname "$0")/compare-common.sh"
java=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
for r in $(seq "$rounds"); do
  mpirun -np 2 --bind-to none "$java" --enable-native-access=ALL-UNNAMED -cp benchmarks/target/classes \
    org.weft.bench.path.FfmFloor | awk '/^FFM floor/ { print "ffm-" $3 "B", $6 }' >> "$work/all"
  bin/weftrun --site a:2 -cp benchmarks/target/classes org.weft.bench.osu.Latency -m 0 -i 300000 \
    | awk '$1 == 0 { print "weft-mpi", $2 }' >> "$work/all"
  mpirun -np 2 --bind-to none "$work/pingpong" 0 | awk '$1 == 0 { print "ompi-C", $2 }' >> "$work/all"
done
for what in ffm-0B ffm-48B weft-mpi ompi-C; do
  values=$(awk -v w=$what '$1 == w { print $2 }' "$work/all")
  printf '%-10s median %6s us  rounds %s\n' "$what" "$(echo "$values" | median)" "$(echo "$values" | tr '\n' ' ')"
done

/**
 * JMH microbenchmarks of Weft's internals (matching engine, header codec). Build with
 * {@code ./mvnw -q package -DskipTests}, run with
 * {@code java -cp 'benchmarks/target/benchmarks-VERSION.jar:benchmarks/target/lib/*' org.weft.bench.jmh.Internals}
 * (or {@code org.openjdk.jmh.Main} and JMH's own options).
 */
package org.weft.bench.jmh;

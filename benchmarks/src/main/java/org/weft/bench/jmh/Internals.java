package org.weft.bench.jmh;

import java.io.IOException;
import org.openjdk.jmh.Main;

/**
 * Runs the JMH benchmarks of this package and the shm ring's ({@code org.weft.mm.module.shm.RingBench}, beside the
 * package-private ring): with no arguments all of them, else JMH's own command line
 * ({@code -prof gc}, {@code -p queued=16}, a name pattern, ...).
 */
public final class Internals {
    private Internals() {
    }

    public static void main(String[] args) throws IOException {
        Main.main(args.length == 0 ? new String[] {Internals.class.getPackageName(), "org.weft.mm.module.shm.RingBench"}
                : args);
    }
}

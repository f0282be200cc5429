package phold;

import java.util.Map;
import mpi.MPI;
import mpi.MPIException;
import options.Options;

/**
 * PHOLD under Time Warp on every rank, checked against a sequential run of the same seed, with its committed events
 * per second:
 *
 * <pre>
 * weftrun -np 2 -cp examples/target/classes phold.Phold lps=64 end=2000 [population=4 remote=1 seed=42
 *         lookahead=10 mean=100 work=0 gvt-every=2000 window=1000 verify=true]
 * </pre>
 * Times are in ticks; {@code end} is in units of {@code mean}. Prints
 * {@code PHOLD committed N events in T s: R events/s; rollbacks ...; checksum C} and {@code VERIFIED} (rank 0) when
 * the committed count and the checksum of the final states equal the sequential run's; a mismatch ends the job
 * with exit code 3.
 */
public final class Phold {
    private Phold() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Map<String, String> options = Options.parse(args);
        int size = MPI.COMM_WORLD.getSize();
        int rank = MPI.COMM_WORLD.getRank();
        long mean = Long.parseLong(options.getOrDefault("mean", "100"));
        int lps = Integer.parseInt(options.getOrDefault("lps", "64"));
        if (lps % size != 0) {
            throw new IllegalArgumentException("lps=" + lps + " is not a multiple of the " + size + " ranks");
        }
        Model model = new Model(lps, Integer.parseInt(options.getOrDefault("population", "4")),
                Long.parseLong(options.getOrDefault("end", "2000")) * mean,
                Long.parseLong(options.getOrDefault("lookahead", "10")), mean,
                Double.parseDouble(options.getOrDefault("remote", "1")),
                Long.parseLong(options.getOrDefault("seed", "42")),
                Integer.parseInt(options.getOrDefault("work", "0")));
        TimeWarp engine = new TimeWarp(model, rank, size, Long.parseLong(options.getOrDefault("gvt-every", "2000")),
                Long.parseLong(options.getOrDefault("window", "1000")) * mean);
        MPI.COMM_WORLD.barrier();
        long start = System.nanoTime();
        engine.run();
        MPI.COMM_WORLD.barrier();
        double seconds = (System.nanoTime() - start) / 1e9;
        long[] totals = {engine.committed, engine.checksum(), engine.rollbacks, engine.rolledBack,
                engine.antiMessages};
        MPI.COMM_WORLD.allReduce(totals, 5, MPI.LONG, MPI.SUM);
        if (rank == 0) {
            System.out.printf("PHOLD committed %d events in %.3f s: %.0f events/s; rollbacks %d (%d events undone,"
                    + " %d anti-messages); GVT rounds %d; checksum %016x%n", totals[0], seconds, totals[0] / seconds,
                    totals[2], totals[3], totals[4], engine.gvtRounds, totals[1]);
            if (Boolean.parseBoolean(options.getOrDefault("verify", "true"))) {
                verify(model, totals[0], totals[1]);
            }
        }
        MPI.Finalize();
    }

    private static void verify(Model model, long committed, long checksum) {
        long[] reference = model.runSequentially();
        if (reference[0] != committed || reference[1] != checksum) {
            System.out.printf("PHOLD MISMATCH: sequential run committed %d events, checksum %016x%n", reference[0],
                    reference[1]);
            System.out.flush();
            Runtime.getRuntime().halt(3);
        }
        System.out.println("VERIFIED against the sequential run: " + reference[0] + " events, same checksum");
    }
}

package nbody;

import java.util.Arrays;
import java.util.Map;
import mpi.Comm;
import mpi.Info;
import mpi.MPI;
import mpi.MPIException;
import options.Options;

/**
 * A direct-summation N-body run (a Plummer sphere, softened gravity, kick-drift-kick leapfrog) over all ranks, the
 * CosmoGrid setting: every step each rank drifts its block of particles and an allgather brings all positions to
 * all ranks, so between two sites every step moves each site's positions across the wide-area path.
 *
 * <pre>
 * weftrun -np 3 -cp examples/target/classes nbody.NBody [n=1536 steps=100 dt=0.005 eps=0.05 seed=1 drift=1e-4
 *         streams=path every=5 warmup=0 verify=true]
 * </pre>
 * {@code streams} lists the stream settings to time, comma-separated: {@code path} (the path's own settings), or a
 * value of the info key {@code weft_streams} ({@code auto} or a count; {@code 1}: one stream, no parallel ones). The
 * steps go to the settings in turns of {@code every} steps, so that all settings see the same load and the same
 * particles; {@code warmup} untimed steps on each setting go first (an autotuned path measures itself at its first
 * striped message). Rank 0 prints the median time per step and per exchange for each setting, the relative energy drift
 * over the run ({@code ENERGY ... OK}; beyond {@code drift} the job ends with exit code 3) and, with
 * {@code verify=true}, whether one process running the same steps ends with the same positions and energy.
 */
public final class NBody {
    private NBody() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Map<String, String> options = Options.parse(args);
        int n = Integer.parseInt(options.getOrDefault("n", "1536"));
        int steps = Integer.parseInt(options.getOrDefault("steps", "100"));
        double dt = Double.parseDouble(options.getOrDefault("dt", "0.005"));
        double softening = Double.parseDouble(options.getOrDefault("eps", "0.05"));
        String[] settings = options.getOrDefault("streams", "path").split(",");
        int every = Integer.parseInt(options.getOrDefault("every", "5"));
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int[] counts = new int[size];
        int[] displs = new int[size];
        for (int r = 0; r < size; r++) {
            counts[r] = 3 * (n / size + (r < n % size ? 1 : 0));
            displs[r] = r == 0 ? 0 : displs[r - 1] + counts[r - 1];
        }
        Plummer start = new Plummer(n, Long.parseLong(options.getOrDefault("seed", "1")));
        Simulation simulation = new Simulation(start, displs[rank] / 3, counts[rank] / 3, softening);
        Comm[] comms = communicators(settings);
        double initial = totalEnergy(simulation);
        int warmup = Integer.parseInt(options.getOrDefault("warmup", "0"));
        for (Comm comm : comms) { // a path's first striped message measures it (auto): not a step to time
            for (int s = 0; s < warmup; s++) {
                simulation.step(dt, allGather(comm, counts, displs));
            }
        }
        int total = steps + warmup * comms.length;
        double[][] stepSeconds = new double[settings.length][];
        double[][] exchangeSeconds = new double[settings.length][];
        runTimed(simulation, steps, dt, every, comms, counts, displs, stepSeconds, exchangeSeconds);
        double last = totalEnergy(simulation);
        if (rank == 0) {
            System.out.printf("NBODY %d particles on %d ranks, %d steps of %s (%d untimed): each step an allgather of"
                    + " %d bytes (blocks of up to %d bytes)%n", n, size, total, dt, total - steps, 24L * n,
                    8L * counts[0]);
            for (int c = 0; c < settings.length; c++) {
                System.out.printf("streams=%s: median %.4f s a step, %.4f s of it the exchange (%d steps)%n",
                        settings[c], median(stepSeconds[c]), median(exchangeSeconds[c]), stepSeconds[c].length);
            }
            checkEnergy(initial, last, Double.parseDouble(options.getOrDefault("drift", "1e-4")));
            if (Boolean.parseBoolean(options.getOrDefault("verify", "true"))) {
                verify(start, softening, total, dt, simulation.positions(), last);
            }
        }
        for (Comm comm : comms) {
            comm.free();
        }
        MPI.Finalize();
    }

    /** A duplicate of the world per setting, with the info key {@code weft_streams} unless it is {@code path}. */
    private static Comm[] communicators(String[] settings) throws MPIException {
        Comm[] comms = new Comm[settings.length];
        for (int c = 0; c < settings.length; c++) {
            comms[c] = MPI.COMM_WORLD.dup();
            if (!settings[c].equals("path")) {
                Info info = new Info();
                info.set("weft_streams", settings[c]);
                comms[c].setInfo(info);
            }
        }
        return comms;
    }

    /**
     * Runs the steps, {@code every} at a time on each communicator in turn, and fills each one's step and
     * exchange times.
     */
    private static void runTimed(Simulation simulation, int steps, double dt, int every, Comm[] comms, int[] counts,
                                 int[] displs, double[][] stepSeconds, double[][] exchangeSeconds) throws Exception {
        int[] taken = new int[comms.length];
        for (int c = 0; c < comms.length; c++) {
            int turns = (steps + every - 1) / every;
            int mine = (turns / comms.length + (c < turns % comms.length ? 1 : 0)) * every;
            stepSeconds[c] = new double[mine];
            exchangeSeconds[c] = new double[mine];
        }
        long[] exchangeStart = new long[1];
        long[] exchangeEnd = new long[1];
        for (int s = 0; s < steps; s++) {
            int c = (s / every) % comms.length;
            Comm comm = comms[c];
            long begin = System.nanoTime();
            Simulation.Exchange exchange = allGather(comm, counts, displs);
            simulation.step(dt, positions -> {
                exchangeStart[0] = System.nanoTime();
                exchange.positions(positions);
                exchangeEnd[0] = System.nanoTime();
            });
            stepSeconds[c][taken[c]] = (System.nanoTime() - begin) / 1e9;
            exchangeSeconds[c][taken[c]++] = (exchangeEnd[0] - exchangeStart[0]) / 1e9;
        }
        for (int c = 0; c < comms.length; c++) { // the last turn may have been cut short by the end of the run
            stepSeconds[c] = Arrays.copyOf(stepSeconds[c], taken[c]);
            exchangeSeconds[c] = Arrays.copyOf(exchangeSeconds[c], taken[c]);
        }
    }

    private static Simulation.Exchange allGather(Comm comm, int[] counts, int[] displs) {
        return positions -> comm.allGatherv(positions, counts, displs, MPI.DOUBLE);
    }

    private static double totalEnergy(Simulation simulation) throws MPIException {
        double[] energy = simulation.energyShare();
        MPI.COMM_WORLD.allReduce(energy, 2, MPI.DOUBLE, MPI.SUM);
        return energy[0] + energy[1];
    }

    private static void checkEnergy(double initial, double last, double bound) {
        double drift = Math.abs((last - initial) / initial);
        System.out.printf("ENERGY initial %.12f final %.12f relative drift %.3e (bound %.1e) %s%n", initial, last,
                drift, bound, drift <= bound ? "OK" : "EXCEEDED");
        if (!(drift <= bound)) {
            System.out.flush();
            Runtime.getRuntime().halt(3);
        }
    }

    /** One process runs the same steps; its positions must be the same bits and its energy the same to rounding. */
    private static void verify(Plummer start, double softening, int steps, double dt, double[] positions,
                               double energy) throws Exception {
        Simulation alone = new Simulation(start, 0, start.positions.length / 3, softening);
        for (int s = 0; s < steps; s++) {
            alone.step(dt, all -> { });
        }
        double[] share = alone.energyShare();
        double reference = share[0] + share[1];
        double difference = Math.abs((energy - reference) / reference);
        boolean same = Arrays.equals(positions, alone.positions()) && difference < 1e-12;
        System.out.printf("%s the sequential run: final energy %.12f (relative difference %.1e), positions %s%n",
                same ? "VERIFIED against" : "MISMATCH with", reference, difference,
                Arrays.equals(positions, alone.positions()) ? "identical" : "DIFFERENT");
        if (!same) {
            System.out.flush();
            Runtime.getRuntime().halt(3);
        }
    }

    private static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}

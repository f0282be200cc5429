import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * A coupled two-program model in the style of the papers' coupled climate runs: an ocean and an atmosphere, two
 * MPI programs on one NX x NY grid, each with its own decomposition (the ocean by rows, the atmosphere by columns),
 * each diffusing its own temperature field, and every step exchanging their surface fields through an
 * intercommunicator (an all-to-all over it: each rank sends each rank of the other program the cells both own) to
 * move heat across the surface, F = k (T_atmosphere - T_ocean) per cell. Heat, the sum of capacity x temperature
 * over both fields, is conserved: the run checks it, and prints its relative drift.
 *
 * <p>How the two programs meet (option {@code --couple}): {@code mpmd} (default) in one MPMD job ({@code weftrun
 * -np 2 Ocean : -np 2 Atmosphere}), the world split by {@code MPI.APPNUM} and joined by
 * {@code MPI_Intercomm_create}; {@code ports}: the ocean opens a port and publishes it as {@code weft-coupled-ocean},
 * the atmosphere looks it up and connects; {@code file:PATH}: two jobs started by two weftruns ({@code weftrun -np 2
 * Ocean --couple file:PATH} and {@code weftrun -np 2 Atmosphere --couple file:PATH}), the ocean writing its port's
 * name to PATH, the atmosphere reading it there and connecting. With {@code --site ocean:2 --site atmosphere:2} each program runs on a
 * site of its own (its native MPI inside when mpirun is there, tcp between).
 *
 * <p>Options: {@code --nx N --ny N} (grid, 256 x 128), {@code --steps N} (10), {@code --substeps N} (diffusion steps
 * per coupling step, 4), {@code --bench} (time the steps after one warm-up step; a simulated day is 48 steps).
 */
final class CoupledModel {
    /** {@code --couple file:PATH}: two jobs, meeting through a port whose name goes through PATH. */
    private static final String PORT_FILE = "file:";
    /** Coupling steps per simulated day (half-hour steps, as the papers' coupled runs). */
    static final int STEPS_PER_DAY = 48;
    private static final double COUPLING = 0.02;
    private static final double DT = 1.0;

    /** Ocean or atmosphere: how it is decomposed, its heat capacity, diffusivity and first field. */
    enum Component {
        OCEAN(true, 4.0, 0.05), ATMOSPHERE(false, 1.0, 0.2);

        final boolean byRows;
        final double capacity;
        final double diffusivity;

        Component(boolean byRows, double capacity, double diffusivity) {
            this.byRows = byRows;
            this.capacity = capacity;
            this.diffusivity = diffusivity;
        }

        double initial(int x, int y, int nx, int ny) {
            return this == OCEAN ? 10 + 5 * Math.sin(Math.PI * y / ny) : 10 * Math.cos(2 * Math.PI * x / nx);
        }
    }

    /** The cells [first, end) of one of {@code parts} equal slices of {@code n}. */
    record Slice(int first, int end) {
        static Slice of(int n, int parts, int part) {
            return new Slice((int) ((long) n * part / parts), (int) ((long) n * (part + 1) / parts));
        }

        int size() {
            return end - first;
        }
    }

    private final Component component;
    private final int nx;
    private final int ny;
    private final Intracomm local;
    private final Intercomm other;
    private final Slice rows;
    private final Slice cols;
    /** This rank's cells with a halo of one cell on every side, row-major. */
    private final double[] t;
    private final double[] delta;
    private final int stride;
    /** This program's share of the heat at the last {@link #heat()}. */
    private double ownHeat;

    private CoupledModel(Component component, int nx, int ny, Intracomm local, Intercomm other) throws MPIException {
        this.component = component;
        this.nx = nx;
        this.ny = ny;
        this.local = local;
        this.other = other;
        int p = local.getSize();
        int me = local.getRank();
        this.rows = component.byRows ? Slice.of(ny, p, me) : new Slice(0, ny);
        this.cols = component.byRows ? new Slice(0, nx) : Slice.of(nx, p, me);
        this.stride = cols.size() + 2;
        this.t = new double[(rows.size() + 2) * stride];
        this.delta = new double[t.length];
        for (int y = 0; y < rows.size(); y++) {
            for (int x = 0; x < cols.size(); x++) {
                t[at(y, x)] = component.initial(cols.first() + x, rows.first() + y, nx, ny);
            }
        }
    }

    /** The index of local cell (y, x); -1 and size are the halo. */
    private int at(int y, int x) {
        return (y + 1) * stride + x + 1;
    }

    /** Runs {@code component} with the command line's options. */
    static void run(Component component, String[] args) throws MPIException {
        MPI.Init(args);
        Options options = Options.parse(args);
        int appNum = (Integer) MPI.COMM_WORLD.getAttr(MPI.APPNUM);
        Intracomm local = MPI.COMM_WORLD.split(appNum, MPI.COMM_WORLD.getRank());
        Intercomm other = options.couple.startsWith(PORT_FILE)
                ? byPortFile(component, local, Path.of(options.couple.substring(PORT_FILE.length())))
                : options.couple.equals("ports") ? byPort(component, local) : byAppNum(appNum, local);
        CoupledModel model = new CoupledModel(component, options.nx, options.ny, local, other);
        double initial = model.heat();
        double initialShare = model.ownHeat;
        model.step(options.substeps); // warm-up, also for the benchmark
        long start = System.nanoTime();
        for (int s = 1; s < options.steps; s++) {
            model.step(options.substeps);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double last = model.heat();
        if (local.getRank() == 0) {
            System.out.printf("COUPLED %s ranks %d grid %dx%d steps %d heat %.10e -> %.10e drift %.2e own %.12e -> "
                    + "%.12e%n", component.name().toLowerCase(), local.getSize(), options.nx, options.ny, options.steps,
                    initial, last, Math.abs(last - initial) / Math.abs(initial), initialShare, model.ownHeat);
            if (options.bench) {
                double perStep = seconds / Math.max(1, options.steps - 1);
                System.out.printf("BENCH %s time-per-step %.3f ms per-simulated-day %.3f s%n",
                        component.name().toLowerCase(), perStep * 1e3, perStep * STEPS_PER_DAY);
            }
        }
        other.disconnect();
        local.free();
        MPI.Finalize();
    }

    /** The other program's ranks through {@code MPI_Intercomm_create}: its leader is its first world rank. */
    private static Intercomm byAppNum(int appNum, Intracomm local) throws MPIException {
        int size = MPI.COMM_WORLD.getSize();
        int[] appNums = new int[size];
        MPI.COMM_WORLD.allGather(new int[] {appNum}, 1, MPI.INT, appNums, 1, MPI.INT);
        int leader = 0;
        while (leader < size && appNums[leader] == appNum) {
            leader++;
        }
        return MPI.COMM_WORLD.createIntercomm(local, 0, leader, 2026);
    }

    /** The other program's ranks through a port the ocean publishes and the atmosphere looks up. */
    private static Intercomm byPort(Component component, Intracomm local) throws MPIException {
        String service = "weft-coupled-ocean";
        if (component == Component.OCEAN) {
            String port = local.getRank() == 0 ? Intracomm.openPort() : null;
            if (port != null) {
                Intracomm.publishName(service, port);
            }
            MPI.COMM_WORLD.barrier(); // published
            Intercomm atmosphere = local.accept(port, 0);
            if (port != null) {
                Intracomm.unpublishName(service, port);
                Intracomm.closePort(port);
            }
            return atmosphere;
        }
        MPI.COMM_WORLD.barrier();
        String port = local.getRank() == 0 ? Intracomm.lookupName(service) : null;
        return local.connect(port, 0);
    }

    /**
     * The other program's ranks when the two run as two jobs (two weftruns): the ocean opens a port, writes its name
     * to {@code file} (whole, by a rename) and accepts; the atmosphere waits for the file and connects.
     */
    private static Intercomm byPortFile(Component component, Intracomm local, Path file) throws MPIException {
        boolean root = local.getRank() == 0;
        try {
            if (component == Component.OCEAN) {
                String port = root ? Intracomm.openPort() : null;
                if (root) {
                    Path written = file.resolveSibling(file.getFileName() + ".tmp");
                    Files.writeString(written, port);
                    Files.move(written, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    System.out.println("PORT " + port);
                }
                Intercomm atmosphere = local.accept(port, 0);
                if (root) {
                    Intracomm.closePort(port);
                }
                return atmosphere;
            }
            String port = root ? awaitFile(file) : null;
            return local.connect(port, 0);
        } catch (IOException e) {
            throw new IllegalStateException("the port file " + file + ": " + e.getMessage(), e);
        }
    }

    private static String awaitFile(Path file) throws IOException {
        long deadline = System.nanoTime() + 300_000_000_000L;
        while (!Files.exists(file)) {
            if (System.nanoTime() > deadline) {
                throw new IOException("no port name written within 300 s");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for the port name", e);
            }
        }
        return Files.readString(file).trim();
    }

    /** One coupling step: {@code substeps} of diffusion, then the exchange of heat across the surface. */
    void step(int substeps) throws MPIException {
        for (int s = 0; s < substeps; s++) {
            diffuse();
        }
        couple();
    }

    /**
     * One explicit diffusion step in flux form: each face between two cells moves alpha x their difference from
     * the warmer to the colder, computed from the same two values by both owners when the face is between ranks,
     * so heat is only moved, never made. No flux through the grid's edges.
     */
    private void diffuse() throws MPIException {
        exchangeHalo();
        Arrays.fill(delta, 0);
        double alpha = component.diffusivity;
        for (int y = -1; y < rows.size(); y++) {
            for (int x = -1; x < cols.size(); x++) {
                int gy = rows.first() + y;
                int gx = cols.first() + x;
                boolean inside = y >= 0 && x >= 0;
                if (y >= 0 && gx >= 0 && gx + 1 < nx && (inside || x + 1 < cols.size())) {
                    double f = alpha * (t[at(y, x + 1)] - t[at(y, x)]);
                    delta[at(y, x)] += f;
                    delta[at(y, x + 1)] -= f;
                }
                if (x >= 0 && gy >= 0 && gy + 1 < ny && (inside || y + 1 < rows.size())) {
                    double f = alpha * (t[at(y + 1, x)] - t[at(y, x)]);
                    delta[at(y, x)] += f;
                    delta[at(y + 1, x)] -= f;
                }
            }
        }
        for (int y = 0; y < rows.size(); y++) {
            for (int x = 0; x < cols.size(); x++) {
                t[at(y, x)] += delta[at(y, x)];
            }
        }
    }

    /** The neighbours' edge cells into the halo: rows for the ocean, columns for the atmosphere. */
    private void exchangeHalo() throws MPIException {
        int me = local.getRank();
        int before = me == 0 ? MPI.PROC_NULL : me - 1;
        int after = me == local.getSize() - 1 ? MPI.PROC_NULL : me + 1;
        int n = component.byRows ? cols.size() : rows.size();
        int last = (component.byRows ? rows.size() : cols.size()) - 1;
        double[] out = new double[n];
        double[] in = new double[n];
        edge(0, out, true);
        local.sendRecv(out, n, MPI.DOUBLE, before, 1, in, n, MPI.DOUBLE, after, 1);
        if (after != MPI.PROC_NULL) {
            edge(last + 1, in, false);
        }
        edge(last, out, true);
        local.sendRecv(out, n, MPI.DOUBLE, after, 2, in, n, MPI.DOUBLE, before, 2);
        if (before != MPI.PROC_NULL) {
            edge(-1, in, false);
        }
    }

    /** Copies local row (ocean) or column (atmosphere) {@code index} to {@code line}, or back when not {@code out}. */
    private void edge(int index, double[] line, boolean out) {
        for (int i = 0; i < line.length; i++) {
            int cell = component.byRows ? at(index, i) : at(i, index);
            if (out) {
                line[i] = t[cell];
            } else {
                t[cell] = line[i];
            }
        }
    }

    /**
     * The surface exchange: every rank sends each rank of the other program the cells they both own (its rows
     * times their columns), receives the other field on the same cells, and applies F = k (T_atm - T_ocean): the
     * ocean gains F dt, the atmosphere loses it; both compute F from the same two values.
     */
    private void couple() throws MPIException {
        int remote = other.getRemoteSize();
        int[] counts = new int[remote];
        int[] displs = new int[remote];
        int total = 0;
        for (int r = 0; r < remote; r++) {
            Slice theirs = Slice.of(component.byRows ? nx : ny, remote, r);
            counts[r] = theirs.size() * (component.byRows ? rows.size() : cols.size());
            displs[r] = total;
            total += counts[r];
        }
        double[] mine = new double[total];
        double[] theirs = new double[total];
        forEachShared(remote, (i, cell) -> mine[i] = t[cell]);
        other.allToAllv(mine, counts, displs, MPI.DOUBLE, theirs, counts, displs, MPI.DOUBLE);
        boolean ocean = component == Component.OCEAN;
        forEachShared(remote, (i, cell) -> {
            double flux = ocean ? COUPLING * (theirs[i] - t[cell]) : COUPLING * (t[cell] - theirs[i]);
            t[cell] += (ocean ? flux : -flux) * DT / component.capacity;
        });
    }

    private interface SharedCell {
        void at(int index, int cell);
    }

    /**
     * Visits the cells shared with each remote rank in turn, in the order both sides pack them: the shared block's
     * rows, each row's columns (the ocean's rows are its own and the columns the remote rank's; the atmosphere's
     * the other way round).
     */
    private void forEachShared(int remote, SharedCell visit) {
        int i = 0;
        for (int r = 0; r < remote; r++) {
            Slice block = Slice.of(component.byRows ? nx : ny, remote, r);
            Slice blockRows = component.byRows ? rows : block;
            Slice blockCols = component.byRows ? block : cols;
            for (int gy = blockRows.first(); gy < blockRows.end(); gy++) {
                for (int gx = blockCols.first(); gx < blockCols.end(); gx++) {
                    visit.at(i++, at(gy - rows.first(), gx - cols.first()));
                }
            }
        }
    }

    /** The heat of both fields: this program's, summed over its ranks, plus the other's (an intercomm allreduce). */
    double heat() throws MPIException {
        double[] mine = {0};
        for (int y = 0; y < rows.size(); y++) {
            for (int x = 0; x < cols.size(); x++) {
                mine[0] += component.capacity * t[at(y, x)];
            }
        }
        double[] here = new double[1];
        local.allReduce(mine, here, 1, MPI.DOUBLE, MPI.SUM);
        double[] there = new double[1];
        other.allReduce(mine, there, 1, MPI.DOUBLE, MPI.SUM); // on an intercommunicator: the other group's sum
        ownHeat = here[0];
        return here[0] + there[0];
    }

    /** The command line's options. */
    record Options(int nx, int ny, int steps, int substeps, boolean bench, String couple) {
        static Options parse(String[] args) {
            int nx = 256;
            int ny = 128;
            int steps = 10;
            int substeps = 4;
            boolean bench = false;
            String couple = "mpmd";
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--nx" -> nx = Integer.parseInt(args[++i]);
                    case "--ny" -> ny = Integer.parseInt(args[++i]);
                    case "--steps" -> steps = Integer.parseInt(args[++i]);
                    case "--substeps" -> substeps = Integer.parseInt(args[++i]);
                    case "--bench" -> bench = true;
                    case "--couple" -> couple = args[++i];
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            return new Options(nx, ny, steps, substeps, bench, couple);
        }
    }
}

package org.weft.tests.programs;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import org.weft.adi.DeviceReport;
import org.weft.api.Weft;

/**
 * Collectives of a job whose sites hold {@code args[0]} ranks each: a communicator of each site's ranks (a split)
 * and the world, which spans the sites when there are several. Checks reduce_scatter_block (in place and not, arrays
 * and direct buffers), allreduce and sums of 8- and 16-bit integers that overflow (they wrap) on both against
 * sequential results; that a gather whose blocks are longer than the root's is {@code ERR_TRUNCATE} at the root (the
 * native MPI's error class, mapped; MPICH 4.0's nonblocking gather, which sites over several hosts call, drops that
 * error and the block, so there it checks that the root's own block came); and, from
 * the report ({@link Weft#report()}), that the site's communicator ran its collectives natively (native calls
 * counted, no RSR sent) while the world spanning sites ran in two levels: each allreduce a native reduce and a native
 * bcast inside the site, and the sites' leaders' allreduce across by Weft's messages. Prints
 * {@code SITE-COLLECTIVES OK rank R}.
 */
public final class SiteCollectivesCheck {
    private static final Pattern NATIVE_CALLS = Pattern.compile("native collectives through .*?, (\\d+) calls");
    private static final int CALLS = 200;
    /** Whether this rank's site runs under Open MPI's {@code mpirun} (else MPICH's Hydra). */
    private static final boolean OPEN_MPI = System.getenv("OMPI_COMM_WORLD_SIZE") != null;

    private SiteCollectivesCheck() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int perSite = Integer.parseInt(args[0]);
        Intracomm site = world.split(rank / perSite, rank);
        site.setErrhandler(MPI.ERRORS_RETURN);
        for (Intracomm comm : new Intracomm[] {site, world}) {
            checkReduceScatterBlock(comm, 3, false, false);
            checkReduceScatterBlock(comm, 1000, true, false);
            checkReduceScatterBlock(comm, 5, false, true);
            checkWrappingSums(comm);
        }
        if (site.getSize() == 2) {
            checkTruncatedGather(site);
        }
        long[] inSite = countedAllReduces(site);
        long[] inWorld = countedAllReduces(world);
        System.out.println("SITE-COLLECTIVES rank " + rank + " site of " + site.getSize() + ": native +" + inSite[0]
                + " rsrs +" + inSite[1] + "; world of " + world.getSize() + ": native +" + inWorld[0] + " rsrs +"
                + inWorld[1]);
        if (inSite[0] != CALLS || inSite[1] > CALLS / 10) {
            throw new AssertionError(CALLS + " allreduces of the site's communicator did not run natively");
        }
        boolean spans = perSite < world.getSize();
        if (spans && inWorld[0] != 2 * CALLS) {
            throw new AssertionError("the world spans sites: each of its allreduces must run a native reduce and bcast"
                    + " inside the site (two levels)");
        }
        site.free();
        System.out.println("SITE-COLLECTIVES OK rank " + rank);
        MPI.Finalize();
    }

    /** Each rank contributes {@code rank + 10 * item}; block {@code r} of the sum lands at rank {@code r}. */
    private static void checkReduceScatterBlock(Intracomm comm, int count, boolean direct, boolean inPlace)
            throws MPIException {
        int n = comm.getSize();
        int me = comm.getRank();
        IntBuffer send = direct ? ByteBuffer.allocateDirect(4 * n * count).order(ByteOrder.nativeOrder()).asIntBuffer()
                : IntBuffer.allocate(n * count);
        for (int i = 0; i < n * count; i++) {
            send.put(i, me + 10 * i);
        }
        int[] recv = new int[inPlace ? n * count : count];
        if (inPlace) {
            send.get(0, recv);
            comm.reduceScatterBlock(recv, count, MPI.INT, MPI.SUM);
        } else if (direct) {
            IntBuffer out = ByteBuffer.allocateDirect(4 * count).order(ByteOrder.nativeOrder()).asIntBuffer();
            comm.reduceScatterBlock(send, out, count, MPI.INT, MPI.SUM);
            out.get(0, recv, 0, count);
        } else {
            comm.reduceScatterBlock(send.array(), recv, count, MPI.INT, MPI.SUM);
        }
        for (int i = 0; i < count; i++) {
            int item = me * count + i;
            int expected = n * (n - 1) / 2 + n * 10 * item;
            if (recv[i] != expected) {
                throw new AssertionError("reduceScatterBlock of " + count + (direct ? " direct" : "")
                        + (inPlace ? " in place" : "") + " on " + n + " ranks: item " + i + " is " + recv[i]
                        + ", expected " + expected);
            }
        }
    }

    /**
     * Sums of 8- and 16-bit integers that overflow wrap around, as Java's arithmetic (and the schedules and the shared
     * segment) do, wherever they run: Open MPI 4.1's AVX kernels saturate them (30000 + 30000 gave 32767 for 64
     * shorts), so the site keeps the schedules for them.
     */
    private static void checkWrappingSums(Intracomm comm) throws MPIException {
        int count = 64; // the vector kernels take over above a few items
        int n = comm.getSize();
        byte[] bytes = new byte[count];
        short[] shorts = new short[count];
        char[] chars = new char[count];
        java.util.Arrays.fill(bytes, (byte) 100);
        java.util.Arrays.fill(shorts, (short) 30000);
        java.util.Arrays.fill(chars, (char) 60000);
        comm.allReduce(bytes, count, MPI.BYTE, MPI.SUM);
        comm.allReduce(shorts, count, MPI.SHORT, MPI.SUM);
        char[] reduced = new char[count];
        comm.reduce(chars, reduced, count, MPI.CHAR, MPI.SUM, n - 1);
        for (int i = 0; i < count; i++) {
            if (bytes[i] != (byte) (100 * n) || shorts[i] != (short) (30000 * n)
                    || comm.getRank() == n - 1 && reduced[i] != (char) (60000 * n)) {
                throw new AssertionError("sums of 8- and 16-bit integers on " + n + " ranks do not wrap: item " + i
                        + " is " + bytes[i] + ", " + shorts[i] + ", " + (int) reduced[i]);
            }
        }
    }

    /**
     * Rank 1 sends 8 ints into the root's blocks of 4: the root sees {@code ERR_TRUNCATE} (both MPIs' blocking
     * {@code MPI_Gather}, which a site on one host calls; Open MPI's {@code MPI_Igather} too), or — MPICH 4.0's
     * {@code MPI_Igather}, the call of sites over several hosts, drops the error and rank 1's block (undefined after
     * it) — no error and its own block; rank 1 sees nothing either way.
     */
    private static void checkTruncatedGather(Intracomm site) throws MPIException {
        boolean root = site.getRank() == 0;
        int[] send = {1, 2, 3, 4, 5, 6, 7, 8};
        int[] recv = new int[8];
        try {
            site.gather(send, root ? 4 : 8, MPI.INT, recv, 4, MPI.INT, 0);
        } catch (MPIException e) {
            if (root && e.getErrorClass() == MPI.ERR_TRUNCATE) {
                site.barrier();
                return;
            }
            throw e;
        }
        if (root && (OPEN_MPI || recv[0] != 1 || recv[3] != 4)) {
            throw new AssertionError("a gather's block longer than the root's was not ERR_TRUNCATE, and (MPICH's"
                    + " nonblocking gather) the root's own block did not come: " + java.util.Arrays.toString(recv));
        }
        site.barrier();
    }

    /** Native calls and RSRs this rank sent during {@link #CALLS} checked allreduces on {@code comm}. */
    private static long[] countedAllReduces(Intracomm comm) throws MPIException {
        long calls = nativeCalls();
        long rsrs = rsrsSent();
        double[] in = new double[2];
        double[] out = new double[2];
        int n = comm.getSize();
        for (int i = 0; i < CALLS; i++) {
            in[0] = comm.getRank() + i;
            in[1] = -i;
            comm.allReduce(in, out, 2, MPI.DOUBLE, MPI.SUM);
            if (out[0] != n * (n - 1) / 2.0 + (double) n * i || out[1] != -(double) n * i) {
                throw new AssertionError("allReduce " + i + " on " + n + " ranks gave " + out[0] + ", " + out[1]);
            }
        }
        return new long[] {nativeCalls() - calls, rsrsSent() - rsrs};
    }

    private static long nativeCalls() throws MPIException {
        for (String note : Weft.report().notes()) {
            Matcher m = NATIVE_CALLS.matcher(note);
            if (m.find()) {
                return Long.parseLong(m.group(1));
            }
        }
        return 0;
    }

    private static long rsrsSent() throws MPIException {
        long total = 0;
        for (DeviceReport.MethodReport method : Weft.report().methods()) {
            total += method.rsrsSent();
        }
        return total;
    }
}

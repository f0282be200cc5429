package org.weft.core.dyn;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.security.SecureRandom;
import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;
import org.weft.adi.concurrent.BlockingCall;
import org.weft.core.MpiRuntime;
import org.weft.core.comm.Communicator;

/**
 * {@code MPI_Comm_join} over a connected socket (Java has no file descriptors: the program passes the
 * {@link SocketChannel}, blocking). Each side writes its job's id, its job rank and a tag it proposes, and reads
 * the other's; the lower job rank's tag is taken, and the two processes join as two groups of one over the bridge
 * ({@link WorldBridge}). Both must belong to the same job ({@code ERR_PORT} otherwise, as for a port).
 */
public final class Joining {
    private static final SecureRandom RANDOM = new SecureRandom();

    private Joining() {
    }

    /** What each side of a join writes: its job, its job rank, the tag it proposes. */
    private record Greeting(String jobId, int rank, int tag) {
    }

    /** The intercommunicator between this process and the one at the other end of {@code socket}. */
    public static Communicator join(MpiRuntime runtime, SocketChannel socket) {
        String jobId = runtime.device().dynamic().jobId();
        int me = runtime.device().rank();
        int proposed = 1 + RANDOM.nextInt(Integer.MAX_VALUE - 1);
        Greeting theirs;
        try {
            // blocking socket I/O, awaited while this process progresses (the other may need its polls first)
            theirs = runtime.device().awaitResult(BlockingCall.onThread("weft-join", () -> {
                DataOutputStream out = new DataOutputStream(Channels.newOutputStream(socket));
                out.writeUTF(jobId);
                out.writeInt(me);
                out.writeInt(proposed);
                out.flush();
                DataInputStream in = new DataInputStream(Channels.newInputStream(socket));
                return new Greeting(in.readUTF(), in.readInt(), in.readInt());
            }));
        } catch (IOException e) {
            throw new DeviceException(ErrorClass.ERR_OTHER, "MPI_Comm_join: the socket failed: " + e.getMessage(), e);
        }
        String otherJob = theirs.jobId();
        int other = theirs.rank();
        int otherTag = theirs.tag();
        if (!otherJob.equals(jobId)) {
            throw new DeviceException(ErrorClass.ERR_PORT, "MPI_Comm_join: the other process belongs to job "
                    + otherJob + ", this one to " + jobId + ": Weft joins processes of one job only, so far");
        }
        if (other == me || otherTag < 1) {
            throw new DeviceException(ErrorClass.ERR_OTHER, "MPI_Comm_join: a socket to this same process");
        }
        WorldBridge.prepare(runtime.self());
        return WorldBridge.join(runtime.self(), 0, other, me < other ? proposed : otherTag);
    }
}

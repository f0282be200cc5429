package org.weft.core.dyn;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import org.weft.adi.Device;
import org.weft.adi.DynamicProcesses;
import org.weft.adi.bootstrap.DataBytes;
import org.weft.adi.concurrent.BlockingCall;
import org.weft.core.comm.Communicator;
import org.weft.core.comm.CreationCalls;

/**
 * What a group's root learned of the other group through a port, and tells its group: the other job's id, the
 * port link's key, the other group's processes (their job ranks in their job, their business cards) and, when the
 * other group is of another job, the job ranks this job knows them by ({@code firstAlias ..}) and the first of
 * those the other job knows this group by ({@code ourFirstThere}, in the order of this group's ranks).
 */
record Meeting(boolean foreign, String jobId, String linkKey, int[] ranksThere, int firstAlias, int ourFirstThere,
               byte[][] cards) {
    /** The other group's processes as this process addresses them. */
    int[] ranksHere() {
        if (!foreign) {
            return ranksThere;
        }
        int[] aliases = new int[ranksThere.length];
        java.util.Arrays.setAll(aliases, i -> firstAlias + i);
        return aliases;
    }

    /**
     * The root's part, over the port's {@code session}: swaps the groups (job id, job ranks, cards); for a group of
     * another job, reserves the ranks to know it by and swaps the first of them.
     */
    static Meeting introduce(Communicator comm, PortSession session) throws IOException {
        Device device = comm.device();
        DynamicProcesses dynamic = device.dynamic();
        int[] ranks = comm.group().worldRanks();
        byte[] mine = write(out -> {
            out.writeUTF(dynamic.jobId());
            writeRanksAndCards(out, ranks, dynamic.cards(ranks));
        });
        DataInputStream theirs = reader(swap(device, session, mine));
        String jobId = theirs.readUTF();
        int count = theirs.readInt();
        if (count < 1 || count > 1 << 16) {
            throw new IOException("the other root announced a group of " + count + " processes");
        }
        int[] ranksThere = new int[count];
        byte[][] cards = new byte[count][];
        for (int i = 0; i < count; i++) {
            ranksThere[i] = theirs.readInt();
            cards[i] = theirs.readNBytes(theirs.readInt());
        }
        boolean foreign = !jobId.equals(dynamic.jobId());
        int firstAlias = 0;
        int ourFirstThere = 0;
        if (foreign) {
            firstAlias = dynamic.reserve(count);
            ourFirstThere = ints(swap(device, session, bytes(new int[] {firstAlias})))[0];
        }
        return new Meeting(foreign, jobId, session.linkKey(), ranksThere, firstAlias, ourFirstThere, cards);
    }

    private static byte[] swap(Device device, PortSession session, byte[] mine) throws IOException {
        return device.awaitResult(BlockingCall.onThread("weft-port", () -> session.swap(mine)));
    }

    private static void writeRanksAndCards(DataOutputStream out, int[] ranks, byte[][] cards) throws IOException {
        out.writeInt(ranks.length);
        for (int i = 0; i < ranks.length; i++) {
            out.writeInt(ranks[i]);
            out.writeInt(cards[i].length);
            out.write(cards[i]);
        }
    }

    byte[] encode() {
        return write(out -> {
            out.writeBoolean(foreign);
            out.writeUTF(jobId);
            out.writeUTF(linkKey);
            out.writeInt(firstAlias);
            out.writeInt(ourFirstThere);
            writeRanksAndCards(out, ranksThere, cards);
        });
    }

    static Meeting decode(byte[] bytes) {
        try {
            DataInputStream in = reader(bytes);
            boolean foreign = in.readBoolean();
            String jobId = in.readUTF();
            String linkKey = in.readUTF();
            int firstAlias = in.readInt();
            int ourFirstThere = in.readInt();
            int count = in.readInt();
            int[] ranks = new int[count];
            byte[][] cards = new byte[count][];
            for (int i = 0; i < count; i++) {
                ranks[i] = in.readInt();
                cards[i] = in.readNBytes(in.readInt());
            }
            return new Meeting(foreign, jobId, linkKey, ranks, firstAlias, ourFirstThere, cards);
        } catch (IOException e) {
            throw new UncheckedIOException("a garbled meeting from this group's own root", e);
        }
    }

    /** {@code mine} ({@code length} bytes) from {@code root} on every process of {@code comm}. */
    static byte[] bcast(Communicator comm, int root, byte[] mine, int length) {
        int[] words = comm.rank() == root ? ints(java.util.Arrays.copyOf(mine, (length + 3) / 4 * 4))
                : new int[(length + 3) / 4];
        CreationCalls.bcast(comm, words, root);
        return java.util.Arrays.copyOf(bytes(words), length);
    }

    static byte[] bytes(int[] values) {
        ByteBuffer buffer = ByteBuffer.allocate(values.length * 4);
        buffer.asIntBuffer().put(values);
        return buffer.array();
    }

    static int[] ints(byte[] bytes) {
        int[] values = new int[bytes.length / 4];
        ByteBuffer.wrap(bytes).asIntBuffer().get(values);
        return values;
    }

    private static byte[] write(DataBytes.Writing writing) {
        return DataBytes.write(writing);
    }

    private static DataInputStream reader(byte[] bytes) {
        return DataBytes.reader(bytes);
    }
}

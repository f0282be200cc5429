package org.weft.adi.bootstrap;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a rank asks its launcher outside the world's collectives, for dynamic processes: the business cards of
 * processes outside its world, a new card of its own, new processes (spawn), and the names of the job's name
 * service. Each is a REQUEST frame with an id, answered by a RESPONSE frame with the same id, in any order and
 * while a collective is in flight:
 * <pre>
 *  C-&gt;S REQUEST  | id (int32) | op (int8) | body |
 *  S-&gt;C RESPONSE | id (int32) | status (int32: 0, or the MPI error class) | body (or a UTF-8 message) |
 *
 *  op CARDS     | n | n x rank |                     -&gt; GATHERED body of those ranks' cards, when all are known
 *  op PUT_CARD  | card |                             -&gt; empty (a module started late: the card replaces the old)
 *  op SPAWN     | {@link SpawnSpec} |                   -&gt; | first rank | count |, once every new process met
 *  op PUBLISH   | service (UTF) | port (UTF) |       -&gt; empty, or ERR_SERVICE when the name is taken
 *  op LOOKUP    | service (UTF) |                    -&gt; | port (UTF) |, or ERR_NAME
 *  op UNPUBLISH | service (UTF) | port (UTF) |       -&gt; empty, or ERR_SERVICE when not published (so)
 *  op RESERVE   | count |                            -&gt; | first rank |: job ranks no process of this job will
 *                                                       take, by which this job's processes know another job's
 *                                                       (the other side of a port between two jobs)
 * </pre>
 * Integers big-endian, strings as {@link DataOutputStream#writeUTF}.
 */
public final class LauncherRequests {
    public static final byte CARDS = 1;
    public static final byte PUT_CARD = 2;
    public static final byte SPAWN = 3;
    public static final byte PUBLISH = 4;
    public static final byte LOOKUP = 5;
    public static final byte UNPUBLISH = 6;
    public static final byte RESERVE = 7;

    private LauncherRequests() {
    }

    /**
     * The processes one spawn asks for: each command (a main class) with its arguments, how many processes, and the
     * keys of its info object; and the job rank of the spawning root (whose host and class path are the default).
     */
    public record SpawnSpec(int root, List<Command> commands) {
        public SpawnSpec {
            commands = List.copyOf(commands);
        }

        /** The processes a spawn asks for in all. */
        public int count() {
            return commands.stream().mapToInt(Command::maxprocs).sum();
        }
    }

    /** One command of a spawn ({@code spawnMultiple} has several, each its own APPNUM). */
    public record Command(String command, List<String> argv, int maxprocs, Map<String, String> info) {
        public Command {
            argv = List.copyOf(argv);
            info = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(info));
        }
    }

    /** A REQUEST or RESPONSE body: the id, then the rest. */
    public static byte[] framed(int id, int second, boolean secondIsByte, byte[] body) {
        byte[] framed = new byte[4 + (secondIsByte ? 1 : 4) + body.length];
        BootstrapProtocol.putInt(framed, 0, id);
        int at = 4;
        if (secondIsByte) {
            framed[at++] = (byte) second;
        } else {
            BootstrapProtocol.putInt(framed, at, second);
            at += 4;
        }
        System.arraycopy(body, 0, framed, at, body.length);
        return framed;
    }

    public static byte[] ranks(int[] ranks) {
        return write(out -> {
            out.writeInt(ranks.length);
            for (int rank : ranks) {
                out.writeInt(rank);
            }
        });
    }

    public static int[] ranksOf(byte[] body) throws IOException {
        DataInputStream in = reader(body);
        int n = in.readInt();
        if (n < 0 || n > (body.length - 4) / 4) {
            throw new IOException("a CARDS request of " + n + " ranks");
        }
        int[] ranks = new int[n];
        for (int i = 0; i < n; i++) {
            ranks[i] = in.readInt();
        }
        return ranks;
    }

    public static byte[] strings(String... values) {
        return write(out -> {
            for (String value : values) {
                out.writeUTF(value);
            }
        });
    }

    public static String[] stringsOf(byte[] body, int count) throws IOException {
        DataInputStream in = reader(body);
        String[] values = new String[count];
        for (int i = 0; i < count; i++) {
            values[i] = in.readUTF();
        }
        return values;
    }

    public static byte[] spawn(SpawnSpec spec) {
        return write(out -> {
            out.writeInt(spec.root());
            out.writeInt(spec.commands().size());
            for (Command command : spec.commands()) {
                out.writeUTF(command.command());
                out.writeInt(command.argv().size());
                for (String arg : command.argv()) {
                    out.writeUTF(arg);
                }
                out.writeInt(command.maxprocs());
                out.writeInt(command.info().size());
                for (Map.Entry<String, String> e : command.info().entrySet()) {
                    out.writeUTF(e.getKey());
                    out.writeUTF(e.getValue());
                }
            }
        });
    }

    public static SpawnSpec spawnOf(byte[] body) throws IOException {
        DataInputStream in = reader(body);
        int root = in.readInt();
        int commands = bounded(in.readInt(), body.length);
        List<Command> list = new ArrayList<>();
        for (int c = 0; c < commands; c++) {
            String command = in.readUTF();
            int argc = bounded(in.readInt(), body.length);
            List<String> argv = new ArrayList<>();
            for (int a = 0; a < argc; a++) {
                argv.add(in.readUTF());
            }
            int maxprocs = in.readInt();
            int keys = bounded(in.readInt(), body.length);
            Map<String, String> info = new LinkedHashMap<>();
            for (int k = 0; k < keys; k++) {
                info.put(in.readUTF(), in.readUTF());
            }
            list.add(new Command(command, argv, maxprocs, info));
        }
        return new SpawnSpec(root, list);
    }

    private static int bounded(int count, int bodyLength) throws IOException {
        if (count < 0 || count > bodyLength) {
            throw new IOException("a spawn request with a count of " + count);
        }
        return count;
    }

    private static byte[] write(DataBytes.Writing writing) {
        return DataBytes.write(writing);
    }

    private static DataInputStream reader(byte[] body) {
        return DataBytes.reader(body);
    }
}

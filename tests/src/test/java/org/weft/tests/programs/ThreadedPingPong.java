package org.weft.tests.programs;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReference;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * Several threads of ranks 0 and 1 ping-pong at once (MPI_THREAD_MULTIPLE), each on its own tag with its own
 * message size — the larger ones above the methods' small-message paths — and each checks every echo: rank 1 adds
 * one to the first int. Concurrent senders and pollers share a method's locks; a lost, crossed or corrupted message
 * fails the echo check, a deadlock the test's timeout. With the argument {@code large} the sizes are 64 KiB to
 * 256 KiB (rendezvous; over nativempi, bulk transfers started by pollers and by the threads themselves). With
 * {@code nonblocking} the two ranks' threads exchange by {@code iRecv} and {@code iSend} instead, small and
 * rendezvous-sized messages in turn, completed by each of {@code waitAll}, {@code testAll}, {@code waitSome} and
 * {@code waitFor}/{@code waitStatus} in turn: the device reuses the requests the API hands back, on whichever thread
 * took them. Modes joined by commas run one after the other ({@code small,large}; {@code small} or nothing: 8 B to
 * 9 KB). A second argument sets the number of threads per rank (default 4). Prints {@code THREADED OK rank R}
 * per rank.
 */
public final class ThreadedPingPong {
    private static final int THREADS = 4;
    private static final int ROUNDS = 5000;
    private static final int LARGE_ROUNDS = 500;

    private ThreadedPingPong() {
    }

    public static void main(String[] args) throws Exception {
        int provided = MPI.InitThread(args, MPI.THREAD_MULTIPLE);
        if (provided != MPI.THREAD_MULTIPLE) {
            throw new IllegalStateException("THREAD_MULTIPLE not provided: " + provided);
        }
        int rank = MPI.COMM_WORLD.getRank();
        int count = args.length > 1 ? Integer.parseInt(args[1]) : THREADS;
        for (String mode : (args.length > 0 ? args[0] : "").split(",")) {
            MPI.COMM_WORLD.barrier(); // the two ranks' threads are done with the mode before
            pingPongInThreads(rank, mode, count);
        }
        System.out.println("THREADED OK rank " + rank);
        MPI.Finalize();
    }

    /** {@code count} threads of this rank ping-pong in {@code mode} at once; throws the first failure. */
    private static void pingPongInThreads(int rank, String mode, int count) throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] threads = new Thread[count];
        for (int t = 0; t < count; t++) {
            int tag = t;
            threads[t] = new Thread(() -> {
                try {
                    if (mode.equals("large")) {
                        pingPong(rank, tag, (tag + 1) << 16, LARGE_ROUNDS); // 64 KiB to 256 KiB
                    } else if (mode.equals("nonblocking")) {
                        exchange(rank, tag, ROUNDS / 2);
                    } else {
                        pingPong(rank, tag, 8 + tag * 3000, ROUNDS); // 8 B to 9 KB
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "ping-pong-" + t);
            threads[t].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("rank " + rank + ", " + (mode.isEmpty() ? "small" : mode), failure.get());
        }
    }

    /**
     * Ranks 0 and 1 exchange by nonblocking calls; every third round 32–128 KiB (rendezvous over shm and tcp), else
     * 8 bytes to 9 KB. Each checks the first and last int of what the other sent.
     */
    private static void exchange(int rank, int tag, int rounds) throws MPIException {
        int peer = 1 - rank;
        int largest = (tag + 1) << 15;
        ByteBuffer out = MPI.newByteBuffer(largest);
        ByteBuffer in = MPI.newByteBuffer(largest);
        Request[] requests = new Request[2];
        for (int i = 0; i < rounds; i++) {
            int bytes = i % 3 == 2 ? largest : 8 + tag * 3000;
            int value = (i * THREADS + tag) * 2 + rank;
            out.putInt(0, value).putInt(bytes - 4, -value);
            in.putInt(0, 0).putInt(bytes - 4, 0);
            requests[0] = MPI.COMM_WORLD.iRecv(in, bytes, MPI.BYTE, peer, tag);
            requests[1] = MPI.COMM_WORLD.iSend(out, bytes, MPI.BYTE, peer, tag);
            switch (i % 4) {
                case 0 -> Request.waitAll(requests);
                case 1 -> {
                    while (!Request.testAll(requests)) {
                        Thread.onSpinWait();
                    }
                }
                case 2 -> {
                    for (int taken = 0; taken < 2; ) {
                        taken += Request.waitSome(requests).length;
                    }
                }
                default -> {
                    requests[1].waitFor();
                    Status status = requests[0].waitStatus();
                    if (status.getCount(MPI.BYTE) != bytes) {
                        throw new IllegalStateException("tag " + tag + " round " + i + ": " + status.getCount(MPI.BYTE)
                                + " bytes, expected " + bytes);
                    }
                }
            }
            int expected = (i * THREADS + tag) * 2 + peer;
            if (in.getInt(0) != expected || in.getInt(bytes - 4) != -expected) {
                throw new IllegalStateException("tag " + tag + " round " + i + ": got " + in.getInt(0) + "/"
                        + in.getInt(bytes - 4) + ", expected " + expected + "/" + -expected);
            }
        }
    }

    private static void pingPong(int rank, int tag, int bytes, int rounds) throws MPIException {
        ByteBuffer buffer = MPI.newByteBuffer(bytes);
        for (int i = 0; i < rounds; i++) {
            int value = i * THREADS + tag;
            if (rank == 0) {
                buffer.putInt(0, value);
                MPI.COMM_WORLD.send(buffer, bytes, MPI.BYTE, 1, tag);
                MPI.COMM_WORLD.recv(buffer, bytes, MPI.BYTE, 1, tag);
                if (buffer.getInt(0) != value + 1) {
                    throw new IllegalStateException("tag " + tag + " round " + i + ": echo " + buffer.getInt(0)
                            + ", expected " + (value + 1));
                }
            } else if (rank == 1) {
                MPI.COMM_WORLD.recv(buffer, bytes, MPI.BYTE, 0, tag);
                buffer.putInt(0, buffer.getInt(0) + 1);
                MPI.COMM_WORLD.send(buffer, bytes, MPI.BYTE, 0, tag);
            }
        }
    }
}

package org.weft.tests.programs;

/**
 * A rank that never calls {@code MPI_Init}: it only sleeps for {@code args[0]} seconds, so nothing of Weft runs in it
 * that could notice its launcher go away.
 */
public final class NeverInit {
    private NeverInit() {
    }

    public static void main(String[] args) throws InterruptedException {
        Thread.sleep(Long.parseLong(args[0]) * 1000);
    }
}

package org.weft.core.coll.op;

/**
 * Per-thread chunks of primitive arrays that the predefined operations' kernels reduce in: a chunk of each operand is
 * copied in bulk from its segment, combined by a plain loop over arrays (which C2 vectorises), and the result
 * copied back. An element-by-element loop over the segments themselves runs 10-50x slower once the kernel has seen
 * both heap segments (the schedules' {@code byte[]} scratch) and native ones (direct user buffers, shm): the
 * segment accessors' type profile is shared, so C2 neither inlines them cleanly nor vectorises the loop. The
 * chunk is small enough to stay in L1 and is allocated once per thread (112 KiB for the seven element types), so
 * repeated reductions allocate nothing.
 */
final class KernelScratch {
    /** Bytes of each operand's chunk: 8 KiB, two of them fit in L1 beside the segments' lines. */
    static final int CHUNK_BYTES = 8192;

    private static final ThreadLocal<KernelScratch> SCRATCH = ThreadLocal.withInitial(KernelScratch::new);

    final float[] floatIn = new float[CHUNK_BYTES / Float.BYTES];
    final float[] floatInout = new float[CHUNK_BYTES / Float.BYTES];
    final double[] doubleIn = new double[CHUNK_BYTES / Double.BYTES];
    final double[] doubleInout = new double[CHUNK_BYTES / Double.BYTES];
    final int[] intIn = new int[CHUNK_BYTES / Integer.BYTES];
    final int[] intInout = new int[CHUNK_BYTES / Integer.BYTES];
    final long[] longIn = new long[CHUNK_BYTES / Long.BYTES];
    final long[] longInout = new long[CHUNK_BYTES / Long.BYTES];
    final short[] shortIn = new short[CHUNK_BYTES / Short.BYTES];
    final short[] shortInout = new short[CHUNK_BYTES / Short.BYTES];
    final char[] charIn = new char[CHUNK_BYTES / Character.BYTES];
    final char[] charInout = new char[CHUNK_BYTES / Character.BYTES];
    final byte[] byteIn = new byte[CHUNK_BYTES];
    final byte[] byteInout = new byte[CHUNK_BYTES];

    private KernelScratch() {
    }

    /** This thread's chunks. */
    static KernelScratch get() {
        return SCRATCH.get();
    }
}

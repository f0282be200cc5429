package org.weft.core.coll.op;

/**
 * Per-thread chunks of primitive arrays that the floating-point kernels reduce in: a chunk of each operand is
 * copied in bulk from its segment, combined by a plain loop over arrays (which C2 vectorises), and the result
 * copied back. An element-by-element loop over the segments themselves runs 10-50x slower once the kernel has seen
 * both heap segments (the schedules' {@code byte[]} scratch) and native ones (direct user buffers, shm): the
 * segment accessors' type profile is shared, so C2 neither inlines them cleanly nor vectorises the loop. The
 * chunk is small enough to stay in L1 and is allocated once per thread, so repeated reductions allocate nothing.
 */
final class KernelScratch {
    /** Bytes of each operand's chunk: 8 KiB, two of them fit in L1 beside the segments' lines. */
    static final int CHUNK_BYTES = 8192;

    private static final ThreadLocal<KernelScratch> SCRATCH = ThreadLocal.withInitial(KernelScratch::new);

    final float[] floatIn = new float[CHUNK_BYTES / Float.BYTES];
    final float[] floatInout = new float[CHUNK_BYTES / Float.BYTES];
    final double[] doubleIn = new double[CHUNK_BYTES / Double.BYTES];
    final double[] doubleInout = new double[CHUNK_BYTES / Double.BYTES];

    private KernelScratch() {
    }

    /** This thread's chunks. */
    static KernelScratch get() {
        return SCRATCH.get();
    }
}

package org.weft.adi.bootstrap;

/** The bootstrap of a world of one process started without a launcher: nothing to meet. */
public final class SingletonBootstrap implements Bootstrap {
    @Override
    public byte[][] allGather(byte[] card) {
        return new byte[][] {card};
    }

    @Override
    public void barrier() {
    }

    @Override
    public void abort(int code, String message) {
        System.err.println("weft: MPI_Abort(" + code + "): " + message);
        System.err.flush();
        Runtime.getRuntime().halt(code == 0 ? 1 : code);
    }

    @Override
    public void close() {
    }
}

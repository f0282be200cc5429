package mpi;

import java.nio.ByteBuffer;

/** A user reduction function for {@link Op}: override one of the {@code call} methods. */
public abstract class UserFunction {
    public UserFunction() {
    }

    /** Combines {@code count} items of {@code inVec} into {@code inOutVec} (arrays). */
    public void call(Object inVec, Object inOutVec, int count, Datatype datatype) throws MPIException {
        throw Errors.unsupported("UserFunction.call(Object, Object, int, Datatype) (not overridden)");
    }

    /** Combines {@code count} items of {@code inBuf} into {@code inOutBuf} (buffers). */
    public void call(ByteBuffer inBuf, ByteBuffer inOutBuf, int count, Datatype datatype) throws MPIException {
        throw Errors.unsupported("UserFunction.call(ByteBuffer, ByteBuffer, int, Datatype) (not overridden)");
    }
}

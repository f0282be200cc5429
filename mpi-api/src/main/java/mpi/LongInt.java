package mpi;

/** The record of {@code MPI.LONG_INT}: a long value and an int index, as used by {@code MAXLOC}/{@code MINLOC}. */
public final class LongInt extends Struct {
    private final int value;
    private final int index;

    LongInt() {
        super(MPI.LONG_INT);
        value = addLong();
        index = addInt();
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** An accessor over one (long, int) record. */
    public final class Data extends Struct.Data {
        public Data() {
        }

        public long getValue() {
            return getLong(value);
        }

        public int getIndex() {
            return getInt(index);
        }

        public void putValue(long v) {
            putLong(value, v);
        }

        public void putIndex(int i) {
            putInt(index, i);
        }
    }
}

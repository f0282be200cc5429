package mpi;

/** The record of {@code MPI.SHORT_INT}: a short value and an int index, as used by {@code MAXLOC}/{@code MINLOC}. */
public final class ShortInt extends Struct {
    private final int value;
    private final int index;

    ShortInt() {
        super(MPI.SHORT_INT);
        value = addShort();
        index = addInt();
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** An accessor over one (short, int) record. */
    public final class Data extends Struct.Data {
        public Data() {
        }

        public short getValue() {
            return getShort(value);
        }

        public int getIndex() {
            return getInt(index);
        }

        public void putValue(short v) {
            putShort(value, v);
        }

        public void putIndex(int i) {
            putInt(index, i);
        }
    }
}

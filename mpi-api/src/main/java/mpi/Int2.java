package mpi;

/** The record of {@code MPI.INT2}: a int value and an int index, as used by {@code MAXLOC}/{@code MINLOC}. */
public final class Int2 extends Struct {
    private final int value;
    private final int index;

    Int2() {
        super(MPI.INT2);
        value = addInt();
        index = addInt();
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** An accessor over one (int, int) record. */
    public final class Data extends Struct.Data {
        public Data() {
        }

        public int getValue() {
            return getInt(value);
        }

        public int getIndex() {
            return getInt(index);
        }

        public void putValue(int v) {
            putInt(value, v);
        }

        public void putIndex(int i) {
            putInt(index, i);
        }
    }
}

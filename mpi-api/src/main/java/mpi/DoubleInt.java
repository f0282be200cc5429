package mpi;

/** The record of {@code MPI.DOUBLE_INT}: a double value and an int index, as used by {@code MAXLOC}/{@code MINLOC}. */
public final class DoubleInt extends Struct {
    private final int value;
    private final int index;

    DoubleInt() {
        super(MPI.DOUBLE_INT);
        value = addDouble();
        index = addInt();
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** An accessor over one (double, int) record. */
    public final class Data extends Struct.Data {
        public Data() {
        }

        public double getValue() {
            return getDouble(value);
        }

        public int getIndex() {
            return getInt(index);
        }

        public void putValue(double v) {
            putDouble(value, v);
        }

        public void putIndex(int i) {
            putInt(index, i);
        }
    }
}

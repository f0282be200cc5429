package mpi;

/** The record of {@code MPI.FLOAT_INT}: a float value and an int index, as used by {@code MAXLOC}/{@code MINLOC}. */
public final class FloatInt extends Struct {
    private final int value;
    private final int index;

    FloatInt() {
        super(MPI.FLOAT_INT);
        value = addFloat();
        index = addInt();
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** An accessor over one (float, int) record. */
    public final class Data extends Struct.Data {
        public Data() {
        }

        public float getValue() {
            return getFloat(value);
        }

        public int getIndex() {
            return getInt(index);
        }

        public void putValue(float v) {
            putFloat(value, v);
        }

        public void putIndex(int i) {
            putInt(index, i);
        }
    }
}

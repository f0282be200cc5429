package org.weft.tests.datatype;

import mpi.Struct;

/** A test record {@code {int id; double value; char tag}} described by an {@link mpi.Struct}. */
final class Record extends Struct {
    private final int id = addInt();
    private final int value = addDouble();
    private final int tag = addChar();

    @Override
    protected Data newData() {
        return new Data();
    }

    /** An accessor over one record. */
    final class Data extends Struct.Data {
        int id() {
            return getInt(id);
        }

        double value() {
            return getDouble(value);
        }

        char tag() {
            return getChar(tag);
        }

        void put(int i, double v, char t) {
            putInt(id, i);
            putDouble(value, v);
            putChar(tag, t);
        }
    }
}

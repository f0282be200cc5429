package org.weft.tests.datatype;

import java.nio.ByteBuffer;

import mpi.MPI;
import mpi.MPIException;
import mpi.Struct;

/**
 * A test record with nested records and an array field, {@code {int id; Record parts[2]; Record main;
 * float weights[4]}}, whose accessor reaches them through {@code Struct.Data}'s protected helpers as programs
 * written for Open MPI's bindings do: {@code getData(struct, field[, index])} and
 * {@code getBuffer(type, field[, index])}.
 */
final class Shape extends Struct {
    static final int WEIGHTS = 4;

    private final Record record;
    private final int id;
    private final int parts;
    private final int main;
    private final int weights;

    Shape(Record record) throws MPIException {
        this.record = record;
        id = addInt();
        parts = addStruct(record, 2);
        main = addStruct(record);
        weights = addFloat(WEIGHTS);
    }

    /** Where the parts start in a shape (to check the accessors against the layout). */
    int partsOffset() {
        return parts;
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** An accessor over one shape. */
    final class Data extends Struct.Data {
        int id() {
            return getInt(id);
        }

        void putId(int value) {
            putInt(id, value);
        }

        Record.Data part(int index) {
            return getData(record, parts, index);
        }

        Record.Data main() {
            return getData(record, main);
        }

        float weight(int index) {
            return getFloat(weights, index);
        }

        void putWeight(int index, float value) {
            putFloat(weights, index, value);
        }

        /** The weights field as a buffer of {@code MPI.FLOAT} items. */
        ByteBuffer weights() {
            return getBuffer(MPI.FLOAT, weights);
        }

        /** The weights from item {@code index} on, as a buffer of {@code MPI.FLOAT} items. */
        ByteBuffer weightsFrom(int index) throws MPIException {
            return getBuffer(MPI.FLOAT, weights, index);
        }
    }
}

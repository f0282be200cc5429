package org.weft.tests.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.weft.tests.datatype.DerivedDatatypeTest.next;
import static org.weft.tests.datatype.DerivedDatatypeTest.prev;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.weft.tests.harness.InProcessWorld;

/**
 * {@code mpi.Struct} records as programs written for Open MPI's bindings use them: records nested in records
 * (reached through {@code Struct.Data.getData(struct, field[, index])}) sent around a ring as the outer struct's
 * type, a record's array field sent on its own as a buffer of its element type
 * ({@code getBuffer(type, field[, index])}), and a record of an array sent through its own buffer
 * ({@code Data.getBuffer()}, which starts at the record). Two and three ranks, default methods and tcp.
 */
@Timeout(120)
class NestedStructTest {
    private static final String WORLDS = "org.weft.tests.datatype.DerivedDatatypeTest#worlds";
    private static final byte UNTOUCHED = 0x5a;
    private static final int RECORDS = 3;

    @ParameterizedTest
    @MethodSource(WORLDS)
    void nestedRecordsTravelAsTheOuterType(InProcessWorld w) throws Exception {
        w.run(rank -> {
            Record record = new Record();
            Shape shape = new Shape(record);
            assertEquals(24, record.getExtent());
            assertEquals(96, shape.getExtent(), "int, pad to 8, 3 records of 24 bytes, 4 floats");
            ByteBuffer out = filledShapes(shape, rank);
            assertLaidOutAsC(shape, record, out);
            ByteBuffer in = shapes(shape);
            Datatype type = shape.getType();
            MPI.COMM_WORLD.sendRecv(out, RECORDS, type, next(rank), 3, in, RECORDS, type, prev(rank), 3);
            for (int i = 0; i < RECORDS; i++) {
                assertFilled(shape.getData(in, i), seed(prev(rank), i));
            }
        });
    }

    @ParameterizedTest
    @MethodSource(WORLDS)
    void aFieldTravelsAsABufferOfItsElementType(InProcessWorld w) throws Exception {
        w.run(rank -> {
            Shape shape = new Shape(new Record());
            Shape.Data sent = shape.getData(filledShapes(shape, rank), 2);
            ByteBuffer in = shapes(shape);
            Shape.Data whole = shape.getData(in, 1);
            Shape.Data tail = shape.getData(in, 2);
            MPI.COMM_WORLD.sendRecv(sent.weights(), Shape.WEIGHTS, MPI.FLOAT, next(rank), 4,
                    whole.weights(), Shape.WEIGHTS, MPI.FLOAT, prev(rank), 4);
            MPI.COMM_WORLD.sendRecv(sent.weightsFrom(1), Shape.WEIGHTS - 1, MPI.FLOAT, next(rank), 5,
                    tail.weightsFrom(1), Shape.WEIGHTS - 1, MPI.FLOAT, prev(rank), 5);
            int from = seed(prev(rank), 2);
            for (int k = 0; k < Shape.WEIGHTS; k++) {
                assertEquals(weight(from, k), whole.weight(k), "weight " + k + " of the whole field");
                float expectedTail = k == 0 ? Float.intBitsToFloat(repeated(UNTOUCHED)) : weight(from, k);
                assertEquals(expectedTail, tail.weight(k), "weight " + k + " of the field from item 1");
            }
            assertEquals(repeated(UNTOUCHED), whole.id(), "the bytes before the field are untouched");
            Shape.Data first = shape.getData(in, 0);
            assertEquals(repeated(UNTOUCHED), first.id(), "other records are untouched");
        });
    }

    @ParameterizedTest
    @MethodSource(WORLDS)
    void aRecordsBufferStartsAtTheRecord(InProcessWorld w) throws Exception {
        w.run(rank -> {
            Shape shape = new Shape(new Record());
            ByteBuffer out = filledShapes(shape, rank);
            byte[] in = new byte[shape.getExtent()];
            MPI.COMM_WORLD.sendRecv(shape.getData(out, 2).getBuffer(), 1, shape.getType(), next(rank), 6,
                    in, 1, shape.getType(), prev(rank), 6);
            assertFilled(shape.getData(in), seed(prev(rank), 2));
            byte[] heap = new byte[out.capacity()];
            out.get(0, heap);
            ByteBuffer fromHeap = shape.getData(heap, 1).getBuffer(); // a slice of a heap buffer, from record 1 on
            MPI.COMM_WORLD.sendRecv(fromHeap, 1, shape.getType(), next(rank), 7,
                    in, 1, shape.getType(), prev(rank), 7);
            assertFilled(shape.getData(in), seed(prev(rank), 1));
        });
    }

    /** A direct buffer of {@link #RECORDS} shapes, every byte {@link #UNTOUCHED}. */
    private static ByteBuffer shapes(Shape shape) throws MPIException {
        ByteBuffer b = MPI.newByteBuffer(RECORDS * shape.getExtent());
        for (int i = 0; i < b.capacity(); i++) {
            b.put(i, UNTOUCHED);
        }
        return b;
    }

    /** {@link #RECORDS} shapes, each filled from this rank's seed for its index. */
    private static ByteBuffer filledShapes(Shape shape, int rank) throws MPIException {
        ByteBuffer b = shapes(shape);
        for (int i = 0; i < RECORDS; i++) {
            Shape.Data d = shape.getData(b, i);
            int seed = seed(rank, i);
            d.putId(seed);
            d.part(0).put(seed + 1, seed / 2.0, 'p');
            d.part(1).put(seed + 2, seed * 3.0, 'q');
            d.main().put(seed + 3, -seed, 'm');
            for (int k = 0; k < Shape.WEIGHTS; k++) {
                d.putWeight(k, weight(seed, k));
            }
        }
        return b;
    }

    private static void assertFilled(Shape.Data d, int seed) {
        assertEquals(seed, d.id());
        assertRecord(d.part(0), seed + 1, seed / 2.0, 'p');
        assertRecord(d.part(1), seed + 2, seed * 3.0, 'q');
        assertRecord(d.main(), seed + 3, -seed, 'm');
        for (int k = 0; k < Shape.WEIGHTS; k++) {
            assertEquals(weight(seed, k), d.weight(k), "weight " + k);
        }
    }

    private static void assertRecord(Record.Data r, int id, double value, char tag) {
        assertEquals(id, r.id());
        assertEquals(value, r.value());
        assertEquals(tag, r.tag());
    }

    /** The nested accessors wrote where a C compiler lays the fields out: parts at 8 and 32, main at 56. */
    private static void assertLaidOutAsC(Shape shape, Record record, ByteBuffer shapes) throws MPIException {
        ByteBuffer raw = shapes.duplicate().order(ByteOrder.nativeOrder());
        assertEquals(8, shape.partsOffset());
        for (int i = 0; i < RECORDS; i++) {
            Shape.Data d = shape.getData(shapes, i);
            int parts = i * shape.getExtent() + shape.partsOffset();
            assertEquals(d.part(1).id(), raw.getInt(parts + record.getExtent()));
            assertEquals(d.main().value(), raw.getDouble(parts + 2 * record.getExtent() + 8));
        }
    }

    private static int seed(int rank, int record) {
        return 1000 * (rank + 1) + record;
    }

    private static float weight(int seed, int k) {
        return seed + k / 8f;
    }

    private static int repeated(byte b) {
        return (b & 0xff) * 0x01010101;
    }
}

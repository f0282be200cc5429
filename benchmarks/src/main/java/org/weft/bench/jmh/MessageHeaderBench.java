package org.weft.bench.jmh;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.infra.Blackhole;
import org.weft.mm.proto.MessageHeader;

/** The envelope codec ({@link MessageHeader}): writing a whole header, and reading every field back. */
public class MessageHeaderBench extends NanosecondBenchmark {
    private ByteBuffer buffer;
    private int tag;

    @Setup
    public void setUp() {
        buffer = ByteBuffer.allocate(MessageHeader.LENGTH).order(ByteOrder.LITTLE_ENDIAN); // as PointToPoint's
        MessageHeader.write(buffer, MessageHeader.EAGER, (byte) 0, 3, 42, 1024, 17, 0);
    }

    @Benchmark
    public ByteBuffer write() {
        return MessageHeader.write(buffer, MessageHeader.EAGER, (byte) 0, 3, ++tag & 0xffff, 1024, tag, 0);
    }

    @Benchmark
    public void read(Blackhole blackhole) {
        blackhole.consume(MessageHeader.kind(buffer));
        blackhole.consume(MessageHeader.flags(buffer));
        blackhole.consume(MessageHeader.context(buffer));
        blackhole.consume(MessageHeader.tag(buffer));
        blackhole.consume(MessageHeader.messageLength(buffer));
        blackhole.consume(MessageHeader.senderRequest(buffer));
        blackhole.consume(MessageHeader.receiverRequest(buffer));
    }
}

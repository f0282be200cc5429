package org.weft.mm.proto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The envelope reads back as written, in either byte order: a little-endian buffer (the device's) takes five
 * packed words, any other the fields one by one, and both leave the same bytes as field-by-field stores would.
 */
class MessageHeaderTest {
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void everyFieldReadsBackAsWrittenAndThePaddingIsZero(boolean littleEndian) {
        ByteOrder order = littleEndian ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
        ByteBuffer header = ByteBuffer.allocate(MessageHeader.LENGTH).order(order);
        for (int i = 0; i < MessageHeader.LENGTH; i++) {
            header.put(i, (byte) 0x5A); // stale bytes of an earlier header must not show through
        }
        MessageHeader.write(header, (byte) 0xF3, (byte) 0x81, -7, Integer.MIN_VALUE + 5, Long.MAX_VALUE - 1, -2L,
                0x0123_4567_89AB_CDEFL);

        assertEquals(0, header.position());
        assertEquals(MessageHeader.LENGTH, header.limit());
        assertEquals((byte) 0xF3, MessageHeader.kind(header));
        assertEquals((byte) 0x81, MessageHeader.flags(header));
        assertEquals(-7, MessageHeader.context(header));
        assertEquals(Integer.MIN_VALUE + 5, MessageHeader.tag(header));
        assertEquals(Long.MAX_VALUE - 1, MessageHeader.messageLength(header));
        assertEquals(-2L, MessageHeader.senderRequest(header));
        assertEquals(0x0123_4567_89AB_CDEFL, MessageHeader.receiverRequest(header));

        ByteBuffer expected = ByteBuffer.allocate(MessageHeader.LENGTH).order(order)
                .put(MessageHeader.KIND_OFFSET, (byte) 0xF3).put(MessageHeader.FLAGS_OFFSET, (byte) 0x81)
                .putInt(MessageHeader.CONTEXT_OFFSET, -7).putInt(MessageHeader.TAG_OFFSET, Integer.MIN_VALUE + 5)
                .putLong(MessageHeader.MESSAGE_LENGTH_OFFSET, Long.MAX_VALUE - 1)
                .putLong(MessageHeader.SENDER_REQUEST_OFFSET, -2L)
                .putLong(MessageHeader.RECEIVER_REQUEST_OFFSET, 0x0123_4567_89AB_CDEFL);
        assertArrayEquals(expected.array(), header.array());
    }
}

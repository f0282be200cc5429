package org.weft.adi.bootstrap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** Weft's own HMAC-SHA256 against RFC 4231's test vectors and the JDK's {@code Mac} and {@code MessageDigest}. */
class HmacSha256Test {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void rfc4231Vectors() {
        // test case 1: a 20-byte key
        assertEquals("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
                hex(HEX.parseHex("0b".repeat(20)), "Hi There".getBytes(StandardCharsets.US_ASCII)));
        // test case 2: a key shorter than the block
        assertEquals("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
                hex("Jefe".getBytes(StandardCharsets.US_ASCII),
                        "what do ya want for nothing?".getBytes(StandardCharsets.US_ASCII)));
        // test case 6: a 131-byte key, longer than the block, hashed first
        assertEquals("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
                hex(HEX.parseHex("aa".repeat(131)),
                        "Test Using Larger Than Block-Size Key - Hash Key First".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void agreesWithTheJdkForEveryLengthAroundTheBlockBoundaries() throws Exception {
        Random random = new Random(20);
        Mac mac = Mac.getInstance("HmacSHA256");
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        for (int length = 0; length <= 200; length++) {
            byte[] key = new byte[1 + random.nextInt(100)];
            byte[] message = new byte[length];
            random.nextBytes(key);
            random.nextBytes(message);
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            assertArrayEquals(mac.doFinal(message), HmacSha256.mac(key, message), "message of " + length + " bytes");
            assertArrayEquals(sha.digest(message), HmacSha256.sha256(message), "digest of " + length + " bytes");
        }
    }

    private static String hex(byte[] key, byte[] message) {
        return HEX.formatHex(HmacSha256.mac(key, message));
    }
}

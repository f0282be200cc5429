package org.weft.adi.bootstrap;

import java.util.Arrays;

/**
 * HMAC-SHA256 (RFC 2104 over FIPS 180-4's SHA-256), self-contained. Why not {@code javax.crypto.Mac}: every launcher
 * and rank JVM proves the job secret once at start-up, and the JDK's {@code Mac} costs a fresh JVM 30-100 ms of CPU
 * to set up its provider framework (security properties, provider list, SunJCE) for a few microseconds of hashing;
 * on a 4-rank job of 2 cores that is a large part of the start-up (issue 20, item 12). {@code HmacSha256Test} checks
 * it against RFC 4231's vectors and the JDK's {@code Mac}.
 */
public final class HmacSha256 {
    /** Bytes of a digest. */
    public static final int LENGTH = 32;
    private static final int BLOCK = 64;
    private static final int[] ROUND_CONSTANTS = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    };
    private static final int[] INITIAL_STATE = {
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    };

    private HmacSha256() {
    }

    /** HMAC-SHA256 of {@code message} keyed by {@code key}. */
    public static byte[] mac(byte[] key, byte[] message) {
        byte[] block = Arrays.copyOf(key.length > BLOCK ? sha256(key) : key, BLOCK);
        byte[] inner = new byte[BLOCK + message.length];
        byte[] outer = new byte[BLOCK + LENGTH];
        for (int i = 0; i < BLOCK; i++) {
            inner[i] = (byte) (block[i] ^ 0x36);
            outer[i] = (byte) (block[i] ^ 0x5c);
        }
        System.arraycopy(message, 0, inner, BLOCK, message.length);
        System.arraycopy(sha256(inner), 0, outer, BLOCK, LENGTH);
        return sha256(outer);
    }

    /** SHA-256 of {@code message}. */
    public static byte[] sha256(byte[] message) {
        long bits = (long) message.length * 8;
        int padded = (message.length + 8) / BLOCK * BLOCK + BLOCK; // room for the 0x80 byte and the 8-byte length
        byte[] data = Arrays.copyOf(message, padded);
        data[message.length] = (byte) 0x80;
        for (int i = 0; i < 8; i++) {
            data[padded - 1 - i] = (byte) (bits >>> (8 * i));
        }
        int[] state = INITIAL_STATE.clone();
        int[] words = new int[64];
        for (int offset = 0; offset < padded; offset += BLOCK) {
            compress(state, words, data, offset);
        }
        byte[] digest = new byte[LENGTH];
        for (int i = 0; i < 8; i++) {
            for (int j = 0; j < 4; j++) {
                digest[4 * i + j] = (byte) (state[i] >>> (24 - 8 * j));
            }
        }
        return digest;
    }

    /** One 64-byte block into {@code state} (FIPS 180-4, 6.2.2). */
    private static void compress(int[] state, int[] words, byte[] data, int offset) {
        for (int t = 0; t < 16; t++) {
            int at = offset + 4 * t;
            words[t] = (data[at] & 0xff) << 24 | (data[at + 1] & 0xff) << 16 | (data[at + 2] & 0xff) << 8
                    | data[at + 3] & 0xff;
        }
        for (int t = 16; t < 64; t++) {
            int s0 = Integer.rotateRight(words[t - 15], 7) ^ Integer.rotateRight(words[t - 15], 18)
                    ^ words[t - 15] >>> 3;
            int s1 = Integer.rotateRight(words[t - 2], 17) ^ Integer.rotateRight(words[t - 2], 19)
                    ^ words[t - 2] >>> 10;
            words[t] = words[t - 16] + s0 + words[t - 7] + s1;
        }
        int a = state[0], b = state[1], c = state[2], d = state[3];
        int e = state[4], f = state[5], g = state[6], h = state[7];
        for (int t = 0; t < 64; t++) {
            int t1 = h + (Integer.rotateRight(e, 6) ^ Integer.rotateRight(e, 11) ^ Integer.rotateRight(e, 25))
                    + (e & f ^ ~e & g) + ROUND_CONSTANTS[t] + words[t];
            int t2 = (Integer.rotateRight(a, 2) ^ Integer.rotateRight(a, 13) ^ Integer.rotateRight(a, 22))
                    + (a & b ^ a & c ^ b & c);
            h = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        state[0] += a;
        state[1] += b;
        state[2] += c;
        state[3] += d;
        state[4] += e;
        state[5] += f;
        state[6] += g;
        state[7] += h;
    }
}

package org.gamecert.verifier.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * FactHash binds an answer to the record at its index only if two different records at one index
 * hash apart under all but a negligible fraction of keys (SPEC §11.1: about 2^-61). Rounds of
 * "xor a field, multiply by an odd constant, fold the high half down" (FactHash before SipHash)
 * carried a difference in the two top bits of a field into the two top bits of the state (and,
 * by the fold, bits 30 and 31), whatever the key: the next field could cancel it. Two keys
 * (occ, mover) and (occ ^ 3<<62, mover ^ D ^ D>>>32), D one of 1<<62 and 3<<62, then hashed alike
 * at the same index for about half of all keys, a pair that keeps occ's disc count (R-LAY-2).
 */
class FactHashDifferentialTest {
    @Test
    void twoRecordsWithDifferentKeysAtOneIndexHashApartUnderAlmostEveryKey() {
        SplittableRandom rnd = new SplittableRandom(7);
        int tries = 2000, collisions = 0;
        for (int t = 0; t < tries; t++) {
            long k0 = rnd.nextLong(), k1 = rnd.nextLong(), index = rnd.nextLong(1 << 20);
            long occ = rnd.nextLong() & ~(3L << 62) | 1L << 63, mover = rnd.nextLong() & occ;
            long occ2 = occ ^ 3L << 62;
            long h = FactHash.record(k0, k1, index, occ, mover, 0x18, -1, -1, 1);
            for (long d : new long[] {1L << 62, 3L << 62})
                if (FactHash.record(k0, k1, index, occ2, mover ^ d ^ d >>> 32, 0x18, -1, -1, 1)
                        == h)
                    collisions++;
        }
        assertTrue(collisions == 0, collisions + " of " + tries + " keys made two different"
                + " records at one index hash alike");
    }

    /**
     * FactHash.sip is SipHash-1-3 as its authors define it: the same 64 bits as Bouncy Castle's
     * SipHash(1, 3) over the message's little-endian bytes (31 of them: three words and seven
     * bytes; or 15: a word and seven bytes), under the same 128-bit key; the last word's top byte,
     * where SipHash puts the length, is not the caller's to set.
     */
    @Test
    void sipIsSipHashOneThreeOfThirtyOneAndOfFifteenBytesWhateverTheLastWordsTopByte() {
        SplittableRandom rnd = new SplittableRandom(11);
        for (int t = 0; t < 500; t++) {
            long k0 = rnd.nextLong(), k1 = rnd.nextLong();
            long[] m = {rnd.nextLong(), rnd.nextLong(), rnd.nextLong(), rnd.nextLong()};
            if (t == 0) m = new long[4];
            if (t == 1) m = new long[] {-1, -1, -1, -1}; // every byte 0xFF
            assertEquals(bouncyCastle(k0, k1, 31, m[0], m[1], m[2], m[3]),
                    FactHash.sip(k0, k1, m[0], m[1], m[2], m[3]), "31 bytes, try " + t);
            assertEquals(bouncyCastle(k0, k1, 15, m[0], m[3]), FactHash.sip(k0, k1, m[0], m[3]),
                    "15 bytes, try " + t);
        }
    }

    /** SipHash-1-3 of the first length bytes of the words, little-endian, by Bouncy Castle. */
    private static long bouncyCastle(long k0, long k1, int length, long... words) {
        java.nio.ByteBuffer key = java.nio.ByteBuffer.allocate(16)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(k0).putLong(k1);
        java.nio.ByteBuffer msg = java.nio.ByteBuffer.allocate(8 * words.length)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (long w : words) msg.putLong(w);
        org.bouncycastle.crypto.macs.SipHash bc = new org.bouncycastle.crypto.macs.SipHash(1, 3);
        bc.init(new org.bouncycastle.crypto.params.KeyParameter(key.array()));
        bc.update(msg.array(), 0, length);
        return bc.doFinal();
    }
}

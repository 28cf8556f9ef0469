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
            long h = record(k0, k1, index, occ, mover);
            for (long d : new long[] {1L << 62, 3L << 62})
                if (record(k0, k1, index, occ2, mover ^ d ^ d >>> 32) == h) collisions++;
        }
        assertTrue(collisions == 0, collisions + " of " + tries + " keys made two different"
                + " records at one index hash alike");
    }

    /** One record's term under the key (k0, k1), as a sum of one. */
    private static long record(long k0, long k1, long index, long occ, long mover) {
        FactHash.Sum sum = new FactHash.Sum(k0, k1);
        FactHash.addRecord(sum, 1, index, occ, mover, 0x18, -1, -1, 1);
        return sum.value();
    }

    /**
     * A term is the CBC-MAC of the four words over AES-128, as the standard defines both: the low
     * 64 bits (little-endian) of Bouncy Castle's CBCBlockCipherMac over its AESEngine, of the
     * words as little-endian bytes under the key's 16 bytes, reduced modulo 2^61 - 1; a count
     * multiplies it, and terms add, modulo that prime; batches of any size give the same sum.
     */
    @Test
    void aTermIsTheAesCbcMacOfItsWordsAndTermsAddModuloThePrime() {
        SplittableRandom rnd = new SplittableRandom(11);
        for (int t = 0; t < 50; t++) {
            long k0 = rnd.nextLong(), k1 = rnd.nextLong();
            FactHash.Sum sum = new FactHash.Sum(k0, k1);
            java.math.BigInteger expected = java.math.BigInteger.ZERO;
            int terms = t == 0 ? 1 : rnd.nextInt(2000); // beyond one batch too
            for (int i = 0; i < terms; i++) {
                long[] m = {rnd.nextLong(), rnd.nextLong(), rnd.nextLong(), rnd.nextLong()};
                if (t == 0) m = new long[4];
                long count = rnd.nextInt(4) == 0 ? rnd.nextInt(Integer.MAX_VALUE) : 1;
                sum.add(count, m[0], m[1], m[2], m[3]);
                expected = expected.add(java.math.BigInteger.valueOf(count)
                        .multiply(java.math.BigInteger.valueOf(bouncyCastleTerm(k0, k1, m))));
                if (i % 700 == 0) assertEquals(expected.mod(P).longValue(), sum.value(),
                        "the sum so far, key " + t + ", " + (i + 1) + " terms");
            }
            assertEquals(expected.mod(P).longValue(), sum.value(), "key " + t);
        }
    }

    private static final java.math.BigInteger P = java.math.BigInteger.valueOf((1L << 61) - 1);

    private static long bouncyCastleTerm(long k0, long k1, long[] m) {
        java.nio.ByteBuffer key = java.nio.ByteBuffer.allocate(16)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(k0).putLong(k1);
        java.nio.ByteBuffer msg = java.nio.ByteBuffer.allocate(32)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (long w : m) msg.putLong(w);
        org.bouncycastle.crypto.macs.CBCBlockCipherMac mac =
                new org.bouncycastle.crypto.macs.CBCBlockCipherMac(
                        new org.bouncycastle.crypto.engines.AESEngine(), 128);
        mac.init(new org.bouncycastle.crypto.params.KeyParameter(key.array()));
        mac.update(msg.array(), 0, 32);
        byte[] tag = new byte[16];
        mac.doFinal(tag, 0);
        long low = java.nio.ByteBuffer.wrap(tag).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong(0);
        return java.lang.Long.remainderUnsigned(low, (1L << 61) - 1);
    }
}

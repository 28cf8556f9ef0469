package org.gamecert.verifier.kernel;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * The multiset hash that binds child facts (SPEC §11.1): a parent's slice adds, for every child
 * record it was delivered, the hash of (index, key, kinds, bounds, flags) as delivered; the
 * child's slice adds the hash of (index, its own record at that index, flags) for every mark it
 * takes. The sums, modulo the prime p = 2^61 - 1, agree for every layer when the multisets
 * agree; when they differ, the difference is a sum of c_a X_a with some c_a nonzero modulo p
 * (counts are below 2^31 < p), which is 0 with probability 1/p, about 2^-61 per layer, if the
 * terms X_a are uniform and independent under the key (Blum et al. 1991, offline memory
 * checking; Clarke et al. 2003, additive multiset hashes). A prime modulus keeps that bound
 * whatever the counts: modulo 2^64 a count changed by 2^30 would keep 30 low bits.
 *
 * <p>Each term is a keyed pseudorandom function of four 64-bit words: AES-128 under the map's
 * 128-bit key, as a CBC-MAC of the words' 32 bytes (two blocks, E(E(b0) ^ b1); a CBC-MAC of a
 * fixed length is a PRF while AES is a PRP: Bellare, Kilian and Rogaway 2000), the low 64 bits of
 * the tag, little-endian. So no record chosen without the key lands where another one does. (The
 * rounds "xor a field, multiply, fold" of a first version carried a difference in a field's top
 * bits into the state's top bits whatever the key, where the next field could cancel it: two
 * records at one index hashed alike for half of all keys. SipHash-1-3 came next; AES replaced it
 * because the JDK runs it on the processor's AES instructions, in batches: about half the cost a
 * term.) A record's last word has its low byte 0 or 1 (reached), a need's 0xF0 + bit, a terminal
 * key's (TerminalCount) 0xE0 or 0xE1: the three kinds of term never hash the same input.
 *
 * <p>A fact's hash is its record's term (with its "reached" bit) plus one term per need bit it
 * carries, so the sum over a child's facts needs only how many facts it was sent, how many were
 * reached and how many carried each need: the engine delivers those counts, O(entries) of memory
 * rather than O(facts). Facts that differ only in
 * how the same bits are spread over them sum equally; the child takes the OR of the bits, which
 * they share, so nothing the kernel concludes can differ.
 */
final class FactHash {
    private FactHash() {}

    /** The modulus of the sums: the Mersenne prime 2^61 - 1. */
    static final long MOD = (1L << 61) - 1;

    /** h modulo MOD, for any 64 bits (2^61 is 1 modulo MOD). */
    static long reduce(long h) {
        long x = (h & MOD) + (h >>> 61);
        return x >= MOD ? x - MOD : x;
    }

    /** a + b modulo MOD, both already reduced. */
    static long add(long a, long b) {
        long x = a + b;
        return x >= MOD ? x - MOD : x;
    }

    /** count * h modulo MOD: count in [0, 2^31), h reduced (the product is below 2^92). */
    static long times(long count, long h) {
        long low = count * h, high = Math.multiplyHigh(count, h);
        return reduce((low & MOD) + (low >>> 61) + (high << 3)); // 2^64 is 8 modulo MOD
    }

    /**
     * A fact sent: its record's term with its "reached" bit, plus one term for each need it
     * carries (P, A', P'). Most facts carry no need: one term a fact.
     */
    static void addFact(Sum sum, long index, long occ, long mover, int kinds, int lo, int hi,
            int flags) {
        addRecord(sum, 1, index, occ, mover, kinds, lo, hi, flags >>> REACHED & 1);
        for (int b = 0; b < REACHED; b++)
            if ((flags >>> b & 1) != 0) addFlag(sum, 1, index, b);
    }

    /** The flag bit "reached" (SPEC §10.2), which goes into the record's term. */
    static final int REACHED = 3;

    /** Flag bits a fact can carry: P, A', P' (SPEC §10.1) and reached (§10.2). */
    static final int FLAGS = 4;

    /**
     * count times a record's term: the index, the key, then kind, bounds and the "reached" bit (0
     * or 1) in one word (its low byte the bit).
     */
    static void addRecord(Sum sum, long count, long index, long occ, long mover, int kinds, int lo,
            int hi, int reached) {
        long w = (long) (kinds & 0xFF) << 40 ^ (long) (lo & 0xFFFF) << 24
                ^ (long) (hi & 0xFFFF) << 8 ^ reached;
        sum.add(count, index, occ, mover, w);
    }

    /** count times the term of need bit b (P, A' or P') sent to entry index. */
    static void addFlag(Sum sum, long count, long index, int b) {
        sum.add(count, index, 0, 0, FLAG_WORD | 0xF0 | b);
    }

    private static final long FLAG_WORD = 0x464C414700000000L; // "FLAG"

    /**
     * A sum, modulo MOD, of terms times counts, under one key. The terms are computed in batches
     * (AES runs on a whole batch at once, which is where it is fast), so only the sum is seen.
     * One thread; no term leaves it.
     */
    static final class Sum {
        /** Terms held before AES runs over them: 32 bytes each. */
        private static final int BATCH = 512;
        private final Cipher aes;
        private final byte[] first = new byte[16 * BATCH], second = new byte[16 * BATCH];
        private final byte[] tags = new byte[16 * BATCH];
        private final ByteBuffer firstWords = words(first), secondWords = words(second);
        private final ByteBuffer tagWords = words(tags);
        private final long[] counts = new long[BATCH];
        private int n;
        private long sum;

        Sum(long k0, long k1) {
            byte[] key = new byte[16];
            words(key).putLong(0, k0).putLong(8, k1);
            try {
                aes = Cipher.getInstance("AES/ECB/NoPadding"); // every Java SE has it
                aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("this JDK cannot run AES", e);
            }
        }

        /** count (in [0, 2^31)) times the term of the words m0..m3. */
        void add(long count, long m0, long m1, long m2, long m3) {
            int at = 16 * n;
            firstWords.putLong(at, m0).putLong(at + 8, m1);
            secondWords.putLong(at, m2).putLong(at + 8, m3);
            counts[n] = count;
            if (++n == BATCH) runBatch();
        }

        /** The sum of every term added so far, modulo MOD. */
        long value() {
            runBatch();
            return sum;
        }

        /** The held terms' CBC-MACs, E(E(b0) ^ b1), in two passes over the batch; then summed. */
        private void runBatch() {
            int bytes = 16 * n;
            encrypt(first, tags, bytes);
            for (int at = 0; at < bytes; at += 8)
                tagWords.putLong(at, tagWords.getLong(at) ^ secondWords.getLong(at));
            encrypt(tags, first, bytes);
            for (int i = 0; i < n; i++)
                sum = FactHash.add(sum, times(counts[i], reduce(firstWords.getLong(16 * i))));
            n = 0;
        }

        private void encrypt(byte[] in, byte[] out, int bytes) {
            try {
                aes.update(in, 0, bytes, out, 0);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e); // the output always has room
            }
        }

        private static ByteBuffer words(byte[] b) {
            return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        }
    }
}

package org.gamecert.verifier.kernel;

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
 * <p>Each term is SipHash-1-3 (Aumasson and Bernstein 2012, with one compression and three
 * finalization rounds, as Python and Rust use it against chosen keys) under the map's 128-bit
 * key: a keyed pseudorandom function, so that no record chosen without the key lands where
 * another one does. (The rounds "xor a field, multiply, fold" this replaced carried a difference
 * in a field's top bits into the state's top bits whatever the key, where the next field could
 * cancel it: two records at one index hashed alike for half of all keys.) A record's term hashes
 * 31 bytes (index, occ, mover, then 7 bytes whose first is 0 or 1: reached), a terminal key's
 * (TerminalCount) 31 bytes whose last 7 begin with 0xE0 or 0xE1, a need's 15 bytes (index, then
 * 7 bytes whose first is 0xF0 + bit): the three kinds of term never hash the same input.
 * (Messages of 31 and 15 bytes end in one block with SipHash's length byte; 32 and 16 would take
 * a block more.)
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
     * The hash of a fact: its record's with its "reached" bit, plus one term for each need it
     * carries (P, A', P'). Most facts carry no need: one term a fact.
     */
    static long of(long k0, long k1, long index, long occ, long mover, int kinds, int lo, int hi,
            int flags) {
        long h = record(k0, k1, index, occ, mover, kinds, lo, hi, flags >>> REACHED & 1);
        for (int b = 0; b < REACHED; b++)
            if ((flags >>> b & 1) != 0) h = add(h, flag(k0, k1, index, b));
        return h;
    }

    /** The flag bit "reached" (SPEC §10.2), which goes into the record's term. */
    static final int REACHED = 3;

    /** Flag bits a fact can carry: P, A', P' (SPEC §10.1) and reached (§10.2). */
    static final int FLAGS = 4;

    /**
     * The record part: the index, the key, then kind, bounds and the "reached" bit (0 or 1) in
     * one word (its low byte the bit).
     */
    static long record(long k0, long k1, long index, long occ, long mover, int kinds, int lo,
            int hi, int reached) {
        long w = (long) (kinds & 0xFF) << 40 ^ (long) (lo & 0xFFFF) << 24
                ^ (long) (hi & 0xFFFF) << 8 ^ (reached & 1);
        return reduce(sip(k0, k1, index, occ, mover, w));
    }

    /** The term of need bit b (P, A' or P') sent to entry index. */
    static long flag(long k0, long k1, long index, int b) {
        return reduce(sip(k0, k1, index, FLAG_WORD | 0xF0 | b));
    }

    private static final long FLAG_WORD = 0x464C4147L << 16; // "FLAG", within the last 7 bytes

    /**
     * SipHash-1-3 under the key (k0, k1) of the 31 bytes m0, m1, m2 (8 each, little-endian, as
     * SipHash reads its words), then the low 7 bytes of last (below 2^56): one round a word, the
     * last 7 bytes in one word with the length (31) in its top byte, three rounds to finish.
     * Seven rounds, where 32 bytes would take eight (a block for the length alone).
     */
    static long sip(long k0, long k1, long m0, long m1, long m2, long last) {
        Sip s = new Sip(k0, k1); // never leaves this method: the JIT keeps it in registers
        s.word(m0);
        s.word(m1);
        s.word(m2);
        s.word(last & LOW_7_BYTES | 31L << 56);
        return s.finish();
    }

    /** The 7 bytes of a message's last word: its top byte is SipHash's length byte. */
    private static final long LOW_7_BYTES = (1L << 56) - 1;

    /** SipHash-1-3 of the 15 bytes m0, then the low 7 bytes of last (below 2^56): five rounds. */
    static long sip(long k0, long k1, long m0, long last) {
        Sip s = new Sip(k0, k1);
        s.word(m0);
        s.word(last & LOW_7_BYTES | 15L << 56);
        return s.finish();
    }

    /** SipHash's state, in straight-line calls: faster here than one loop over the rounds. */
    private static final class Sip {
        long v0, v1, v2, v3;

        Sip(long k0, long k1) {
            v0 = k0 ^ 0x736F6D6570736575L;
            v1 = k1 ^ 0x646F72616E646F6DL;
            v2 = k0 ^ 0x6C7967656E657261L;
            v3 = k1 ^ 0x7465646279746573L;
        }

        /** One compression round over the word m. */
        void word(long m) {
            v3 ^= m;
            round();
            v0 ^= m;
        }

        /** The finalization: three rounds. */
        long finish() {
            v2 ^= 0xFF;
            round();
            round();
            round();
            return v0 ^ v1 ^ v2 ^ v3;
        }

        void round() {
            v0 += v1;
            v1 = Long.rotateLeft(v1, 13) ^ v0;
            v0 = Long.rotateLeft(v0, 32);
            v2 += v3;
            v3 = Long.rotateLeft(v3, 16) ^ v2;
            v0 += v3;
            v3 = Long.rotateLeft(v3, 21) ^ v0;
            v2 += v1;
            v1 = Long.rotateLeft(v1, 17) ^ v2;
            v2 = Long.rotateLeft(v2, 32);
        }
    }
}

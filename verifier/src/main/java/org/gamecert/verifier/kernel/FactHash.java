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
 * <p>One field a round, the index first, each round a bijection of the state (an odd multiplier,
 * a xor-shift): two records that differ in one field give two states, and where a fact's record
 * lands depends on the key, which the engine never sees.
 *
 * <p>A fact's hash is its record's plus one term per flag bit it carries, so the sum over a
 * child's facts needs only how many facts it was sent and how many carried each bit: the engine
 * delivers those counts, O(entries) of memory rather than O(facts). Facts that differ only in
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

    /** The hash of a fact: its record's, plus one term for each flag it carries. */
    static long of(long key, long index, long occ, long mover, int kinds, int lo, int hi,
            int flags) {
        long h = record(key, index, occ, mover, kinds, lo, hi);
        if (flags == 0) return h;
        long mix = indexMix(key, index);
        for (int b = 0; b < FLAGS; b++)
            if ((flags >>> b & 1) != 0) h = add(h, flagOf(mix, b));
        return h;
    }

    /** Flag bits a fact can carry: P, A', P' (SPEC §10.1) and reached (§10.2). */
    static final int FLAGS = 4;

    /** The record part: the index, then the key, then kind and bounds, one field a round. */
    static long record(long key, long index, long occ, long mover, int kinds, int lo, int hi) {
        long w = (long) (kinds & 0xFF) << 40 ^ (long) (lo & 0xFFFF) << 24
                ^ (long) (hi & 0xFFFF) << 8;
        long h = (key ^ index) * 0xD6E8FEB86659FD93L;
        h = (h ^ h >>> 32 ^ occ) * 0x9E3779B97F4A7C15L;
        h = (h ^ h >>> 32 ^ mover) * 0xC2B2AE3D27D4EB4FL;
        h = (h ^ h >>> 32 ^ w) * 0x165667B19E3779F9L;
        return reduce(h ^ h >>> 32);
    }

    /** The term of flag bit b sent to entry index (a round of its own per bit, from one mix). */
    static long flag(long key, long index, int b) {
        return flagOf(indexMix(key, index), b);
    }

    /** The part of the flag terms of an entry that does not depend on the bit (two rounds). */
    static long indexMix(long key, long index) {
        long h = (key ^ index) * 0x94D049BB133111EBL;
        return (h ^ h >>> 31 ^ key) * 0xBF58476D1CE4E5B9L;
    }

    /** Flag bit b's term from its entry's indexMix: one more round, a constant per bit. */
    static long flagOf(long mix, int b) {
        long h = (mix ^ mix >>> 29 ^ FLAG_CONSTANTS[b]) * 0xD6E8FEB86659FD93L;
        return reduce(h ^ h >>> 32);
    }

    private static final long[] FLAG_CONSTANTS = {
        0x2545F4914F6CDD1DL, 0x5851F42D4C957F2DL, 0x14057B7EF767814FL, 0x6C8E9CF570932BD5L};
}

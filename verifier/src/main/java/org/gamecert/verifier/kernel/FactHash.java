package org.gamecert.verifier.kernel;

/**
 * The multiset hash that binds child facts (SPEC §11.1): a parent's slice adds, for every child
 * record it was delivered, the hash of (index, key, kinds, bounds, flags) as delivered; the
 * child's slice adds the hash of (index, its own record at that index, flags) for every mark it
 * takes. The sums (modulo 2^64) agree for every layer exactly when the multisets agree, except
 * with probability about 2^-64 per layer for an engine that does not know the key (Blum et al.
 * 1991, offline memory checking; Clarke et al. 2003, additive multiset hashes).
 *
 * <p>One field a round, the index first, each round a bijection of the state (an odd multiplier,
 * a xor-shift): two facts give one state only if they are equal, and where a fact's record lands
 * depends on the key, which the engine never sees.
 */
final class FactHash {
    private FactHash() {}

    static long of(long key, long index, long occ, long mover, int kinds, int lo, int hi,
            int flags) {
        long w = (long) (kinds & 0xFF) << 40 ^ (long) (lo & 0xFFFF) << 24
                ^ (long) (hi & 0xFFFF) << 8 ^ (flags & 0xFF);
        long h = (key ^ index) * 0xD6E8FEB86659FD93L;
        h = (h ^ h >>> 32 ^ occ) * 0x9E3779B97F4A7C15L;
        h = (h ^ h >>> 32 ^ mover) * 0xC2B2AE3D27D4EB4FL;
        h = (h ^ h >>> 32 ^ w) * 0x165667B19E3779F9L;
        return h ^ h >>> 32;
    }
}

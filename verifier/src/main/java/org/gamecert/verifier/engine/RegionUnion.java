package org.gamecert.verifier.engine;

import java.util.List;
import org.gamecert.verifier.kernel.RegionKeys;

/**
 * Counts the distinct keys (occ, mover) per disc count over several parts' region keys: the
 * union census of a composite (SPEC §15.4, informative). One disc count at a time, in an open-
 * addressing set over two long arrays (no object per key) sized for that disc count's keys.
 */
final class RegionUnion {
    private RegionUnion() {}

    /** Distinct keys per disc count 0..64. */
    static long[] distinctPerDiscCount(List<RegionKeys> parts) {
        long[] sizes = new long[65], distinct = new long[65];
        for (RegionKeys k : parts)
            for (int i = 0; i < k.size(); i++) sizes[Long.bitCount(k.occ(i))]++;
        for (int d = 0; d <= 64; d++) {
            if (sizes[d] == 0) continue;
            Set set = new Set(sizes[d]);
            for (RegionKeys k : parts)
                for (int i = 0; i < k.size(); i++)
                    if (Long.bitCount(k.occ(i)) == d) set.add(k.occ(i), k.mover(i));
            distinct[d] = set.size;
        }
        return distinct;
    }

    /** A multiplier drawn per run, so that no input can be made to collide (as in Layer). */
    private static final long HASH = new java.security.SecureRandom().nextLong() | 1;

    /** A set of keys, at most half full, a used flag per slot (the empty board's key is 0, 0). */
    private static final class Set {
        final long[] occ, mover;
        final boolean[] used;
        final int mask, shift;
        long size;

        Set(long expected) {
            int need = (int) Math.min(1 << 30, 2 * expected); // at most half full
            int slots = Math.max(2, Integer.highestOneBit(need - 1) << 1);
            occ = new long[slots];
            mover = new long[slots];
            used = new boolean[slots];
            mask = slots - 1;
            shift = 64 - Integer.numberOfTrailingZeros(slots);
        }

        void add(long o, long m) {
            long h = (o * 0x9E3779B97F4A7C15L ^ m) * HASH;
            int i = (int) (h >>> shift); // the high bits of a multiplicative hash
            while (used[i]) {
                if (occ[i] == o && mover[i] == m) return;
                i = (i + 1) & mask;
            }
            used[i] = true;
            occ[i] = o;
            mover[i] = m;
            size++;
        }
    }
}

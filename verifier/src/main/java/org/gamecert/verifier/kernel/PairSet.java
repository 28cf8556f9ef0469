package org.gamecert.verifier.kernel;

import java.util.Arrays;

/**
 * A set of keys (occ, mover), for the census's terminal positions (SPEC §10.3): open addressing
 * with a salted hash (so that no file can aim at one slot), grown by doubling. Its memory is
 * the engine's budget to bound: it holds what one slice, or one layer, names.
 */
final class PairSet {
    private static final long SALT = new java.security.SecureRandom().nextLong();
    private long[] occ = new long[64], mover = new long[64];
    private boolean[] used = new boolean[64];
    private int size;

    int size() {
        return size;
    }

    void add(long o, long m) {
        if (2 * (size + 1) > used.length) grow();
        int mask = used.length - 1;
        int i = slot(o, m) & mask;
        while (used[i]) {
            if (occ[i] == o && mover[i] == m) return;
            i = (i + 1) & mask;
        }
        used[i] = true;
        occ[i] = o;
        mover[i] = m;
        size++;
    }

    boolean contains(long o, long m) {
        int mask = used.length - 1;
        for (int i = slot(o, m) & mask; used[i]; i = (i + 1) & mask)
            if (occ[i] == o && mover[i] == m) return true;
        return false;
    }

    /** The keys, occ then mover, two longs a key (in slot order). */
    long[] toPairs() {
        long[] out = new long[2 * size];
        int n = 0;
        for (int i = 0; i < used.length; i++)
            if (used[i]) {
                out[n++] = occ[i];
                out[n++] = mover[i];
            }
        return out;
    }

    void addPairs(long[] pairs) {
        for (int i = 0; i + 1 < pairs.length; i += 2) add(pairs[i], pairs[i + 1]);
    }

    private static int slot(long o, long m) {
        long h = (o ^ SALT) * 0x9E3779B97F4A7C15L + m;
        h = (h ^ h >>> 32) * 0xD6E8FEB86659FD93L;
        return (int) (h ^ h >>> 32);
    }

    private void grow() {
        long[] o = occ, m = mover;
        boolean[] u = used;
        occ = new long[2 * o.length];
        mover = new long[2 * o.length];
        used = new boolean[2 * o.length];
        size = 0;
        for (int i = 0; i < u.length; i++) if (u[i]) add(o[i], m[i]);
        Arrays.fill(u, false);
    }
}

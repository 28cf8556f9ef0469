package org.gamecert.verifier.kernel;

/**
 * A set of Connect Four terminal positions, each known by its key (occupied squares, mover's
 * squares): open addressing over two long arrays, no object per position. A terminal position has
 * discs, so occ = 0 marks an empty slot. Used for the census of SPEC §10.3 (and §15.4) only.
 */
final class KeySet {
    /** Salts the hash, so that a file cannot choose positions that collide in it (a hang). */
    private static final long SALT = new java.security.SecureRandom().nextLong();
    private long[] occ = new long[16], mover = new long[16];
    private int size;

    int size() {
        return size;
    }

    void add(long o, long m) {
        if (2 * (size + 1) > occ.length) grow();
        int i = slot(o, m);
        if (occ[i] == 0) {
            occ[i] = o;
            mover[i] = m;
            size++;
        }
    }

    boolean contains(long o, long m) {
        return occ[slot(o, m)] != 0;
    }

    /** Adds every key of {@code other} that {@code except} does not hold. */
    void addAll(KeySet other, KeySet except) {
        for (int i = 0; i < other.occ.length; i++) {
            long o = other.occ[i], m = other.mover[i];
            if (o != 0 && (except == null || !except.contains(o, m))) add(o, m);
        }
    }

    /** Adds every key to a composite's region keys (SPEC §15.4). */
    void copyTo(RegionKeys keys) {
        for (int i = 0; i < occ.length; i++) if (occ[i] != 0) keys.add(occ[i], mover[i]);
    }

    /** The keys, as pairs occ, mover (a slice's result, SliceResult). */
    long[] toArray() {
        long[] out = new long[2 * size];
        int n = 0;
        for (int i = 0; i < occ.length; i++)
            if (occ[i] != 0) {
                out[n++] = occ[i];
                out[n++] = mover[i];
            }
        return out;
    }

    /** Adds the pairs of toArray that except does not hold. */
    void addPairs(long[] pairs, KeySet except) {
        for (int i = 0; i + 1 < pairs.length; i += 2)
            if (except == null || !except.contains(pairs[i], pairs[i + 1]))
                add(pairs[i], pairs[i + 1]);
    }

    void clear() {
        occ = new long[16];
        mover = new long[16];
        size = 0;
    }

    /** The slot holding the key, or the empty slot where it would go. */
    private int slot(long o, long m) {
        int mask = occ.length - 1;
        // salted; the high bits folded down, so that keys differing in high bits only do not
        // share a probe cluster. The slot from the low bits: a set's slot order then does not
        // cluster the keys it adds to another (addAll), as the top bits would.
        long h = ((o ^ SALT) * 0x9E3779B97F4A7C15L) ^ (m * 0xC2B2AE3D27D4EB4FL);
        int i = (int) (h ^ (h >>> 31) ^ (h >>> 47)) & mask;
        while (occ[i] != 0 && (occ[i] != o || mover[i] != m)) i = (i + 1) & mask;
        return i;
    }

    private void grow() {
        long[] oldOcc = occ, oldMover = mover;
        occ = new long[oldOcc.length * 2];
        mover = new long[oldOcc.length * 2];
        size = 0;
        for (int i = 0; i < oldOcc.length; i++) if (oldOcc[i] != 0) add(oldOcc[i], oldMover[i]);
    }
}

package org.gamecert.verifier.kernel;

import java.util.Arrays;

/**
 * A set of Connect Four and NoGo terminal positions, each known by its key (occupied squares,
 * mover's squares): open addressing over one long array, a key's two halves side by side (one
 * cache line a probe, not two), no object per position. A terminal position has discs, so
 * occ = 0 marks an empty slot. Used for the census of SPEC §10.3 (and §15.4) only: one part of a
 * layer's keys at a time (KeyBag), or a slice's keys (JoinedLayer).
 */
final class KeySet {
    /** Salts the hash, so that a file cannot choose positions that collide in it (a hang). */
    private static final long SALT = new java.security.SecureRandom().nextLong();
    private static final int FIRST_SLOTS = 16;
    /** Slot i holds occ at 2i, mover at 2i + 1. */
    private long[] keys = new long[2 * FIRST_SLOTS];
    private int size;

    int size() {
        return size;
    }

    void add(long o, long m) {
        if (4 * (size + 1) > keys.length) grow(); // at most half the slots full
        int i = slot(o, m);
        if (keys[i] == 0) {
            keys[i] = o;
            keys[i + 1] = m;
            size++;
        }
    }

    boolean contains(long o, long m) {
        return keys[slot(o, m)] != 0;
    }

    /** Adds every key to a composite's region keys (SPEC §15.4). */
    void copyTo(LegacyRegionKeys regionKeys) {
        for (int i = 0; i < keys.length; i += 2)
            if (keys[i] != 0) regionKeys.add(keys[i], keys[i + 1]);
    }

    /** The keys, as pairs occ, mover (a slice's result, SliceResult). */
    long[] toArray() {
        long[] out = new long[2 * size];
        int n = 0;
        for (int i = 0; i < keys.length; i += 2)
            if (keys[i] != 0) {
                out[n++] = keys[i];
                out[n++] = keys[i + 1];
            }
        return out;
    }

    /** Adds the pairs of toArray that except does not hold. */
    void addPairs(long[] pairs, KeySet except) {
        for (int i = 0; i + 1 < pairs.length; i += 2)
            if (except == null || !except.contains(pairs[i], pairs[i + 1]))
                add(pairs[i], pairs[i + 1]);
    }

    /**
     * Empties the set but keeps its slots: the next layer's set is about as large, and growing
     * again from a few slots would hash every key once per doubling.
     */
    void clear() {
        if (size > 0) Arrays.fill(keys, 0L);
        size = 0;
    }

    /** The index in keys of the slot holding the key, or of the empty slot where it would go. */
    private int slot(long o, long m) {
        int mask = keys.length / 2 - 1;
        // salted; the high bits folded down, so that keys differing in high bits only do not
        // share a probe cluster. The slot from the low bits: keys added in another set's slot
        // order (KeyBag's parts, one set's keys into another) then do not cluster, as with the
        // top bits.
        long h = ((o ^ SALT) * 0x9E3779B97F4A7C15L) ^ (m * 0xC2B2AE3D27D4EB4FL);
        int i = (int) (h ^ (h >>> 31) ^ (h >>> 47)) & mask;
        while (keys[2 * i] != 0 && (keys[2 * i] != o || keys[2 * i + 1] != m)) i = (i + 1) & mask;
        return 2 * i;
    }

    private void grow() {
        long[] old = keys;
        keys = new long[old.length * 2];
        size = 0;
        for (int i = 0; i < old.length; i += 2) if (old[i] != 0) add(old[i], old[i + 1]);
    }
}

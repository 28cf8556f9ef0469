package org.gamecert.verifier.kernel;

/**
 * A set of keys (occ, mover), for the census's terminal positions (SPEC §10.3): open addressing
 * with a salted hash (so that no file can aim at one slot), grown by doubling, at most half full.
 * A key's two longs sit side by side in one array (one cache line a probe); the slot (0, 0) is
 * empty, so the key (0, 0), if ever added, is held apart. Its memory is the engine's budget to
 * bound: it holds what one slice, or one layer, names.
 */
final class PairSet {
    private static final long SALT = TrustedJdk.randomLong();
    /** Slot j holds occ at 2j and mover at 2j + 1; a power of two slots. */
    private long[] keys;
    private int inSlots;
    private boolean hasZero;

    PairSet() {
        this(16);
    }

    /** Room for about expected keys before it grows. */
    PairSet(long expected) {
        int slots = 64;
        while (slots < 2 * expected && slots < 1 << 29) slots <<= 1;
        keys = new long[2 * slots];
    }

    int size() {
        return inSlots + (hasZero ? 1 : 0);
    }

    void add(long o, long m) {
        if (o == 0 && m == 0) {
            hasZero = true;
            return;
        }
        if (4 * (inSlots + 1) > keys.length) grow(); // at most half of the slots full
        int mask = keys.length / 2 - 1;
        int i = slot(o, m) & mask;
        while (keys[2 * i] != 0 || keys[2 * i + 1] != 0) {
            if (keys[2 * i] == o && keys[2 * i + 1] == m) return;
            i = (i + 1) & mask;
        }
        keys[2 * i] = o;
        keys[2 * i + 1] = m;
        inSlots++;
    }

    boolean contains(long o, long m) {
        if (o == 0 && m == 0) return hasZero;
        int mask = keys.length / 2 - 1;
        for (int i = slot(o, m) & mask; keys[2 * i] != 0 || keys[2 * i + 1] != 0;
                i = (i + 1) & mask)
            if (keys[2 * i] == o && keys[2 * i + 1] == m) return true;
        return false;
    }

    /** The keys, occ then mover, two longs a key (the key (0, 0) first, then in slot order). */
    long[] toPairs() {
        long[] out = new long[2 * size()];
        int n = hasZero ? 2 : 0;
        for (int i = 0; i < keys.length; i += 2)
            if (keys[i] != 0 || keys[i + 1] != 0) {
                out[n++] = keys[i];
                out[n++] = keys[i + 1];
            }
        return out;
    }

    /** How many keys of this set the other lacks. */
    long countNotIn(PairSet other) {
        long n = hasZero && !other.contains(0, 0) ? 1 : 0;
        for (int i = 0; i < keys.length; i += 2)
            if ((keys[i] != 0 || keys[i + 1] != 0) && !other.contains(keys[i], keys[i + 1])) n++;
        return n;
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
        long[] old = keys;
        keys = new long[2 * old.length];
        inSlots = 0;
        for (int i = 0; i < old.length; i += 2)
            if (old[i] != 0 || old[i + 1] != 0) add(old[i], old[i + 1]);
    }
}

package org.gamecert.producer.research;

/** Open-addressing map from a non-zero long key to an int (research throwaway; grows, never forgets). */
final class LongIntMap {
    private long[] keys;
    private int[] vals;
    private int size, mask;

    LongIntMap(int log2) { keys = new long[1 << log2]; vals = new int[1 << log2]; mask = (1 << log2) - 1; }

    private static int hash(long k) {
        k *= 0x9E3779B97F4A7C15L;
        return (int) (k ^ (k >>> 29));
    }

    /** The value of {@code k}, or {@code absent}. */
    int get(long k, int absent) {
        for (int i = hash(k) & mask; ; i = (i + 1) & mask) {
            long x = keys[i];
            if (x == k) return vals[i];
            if (x == 0) return absent;
        }
    }

    void put(long k, int v) {
        if (size * 4L >= keys.length * 3L) grow();
        for (int i = hash(k) & mask; ; i = (i + 1) & mask) {
            long x = keys[i];
            if (x == k) { vals[i] = v; return; }
            if (x == 0) { keys[i] = k; vals[i] = v; size++; return; }
        }
    }

    int size() { return size; }

    interface Visitor { void visit(long k, int v); }

    void forEach(Visitor f) {
        for (int i = 0; i < keys.length; i++) if (keys[i] != 0) f.visit(keys[i], vals[i]);
    }

    private void grow() {
        long[] ok = keys; int[] ov = vals;
        keys = new long[ok.length * 2]; vals = new int[ok.length * 2]; mask = keys.length - 1; size = 0;
        for (int i = 0; i < ok.length; i++) if (ok[i] != 0) put(ok[i], ov[i]);
    }
}

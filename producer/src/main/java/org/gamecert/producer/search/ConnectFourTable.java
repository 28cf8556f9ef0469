package org.gamecert.producer.search;

/**
 * A compact transposition table for Connect Four win/draw/loss bounds: one {@code long} a slot,
 * the position's unique key (mover + occupancy + bottom row, Pascal Pons' encoding: at most
 * W·(H+1) ≤ 54 bits here) above 10 bits of data (lo and hi in −1..1, the best move). One word is
 * written at once, so threads sharing the table never see a torn entry; the newest entry replaces
 * the slot's (the cheap policy of Pons' solver, with 3× the entries of the generic table in the same
 * memory). Every bound stored is a fact of the game: what the table holds changes speed, never
 * results.
 */
public final class ConnectFourTable {
    public static final int NO_MOVE = 63;
    /** Boards whose key fits above the 10 data bits. */
    public static final int MAX_KEY_BITS = 54;
    private final long[] slots;
    private final int mask;

    public ConnectFourTable(long megabytes) {
        this(new long[Math.max(Integer.highestOneBit((int) Math.min((Math.max(1, megabytes) << 20) / 8, 1 << 30)), 1 << 10)]);
    }

    private ConnectFourTable(long[] slots) {
        this.slots = slots;
        mask = slots.length - 1;
    }

    /** A table of 2^logSlots slots (10 ≤ logSlots ≤ 30). */
    public static ConnectFourTable ofSlots(int logSlots) {
        if (logSlots < 10 || logSlots > 30) throw new IllegalArgumentException("logSlots " + logSlots);
        return new ConnectFourTable(new long[1 << logSlots]);
    }

    private int index(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 34) & mask;
    }

    /** Data bits for the key (lo, hi, move), or -1 if absent. Key 0 is never a position's key. */
    public int probe(long key) {
        long s = slots[index(key)];
        return s != 0 && s >>> 10 == key ? (int) (s & 0x3FF) : -1;
    }

    public static int lo(int d) { return (d & 3) - 1; }
    public static int hi(int d) { return (d >>> 2 & 3) - 1; }
    public static int move(int d) { return d >>> 4; }

    /** Records lo ≤ V ≤ hi (intersected with what the slot knows of the same key). */
    public void store(long key, int lo, int hi, int move) {
        int i = index(key);
        long s = slots[i];
        if (s != 0 && s >>> 10 == key) {
            int d = (int) (s & 0x3FF);
            lo = Math.max(lo, lo(d));
            hi = Math.min(hi, hi(d));
            if (move == NO_MOVE) move = move(d);
        }
        slots[i] = key << 10 | (long) move << 4 | (long) (hi + 1) << 2 | (lo + 1);
    }
}

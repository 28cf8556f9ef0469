package org.gamecert.producer.search;

/**
 * The proof a search keeps: one record for every node with at least {@code TT_MIN} empties that
 * the search completed, appended when it completes, so every record comes after those of the
 * children it names. A record is
 * <pre>
 *   mover, opponent, header, then n child words, then the leaf-cut word if the header says so
 *   header: kind (1: failed high, V ≥ value; 2: failed low, V ≤ value) | (value + 128) &lt;&lt; 8
 *           | move &lt;&lt; 16 (the cut, when failed high) | empties &lt;&lt; 24 | n &lt;&lt; 32
 *           | 1 &lt;&lt; 48 when a leaf-cut word follows the child words
 *   child word: the child's record ({@link #NONE} when it has none: fewer than TT_MIN empties, or
 *               the game over) | move &lt;&lt; 56
 * </pre>
 * A failed-high record names its cut child only, a failed-low one every child. A record's handle
 * is its offset in longs. A child named by a table cutoff is the record that proved the table's
 * bound, made earlier by another search of the same position, so the records reachable from the
 * root's two last tests (MTD(f): "V ≥ v" and "V ≤ v") form a complete proof of its value.
 * Pages of 2^20 longs, allocated as the log grows; handles stay below 2^32 (32 GiB of log).
 */
public final class ProofLog {
    public static final long NONE = (1L << 40) - 1;
    public static final int HIGH = 1, LOW = 2;
    private static final int PAGE_BITS = 20, PAGE = 1 << PAGE_BITS;
    private long[][] pages = new long[64][];
    private long size;

    /** Offset 0 holds nothing, so that no handle is 0 (a table slot's proof word is then never 0). */
    public ProofLog() { put(0); }

    /** Longs written so far. */
    public long size() { return size; }

    public long get(long i) { return pages[(int) (i >>> PAGE_BITS)][(int) (i & (PAGE - 1))]; }

    private void put(long x) {
        int p = (int) (size >>> PAGE_BITS);
        if (p == pages.length) pages = java.util.Arrays.copyOf(pages, p * 2);
        if (pages[p] == null) pages[p] = new long[PAGE];
        pages[p][(int) (size & (PAGE - 1))] = x;
        size++;
    }

    /** Appends a record of n children (child words in {@code children}); returns its handle. */
    long append(long m, long o, int kind, int value, int move, int empties, long[] children, int n, long leafCuts) {
        long h = size;
        if (h + 4 + n >= 0xFFFF_FFFFL) throw new IllegalStateException("the search's proof log outgrew 2^32 longs (32 GiB)");
        put(m);
        put(o);
        put(kind | (long) (value + 128) << 8 | (long) (move & 0xFF) << 16 | (long) empties << 24 | (long) n << 32
                | (leafCuts != 0 ? 1L << 48 : 0));
        for (int i = 0; i < n; i++) put(children[i]);
        if (leafCuts != 0) put(leafCuts);
        return h;
    }

    public static long childWord(long handle, int move) { return (handle & NONE) | (long) move << 56; }
    public static long childHandle(long word) { return word & NONE; }
    public static int childMove(long word) { return (int) (word >>> 56); }

    public static int kind(long header) { return (int) (header & 0xFF); }
    public static int value(long header) { return (int) (header >>> 8 & 0xFF) - 128; }
    public static int move(long header) { return (int) (header >>> 16 & 0xFF); }
    public static int empties(long header) { return (int) (header >>> 24 & 0xFF); }
    public static int children(long header) { return (int) (header >>> 32 & 0xFFFF); }
    public static boolean hasLeafCuts(long header) { return (header >>> 48 & 1) != 0; }
}

package org.gamecert.producer.cert;

/**
 * The needs placed on the canonical positions of one layer: region kinds (OR-ed), the strongest
 * lower bound needed (C), the strongest upper bound needed (A), and an exact value when a parent
 * already computed it. Merging is commutative, so the content is independent of push order.
 * Open addressing over primitive arrays: no object per position.
 */
public final class NeedMap {
    public static final byte NO_LOWER = Byte.MIN_VALUE, NO_UPPER = Byte.MAX_VALUE, UNKNOWN = Byte.MIN_VALUE;
    /**
     * Slot i is slots[3i .. 3i+2]: mover, opponent, and the needs word (bit 32: used; bits 0–31:
     * kinds, lower, upper, known, a byte each). One slot's words are adjacent, so an insert
     * touches one or two cache lines (with an array per field it touched up to seven: a third of
     * the extraction's time on the layer that pushes the leaves' parents went to those misses).
     */
    private long[] slots;
    private int size, mask;
    private static final long USED = 1L << 32;

    public NeedMap() { alloc(1024); }

    private void alloc(int cap) {
        if (3L * cap > Integer.MAX_VALUE - 8)
            throw new IllegalStateException(
                    "a layer's needs table over 2^29 slots: give --max-memory to spill them");
        slots = new long[3 * cap];
        mask = cap - 1; size = 0;
    }

    public int size() { return size; }

    /** Bytes held by the table's array (24 bytes a slot). */
    public long bytes() { return 24L * (mask + 1); }

    /** Bytes the table would hold after its next growth. */
    public long bytesAfterGrowth() { return 48L * (mask + 1); }

    /** Whether the next new key makes the table grow. */
    public boolean fullBeforeGrowth() { return size * 2 >= mask; }

    private static int hash(long m, long o) {
        long h = m * 0x9E3779B97F4A7C15L + o * 0xC2B2AE3D27D4EB4FL;
        h ^= h >>> 29; h *= 0xBF58476D1CE4E5B9L; h ^= h >>> 32;
        return (int) h;
    }

    /** The index in {@link #slots} of (m, o)'s slot, or of the free slot where it goes. */
    private int slot(long m, long o) {
        long[] s = slots;
        int i = hash(m, o) & mask;
        while (s[3 * i + 2] != 0 && (s[3 * i] != m || s[3 * i + 1] != o)) i = (i + 1) & mask;
        return 3 * i;
    }

    private static long word(int kinds, int lower, int upper, int known) {
        return USED | (kinds & 0xFF) | (lower & 0xFF) << 8 | (upper & 0xFF) << 16
                | (long) (known & 0xFF) << 24;
    }

    /** Merges a need: kinds OR-ed, lower bound max-ed, upper bound min-ed, known value kept. */
    public void add(long m, long o, int kindBits, int lowerNeed, int upperNeed, int knownValue) {
        if (size * 2 >= mask) grow();
        long[] s = slots;
        int i = slot(m, o);
        long w = s[i + 2];
        int kinds = 0, lower = NO_LOWER, upper = NO_UPPER, known = UNKNOWN;
        if (w == 0) {
            s[i] = m; s[i + 1] = o; size++;
        } else {
            kinds = (int) w & 0xFF;
            lower = (byte) (w >>> 8); upper = (byte) (w >>> 16); known = (byte) (w >>> 24);
        }
        kinds |= kindBits & 0xFF;
        known = mergeKnown(lower, known, lowerNeed, knownValue);
        if (lowerNeed > lower) lower = lowerNeed;
        if (upperNeed < upper) upper = upperNeed;
        s[i + 2] = word(kinds, lower, upper, known);
    }

    /**
     * A known cut (weak mode with endgame leaves): the move of a lower-bound need that its parent
     * already knows to be the cut the extraction would choose for the need's bound (a fact, see
     * {@code Extractor}), in the {@code known} byte outside the range of values: square s as
     * 65 + s (s ≤ 62) or −65 (s = 63). {@link #CUT_CONFLICT}: two different cuts for one bound.
     */
    public static int cutCode(int square) { return square <= 62 ? 65 + square : -65; }

    /** The square of a {@link #cutCode}, else -1. */
    public static int cutSquare(int known) { return known >= 65 ? known - 65 : known == -65 ? 63 : -1; }

    public static final int CUT_CONFLICT = -66;

    private static boolean cutOrConflict(int known) { return known == CUT_CONFLICT || cutSquare(known) >= 0; }

    /**
     * The known byte after merging a need (lowerNeed, knownValue) into one (lower, known), before
     * the lower bounds are max-ed. Values (exact, known from a parent) are kept as before, a value
     * over a cut. A cut holds for the bound it came with, so it survives only while that bound is
     * the largest lower bound; two different cuts for it make a conflict (no cut). Hence the result
     * depends on the set of needs merged, not on their order.
     */
    static int mergeKnown(int lower, int known, int lowerNeed, int knownValue) {
        boolean cur = cutOrConflict(known), add = cutOrConflict(knownValue);
        if (!cur && !add) return knownValue != UNKNOWN ? knownValue : known;
        if (!cur && known != UNKNOWN) return known;        // a value stays
        if (!add && knownValue != UNKNOWN) return knownValue;
        int max = Math.max(lower, lowerNeed);
        int a = cur && lower == max ? known : UNKNOWN, b = add && lowerNeed == max ? knownValue : UNKNOWN;
        if (a == UNKNOWN) return b;
        if (b == UNKNOWN || a == b) return a;
        return CUT_CONFLICT;
    }

    private void grow() {
        long[] old = slots;
        alloc((mask + 1) * 2);
        long[] s = slots;
        for (int i = 0; i < old.length; i += 3) {
            if (old[i + 2] == 0) continue;
            int j = slot(old[i], old[i + 1]); // keys are distinct: a free slot
            s[j] = old[i]; s[j + 1] = old[i + 1]; s[j + 2] = old[i + 2];
            size++;
        }
    }

    /**
     * Writes the records in SPEC §6 key order to a run file (the format of {@link NeedFiles}) and
     * empties the table: a layer's needs that outgrow memory are kept as sorted runs, merged later.
     */
    public void writeSortedRun(java.nio.file.Path file) throws java.io.IOException {
        long[] occ = new long[size], mov = new long[size];
        int[] packed = new int[size];
        gather(occ, mov, packed);
        int n = size;
        clear();
        sortRecords(occ, mov, packed, n);
        try (NeedFiles.Writer w = new NeedFiles.Writer(file)) {
            for (int j = 0; j < n; j++) {
                long o = occ[j] ^ Long.MIN_VALUE, m = mov[j] ^ Long.MIN_VALUE;
                w.write(m, o & ~m, packed[j]);
            }
        }
    }

    /** The used slots as sort keys: occupancy and mover with the sign bit flipped, needs packed. */
    private void gather(long[] occ, long[] mov, int[] packed) {
        long[] s = slots;
        int k = 0;
        for (int i = 0; i < s.length; i += 3)
            if (s[i + 2] != 0) {
                // the signed order of x ^ MIN is the unsigned order of x
                occ[k] = (s[i] | s[i + 1]) ^ Long.MIN_VALUE;
                mov[k] = s[i] ^ Long.MIN_VALUE;
                packed[k] = (int) s[i + 2];
                k++;
            }
    }

    /** The records in SPEC §6 key order (occ, then mover, unsigned), as parallel arrays. */
    public Sorted sorted() {
        // Sort the records themselves (occ, mover, packed needs) rather than indices: no
        // indirection, so the sort stays in cache order.
        long[] occ = new long[size], mov = new long[size];
        int[] packed = new int[size];
        gather(occ, mov, packed);
        sortRecords(occ, mov, packed, size);
        Sorted s = new Sorted(size);
        for (int j = 0; j < size; j++) {
            long o = occ[j] ^ Long.MIN_VALUE, m = mov[j] ^ Long.MIN_VALUE;
            s.mover[j] = m; s.opponent[j] = o & ~m;
            int p = packed[j];
            s.kinds[j] = (byte) p; s.lower[j] = (byte) (p >> 8); s.upper[j] = (byte) (p >> 16); s.known[j] = (byte) (p >> 24);
        }
        return s;
    }

    /** Below this many records the quicksort; from it the radix sort. */
    private static final int RADIX_MIN = 1 << 12;

    /**
     * Sorts n records (a, b, c) by (a, b), both signed (keys distinct): from {@link #RADIX_MIN}
     * records by an LSD radix sort of 16-bit digits (b's, then a's), which needs no comparison
     * (the quicksort's mispredicted branches made it a tenth of the extraction on FFO #40), and
     * skips a digit every record shares; it takes 20 bytes a record more while it runs.
     */
    static void sortRecords(long[] a, long[] b, int[] c, int n) {
        if (n < RADIX_MIN) { sort(a, b, c, 0, n - 1); return; }
        long[] a0 = a, ta = new long[n], tb = new long[n];
        int[] tc = new int[n], count = new int[1 << 16];
        for (int pass = 0; pass < 8; pass++) {
            long[] key = pass < 4 ? b : a;
            int shift = 16 * (pass & 3);
            java.util.Arrays.fill(count, 0);
            // x ^ MIN: the signed order of the keys is the unsigned order of these digits
            for (int i = 0; i < n; i++)
                count[(int) ((key[i] ^ Long.MIN_VALUE) >>> shift) & 0xFFFF]++;
            if (count[(int) ((key[0] ^ Long.MIN_VALUE) >>> shift) & 0xFFFF] == n) continue;
            int sum = 0;
            for (int d = 0; d < count.length; d++) { int t = count[d]; count[d] = sum; sum += t; }
            for (int i = 0; i < n; i++) {
                int j = count[(int) ((key[i] ^ Long.MIN_VALUE) >>> shift) & 0xFFFF]++;
                ta[j] = a[i]; tb[j] = b[i]; tc[j] = c[i];
            }
            long[] t = a; a = ta; ta = t;
            t = b; b = tb; tb = t;
            int[] u = c; c = tc; tc = u;
        }
        if (a != a0) { // an odd number of passes moved the records: back into the caller's arrays
            System.arraycopy(a, 0, ta, 0, n);
            System.arraycopy(b, 0, tb, 0, n);
            System.arraycopy(c, 0, tc, 0, n);
        }
    }

    private static boolean less(long[] a, long[] b, int i, int j) {
        return a[i] < a[j] || (a[i] == a[j] && b[i] < b[j]);
    }

    private static void swap(long[] a, long[] b, int[] c, int i, int j) {
        long t = a[i]; a[i] = a[j]; a[j] = t;
        t = b[i]; b[i] = b[j]; b[j] = t;
        int u = c[i]; c[i] = c[j]; c[j] = u;
    }

    /** Quicksort (median of three, insertion sort below 16) on three parallel arrays; keys are distinct. */
    private static void sort(long[] a, long[] b, int[] c, int lo, int hi) {
        while (hi - lo >= 16) {
            int mid = (lo + hi) >>> 1;
            if (less(a, b, mid, lo)) swap(a, b, c, mid, lo);
            if (less(a, b, hi, lo)) swap(a, b, c, hi, lo);
            if (less(a, b, hi, mid)) swap(a, b, c, hi, mid);
            long pa = a[mid], pb = b[mid];
            int i = lo, j = hi;
            while (i <= j) {
                while (a[i] < pa || (a[i] == pa && b[i] < pb)) i++;
                while (pa < a[j] || (pa == a[j] && pb < b[j])) j--;
                if (i <= j) { swap(a, b, c, i, j); i++; j--; }
            }
            if (j - lo < hi - i) { sort(a, b, c, lo, j); lo = i; }
            else { sort(a, b, c, i, hi); hi = j; }
        }
        for (int i = lo + 1; i <= hi; i++)
            for (int j = i; j > lo && less(a, b, j, j - 1); j--) swap(a, b, c, j, j - 1);
    }

    /** A layer's needs in key order. */
    public static final class Sorted {
        public final long[] mover, opponent;
        public final byte[] kinds, lower, upper, known;
        public Sorted(int n) {
            mover = new long[n]; opponent = new long[n];
            kinds = new byte[n]; lower = new byte[n]; upper = new byte[n]; known = new byte[n];
        }
        public int size() { return mover.length; }
    }

    /** Frees memory early. */
    public void clear() { alloc(16); }
}

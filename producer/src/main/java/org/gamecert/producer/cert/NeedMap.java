package org.gamecert.producer.cert;

/**
 * The needs placed on the canonical positions of one layer: region kinds (OR-ed), the strongest
 * lower bound needed (C), the strongest upper bound needed (A), and an exact value when a parent
 * already computed it. Merging is commutative, so the content is independent of push order.
 * Open addressing over primitive arrays: no object per position.
 */
public final class NeedMap {
    public static final byte NO_LOWER = Byte.MIN_VALUE, NO_UPPER = Byte.MAX_VALUE, UNKNOWN = Byte.MIN_VALUE;
    private long[] km, ko;
    private byte[] kinds, lower, upper, known;
    private boolean[] used;
    private int size, mask;

    public NeedMap() { alloc(1024); }

    private void alloc(int cap) {
        km = new long[cap]; ko = new long[cap];
        kinds = new byte[cap]; lower = new byte[cap]; upper = new byte[cap]; known = new byte[cap];
        used = new boolean[cap];
        mask = cap - 1; size = 0;
    }

    public int size() { return size; }

    private static int hash(long m, long o) {
        long h = m * 0x9E3779B97F4A7C15L + o * 0xC2B2AE3D27D4EB4FL;
        h ^= h >>> 29; h *= 0xBF58476D1CE4E5B9L; h ^= h >>> 32;
        return (int) h;
    }

    private int slot(long m, long o) {
        int i = hash(m, o) & mask;
        while (used[i] && (km[i] != m || ko[i] != o)) i = (i + 1) & mask;
        return i;
    }

    /** Merges a need: kinds OR-ed, lower bound max-ed, upper bound min-ed, known value kept. */
    public void add(long m, long o, int kindBits, int lowerNeed, int upperNeed, int knownValue) {
        if (size * 2 >= mask) grow();
        int i = slot(m, o);
        if (!used[i]) {
            used[i] = true; km[i] = m; ko[i] = o; size++;
            kinds[i] = 0; lower[i] = NO_LOWER; upper[i] = NO_UPPER; known[i] = UNKNOWN;
        }
        kinds[i] |= (byte) kindBits;
        if (lowerNeed > lower[i]) lower[i] = (byte) lowerNeed;
        if (upperNeed < upper[i]) upper[i] = (byte) upperNeed;
        if (knownValue != UNKNOWN) known[i] = (byte) knownValue;
    }

    private void grow() {
        long[] om = km, oo = ko;
        byte[] ok = kinds, ol = lower, ou = upper, kn = known;
        boolean[] ou2 = used;
        alloc((mask + 1) * 2);
        for (int i = 0; i < om.length; i++)
            if (ou2[i]) add(om[i], oo[i], ok[i] & 0xFF, ol[i], ou[i], kn[i]);
    }

    /** The records in SPEC §6 key order (occ, then mover, unsigned), as parallel arrays. */
    public Sorted sorted() {
        Sorted s = new Sorted(size);
        int[] idx = new int[size];
        int k = 0;
        for (int i = 0; i <= mask; i++) if (used[i]) idx[k++] = i;
        // sort slot indices by key; boxed sort is avoided with a primitive merge sort on indices
        sortByKey(idx, km, ko);
        for (int j = 0; j < size; j++) {
            int i = idx[j];
            s.mover[j] = km[i]; s.opponent[j] = ko[i];
            s.kinds[j] = kinds[i]; s.lower[j] = lower[i]; s.upper[j] = upper[i]; s.known[j] = known[i];
        }
        return s;
    }

    private static void sortByKey(int[] idx, long[] km, long[] ko) {
        int[] tmp = new int[idx.length];
        mergeSort(idx, tmp, 0, idx.length, km, ko);
    }

    private static int cmp(int a, int b, long[] km, long[] ko) {
        int c = Long.compareUnsigned(km[a] | ko[a], km[b] | ko[b]);
        return c != 0 ? c : Long.compareUnsigned(km[a], km[b]);
    }

    private static void mergeSort(int[] a, int[] tmp, int lo, int hi, long[] km, long[] ko) {
        if (hi - lo < 24) {
            for (int i = lo + 1; i < hi; i++) {
                int v = a[i], j = i - 1;
                while (j >= lo && cmp(a[j], v, km, ko) > 0) { a[j + 1] = a[j]; j--; }
                a[j + 1] = v;
            }
            return;
        }
        int mid = (lo + hi) >>> 1;
        mergeSort(a, tmp, lo, mid, km, ko);
        mergeSort(a, tmp, mid, hi, km, ko);
        if (cmp(a[mid - 1], a[mid], km, ko) <= 0) return;
        System.arraycopy(a, lo, tmp, lo, hi - lo);
        int i = lo, j = mid, k = lo;
        while (i < mid && j < hi) a[k++] = cmp(tmp[i], tmp[j], km, ko) <= 0 ? tmp[i++] : tmp[j++];
        while (i < mid) a[k++] = tmp[i++];
        while (j < hi) a[k++] = tmp[j++];
    }

    /** A layer's needs in key order. */
    public static final class Sorted {
        public final long[] mover, opponent;
        public final byte[] kinds, lower, upper, known;
        Sorted(int n) {
            mover = new long[n]; opponent = new long[n];
            kinds = new byte[n]; lower = new byte[n]; upper = new byte[n]; known = new byte[n];
        }
        public int size() { return mover.length; }
    }

    /** Frees memory early. */
    public void clear() { alloc(16); }
}

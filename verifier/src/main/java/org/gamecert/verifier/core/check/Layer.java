package org.gamecert.verifier.core.check;

/**
 * One layer's entries in key order, as primitive columns (no object per entry): keys as (occ,
 * mover) and three bytes. Pass 1 keeps kind/lo/hi, pass 2 kind/move/flags.
 */
final class Layer {
    static final int BYTES_PER_ENTRY = 8 + 8 + 3;

    int discs = -1;
    int size;
    long[] occ = new long[0], mover = new long[0];
    byte[] kind = new byte[0], x = new byte[0], y = new byte[0];

    void reset(int discs) {
        this.discs = discs;
        size = 0;
    }

    long capacity() {
        return occ.length;
    }

    void ensure(int needed, Budget budget) {
        if (needed <= occ.length) return;
        long cap = Math.max(1024, Math.min(Integer.MAX_VALUE - 16, Math.max((long) needed, occ.length + (occ.length >> 1))));
        budget.resize(occ.length * (long) BYTES_PER_ENTRY, cap * BYTES_PER_ENTRY, discs);
        int c = (int) cap;
        occ = java.util.Arrays.copyOf(occ, c);
        mover = java.util.Arrays.copyOf(mover, c);
        kind = java.util.Arrays.copyOf(kind, c);
        x = java.util.Arrays.copyOf(x, c);
        y = java.util.Arrays.copyOf(y, c);
    }

    /** Index of the key, or -1. Keys are strictly increasing (unsigned occ, then mover). */
    int find(long o, long m) {
        int lo = 0, hi = size - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long mo = occ[mid];
            int cmp = mo == o ? Long.compareUnsigned(mover[mid], m) : Long.compareUnsigned(mo, o);
            if (cmp < 0) lo = mid + 1;
            else if (cmp > 0) hi = mid - 1;
            else return mid;
        }
        return -1;
    }

    /** Memory accounting for the tables against --max-memory. */
    static final class Budget {
        final long max;
        long used, peak;

        Budget(long max, long fixed) {
            this.max = max;
            this.used = fixed;
            this.peak = fixed;
        }

        void resize(long oldBytes, long newBytes, int discs) {
            long next = used - oldBytes + newBytes;
            if (next > max)
                throw new OutOfBudget("layer " + discs + " needs more than the memory limit of " + max
                        + " bytes (at least " + next + " bytes for the tables); raise --max-memory");
            used = next;
            peak = Math.max(peak, used);
        }
    }

    /** The tables would exceed --max-memory: the verdict is error, never a partial verified. */
    static final class OutOfBudget extends RuntimeException {
        OutOfBudget(String message) {
            super(message, null, false, false);
        }
    }
}

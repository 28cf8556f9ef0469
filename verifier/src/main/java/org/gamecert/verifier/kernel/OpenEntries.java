package org.gamecert.verifier.kernel;

import org.gamecert.verifier.kernel.format.Payload;

/**
 * The open entries of a part (SPEC §15.1) as pass 1 kept them, in file order: deepest layer
 * first, key order within a layer (R-LAY-1..3 held for them). Each: its key, its kind set
 * without O, its bounds. A part checked alone keeps them all; a part of a composite only those
 * the manifest's links name and the first that none names (PartSlice.keepOpen), and counts the
 * rest. Primitive arrays that grow as needed, at most 2^24 entries (R-OPEN-2); frozen (and cut
 * to size) when the kernel concludes, so that a conclusion's list cannot change afterwards.
 */
final class OpenEntries implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private long[] occ = new long[0], mover = new long[0];
    private byte[] kind = new byte[0], lower = new byte[0], upper = new byte[0];
    private int size, total;
    private boolean frozen;

    /** A copy with arrays of its own (PartConclusion.copyOf). */
    OpenEntries copy() {
        OpenEntries c = new OpenEntries();
        c.occ = occ.clone();
        c.mover = mover.clone();
        c.kind = kind.clone();
        c.lower = lower.clone();
        c.upper = upper.clone();
        c.size = size;
        c.total = total;
        c.frozen = frozen;
        return c;
    }

    void add(long o, long m, int k, int lo, int hi) {
        if (frozen) throw new IllegalStateException("an open entry added after the conclusion");
        if (size == occ.length) resize(Math.min(Payload.MAX_OPEN, Math.max(16, 2 * size)));
        occ[size] = o;
        mover[size] = m;
        kind[size] = (byte) k;
        lower[size] = (byte) lo;
        upper[size] = (byte) hi;
        size++;
        total++;
    }

    /** An open entry read and not kept: only counted. */
    void skip() {
        if (frozen) throw new IllegalStateException("an open entry added after the conclusion");
        total++;
    }

    private void resize(int n) {
        occ = java.util.Arrays.copyOf(occ, n);
        mover = java.util.Arrays.copyOf(mover, n);
        kind = java.util.Arrays.copyOf(kind, n);
        lower = java.util.Arrays.copyOf(lower, n);
        upper = java.util.Arrays.copyOf(upper, n);
    }

    void freeze() {
        if (!frozen) resize(size);
        frozen = true;
    }

    /** The open entries kept. */
    int size() {
        return size;
    }

    /** Every open entry read, kept or not. */
    int total() {
        return total;
    }

    long occ(int i) {
        return occ[i];
    }

    long mover(int i) {
        return mover[i];
    }

    /** The kind set, without O. */
    int kind(int i) {
        return kind[i];
    }

    int lo(int i) {
        return lower[i];
    }

    int hi(int i) {
        return upper[i];
    }

    /** Into a seal: how many were kept and read, then each kept entry's fields. */
    void sealInto(Seal s) {
        s.longs(size, total);
        for (int i = 0; i < size; i++) s.longs(occ[i], mover[i], kind[i], lower[i], upper[i]);
    }

    /** The index of the open entry kept with key (o, m), or -1: a binary search in file order. */
    int indexOf(long o, long m) {
        int from = 0, to = size - 1;
        while (from <= to) {
            int mid = (from + to) >>> 1;
            int c = fileOrder(occ[mid], mover[mid], o, m);
            if (c < 0) from = mid + 1;
            else if (c > 0) to = mid - 1;
            else return mid;
        }
        return -1;
    }

    /** File order (SPEC §6): more discs first, then unsigned occ, then unsigned mover. */
    private static int fileOrder(long o1, long m1, long o2, long m2) {
        int d1 = Long.bitCount(o1), d2 = Long.bitCount(o2);
        if (d1 != d2) return d1 > d2 ? -1 : 1;
        if (o1 != o2) return Long.compareUnsigned(o1, o2);
        return Long.compareUnsigned(m1, m2);
    }
}

package org.gamecert.verifier.peer.kernel;

/**
 * A key range of table n+1 that an engine holds for one pass over table n: the records
 * base .. base + size − 1 of the table, with keys from lo (unless first) and below hi (unless
 * last). Made only by the kernel (ChildTable.range), from the records it admitted, so that the
 * ranges of a table tile it.
 */
public final class ChildRange {
    final ChildTable owner;
    final int serial;
    public final boolean first, last;
    public final long lo, hi, base, size;
    /** ChildTable.fact of each record of the range, by index within it (and perhaps more). */
    final long[] facts;

    ChildRange(ChildTable owner, int serial, boolean first, boolean last, long lo, long hi,
            long base, long size, long[] facts) {
        this.facts = facts;
        this.owner = owner;
        this.serial = serial;
        this.first = first;
        this.last = last;
        this.lo = lo;
        this.hi = hi;
        this.base = base;
        this.size = size;
    }

    /** Whether a record with this order key would be in the range (unsigned comparison). */
    public boolean contains(long key) {
        if (!first && Long.compareUnsigned(key, lo) < 0) return false;
        return last || Long.compareUnsigned(key, hi) < 0;
    }

    @Override
    public String toString() {
        return "range " + serial + " [" + (first ? "start" : Long.toHexString(lo)) + ", "
                + (last ? "end" : Long.toHexString(hi)) + ") records " + base + "+" + size;
    }
}

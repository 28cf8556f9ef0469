package org.gamecert.verifier.kernel;

/**
 * What a kernel that checked one slice of a layer (LayerCheck.endSlice) tells the kernel that
 * read the file (JoinedLayer): which blocks and entries it checked, against which Layout
 * (fingerprint), the first violation among them, its part of the tally of SPEC §10, and the sums
 * of the marks it sent and took (Marks). Made only by the kernel; an engine moves it.
 */
public final class SliceResult implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    final byte[] layout;
    final int li, firstBlock, endBlock;
    final long base, count;
    final Violation first;
    final long region, unreached, firstUnreached;
    final long[] terminals, proofTerminals;
    /** Marks: sent sums A, B, then taken sums A, B. */
    final long[] sums;

    SliceResult(byte[] layout, int li, int firstBlock, int endBlock, long base, long count,
            Violation first, long region, long unreached, long firstUnreached, long[] terminals,
            long[] proofTerminals, long[] sums) {
        this.layout = layout.clone();
        this.li = li;
        this.firstBlock = firstBlock;
        this.endBlock = endBlock;
        this.base = base;
        this.count = count;
        this.first = first;
        this.region = region;
        this.unreached = unreached;
        this.firstUnreached = firstUnreached;
        this.terminals = terminals;
        this.proofTerminals = proofTerminals;
        this.sums = sums;
    }

    /** The first block of the slice (for the engine's bookkeeping). */
    public int firstBlock() {
        return firstBlock;
    }

    public long entries() {
        return count;
    }

    /** The slice's first violation, or null. */
    public Violation violation() {
        return first;
    }
}

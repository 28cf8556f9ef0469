package org.gamecert.verifier.kernel;

/**
 * The keys of a certificate's region as its census counts it (SPEC §10.3: the positions of R
 * whose entry is not open, and for Connect Four and NoGo the terminal positions of R), kept on
 * request so that a composite's union census can count distinct positions across parts (§15.4,
 * informative), within the budget the engine stated before the slices started
 * (SliceCheck.Setup): over it, no key is kept (complete() is false). Made only from what a
 * part's slices kept (PartTally.regionKeys); immutable but for release. Not sorted.
 */
public final class RegionKeys implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private long[] occ = new long[0], mover = new long[0];
    private int size;
    private boolean over;

    private RegionKeys() {}

    /** A copy with arrays of its own (PartConclusion.copyOf). */
    RegionKeys copy() {
        RegionKeys c = new RegionKeys();
        c.occ = occ.clone();
        c.mover = mover.clone();
        c.size = size;
        c.over = over;
        return c;
    }

    /** The keys the slices kept (occ, mover pairs, distinct), or none when over their budget. */
    static RegionKeys of(long[] pairs, boolean over) {
        RegionKeys k = new RegionKeys();
        k.over = over;
        if (!over) {
            k.size = pairs.length / 2;
            k.occ = new long[k.size];
            k.mover = new long[k.size];
            for (int i = 0; i < k.size; i++) {
                k.occ[i] = pairs[2 * i];
                k.mover[i] = pairs[2 * i + 1];
            }
        }
        return k;
    }

    /** Whether every key of the region is here (none was left out over the cap or released). */
    public boolean complete() {
        return !over;
    }

    public int size() {
        return size;
    }

    public long occ(int i) {
        return occ[i];
    }

    public long mover(int i) {
        return mover[i];
    }

    /** Frees the keys (a union that will not be counted); complete() is false from then on. */
    public void release() {
        over = true;
        occ = mover = new long[0];
        size = 0;
    }
}

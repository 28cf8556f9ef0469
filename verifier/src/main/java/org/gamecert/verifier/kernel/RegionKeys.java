package org.gamecert.verifier.kernel;

/**
 * The keys of a certificate's region as its census counts it (SPEC §10.3: the positions of R
 * whose entry is not open, and for Connect Four and NoGo the terminal positions of R), kept on
 * request so that a composite's union census can count distinct positions across parts (§15.4,
 * informative). At most cap keys: beyond that none are kept (complete() is false). Not sorted.
 */
public final class RegionKeys {
    private final int cap;
    private long[] occ = new long[16], mover = new long[16];
    private int size;
    private boolean over, frozen;

    RegionKeys(int cap) {
        this.cap = cap;
    }

    void add(long o, long m) {
        if (frozen) throw new IllegalStateException("a region key added after the conclusion");
        if (over) return;
        if (size == cap) {
            release();
            return;
        }
        if (size == occ.length) {
            int n = (int) Math.min(cap, 2L * occ.length);
            occ = java.util.Arrays.copyOf(occ, n);
            mover = java.util.Arrays.copyOf(mover, n);
        }
        occ[size] = o;
        mover[size++] = m;
    }

    void freeze() {
        frozen = true;
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

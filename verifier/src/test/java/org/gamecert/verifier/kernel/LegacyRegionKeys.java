package org.gamecert.verifier.kernel;

/**
 * The legacy kernel's region keys (the concurrent kernel of 0.6.0, kept in the test tree as a
 * differential reference), as the kernel's RegionKeys kept them before the sequential kernel:
 * grown on request from the engine's allowance; regionKeys() gives the kernel's RegionKeys.
 * The keys of a certificate's region as its census counts it (SPEC §10.3: the positions of R
 * whose entry is not open, and for Connect Four and NoGo the terminal positions of R), kept on
 * request so that a composite's union census can count distinct positions across parts (§15.4,
 * informative). Room for more keys comes from the engine's allowance, which the parts checked
 * at once share: once it refuses, no key is kept (complete() is false). Not sorted.
 */
final class LegacyRegionKeys {
    private final org.gamecert.verifier.engine.Options.Allowance allowance; // null once the keys were moved (frozen)
    private long[] occ = new long[0], mover = new long[0];
    private int size;
    private boolean over, frozen;

    LegacyRegionKeys(org.gamecert.verifier.engine.Options.Allowance allowance) {
        this.allowance = allowance;
    }

    void add(long o, long m) {
        if (frozen) throw new IllegalStateException("a region key added after the conclusion");
        if (over) return;
        if (size == occ.length) {
            int n = size == 0 ? 16 : size >= 1 << 30 ? 0 : 2 * size;
            if (n == 0 || !allowance.grant(n - size)) {
                release();
                return;
            }
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

    /** The keys as the kernel's RegionKeys (frozen), for the legacy kernel's conclusion. */
    RegionKeys regionKeys() {
        long[] pairs = new long[2 * size];
        for (int i = 0; i < size; i++) {
            pairs[2 * i] = occ[i];
            pairs[2 * i + 1] = mover[i];
        }
        return RegionKeys.of(pairs, over);
    }
}

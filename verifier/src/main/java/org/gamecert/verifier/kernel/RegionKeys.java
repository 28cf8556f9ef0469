package org.gamecert.verifier.kernel;

/**
 * The keys of a certificate's region as its census counts it (SPEC §10.3: the positions of R
 * whose entry is not open, and for Connect Four and NoGo the terminal positions of R), kept on
 * request so that a composite's union census can count distinct positions across parts (§15.4,
 * informative). Room for more keys comes from the engine's allowance, which the parts checked
 * at once share: once it refuses, no key is kept (complete() is false). Not sorted.
 */
public final class RegionKeys implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    /** Grants room for n more keys (false: none); may be shared by several threads' kernels. */
    public interface Allowance {
        boolean grant(int n);
    }

    private final transient Allowance allowance; // null once the keys were moved (frozen)
    private long[] occ = new long[0], mover = new long[0];
    private int size;
    private boolean over, frozen;

    RegionKeys(Allowance allowance) {
        this.allowance = allowance;
    }

    /** The keys the slices kept (occ, mover pairs, distinct), or none when over their budget. */
    static RegionKeys of(long[] pairs, boolean over) {
        RegionKeys k = new RegionKeys(null);
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
        k.frozen = true;
        return k;
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
}

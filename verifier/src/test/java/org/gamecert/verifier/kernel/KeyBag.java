package org.gamecert.verifier.kernel;

import java.util.Arrays;
import java.util.List;

/**
 * The Connect Four and NoGo terminal positions one checker met in a layer (SPEC §10.3 census),
 * repeats included, kept in PARTS parts by a salted hash of the key. The layer's distinct keys
 * are then counted one part at a time (census, distinctPairs) in a set small enough for the
 * processor's cache: adding a key is a write at the end of its part, not a random access to a
 * table as large as the layer's terminal positions (what made the census most of the time a
 * Connect Four certificate took). A key is two longs (occupied squares, mover's squares); a
 * terminal position has discs, so no key has occ = 0.
 */
final class KeyBag {
    static final int PARTS = 256;
    /** Salts the part: a file cannot put its keys in one part (a slow, not a wrong, count). */
    private static final long SALT = new java.security.SecureRandom().nextLong() | 1;
    /** Part p holds fill[p] / 2 keys: occ at 2i, mover at 2i + 1. */
    private final long[][] parts = new long[PARTS][8];
    private final int[] fill = new int[PARTS];

    void add(long o, long m) {
        int p = part(o, m);
        long[] a = parts[p];
        int f = fill[p];
        if (f == a.length) parts[p] = a = Arrays.copyOf(a, 2 * a.length);
        a[f] = o;
        a[f + 1] = m;
        fill[p] = f + 2;
    }

    /** Forgets the keys; the parts keep their room (the next layer meets about as many). */
    void clear() {
        Arrays.fill(fill, 0);
    }

    private static int part(long o, long m) {
        return (int) (((o * 0x9E3779B97F4A7C15L ^ m * 0xC2B2AE3D27D4EB4FL) ^ SALT)
                * 0xD6E8FEB86659FD93L >>> 56); // the top 8 bits: PARTS = 256
    }

    /**
     * SPEC §10.3 for one layer of terminal positions: the number of distinct keys in the bags
     * {@code inR} (the terminal positions of R), and of those in {@code proof} that are not
     * among them (term_d: only the proof reaches them). keep, if not null, gets every distinct
     * key of inR (a composite's region keys, §15.4).
     */
    static long[] census(List<KeyBag> inR, List<KeyBag> proof, LegacyRegionKeys keep) {
        KeySet seen = new KeySet(), proofOnly = new KeySet();
        long inRCount = 0, proofCount = 0;
        for (int p = 0; p < PARTS; p++) {
            seen.clear();
            proofOnly.clear();
            for (KeyBag b : inR) b.addPartTo(p, seen, null);
            for (KeyBag b : proof) b.addPartTo(p, proofOnly, seen);
            inRCount += seen.size();
            proofCount += proofOnly.size();
            if (keep != null) seen.copyTo(keep);
        }
        return new long[] {inRCount, proofCount};
    }

    /** The distinct keys of the bags, as pairs occ, mover (a slice's result, SliceResult). */
    static long[] distinctPairs(List<KeyBag> bags) {
        long[][] perPart = new long[PARTS][];
        long total = 0;
        KeySet seen = new KeySet();
        for (int p = 0; p < PARTS; p++) {
            seen.clear();
            for (KeyBag b : bags) b.addPartTo(p, seen, null);
            perPart[p] = seen.toArray();
            total += perPart[p].length;
        }
        if (total > Integer.MAX_VALUE - 8)
            throw new IllegalStateException("more than 2^30 terminal positions in one slice");
        long[] out = new long[(int) total];
        int n = 0;
        for (long[] pairs : perPart) {
            System.arraycopy(pairs, 0, out, n, pairs.length);
            n += pairs.length;
        }
        return out;
    }

    /** Adds the keys of part p to set, except those except holds. */
    private void addPartTo(int p, KeySet set, KeySet except) {
        long[] a = parts[p];
        for (int i = 0; i < fill[p]; i += 2)
            if (except == null || !except.contains(a[i], a[i + 1])) set.add(a[i], a[i + 1]);
    }
}

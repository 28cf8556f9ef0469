package org.gamecert.verifier.kernel;

import java.util.List;
import org.gamecert.verifier.kernel.format.Header;
import org.gamecert.verifier.kernel.format.Manifest;

/**
 * What the Combiner adds for a part (SPEC §15.1): the composite and part its open entries are
 * kept for (Combiner.partOf), the keys of R its slices kept for a union census (§15.4), at the
 * end R-OPEN-2's counts across slices and the open entries kept, in file order (openEntries),
 * and R-PART-1 (claim). The Combiner holds one only for a part. Sequential; one check's.
 */
final class PartTally {
    private Manifest keptFor;
    private int keptForPart = -1;
    private boolean regionKeysAsked;
    private final PairSet regionKeys = new PairSet();
    private boolean regionKeysOver, setUp;

    /** Whether a setup was made already (Combiner.partOf refuses a second one). */
    boolean setUp() {
        return setUp;
    }

    /** Part partIndex of composite m (null: alone); regionKeys: the slices keep keys of R. */
    void setup(Manifest m, int partIndex, boolean regionKeys) {
        keptFor = m;
        keptForPart = m == null ? -1 : partIndex;
        regionKeysAsked = regionKeys;
        setUp = true;
    }

    /** What the slices' setup tags must carry for a part (PartSlice.setupTag). */
    byte[] setupTag() {
        return PartSlice.setupTag(keptFor, keptForPart, regionKeysAsked);
    }

    /** A layer's slices, taken: the region keys they kept (none kept once any was over). */
    void take(List<SliceReport> slices) {
        for (SliceReport r : slices) {
            long[] keys = r.part == null ? null : r.part.regionKeys();
            if (regionKeysAsked && (keys == null || r.part.regionKeysOver())) regionKeysOver = true;
            if (regionKeysAsked && !regionKeysOver && keys != null) regionKeys.addPairs(keys);
        }
    }

    /**
     * A part's open entries in file order (deepest layer first): each slice's count before it
     * must be the open entries of the slices before (R-OPEN-2 was decided with it), and the
     * entries kept are filtered by the links again. reports: by layer, shallowest first.
     */
    void openEntries(List<List<SliceReport>> reports, OpenEntries open, FaultLatch latch) {
        long before = 0;
        boolean unnamedKept = false;
        for (int j = reports.size() - 1; j >= 0; j--)
            for (SliceReport r : reports.get(j)) {
                if (r.part == null)
                    throw latch.fault("a slice of a part that reported no part's counts");
                if (r.part.openBefore() != before)
                    throw latch.fault("a slice assumed " + r.part.openBefore() + " open"
                            + " entries before it; the slices before hold " + before);
                before += r.part.openCount();
                OpenEntries in = r.part.open();
                int kept = in.size();
                for (int i = 0; i < kept; i++) {
                    long o = in.occ(i), m = in.mover(i);
                    boolean named = keptFor == null || keptFor.findLink(keptForPart, o, m) >= 0;
                    if (named || !unnamedKept) open.add(o, m, in.kind(i), in.lo(i), in.hi(i));
                    else open.skip();
                    unnamedKept |= !named;
                }
                for (long s = kept; s < in.total(); s++) open.skip();
            }
    }

    /**
     * R-PART-1 (SPEC §15.1): the root's entry proves the part's claim: it serves every exact
     * kind of root_kinds with the value root_value; its bounds meet those of C and A.
     */
    static Violation claim(Header h, SliceReport root, int rootDiscs) {
        int claim = h.rootKinds, k = root.rootKind;
        if (implies(k, root.rootLo, root.rootHi, claim, h.rootValue, h.rootUpper)) return null;
        return new Violation(Rule.PART_1, -1, rootDiscs, -1, true, h.rootMover, h.rootOpponent,
                "root entry has kinds " + Kinds.kindName(k) + " and bounds [" + root.rootLo + ", "
                + root.rootHi + "]; the header claims " + Kinds.kindName(claim) + " with ["
                + h.rootValue + ", " + h.rootUpper + "]");
    }

    /**
     * Kind set k with bounds [lo, hi] implies the claim (kind set claim, bounds [cLo, cHi]): every
     * exact kind of the claim is served by k with lo equal to the value; lo ≥ cLo for C, hi ≤ cHi
     * for A. R-PART-1 (an entry and its header's claim), R-COMP-5 (a part's claim and an open
     * entry's).
     */
    static boolean implies(int k, int lo, int hi, int claim, int cLo, int cHi) {
        boolean holds = true;
        for (int need : new int[] {Kinds.P, Kinds.AP, Kinds.PP})
            if ((claim & need) != 0) holds &= Kinds.serves(k, need) && lo == cLo;
        if ((claim & Kinds.C) != 0) holds &= lo >= cLo;
        if ((claim & Kinds.A) != 0) holds &= hi <= cHi;
        return holds;
    }

    Manifest keptFor() {
        return keptFor;
    }

    int keptForPart() {
        return keptForPart;
    }

    /** The region keys the slices kept (frozen), or null when none were asked for. */
    RegionKeys regionKeys() {
        return !regionKeysAsked ? null : RegionKeys.of(regionKeys.toPairs(), regionKeysOver);
    }
}

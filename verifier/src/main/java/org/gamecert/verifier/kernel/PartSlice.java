package org.gamecert.verifier.kernel;

import org.gamecert.verifier.kernel.format.Manifest;
import org.gamecert.verifier.kernel.format.Payload;

/**
 * What a slice of a part (SPEC §15.1) adds to its check and its report: R-OPEN-2's count of open
 * entries, from the engine's count of those before the slice (the Combiner holds the engine to
 * it: PartTally.openEntries); the open entries kept for R-COMP-3..5 (checked for a composite,
 * those its links name and the first that none names; checked alone, all); the keys of R for a
 * composite's union census (§15.4), within the budget the engine stated. A SliceCheck holds one
 * only for a part (SliceCheck.Setup sets it up); once reported it is frozen, and the
 * SliceReport carries it. Sequential; one slice's.
 */
final class PartSlice implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    /** Open entries in the file before this slice, as the engine counted them; in the slice. */
    private long openBefore, openCount;
    /** The composite this part is checked for (null: alone, every open entry kept), and part. */
    private transient Manifest keptFor;
    private int keptForPart = -1;
    private final OpenEntries open = new OpenEntries();
    private boolean unnamedKept;
    /** Region keys for a composite's union census: at most this many; -1: none. */
    private int regionKeyBudget = -1;
    private transient PairSet regionKeys = new PairSet();
    private boolean regionKeysOver, reported;
    /** Once reported: the region keys kept (occ, mover pairs; none when over), or null. */
    private long[] keys;

    /** SliceCheck.Setup's part; false when out of range (an engine fault there). */
    boolean setup(long openBefore, Manifest keptFor, int partIndex, int regionKeyBudget) {
        if (openBefore < 0 || (keptFor != null && (partIndex < 0
                || partIndex >= keptFor.partCount())))
            return false;
        this.openBefore = openBefore;
        this.keptFor = keptFor;
        keptForPart = keptFor == null ? -1 : partIndex;
        this.regionKeyBudget = Math.max(-1, regionKeyBudget);
        return true;
    }

    /**
     * The part of a slice's setup tag (SliceReport.setupTag) that a part adds: the composite's
     * commitment and the part its open entries are kept for (none: alone), whether region keys
     * are kept. A certificate that is not a part has the tag of a part set up with none.
     */
    static byte[] setupTag(Manifest keptFor, int keptForPart, boolean regionKeys) {
        byte[] m = keptFor == null ? new byte[0] : keptFor.commitment();
        return java.nio.ByteBuffer.allocate(4 + m.length + 4 + 1).putInt(m.length).put(m)
                .putInt(keptFor == null ? -1 : keptForPart).put((byte) (regionKeys ? 1 : 0))
                .array();
    }

    byte[] setupTag() {
        return setupTag(keptFor, keptForPart, regionKeyBudget >= 0);
    }

    /** The part's open entries before the next block, for R-OPEN-2 (Payload.decode checks it). */
    long openBeforeBlock() {
        return openBefore + openCount;
    }

    /** Counts the open kinds of a block decoded. */
    void countOpen(byte[] kinds, int from, int n) {
        for (int i = from; i < from + n; i++) if (Payload.isOpen(kinds[i])) openCount++;
    }

    /**
     * Keeps an open entry for R-COMP-3..5 (SPEC §15.3): checked for a composite, those its links
     * name and the first that none names (R-COMP-3 fails there, so the rest cannot matter);
     * checked alone, all of them.
     */
    void keepOpen(long occ, long mover, int kind, int lo, int hi) {
        boolean named = keptFor == null || keptFor.findLink(keptForPart, occ, mover) >= 0;
        if (named || !unnamedKept) open.add(occ, mover, kind & 0xFF & ~Payload.O, lo, hi);
        else open.skip();
        unnamedKept |= !named;
    }

    /** A key of R (an entry's, or a terminal position's: SPEC §10.3), when region keys are kept. */
    void keepRegionKey(long o, long m) {
        if (regionKeyBudget < 0 || regionKeysOver) return;
        regionKeys.add(o, m);
        regionKeysOver = regionKeys.size() > regionKeyBudget;
    }


    /** Frozen for the report: nothing is added from here on. */
    PartSlice reported() {
        if (reported) throw new IllegalStateException("a part's slice reported twice");
        reported = true;
        open.freeze();
        keys = regionKeyBudget < 0 ? null : regionKeysOver ? new long[0] : regionKeys.toPairs();
        regionKeys = null;
        return this;
    }

    long openBefore() {
        return openBefore;
    }

    long openCount() {
        return openCount;
    }

    OpenEntries open() {
        return open;
    }

    /** The region keys kept (occ, mover pairs), or null: not asked; over: too many kept. */
    long[] regionKeys() {
        return keys == null ? null : keys.clone();
    }

    boolean regionKeysOver() {
        return regionKeysOver;
    }
}

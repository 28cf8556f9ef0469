package org.gamecert.verifier.kernel;

/**
 * What a SliceCheck tells the Combiner about its slice (SPEC §11.1): which blocks and entries of
 * which layer it checked, against which FileMap (fingerprint), the key it assumed before its first
 * entry and its last key, its first violation, its part of the tally of SPEC §10, and the sums of
 * the child facts it sent and took; a part's counts and open entries (PartSlice), --all's
 * violations (EveryViolation). Made only by the kernel; immutable; an engine moves it, and in
 * one JVM the Combiner takes only the very object a slice it made reported (Combiner.Made).
 */
public final class SliceReport implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private final byte[] map;
    final int li, firstBlock, endBlock;
    final long base, count;
    final Violation first;
    final boolean hasPrevious;
    final long previousOcc, previousMover, lastOcc, lastMover;
    final long region, aux, unreached, firstUnreached, unreachedMover, unreachedOpponent;
    /** Terminal keys counted in this many partitions (TerminalCount), the hash of those sent. */
    final int terminalPartitions;
    final long terminalSum;
    final long sentSum, takenSum;
    final boolean hasRoot;
    final int rootKind, rootLo, rootHi, rootMove;
    /** A part's (SPEC §15.1): open entries counted and kept, region keys; null: not a part. */
    final PartSlice part;
    /** Every entry of the slice was decoded (so every fact for it was taken and counted). */
    final boolean decodedAll;
    /** --all: the violations kept and counted, the block that failed to decode; else null. */
    final EveryViolation every;
    /** How the slice was set up (setupTag): the Combiner takes only reports set up as it is. */
    private final byte[] setup;
    /**
     * Made for a map read for a cluster: only then may the report be serialized. A serial form
     * would show the sums keyed by the map's K, and hand the stream the report's own objects (its
     * part's and --all's, not final inside), while in one JVM the Combiner takes the report as
     * the very object its slice made, whatever they hold by then.
     */
    private final boolean cluster;

    SliceReport(byte[] map, int li, int firstBlock, int endBlock, long base, long count,
            Violation first, boolean hasPrevious, long previousOcc, long previousMover,
            long lastOcc, long lastMover, long region, long aux, long unreached,
            long firstUnreached, long unreachedMover, long unreachedOpponent,
            int terminalPartitions, long terminalSum, long sentSum,
            long takenSum, boolean hasRoot, int rootKind, int rootLo, int rootHi, int rootMove,
            PartSlice part, boolean decodedAll, EveryViolation every, byte[] setup,
            boolean cluster) {
        this.map = map.clone();
        this.li = li;
        this.firstBlock = firstBlock;
        this.endBlock = endBlock;
        this.base = base;
        this.count = count;
        this.first = first;
        this.hasPrevious = hasPrevious;
        this.previousOcc = previousOcc;
        this.previousMover = previousMover;
        this.lastOcc = lastOcc;
        this.lastMover = lastMover;
        this.region = region;
        this.aux = aux;
        this.unreached = unreached;
        this.firstUnreached = firstUnreached;
        this.unreachedMover = unreachedMover;
        this.unreachedOpponent = unreachedOpponent;
        this.terminalPartitions = terminalPartitions;
        this.terminalSum = terminalSum;
        this.sentSum = sentSum;
        this.takenSum = takenSum;
        this.hasRoot = hasRoot;
        this.rootKind = rootKind;
        this.rootLo = rootLo;
        this.rootHi = rootHi;
        this.rootMove = rootMove;
        this.part = part;
        this.decodedAll = decodedAll;
        this.every = every;
        this.setup = setup.clone();
        this.cluster = cluster;
    }

    private void writeObject(java.io.ObjectOutputStream out) throws java.io.IOException {
        if (!cluster) throw new java.io.NotSerializableException("a report made in one JVM");
        out.defaultWriteObject();
    }

    /**
     * The mode and part setup a slice or the Combiner works under: --all and the violations kept
     * a rule (every: null without --all), then a part's (PartSlice.setupTag; null: not a part,
     * as a part set up with none). A slice set up otherwise than its Combiner could hide a
     * violation (--all slices report none as first) or open entries (kept for another composite).
     */
    static byte[] setupTag(EveryViolation every, byte[] partTag) {
        if (partTag == null) partTag = PartSlice.setupTag(null, -1, false);
        return java.nio.ByteBuffer.allocate(1 + 4 + partTag.length)
                .put((byte) (every != null ? 1 : 0)).putInt(every != null ? every.maxPerRule() : 0)
                .put(partTag).array();
    }

    /** Whether the report was made by a slice set up as the tag says. */
    boolean setUpAs(byte[] tag) {
        return java.util.Arrays.equals(setup, tag);
    }

    byte[] map() {
        return map.clone();
    }

    /** The slice's first violation, or null. */
    public Violation violation() {
        return first;
    }
}

package org.gamecert.verifier.kernel;

import org.gamecert.verifier.kernel.format.Payload;

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

    /** The report of slice s, which has checked its entries and made its tally. */
    SliceReport(SliceCheck s) {
        map = s.map.fingerprint();
        li = s.li;
        firstBlock = s.firstBlock;
        endBlock = s.endBlock;
        base = s.base;
        count = s.count;
        first = s.first;
        hasPrevious = s.hasPrevious;
        previousOcc = s.previousOcc;
        previousMover = s.previousMover;
        boolean whole = s.first == null && s.decodeFailure == null && s.count > 0;
        lastOcc = whole ? s.occ[s.count - 1] : 0;
        lastMover = whole ? s.mover[s.count - 1] : 0;
        region = s.region;
        aux = s.aux;
        unreached = s.unreached;
        int u = s.firstUnreached;
        firstUnreached = u < 0 ? -1 : s.base + u;
        unreachedMover = u < 0 ? 0 : s.mover[u];
        unreachedOpponent = u < 0 ? 0 : s.occ[u] & ~s.mover[u];
        terminalPartitions = s.routes == null ? 0 : s.routes.partitions();
        terminalSum = s.routes == null ? 0 : s.routes.sum();
        sentSum = s.sentSum;
        takenSum = s.takenSum;
        int r = s.root;
        hasRoot = r >= 0;
        rootKind = r < 0 ? 0 : s.kind[r] & 0xFF;
        rootLo = r < 0 ? 0 : s.lo[r];
        rootHi = r < 0 ? 0 : s.hi[r];
        rootMove = r < 0 || !Payload.hasMove(s.kind[r] & 0xFF) ? -1 : s.move[r] & 0xFF;
        part = s.part == null ? null : s.part.reported();
        decodedAll = s.decoded == s.count;
        every = s.every == null ? null : s.every.reported(s.decodeFailure);
        setup = setupTag(s.every, s.part == null ? null : s.part.setupTag());
        cluster = s.map.cluster;
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

package org.gamecert.verifier.kernel;

import java.io.IOException;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import org.gamecert.verifier.kernel.format.Container;
import org.gamecert.verifier.kernel.format.Payload;

/**
 * Pass 2 of one layer: its entries checked against the layer below (SPEC §9) and their needs
 * (§10.1) and reachability (§10.2) passed to their children there, 1 byte of flags per entry.
 * The engine holds the layer below whole or in key ranges; for each range it runs one LayerPass
 * over this layer's entries. The kernel requires the ranges to tile the layer below (the first
 * from the start, each after the one before, the last to the end, sizes adding up) and each pass
 * to see every entry of this layer once, in key order.
 */
public final class LayerCheck {
    private static final List<String> POSITION_RULES = List.of(Rule.POS_1, Rule.POS_2, Rule.POS_3,
            Rule.MOVE_1);

    final Kernel kernel;
    final int li, below, discs;
    final long size;
    final byte[] flags;      // this layer's, given by the layer above (or fresh at the top)
    final byte[] childFlags; // the layer below's, marked by this layer's entries
    byte[] carry;            // layer below in ranges: the maximum over the moves of earlier ranges
    BitSet tbReported;       // --all, in ranges: entries whose R-TB-1 was reported
    /** Open entries with a region need: not counted in region_d (SPEC §10.3), LayerPass. */
    long openInRegion;
    /** The earliest violation the passes found (first-violation mode). */
    Violation best;
    private final Tiling tiling = new Tiling();
    private boolean everyPassComplete = true;
    private int passesOpen;

    LayerCheck(Kernel kernel, int li, byte[] flagsFromAbove) {
        this.kernel = kernel;
        this.li = li;
        this.below = kernel.below(li);
        this.discs = kernel.lDiscs[li];
        this.size = kernel.lSize[li];
        flags = flagsFromAbove != null ? flagsFromAbove : new byte[(int) size];
        if (flags.length != size) throw kernel.engineFault("flags of another layer");
        int rootFlags = EntryChecker.REACHED | kernel.rootNeeds; // the seeds of R (SPEC §10.1)
        if (kernel.rootFound && discs == kernel.rootDiscs && kernel.rootIndex < flags.length)
            flags[(int) kernel.rootIndex] |= (byte) rootFlags;
        childFlags = below >= 0 ? new byte[(int) kernel.lSize[below]] : null;
        for (EntryChecker c : kernel.checkers) {
            c.terminals.clear();
            c.proofTerminals.clear();
        }
    }

    /** The layer below will come in several key ranges: the maximum over the moves is carried. */
    public void inRanges() {
        carry = new byte[(int) size];
        Arrays.fill(carry, Byte.MIN_VALUE);
        tbReported = kernel.all ? new BitSet((int) size) : null;
    }

    /**
     * One pass over this layer's entries against range of the layer below, whose records the
     * engine answers through lookup (with no layer below: KeyRange.whole(0), no lookup).
     */
    public LayerPass pass(KeyRange range, ChildLookup lookup) {
        tiling.next(range, "layer " + discs + "'s layer below");
        if (!(range.first() && range.last()) && carry == null)
            throw kernel.engineFault("layer " + discs
                    + " checked in ranges without carrying the maximum");
        passesOpen++;
        return new LayerPass(this, range, below >= 0 ? lookup : null);
    }

    void passEnded(boolean complete) {
        passesOpen--;
        everyPassComplete &= complete;
    }

    /**
     * Whether the first violation found is to be checked once more with all its children
     * gathered from every range (Recheck), so that it is named as when the layer below is held
     * whole. A position rule needs no recheck: it is decided without the children.
     */
    public boolean needsRecheck() {
        return best != null && !POSITION_RULES.contains(best.rule());
    }

    /** The entry of the violation found, read again, to be rechecked range by range. */
    public Recheck recheck(Container ct) throws IOException {
        int b = kernel.lFirst[li];
        long base = 0; // no entry of this layer was skipped: a skip ends the run first
        while (base + kernel.blockList.get(b).count <= best.entry())
            base += kernel.blockList.get(b++).count;
        Payload p = kernel.reload(ct, b, null);
        return new Recheck(b, p, (int) (best.entry() - base));
    }

    /** The checks of one entry once more, its children gathered over every range. */
    public final class Recheck {
        private final Tiling recheckTiling = new Tiling();
        private final EntryChecker checker = new EntryChecker(kernel, true);
        private final long block, mover, opp;
        private final int k, lo, hi, mv;

        Recheck(int b, Payload p, int i) {
            block = b;
            mover = p.mover[i];
            opp = p.occ[i] & ~mover;
            k = p.kind[i] & 0xFF;
            lo = p.lo[i];
            hi = p.hi[i];
            mv = p.move[i] & 0xFF;
        }

        public void gather(KeyRange range, ChildLookup lookup) {
            if (!checker.enter()) throw kernel.engineFault("a recheck used by two threads at once");
            try {
                recheckTiling.next(range, "the recheck's layer below");
                LayerPass pass = new LayerPass(LayerCheck.this, range, below >= 0 ? lookup : null);
                checker.gather(pass, block, discs, best.entry(), mover, opp, k, lo, hi, mv);
            } finally {
                checker.leave();
            }
        }

        /** The rule the entry breaks first (the violation found stands if none is found). */
        public void conclude() {
            if (!recheckTiling.done) throw kernel.engineFault("the recheck's ranges end early");
            if (!checker.enter()) throw kernel.engineFault("a recheck used by two threads at once");
            Violation v;
            try {
                v = checker.recheck();
            } finally {
                checker.leave();
            }
            if (v != null) best = v;
        }
    }

    /**
     * The layer's tally (SPEC §10): its region and unreached entries, and the terminal positions of
     * R among its children (Connect Four). The flags this layer gave go to the next layer checked.
     */
    public void finish() {
        boolean complete = tiling.done && everyPassComplete && passesOpen == 0;
        if (complete) kernel.layerChecked(li);
        else if (best == null && !kernel.anyViolation && !kernel.checkingReadSoFar)
            throw kernel.engineFault("layer " + discs
                    + " was not checked in full (an entry or a key range left out)");
        if (best != null)
            kernel.found = best; // a shallower layer's comes later in the order of checks
        for (byte f : flags) {
            if ((f & Kernel.NEEDS) != 0) kernel.region[discs]++;
        }
        kernel.region[discs] -= openInRegion;
        for (int i = 0; i < flags.length; i++)
            if ((flags[i] & EntryChecker.REACHED) == 0 && kernel.unreached++ == 0) {
                kernel.firstUnreachedLayer = li;
                kernel.firstUnreachedIndex = i;
            }
        KeySet terminals = new KeySet();
        for (EntryChecker c : kernel.checkers) {
            terminals.addAll(c.terminals, null);
            c.terminals.clear();
        }
        if (discs + 1 < kernel.region.length) kernel.region[discs + 1] += terminals.size();
        if (kernel.regionKeys != null) terminals.copyTo(kernel.regionKeys);
        // Terminal positions only the proof reaches: those outside R (SPEC §10.3 term_d).
        KeySet proofTerminals = new KeySet();
        for (EntryChecker c : kernel.checkers) {
            proofTerminals.addAll(c.proofTerminals, terminals);
            c.proofTerminals.clear();
        }
        if (discs + 1 < kernel.proofTerminals.length)
            kernel.proofTerminals[discs + 1] += proofTerminals.size();
        kernel.flagsOfNextLayer = childFlags;
    }

    /** That the key ranges an engine gives for a layer tile it: nothing missing, nothing twice. */
    private final class Tiling {
        KeyRange previous;
        boolean done;

        void next(KeyRange r, String what) {
            long layerSize = below >= 0 ? kernel.lSize[below] : 0;
            boolean ok;
            if (done) ok = false;
            else if (previous == null) ok = r.first() && r.base() == 0;
            else ok = !r.first() && r.afterOcc() == previous.upOcc()
                    && r.afterMover() == previous.upMover()
                    && r.base() == previous.base() + previous.size();
            ok &= r.size() >= 0 && r.base() + r.size() <= layerSize;
            // each range ends at or after its start, so that the ranges are in key order
            boolean bounded = !r.first() && !r.last();
            ok &= !bounded || !KeyRange.after(r.afterOcc(), r.afterMover(), r.upOcc(), r.upMover());
            if (r.last()) ok &= r.base() + r.size() == layerSize;
            if (!ok)
                throw kernel.engineFault("the key ranges of " + what + " do not tile it (" + r
                        + " after "
                    + previous + ", " + layerSize + " entries)");
            previous = r;
            done = r.last();
        }
    }
}

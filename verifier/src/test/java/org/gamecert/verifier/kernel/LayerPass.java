package org.gamecert.verifier.kernel;

import java.util.Arrays;
import java.util.Comparator;
import org.gamecert.verifier.kernel.format.Payload;

/**
 * One pass over a layer's entries against one key range of the layer below. The engine hands
 * over the layer's blocks in file order (block), has their entries checked in ranges, one per
 * checker (check), and says when a block is done (endBlock). The kernel numbers the entries
 * itself, requires the blocks to be the layer's, each once and in order, the entries in strictly
 * increasing key order, and the checkers' ranges to tile each block.
 */
public final class LayerPass {
    final LayerCheck check;
    final KeyRange range;
    final ChildLookup lookup; // null: no layer below
    private final Kernel.Keep keep;
    private int nextBlock;
    private long count; // entries of the layer handed over so far
    private boolean blockOpen, stopped, ended;
    // the block being checked
    private long serial = -1, base, limit;
    private int block, kept;
    private Payload payload, own; // own: the kernel's copy of the block being checked

    LayerPass(LayerCheck check, KeyRange range, ChildLookup lookup) {
        this.check = check;
        this.range = range;
        this.lookup = lookup;
        keep = new Kernel.Keep(check.discs);
        nextBlock = check.firstBlock;
        count = check.base;
    }

    /**
     * The layer's next block b: returns how many of its entries (the ones pass 1 kept, moved to
     * the front of p) are to be checked, or -1 when the pass needs no more (an earlier entry broke
     * a rule).
     */
    public int block(int b, Payload given) {
        Kernel kernel = check.kernel;
        Payload p = given;
        check.refuseWhileChecking("a block handed over");
        if (ended || check.isFinished())
            throw kernel.engineFault("layer " + check.discs + ": a block handed to a pass that"
                    + " ended");
        if (blockOpen || b != nextBlock || Stamp.of(p).block != b || b >= check.endBlock)
            throw kernel.engineFault("layer " + check.discs + ": block " + b
                    + " handed over where block "
                    + nextBlock + " was due");
        nextBlock++;
        long written = kernel.blockList.get(b).count;
        if (p.count != written)
            throw kernel.engineFault("layer " + check.discs + ": block " + b + " handed over with "
                    + p.count
                    + " entries, the file's has " + written);
        // The kernel checks its own copy, which no engine can change while it is checked; the
        // copy's digest must be the one pass 1 took of the block (or the block's seal).
        own = copy(given, own);
        p = own;
        if (!kernel.isFilesBlock(b, given, Kernel.entriesDigest(p, p.count)))
            throw kernel.engineFault("layer " + check.discs + ": block " + b
                    + " handed over with other entries than the file's");
        int m = keep.apply(p); // kept: in strictly increasing key order across the pass
        base = count;
        count += m;
        check.take(p, base, m); // a slice's marks from the layer above (none otherwise)
        if (range.first()) check.compareAnswers(p, base, m);
        if (range.first()) {
            // noteRegion may ask the engine's allowance for room (RegionKeys): engine code, run
            // as a check is, so that it cannot hand over or end a block, a pass or the layer.
            check.checkStarted();
            try {
                noteRegion(p, m);
            } finally {
                check.checkEnded();
            }
        }
        limit = check.best == null ? check.size : check.best.entry();
        if (base >= limit) {
            stopped = true;
            return -1;
        }
        serial = ++check.kernel.blockSerial; // unique in the run: ranges of one block
        block = b;
        kept = m;
        payload = p;
        blockOpen = true;
        return m;
    }

    /** The entries of p copied into to (a new copy when to is too short). */
    static Payload copy(Payload p, Payload to) {
        int n = p.count;
        Payload c = to != null && to.occ.length >= n ? to : new Payload(n);
        c.count = n;
        System.arraycopy(p.occ, 0, c.occ, 0, n);
        System.arraycopy(p.mover, 0, c.mover, 0, n);
        System.arraycopy(p.kind, 0, c.kind, 0, n);
        System.arraycopy(p.lo, 0, c.lo, 0, n);
        System.arraycopy(p.hi, 0, c.hi, 0, n);
        System.arraycopy(p.move, 0, c.move, 0, n);
        return c;
    }

    /**
     * The region of this block's m entries, from the layer's flags, final since the layer above
     * was checked: open entries with a need, which the census leaves out (SPEC §10.3), and the
     * keys of the others for a composite's union census (§15.4), when kept.
     */
    private void noteRegion(Payload p, int m) {
        Kernel kernel = check.kernel;
        if (kernel.openEntries.total() == 0 && kernel.regionKeys == null) return;
        for (int i = 0; i < m && base + i - check.base < check.count; i++) {
            if ((check.flagOf(base + i) & Kernel.NEEDS) == 0) continue;
            if (kernel.wasOpen(p.occ[i], p.mover[i], p.kind[i])) check.openInRegion++;
            else if (kernel.regionKeys != null) kernel.regionKeys.add(p.occ[i], p.mover[i]);
        }
    }

    /** Checks entries [from, to) of the current block with checker c,
            its one range of the block. */
    public void check(EntryChecker c, int from, int to) {
        Kernel kernel = check.kernel;
        if (c.kernel != kernel || (check.sliced && !c.worker))
            throw kernel.engineFault("a checker of another kernel, or one that reports (a slice)");
        // Counted as running first: from here until the check ends, no block may be ended or
        // handed over, nor the pass or the layer end (LayerCheck.refuseWhileChecking), whatever
        // the engine calls while its lookups run; so the state read below stays as it is.
        check.checkStarted();
        try {
            checkRunning(c, from, to);
        } finally {
            check.checkEnded();
        }
    }

    private void checkRunning(EntryChecker c, int from, int to) {
        Kernel kernel = check.kernel;
        if (!blockOpen || ended || check.isFinished())
            throw kernel.engineFault("layer " + check.discs + ": entries checked outside an open"
                    + " block of a pass, or after the pass or the layer ended");
        final long s = serial, b0 = base, lim = limit;
        final int b = block, k = kept;
        final Payload p = payload;
        if (from < 0 || from > to || to > k) // the kernel's copy may hold an earlier block beyond k
            throw kernel.engineFault("layer " + check.discs + ": range [" + from + ", " + to
                    + ") outside block " + b + "'s " + k + " entries");
        if (!c.enter()) throw kernel.engineFault("a checker used by two threads at once");
        boolean done = false;
        try {
            if (c.rangeSerial == s)
                throw kernel.engineFault("a checker given two ranges of one block");
            c.first = null;
            for (int i = from; i < to && b0 + i < lim; i++)
                c.checkEntry(this, b, p, i, b0 + i);
            done = true;
        } catch (Kernel.Stop stop) {
            done = true;
            if (!c.worker) throw stop; // a worker's violation is in c.first
        } finally {
            // the range counts as checked only when its check ended: an engine that breaks a
            // check off (an answer that throws) cannot have the range, nor the layer, complete
            if (done) {
                c.rangeSerial = s;
                c.rangeFrom = from;
                c.rangeTo = to;
            } else {
                kernel.engineFault("the check of a range of block " + b + " broke off");
            }
            c.leave();
        }
    }

    /** The block's ranges were checked by these checkers: they must tile it. */
    public void endBlock(EntryChecker... used) {
        check.refuseWhileChecking("a block ended");
        EntryChecker[] byStart = used.clone(); // the engine's array, read once
        for (EntryChecker c : byStart)
            if (c.kernel != check.kernel)
                throw check.kernel.engineFault("a checker of another kernel");
        Arrays.sort(byStart,
                Comparator.comparingInt((EntryChecker c) -> c.rangeFrom)
                        .thenComparingInt(c -> c.rangeTo));
        int at = 0;
        for (EntryChecker c : byStart) {
            if (c.rangeSerial != serial || c.rangeFrom != at || c.rangeTo < at) at = -1;
            else at = c.rangeTo;
        }
        if (!blockOpen || at != kept)
            throw check.kernel.engineFault("layer " + check.discs
                    + ": the ranges checked do not tile block " + block);
        blockOpen = false;
        for (EntryChecker c : byStart)
            if (c.first != null && (check.best == null || c.first.entry() < check.best.entry()))
                check.best = c.first;
    }

    /** The pass is over: complete when every block of the layer was handed over and checked. */
    public void end() {
        check.refuseWhileChecking("a pass ended");
        if (ended) throw check.kernel.engineFault("layer " + check.discs + ": a pass ended twice");
        ended = true;
        boolean allBlocks = nextBlock == check.endBlock && count == check.base + check.count;
        check.passEnded(!blockOpen && (stopped || allBlocks));
    }
}

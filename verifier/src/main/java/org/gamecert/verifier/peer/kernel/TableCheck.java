package org.gamecert.verifier.peer.kernel;

import static org.gamecert.verifier.peer.kernel.PeerFormat.CELLS;

import java.util.List;

/**
 * The check of one table n against table n+1 (or its frontier), and its tally. The engine holds
 * table n+1 whole or in key ranges (ChildTable); for each range it runs one ParentPass over all of
 * table n, in chunks. The kernel requires the ranges to tile table n+1 (ChildTable.range), each
 * pass to see every record of table n once and in order, the same records in every pass, and the
 * state a record carries from pass to pass back unchanged (sums of RecordRules.stateHash, keyed).
 * A task's check of one slice of table n (PeerKernel.beginSlice) is the same on the slice's
 * records, numbered from the slice's base; a table checked in slices (TableSlices) holds the
 * slices' tallies added up (merge).
 */
public final class TableCheck {
    final PeerKernel kernel;
    public final int n;
    /** Table n+1 is given (and n + 1 < 36): children are looked up, else they are the frontier. */
    public final boolean childGiven;
    /** n + 1 = 36: every move ends the game. */
    final boolean terminalNext;
    private final ChildTable children;
    /** The slice of table n this check covers (a task's), or null: the whole table. */
    final Slice slice;
    /** The table's record before the slice as the engine read it (null: none), for ORDER-1. */
    final byte[] previous;
    /** The last record pass 0 saw (a slice's end, chained to the next slice's previous). */
    byte[] lastRecord;
    private PeerFinding finding;
    private ParentPass open;
    private int passes;
    private boolean lastPassEnded, ended, complete;
    // the tally: pass 0's records and sums, the last pass's frontier
    long records = -1, region, auxiliary, frontierRecords, frontierChildren, contentSum;
    long stateSum; // of the records and states the last pass ended gave
    // what pass 0 saw of the roots (PeerKernel.conclude)
    long rootMatches;
    RootSeen rootSeen;
    // the roots among its records whose value their kinds do not establish (PEER-ROOT-4)
    long unsettledRoots;
    RootSeen firstUnsettled;
    // table n+1 as the slices loaded it (a table checked in slices: merge)
    private boolean slicesLoadedChildren;
    private long slicesChildAdmitted, slicesChildSum;

    /**
     * The check of table n (slice null: whole; merged: in slices, by TableSlices, which loads no
     * children itself) or of a slice of it after the record previous.
     */
    TableCheck(PeerKernel kernel, int n, boolean childGiven, Slice slice, byte[] previous,
            boolean merged) {
        this.kernel = kernel;
        this.n = n;
        this.terminalNext = n + 1 >= CELLS;
        this.childGiven = childGiven && !terminalNext;
        this.slice = slice;
        this.previous = previous;
        children = this.childGiven && !merged ? new ChildTable(this) : null;
    }

    /** The slice of table n this check covers (a task's), or null: the whole table. */
    public Slice slice() {
        return slice;
    }

    /** The index of the first record this check covers (a slice's base, else 0). */
    long base() {
        return slice == null ? 0 : slice.base();
    }

    /** Whether this check reaches the table's end (the whole table, or its last slice). */
    boolean reachesEnd() {
        return slice == null || slice.last();
    }

    /** Table n+1 as the engine loads it; null when it is not given. */
    public ChildTable children() {
        return children;
    }

    /**
     * The next pass over table n, against range of table n+1 (the next range ChildTable made;
     * null when table n+1 is not given: one pass). The engine's lookup answers for the range.
     */
    public ParentPass pass(ChildRange range, ChildLookup lookup) {
        if (ended || open != null || lastPassEnded)
            throw kernel.fault("table " + n + ": pass " + passes + " begun out of turn");
        if (children == null ? range != null || passes > 0
                : range == null || range.owner != children || range.serial != passes
                        || lookup == null)
            throw kernel.fault("table " + n + ": pass " + passes + " against " + range
                    + ", not the next range of table " + (n + 1));
        boolean last = range == null || range.last;
        open = new ParentPass(this, passes++, last, range, lookup);
        return open;
    }

    void found(PeerFinding f) {
        finding = PeerFinding.first(finding, f);
    }

    void passEnded(ParentPass p, boolean whole) {
        open = null;
        if (!whole) return;
        if (p.index == 0) {
            records = p.records;
            contentSum = p.contentSum;
            lastRecord = p.lastHanded();
        } else if (p.records != records) {
            throw kernel.fault("table " + n + ": pass " + p.index + " saw " + p.records
                    + " records, pass 0 saw " + records);
        } else if (p.stateInSum != stateSum) {
            throw kernel.fault("table " + n + ": pass " + p.index + " was given other records or"
                    + " other states than pass " + (p.index - 1) + " left");
        }
        stateSum = p.stateOutSum;
        lastPassEnded = p.last;
    }

    /**
     * The table is done (also after a violation: then the engine may stop early). Complete when
     * every pass saw the whole table and the ranges reached the end of table n+1.
     */
    public void end() {
        if (ended) throw kernel.fault("table " + n + " ended twice");
        ended = true;
        complete = open == null && lastPassEnded && (children == null || children.ended());
        if (!complete && finding == null)
            throw kernel.fault("table " + n + " was not checked in full (a pass or a range of "
                    + "table " + (n + 1) + " left out)");
        if (finding != null) kernel.found(finding);
    }

    boolean complete() {
        return complete && finding == null;
    }

    /** Whether the engine loaded all of table n+1 (its last range was cut). */
    boolean childrenLoaded() {
        return children != null ? children.ended() : slicesLoadedChildren;
    }

    /** The records of table n+1 loaded, and their content sum (when childrenLoaded). */
    long childAdmitted() {
        return children != null ? children.admitted() : slicesChildAdmitted;
    }

    long childSum() {
        return children != null ? children.contentSum() : slicesChildSum;
    }

    /** A task's check of its slice, once ended: what it found, for the driver's TableSlices. */
    public SliceResult sliceResult() {
        if (slice == null || !ended || kernel.faulted())
            throw kernel.fault("table " + n + ": a slice's result asked for "
                    + (slice == null ? "of a whole table" : !ended ? "before its check ended"
                    : "from a kernel that recorded an engine fault"));
        return new SliceResult(this, slice);
    }

    /**
     * Table n checked in slices (TableSlices.end: every slice given back, in table order): the
     * slices' tallies added up, the earliest finding first, and table n+1 as they loaded it,
     * which must be the same for all (each slice's task loads all of it).
     */
    void merge(List<SliceResult> slices) {
        records = 0;
        complete = true;
        ended = true;
        lastPassEnded = true;
        for (SliceResult r : slices) {
            records += r.records;
            region += r.region;
            auxiliary += r.auxiliary;
            frontierRecords += r.frontierRecords;
            frontierChildren += r.frontierChildren;
            contentSum += r.contentSum;
            rootMatches += r.rootMatches;
            if (rootSeen == null) rootSeen = r.rootSeen;
            unsettledRoots += r.unsettledRoots;
            if (firstUnsettled == null) firstUnsettled = r.firstUnsettled;
            passes = Math.max(passes, r.passes);
            complete &= r.complete;
            if (r.finding != null) found(r.finding);
            if (!r.childrenLoaded) continue;
            if (slicesLoadedChildren && (r.childAdmitted != slicesChildAdmitted
                    || r.childSum != slicesChildSum))
                throw kernel.fault(PeerRule.SLICE_2 + ": table " + (n + 1) + " was loaded with "
                        + r.childAdmitted
                        + " records by " + r.slice + ", with " + slicesChildAdmitted
                        + " by a slice before it" + (r.childAdmitted == slicesChildAdmitted
                                ? " of another content" : ""));
            slicesLoadedChildren = true;
            slicesChildAdmitted = r.childAdmitted;
            slicesChildSum = r.childSum;
        }
        if (!complete && finding == null)
            throw kernel.fault(PeerRule.SLICE_2 + ": table " + n + ": a slice was not checked"
                    + " in full");
        if (childGiven && complete && !slicesLoadedChildren)
            throw kernel.fault(PeerRule.SLICE_2 + ": table " + n + ": its slices never loaded"
                    + " table " + (n + 1));
        if (finding != null) kernel.found(finding);
    }

    // ---- what the engine reports (copied, so that no engine can change the kernel's) ----------

    /** The first rule found broken in this table (or in table n+1 while loading it), or null. */
    public PeerFinding finding() {
        return finding;
    }

    public long records() {
        return Math.max(0, records);
    }

    public long region() {
        return region;
    }

    public long auxiliary() {
        return auxiliary;
    }

    public long frontierRecords() {
        return frontierRecords;
    }

    public long frontierChildren() {
        return frontierChildren;
    }

    public int passes() {
        return passes;
    }

    /** The records of table n+1 admitted so far. */
    public long childRecords() {
        return children == null ? 0 : children.admitted();
    }

    /** The fingerprint of the table's records (for a restart record: PeerKernel.prior). */
    public long contentSum() {
        return contentSum;
    }

    /** A root record pass 0 saw: the root's, or the first of the table. */
    record RootSeen(long mover, long opp, int kind, int lb, int ub)
            implements java.io.Serializable {}
}

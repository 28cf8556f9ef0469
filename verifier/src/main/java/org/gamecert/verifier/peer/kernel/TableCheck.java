package org.gamecert.verifier.peer.kernel;

import static org.gamecert.verifier.peer.kernel.PeerFormat.CELLS;

/**
 * The check of one table n against table n+1 (or its frontier), and its tally. The engine holds
 * table n+1 whole or in key ranges (ChildTable); for each range it runs one ParentPass over all of
 * table n, in chunks. The kernel requires the ranges to tile table n+1 (ChildTable.range), each
 * pass to see every record of table n once and in order, the same records in every pass, and the
 * state a record carries from pass to pass back unchanged (sums of RecordRules.recordHash).
 */
public final class TableCheck {
    final PeerKernel kernel;
    public final int n;
    /** Table n+1 is given (and n + 1 < 36): children are looked up, else they are the frontier. */
    public final boolean childGiven;
    /** n + 1 = 36: every move ends the game. */
    final boolean terminalNext;
    private final ChildTable children;
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

    TableCheck(PeerKernel kernel, int n, boolean childGiven) {
        this.kernel = kernel;
        this.n = n;
        this.terminalNext = n + 1 >= CELLS;
        this.childGiven = childGiven && !terminalNext;
        children = this.childGiven ? new ChildTable(this) : null;
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
        return children != null && children.ended();
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
    record RootSeen(long mover, long opp, int kind, int lb, int ub) {}
}

package org.gamecert.verifier.peer;

/** What checking one table (against the next one) found. */
public final class TableResult {
    public final int discs;
    public long records;
    /** Records carrying PV, ALL' or PV' (the region) and CUT/ALL-only records (auxiliary). */
    public long region, auxiliary;
    /** Records left open because a child lies in a table not given, and those children. */
    public long frontierRecords, frontierChildren;
    public int passes;
    public long childRecords;
    public double seconds;
    public PeerViolation violation;
    /** The kernel's fingerprint of the table's records, as a restart record keeps it (--state). */
    long contentSum;

    public TableResult(int discs) {
        this.discs = discs;
    }
}

package org.gamecert.verifier.peer;

/** What checking one table (against the next one) found. */
public final class TableResult implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    public final int discs;
    public long records;
    /** Records carrying PV, ALL' or PV' (the region) and CUT/ALL-only records (auxiliary). */
    public long region, auxiliary;
    /** Records left open because a child lies in a table not given, and those children. */
    public long frontierRecords, frontierChildren;
    public int passes;
    public long childRecords;
    /** Slices the table was checked in (by another engine's tasks; 0: whole, in this JVM). */
    public int slices;
    public double seconds;
    public PeerViolation violation;
    /** The kernel's fingerprint of the table's records, as a restart record keeps it (--state). */
    long contentSum;
    /** Set when the check could not run (another engine's task: an I/O error, an engine fault). */
    public String error;

    public TableResult(int discs) {
        this.discs = discs;
    }
}

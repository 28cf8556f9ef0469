package org.gamecert.verifier.peer.kernel;

/**
 * Consecutive records of table n, checked in one pass by Chunk.run on any thread: what it finds
 * and counts stays in the chunk until ParentPass.endChunk takes it.
 */
public final class Chunk {
    final ParentPass pass;
    final byte[] buf;
    final int recs;
    /** The records' states: read, then updated by run (the engine keeps them for the next pass). */
    public final byte[] state;
    final long firstIndex;
    final byte[] previousRecord; // the table's record before this chunk, or null
    boolean ran, taken;
    // what run found
    PeerFinding finding;
    String fault;
    long region, auxiliary, frontierRecords, frontierChildren;
    long contentSum, stateInSum, stateOutSum;
    long rootMatches;
    TableCheck.RootSeen rootSeen;
    long unsettledRoots;
    TableCheck.RootSeen firstUnsettled;

    Chunk(ParentPass pass, byte[] buf, int recs, byte[] state, long firstIndex,
            byte[] previousRecord) {
        this.pass = pass;
        this.buf = buf;
        this.recs = recs;
        this.state = state;
        this.firstIndex = firstIndex;
        this.previousRecord = previousRecord;
    }

    /** Checks the chunk's records (once). */
    public void run() {
        if (ran) {
            fault = "a chunk checked twice";
            return;
        }
        new RecordChecker(pass.table.kernel).check(this);
        ran = true;
    }

    /** The records' states after run (the same array as given). */
    public byte[] state() {
        return state;
    }
}

package org.gamecert.verifier.peer.kernel;

import static org.gamecert.verifier.peer.kernel.PeerFormat.RECORD_BYTES;

import java.util.Arrays;

/**
 * One pass over table n against one range of table n+1. The engine hands over table n's records
 * in chunks, in file order (chunk, on one thread), has each chunk checked (Chunk.run, on any
 * thread), and gives the chunks back in the order they were handed over (endChunk). The kernel
 * numbers the records itself, carries the record before each chunk for PEER-ORDER-1, and sums
 * the records' contents and states, which TableCheck compares from pass to pass.
 */
public final class ParentPass {
    final TableCheck table;
    final int index;
    final boolean last;
    final ChildRange range; // null: table n+1 not given
    final ChildLookup lookup;
    long handed, records, contentSum, stateInSum, stateOutSum;
    private byte[] previousRecord;
    private boolean ended;

    ParentPass(TableCheck table, int index, boolean last, ChildRange range, ChildLookup lookup) {
        this.table = table;
        this.index = index;
        this.last = last;
        this.range = range;
        this.lookup = lookup;
        // a slice's records are numbered from its base, the first compared with the one before
        this.handed = table.base();
        this.previousRecord = table.previous;
    }

    /** The pass's place among the table's passes (0 = the first). */
    public int index() {
        return index;
    }

    public boolean last() {
        return last;
    }

    /**
     * The table's next recs records, buf[0 .. 13·recs), and the state each carries from the
     * previous pass (all zero in pass 0); state is updated in place by Chunk.run.
     */
    public Chunk chunk(byte[] buf, int recs, byte[] state) {
        if (ended) throw table.kernel.fault("table " + table.n + ": a chunk after the pass ended");
        if (recs < 1 || buf.length < (long) recs * RECORD_BYTES || state.length < recs)
            throw table.kernel.fault("table " + table.n + ": a chunk of " + recs
                    + " records handed over with " + buf.length + " bytes, " + state.length
                    + " states");
        // the kernel's copy of the records: the engine's buffer may change while they are checked
        byte[] copy = Arrays.copyOf(buf, recs * RECORD_BYTES);
        Chunk c = new Chunk(this, copy, recs, state, handed, previousRecord);
        handed += recs;
        int lastOff = (recs - 1) * RECORD_BYTES;
        previousRecord = Arrays.copyOfRange(copy, lastOff, lastOff + RECORD_BYTES);
        return c;
    }

    /** A chunk checked: taken in the order handed over; its findings and tally are added. */
    public void endChunk(Chunk c) {
        long due = table.base() + records;
        if (c.pass != this || !c.ran || c.taken || c.firstIndex != due)
            throw table.kernel.fault("table " + table.n + ": the chunk of record " + c.firstIndex
                    + " given back "
                    + (c.ran ? "where record " + due + " was due" : "unchecked"));
        c.taken = true;
        if (c.fault != null) throw table.kernel.fault("table " + table.n + ": " + c.fault);
        records += c.recs;
        contentSum += c.contentSum;
        stateInSum += c.stateInSum;
        stateOutSum += c.stateOutSum;
        if (index == 0) {
            table.region += c.region;
            table.auxiliary += c.auxiliary;
            table.rootMatches += c.rootMatches;
            if (table.rootSeen == null) table.rootSeen = c.rootSeen;
            table.unsettledRoots += c.unsettledRoots;
            if (table.firstUnsettled == null) table.firstUnsettled = c.firstUnsettled;
        }
        if (last) {
            table.frontierRecords += c.frontierRecords;
            table.frontierChildren += c.frontierChildren;
        }
        if (c.finding != null) table.found(c.finding);
    }

    /**
     * The pass is over: every chunk handed over was given back; trailingBytes, the bytes after
     * the table's last whole record (PEER-REC-1 when not zero).
     */
    public void end(int trailingBytes) {
        if (ended) throw table.kernel.fault("table " + table.n + ": a pass ended twice");
        ended = true;
        if (trailingBytes != 0 && !table.reachesEnd())
            throw table.kernel.fault(table.slice + ": the table ended inside a record before"
                    + " the slice's end");
        if (trailingBytes != 0 && index == 0)
            table.found(new PeerFinding(PeerRule.REC_1, table.n, table.base() + records, false,
                    0, 0, "table ends inside a record (size not a multiple of 13)"));
        table.passEnded(this, table.base() + records == handed);
    }

    /** The last record handed over in this pass (null: none). */
    byte[] lastHanded() {
        return handed == table.base() ? null : previousRecord;
    }
}

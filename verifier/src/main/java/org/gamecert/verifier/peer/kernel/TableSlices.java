package org.gamecert.verifier.peer.kernel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Table n checked in slices by tasks, each with a kernel of its own (PeerKernel.beginSlice): the
 * driver's kernel numbers the slices and places them itself (slice: each begins where the one
 * before ends, so the slices asked for tile table n), takes back each task's SliceResult for the
 * slice it was asked for (take), and at end requires (PEER-SLICE-1..3, RULES.md) every slice
 * asked for given back once, each with all the records it was asked to check and each after the
 * record that ends the slice before it; then it adds the slices' tallies up in table order, the
 * earliest finding first, as one TableCheck (PeerKernel.conclude checks it as any other table).
 */
public final class TableSlices {
    private final PeerKernel kernel;
    private final TableCheck table;
    private final List<Slice> asked = new ArrayList<>();
    private final List<SliceResult> given = new ArrayList<>();
    private long nextBase;
    private boolean lastAsked, ended;

    TableSlices(PeerKernel kernel, TableCheck table) {
        this.kernel = kernel;
        this.table = table;
    }

    /**
     * The next slice: count records from where the slice before ended (the first from record 0);
     * last when it ends the table. Only the last may hold no record, and only when it is the
     * only one (an empty table).
     */
    public Slice slice(long count, boolean last) {
        if (ended || lastAsked)
            throw kernel.fault("table " + table.n + ": a slice asked for after its last");
        if (count < 0 || (count == 0 && !(last && asked.isEmpty())))
            throw kernel.fault("table " + table.n + ": slice " + asked.size() + " of " + count
                    + " records (only an empty table's one slice holds none)");
        Slice s = new Slice(table.n, asked.size(), nextBase, count, last, table.childGiven);
        asked.add(s);
        given.add(null);
        nextBase += count;
        lastAsked = last;
        return s;
    }

    /** The slices asked for so far, in table order. */
    public List<Slice> asked() {
        return List.copyOf(asked);
    }

    /** A task's result, given back as the result of slice s (PEER-SLICE-1). */
    public void take(Slice s, SliceResult r) {
        if (ended) throw kernel.fault("table " + table.n + ": a slice given back after the end");
        int i = s == null ? -1 : s.serial();
        if (i < 0 || i >= asked.size() || !asked.get(i).equals(s))
            throw kernel.fault(PeerRule.SLICE_1 + ": table " + table.n + ": " + s
                    + " was not asked for");
        if (r == null || !s.equals(r.slice))
            throw kernel.fault(PeerRule.SLICE_1 + ": the result of "
                    + (r == null ? "no slice" : r.slice) + " given back as the result of " + s);
        if (given.get(i) != null)
            throw kernel.fault(PeerRule.SLICE_1 + ": " + s + " given back twice");
        if (!r.rootFor.equals(kernel.rootIdentity()))
            throw kernel.fault(PeerRule.SLICE_1 + ": " + s + " was checked by a kernel made for"
                    + " another root");
        given.set(i, r);
    }

    /**
     * Every slice is back: the slices tile table n (PEER-SLICE-1..3) and their tallies are added
     * up into the table's check; its finding, if any, goes to the kernel. Throws EngineFault.
     */
    public void end() {
        if (ended) throw kernel.fault("table " + table.n + ": its slices ended twice");
        ended = true;
        if (!lastAsked)
            throw kernel.fault(PeerRule.SLICE_1 + ": table " + table.n + ": the slices asked for"
                    + " stop at record " + nextBase + " without a last one");
        for (int i = 0; i < asked.size(); i++) {
            SliceResult r = given.get(i);
            if (r == null)
                throw kernel.fault(PeerRule.SLICE_1 + ": " + asked.get(i) + " never given back");
            // PEER-SLICE-2: a slice checked in full checked every record it was asked for
            if (r.complete && r.records != r.slice.count())
                throw kernel.fault(PeerRule.SLICE_2 + ": " + r.slice + " was checked with "
                        + r.records + " records");
            // PEER-SLICE-3: its first record was compared (PEER-ORDER-1) with the record that
            // ends the slice before it, and with none in the first slice
            byte[] before = i == 0 ? null : given.get(i - 1).lastRecord;
            boolean chained = i == 0 ? r.previous == null
                    : before == null || Arrays.equals(before, r.previous);
            if (!chained)
                throw kernel.fault(PeerRule.SLICE_3 + ": " + r.slice + " was checked after a"
                        + " record other than the last of the slice before it");
        }
        table.merge(given);
    }

    /** The table's check, with the slices' tallies added up once end returned. */
    public TableCheck table() {
        return table;
    }
}

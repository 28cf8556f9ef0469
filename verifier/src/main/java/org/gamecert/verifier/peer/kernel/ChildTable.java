package org.gamecert.verifier.peer.kernel;

/**
 * Table n+1 as an engine loads it, in order, once over all the passes of table n: the engine
 * hands each record to admit (which checks PEER-REC-1..4 and PEER-ORDER-1 and gives the key and
 * what a parent needs), keeps what admit gave, and cuts the records admitted into consecutive
 * ranges (range). A non-last range ends before the record admitted last, which starts the next.
 * The kernel numbers the records itself; the count and content sum of all it admitted must equal
 * those of table n+1 checked as parent (PeerKernel.conclude), so that a record dropped, repeated
 * or changed on the way is an engine fault.
 */
public final class ChildTable {
    private final TableCheck table;
    private final int layer;
    private final long[] pos = new long[2];
    private final RecordRules.Decoded d = new RecordRules.Decoded();
    private long admitted, contentSum, prevKey;
    private boolean hasPrev, failed, ended;
    private long rangeStart; // index of the first record of the next range
    private long lowKey;     // and its key
    private int ranges;
    /** The record admitted last: its order key and RecordRules.childInfo. */
    private long key;
    private int info;
    /**
     * What admit gave for each record of the range being cut, as fact(key, info), from the
     * range's first record on: the range keeps it, and every answer must match it at the index
     * it names (RecordChecker.lookUp), so that an engine cannot answer with other child facts.
     */
    private long[] facts = new long[1 << 10];
    private int factCount;

    ChildTable(TableCheck table) {
        this.table = table;
        this.layer = table.n + 1;
    }

    /**
     * The next record of table n+1 (len bytes at buf[off..], len < 13 only at the table's end):
     * false when it breaks a rule (the finding goes to table n's check, which then cannot end
     * complete: the engine stops loading).
     */
    public boolean admit(byte[] buf, int off, int len) {
        if (failed || ended)
            throw table.kernel.fault("table " + layer + ": a record admitted after the table's "
                    + (failed ? "violation" : "last range"));
        long i = admitted++;
        String rule = RecordRules.childForm(buf, off, len, hasPrev, prevKey, pos, d);
        if (rule != null) {
            failed = true;
            String msg = RecordRules.message(null, rule, d, layer, prevKey, len);
            if (PeerRule.ORDER_1.equals(rule))
                msg = "encode_bb not greater than the previous record's";
            msg += " (found while loading it as the child table of " + table.n + ")";
            table.found(new PeerFinding(rule, layer, i, RecordRules.hasPosition(rule), d.mover,
                    d.opp, msg));
            return false;
        }
        hasPrev = true;
        prevKey = d.key;
        key = d.key;
        info = RecordRules.childInfo(d.kind, d.lb, d.ub);
        contentSum += RecordRules.recordHash(i, buf, off, 0);
        if (factCount == facts.length) facts = java.util.Arrays.copyOf(facts, 2 * factCount);
        facts[factCount++] = fact(key, info);
        return true;
    }

    /** A record's key and child info in one long: 48 bits of a hash of the key, then the info. */
    static long fact(long key, int info) {
        long h = (key ^ (key >>> 33)) * 0xFF51AFD7ED558CCDL;
        h = (h ^ (h >>> 33)) * 0xC4CEB9FE1A85EC53L;
        return (h ^ (h >>> 33)) & ~0xFFFFL | (info & 0xFFFFL);
    }

    /** The order key of the record admitted last. */
    public long key() {
        return key;
    }

    /** What a parent needs of the record admitted last (RecordRules.childInfo). */
    public int info() {
        return info;
    }

    /**
     * The next range: the records admitted since the previous range, all of them when last, else
     * all but the one admitted last (the first of the next range, whose key bounds this one).
     */
    public ChildRange range(boolean last) {
        if (failed || ended)
            throw table.kernel.fault("table " + layer + ": a range cut after the table's "
                    + (failed ? "violation" : "last range"));
        long end = last ? admitted : admitted - 1;
        if (last ? end < rangeStart : end <= rangeStart)
            throw table.kernel.fault("table " + layer + ": range " + ranges
                    + " would hold no record (a range that is not the last holds at least one,"
                    + " and the record admitted last starts the next)");
        boolean first = ranges == 0;
        long lo = first ? 0 : lowKey;
        int size = (int) (end - rangeStart); // facts holds the range's records and the next one
        ChildRange r = new ChildRange(this, ranges++, first, last, lo, last ? 0 : key, rangeStart,
                size, facts);
        long next = last ? 0 : facts[size]; // the record admitted last starts the next range
        facts = new long[Math.max(1 << 10, size + 1)];
        factCount = 0;
        if (!last) facts[factCount++] = next;
        rangeStart = end;
        lowKey = key;
        ended = last;
        return r;
    }

    boolean ended() {
        return ended;
    }

    public long admitted() {
        return admitted;
    }

    public long contentSum() {
        return contentSum;
    }

    int ranges() {
        return ranges;
    }
}

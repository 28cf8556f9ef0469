package org.gamecert.verifier.peer.kernel;

import static org.gamecert.verifier.peer.kernel.PeerFormat.CUT;
import static org.gamecert.verifier.peer.kernel.PeerFormat.ALL;
import static org.gamecert.verifier.peer.kernel.PeerFormat.EXACT_KINDS;
import static org.gamecert.verifier.peer.kernel.PeerFormat.MAX_VALUE;
import static org.gamecert.verifier.peer.kernel.PeerFormat.PV;

import java.util.Arrays;
import java.util.TreeMap;
import org.gamecert.verifier.kernel.rules.OthelloRules;

/**
 * The one place that decides VERIFIED for the peer 6×6 tablebase. An engine drives it: it reads
 * the tables, checks each table n against table n+1 (beginTable: TableCheck, its ChildTable
 * ranges and ParentPasses, on its threads), and asks for the verdict (conclude). The kernel
 * checks what the engine hands it: every record's form and obligations, that the ranges tile
 * table n+1, that every pass sees every record of table n, that table n+1 as loaded is the table
 * checked as parent (count and content sum), and it decides the roots (PEER-ROOT-1..4) from
 * what it saw itself. It concludes VERIFIED only when every table begun was checked in full,
 * no rule was broken, no record is open on the frontier and the root's value is established.
 */
public final class PeerKernel {
    public enum Verdict { VERIFIED, REJECTED, INCOMPLETE }

    /** The engine broke its contract: the verdict can only be an error. */
    public static final class EngineFault extends RuntimeException {
        EngineFault(String message) {
            super("engine fault: " + message, null, false, false);
        }
    }

    /**
     * What the kernel concluded: the verdict, the first finding, the root's value or why not. Only
     * the kernel makes one (private constructor), so only it can hand PeerResult a VERIFIED.
     */
    public static final class Conclusion {
        private final Verdict verdict;
        private final PeerFinding finding;
        private final Integer rootValue;
        private final String rootOpen;
        private final boolean boundsProven;

        private Conclusion(Verdict verdict, PeerFinding finding, Integer rootValue,
                String rootOpen, boolean boundsProven) {
            this.verdict = verdict;
            this.finding = finding;
            this.rootValue = rootValue;
            this.rootOpen = rootOpen;
            this.boundsProven = boundsProven;
        }

        public Verdict verdict() { return verdict; }
        public PeerFinding finding() { return finding; }
        /** The root's value, when there is one root and its value is proven; else null. */
        public Integer rootValue() { return rootValue; }
        public String rootOpen() { return rootOpen; }

        /**
         * Whether the bounds the roots' kinds oblige (provenLower, provenUpper) were proven: every
         * table was checked in full, nothing was violated and no record is left open. Otherwise a
         * report may show what the records claim, never a bound or value as proven (PEER-ROOT-4).
         */
        public boolean boundsProven() { return boundsProven; }
    }

    /** A table checked before (a restart record, --state) and what its check found. */
    record Prior(long records, long region, long auxiliary, long frontierRecords,
            long frontierChildren, long contentSum) {}

    final OthelloRules rules = new OthelloRules(6);
    private final boolean named;
    private final String rootText;
    private final long targetMover, targetOpp; // the named root's canonical form
    private final int targetDiscs;
    private final long initialMover, initialOpp;
    private final TreeMap<Integer, TableCheck> checks = new TreeMap<>();
    private final TreeMap<Integer, Prior> priors = new TreeMap<>();
    private PeerFinding finding;
    private String fault;

    /**
     * root: the position named with --root ({mover, opponent}, not yet canonical; null: none),
     * rootText how it was named.
     */
    public PeerKernel(long[] root, String rootText) {
        long[] c = new long[2];
        named = root != null;
        this.rootText = rootText;
        if (named) PeerFormat.canonical(root[0], root[1], c);
        targetMover = c[0];
        targetOpp = c[1];
        targetDiscs = named ? Long.bitCount(c[0] | c[1]) : -1;
        // SPEC §7.1, N = 6: White on (2,2), (3,3); Black, to move, on (2,3), (3,2).
        PeerFormat.canonical((1L << 15) | (1L << 20), (1L << 14) | (1L << 21), c);
        initialMover = c[0];
        initialOpp = c[1];
    }

    /**
     * The root this kernel counts matches of (sawRecord): a slice's result carries it, and the
     * driver takes a slice only from a task kernel made for its own root.
     */
    String rootIdentity() {
        return named ? "named " + targetMover + " " + targetOpp : "unnamed";
    }

    /** Whether an engine fault was recorded: a task kernel's slice result is then refused. */
    boolean faulted() {
        return fault != null;
    }

    /** Records an engine fault (so that nothing later can verify) and returns it to throw. */
    EngineFault fault(String message) {
        EngineFault f = new EngineFault(message);
        if (fault == null) fault = f.getMessage();
        return f;
    }

    void found(PeerFinding f) {
        finding = PeerFinding.first(finding, f);
    }

    /** The check of table n against table n+1 (childGiven: table n+1 is in the input). */
    public TableCheck beginTable(int n, boolean childGiven) {
        if (n < 4 || n >= PeerFormat.CELLS || checks.containsKey(n) || priors.containsKey(n))
            throw fault("table " + n + " begun twice or outside 4..35");
        TableCheck t = new TableCheck(this, n, childGiven, null, null, false);
        checks.put(n, t);
        return t;
    }

    /**
     * Table n checked in slices by tasks with kernels of their own (TableSlices: the driver's
     * side); it counts as a table begun, which conclude requires to have ended complete.
     */
    public TableSlices slicedTable(int n, boolean childGiven) {
        if (n < 4 || n >= PeerFormat.CELLS || checks.containsKey(n) || priors.containsKey(n))
            throw fault("table " + n + " begun twice or outside 4..35");
        TableCheck t = new TableCheck(this, n, childGiven, null, null, true);
        checks.put(n, t);
        return new TableSlices(this, t);
    }

    /**
     * A task's check of one slice of table n (asked for by a driver's TableSlices), after
     * previous, the table's record before the slice as the task's engine read it (null for the
     * first slice). The engine runs it as a table's check; TableCheck.sliceResult is what it
     * gives back, and the driver's kernel chains previous to the slice before (PEER-SLICE-3).
     */
    public TableCheck beginSlice(Slice s, byte[] previous) {
        int n = s.table();
        if (n < 4 || n >= PeerFormat.CELLS || checks.containsKey(n) || priors.containsKey(n))
            throw fault("table " + n + " begun twice or outside 4..35");
        if (s.base() < 0 || s.count() < 0 || (s.base() == 0) != (previous == null)
                || (previous != null && previous.length != PeerFormat.RECORD_BYTES))
            throw fault(s + " begun with " + (previous == null ? "no record" : "a record of "
                    + previous.length + " bytes") + " before it");
        byte[] before = previous == null ? null : previous.clone();
        TableCheck t = new TableCheck(this, n, s.childGiven(), s, before, false);
        checks.put(n, t);
        return t;
    }

    /**
     * Table n was checked in an earlier run (a restart record, --state, keyed by the content of
     * tables n and n+1): its tally is taken as it was recorded.
     */
    public void prior(int n, long records, long region, long auxiliary, long frontierRecords,
            long frontierChildren, long contentSum) {
        if (n < 4 || n >= PeerFormat.CELLS || checks.containsKey(n) || priors.containsKey(n))
            throw fault("table " + n + " given as checked before twice or outside 4..35");
        priors.put(n, new Prior(records, region, auxiliary, frontierRecords, frontierChildren,
                contentSum));
    }

    /** Pass 0 saw a record of good form (on a worker thread: only the chunk is written). */
    void sawRecord(Chunk c, int n, long index, RecordRules.Decoded d) {
        boolean target;
        if (named) target = n == targetDiscs && d.mover == targetMover && d.opp == targetOpp;
        else if (n == 4) target = d.mover == initialMover && d.opp == initialOpp;
        else target = index == 0; // the lowest table's records are the roots: its first one
        // PEER-ROOT-4 holds for every root: without a named root (above table 4) every record of
        // the lowest table is one, so each table counts its records whose value is not settled.
        boolean root = named || n == 4 ? target : true;
        if (root && provenLower(d.kind, d.lb) != provenUpper(d.kind, d.ub)) {
            c.unsettledRoots++;
            if (c.firstUnsettled == null)
                c.firstUnsettled = new TableCheck.RootSeen(d.mover, d.opp, d.kind, d.lb, d.ub);
        }
        if (!target) return;
        c.rootMatches++;
        if (c.rootSeen == null)
            c.rootSeen = new TableCheck.RootSeen(d.mover, d.opp, d.kind, d.lb, d.ub);
    }

    /**
     * The verdict. The engine's scan of the roots (for the report: how many records it found for
     * them, and the first one's {mover, opp, kind, lb, ub}, or null; how many of them have a
     * value their kinds do not establish, and the first of those, or null) is used only when the
     * root's table was not checked in this run (a restart record); else it must agree with what
     * the kernel saw. Throws EngineFault when the engine broke its contract.
     */
    public Conclusion conclude(long scanCount, long[] scanFirst, long scanUnsettled,
            long[] scanFirstUnsettled) {
        if (fault != null) throw new EngineFault(fault.substring("engine fault: ".length()));
        // An engine that loaded table n+1 otherwise than it checked it is at fault even when the
        // records it lost on the way made a rule fail.
        for (TableCheck t : checks.values())
            if (t.childrenLoaded()) sameTable(t);
        if (finding != null) return new Conclusion(Verdict.REJECTED, finding, null, null, false);
        for (TableCheck t : checks.values())
            if (!t.complete()) throw fault("table " + t.n + " was not checked in full");
        if (checks.isEmpty() && priors.isEmpty())
            return rejected(PeerRule.TABLE_1, -1, "no table found in the input");
        int lowest = Math.min(checks.isEmpty() ? 99 : checks.firstKey(),
                priors.isEmpty() ? 99 : priors.firstKey());
        boolean initial = !named && lowest == 4;
        boolean target = named || initial;
        int discs = named ? targetDiscs : lowest;
        long count, unsettled;
        long[] first, firstUnsettled;
        TableCheck own = checks.get(discs);
        if (own != null) {
            count = target ? own.rootMatches : own.records();
            first = fields(own.rootSeen);
            unsettled = own.unsettledRoots;
            firstUnsettled = fields(own.firstUnsettled);
            if (count != scanCount || (count > 0 && !Arrays.equals(first, scanFirst)))
                throw fault("the engine found " + scanCount + " root record(s) in table " + discs
                        + ", the kernel " + count);
            if (unsettled != scanUnsettled || !Arrays.equals(firstUnsettled, scanFirstUnsettled))
                throw fault("the engine found " + scanUnsettled + " root record(s) with a value "
                        + "their kinds do not establish in table " + discs + ", the kernel "
                        + unsettled);
        } else if (priors.containsKey(discs)) {
            count = scanCount;
            first = scanFirst;
            unsettled = scanUnsettled;
            firstUnsettled = scanFirstUnsettled;
        } else {
            count = 0;
            first = null;
            unsettled = 0;
            firstUnsettled = null;
        }
        if (target && count == 0) {
            String rule = initial ? PeerRule.ROOT_1 : PeerRule.ROOT_2;
            String what = initial ? "the initial position" : "the root " + rootText;
            boolean given = own != null || priors.containsKey(discs);
            return rejected(rule, discs, what + " has no record"
                    + (given ? "" : " (its table " + discs + " is not in the input)"));
        }
        if (initial && ((int) first[2] != PV || first[3] != -4 || first[4] != -4))
            return rejected(PeerRule.ROOT_1, 4, "the initial position's record is "
                    + PeerFormat.kindText((int) first[2]) + " [" + first[3] + ", " + first[4]
                    + "], expected PV with value −4");
        if (!target && count == 0)
            return rejected(PeerRule.ROOT_3, lowest, "the lowest table (" + lowest + " discs)"
                    + " holds no record, so the tables claim nothing about any root");
        long frontier = 0;
        for (TableCheck t : checks.values()) frontier += t.frontierRecords;
        for (Prior p : priors.values()) frontier += p.frontierRecords();
        // PEER-ROOT-4, for every root whatever their number: a value only where the bounds the
        // kinds oblige meet, and only when they were proven (no record left open).
        Integer value = null;
        String open = null;
        if (unsettled > 0) {
            int kind = (int) firstUnsettled[2], lb = (int) firstUnsettled[3];
            int ub = (int) firstUnsettled[4];
            open = PeerRule.ROOT_4 + ": " + (count == 1 ? "the root's record is "
                    : unsettled + " of the " + count + " roots' records have bounds their kinds "
                            + "do not oblige; the first is ")
                    + PeerFormat.kindText(kind) + " [" + lb + ", " + ub + "]; its kinds oblige "
                    + "and the check proved only " + provenLower(kind, lb) + " <= value <= "
                    + provenUpper(kind, ub) + ", so "
                    + (count == 1 ? "its value is" : "their values are") + " not established";
        } else if (count == 1 && frontier == 0) {
            value = provenLower((int) first[2], (int) first[3]);
        }
        Verdict v = frontier > 0 || open != null ? Verdict.INCOMPLETE : Verdict.VERIFIED;
        return new Conclusion(v, null, value, open, frontier == 0);
    }

    private static long[] fields(TableCheck.RootSeen s) {
        return s == null ? null : new long[] {s.mover(), s.opp(), s.kind(), s.lb(), s.ub()};
    }

    /**
     * PEER-ROOT-4: the bounds a root record's kinds oblige the check to prove: both for PV, ALL'
     * and PV'; the lower for CUT; the upper for ALL. Any other bound is the utility's.
     */
    public static int provenLower(int kind, int lb) {
        return (kind & (EXACT_KINDS | CUT)) != 0 ? lb : -MAX_VALUE;
    }

    public static int provenUpper(int kind, int ub) {
        return (kind & (EXACT_KINDS | ALL)) != 0 ? ub : MAX_VALUE;
    }

    /** Table t.n+1 as loaded as t's children is the table checked as parent (or before). */
    private void sameTable(TableCheck t) {
        int m = t.n + 1;
        TableCheck c = checks.get(m);
        Prior p = priors.get(m);
        if (c == null && p == null)
            throw fault("table " + m + " was loaded as table " + t.n + "'s children but never "
                    + "checked itself");
        if (c != null && !c.complete()) return; // stopped at a violation: its count is not known
        long records = c != null ? c.records() : p.records();
        long sum = c != null ? c.contentSum() : p.contentSum();
        long admitted = t.childAdmitted();
        if (admitted != records || t.childSum() != sum)
            throw fault("table " + m + " was loaded with " + admitted + " records as table "
                    + t.n + "'s children, checked with " + records
                    + (admitted == records ? " of another content" : ""));
    }

    private Conclusion rejected(String rule, int table, String message) {
        PeerFinding f = new PeerFinding(rule, table, -1, false, 0, 0, message);
        return new Conclusion(Verdict.REJECTED, f, null, null, false);
    }
}

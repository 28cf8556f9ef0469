package org.gamecert.verifier.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.gamecert.verifier.kernel.rules.OthelloRules;
import org.gamecert.verifier.peer.kernel.Chunk;
import org.gamecert.verifier.peer.kernel.EngineRootScan;
import org.gamecert.verifier.peer.kernel.ChildLookup;
import org.gamecert.verifier.peer.kernel.ChildRange;
import org.gamecert.verifier.peer.kernel.ChildTable;
import org.gamecert.verifier.peer.kernel.ParentPass;
import org.gamecert.verifier.peer.kernel.PeerFormat;
import org.gamecert.verifier.peer.kernel.PeerKernel;
import org.gamecert.verifier.peer.kernel.PeerRule;
import org.gamecert.verifier.peer.kernel.Slice;
import org.gamecert.verifier.peer.kernel.SliceResult;
import org.gamecert.verifier.peer.kernel.TableCheck;
import org.gamecert.verifier.peer.kernel.TableSlices;
import org.junit.jupiter.api.Test;

/**
 * An independent review of the peer kernel: an engine written here (outside the kernel's package,
 * public API only) that drives it and breaks its contract in ways the earlier tests do not try.
 * Each test asserts the correct behaviour (a false input never ends VERIFIED), so it fails while
 * the hole it stages is open. Each attack is first shown harmless on its honest twin.
 */
class PeerKernelReviewTest {
    static final Path VALID = Path.of("../testdata/peer/valid/othello6-10empties");
    static final Path ROOT_CHANGED = Path.of("../testdata/peer/mutants/peer-root-value-changed");
    static final int CHUNK = 64;
    /** RecordRules.recordHash's multiplier of the state (the sum is not keyed). */
    static final long STATE_MUL = 0x5851F42D4C957F2DL;
    static final int BAD = 64; // PeerObligations.BAD

    static TreeMap<Integer, byte[]> read(Path dir) throws IOException {
        TreeMap<Integer, byte[]> t = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.toList()) {
                String name = p.getFileName().toString();
                if (name.startsWith("optimal_reopening_ab_table_all_"))
                    t.put(Integer.parseInt(name.replaceAll("\\D", "")), Files.readAllBytes(p));
            }
        }
        return t;
    }

    // ---- a small engine ----------------------------------------------------------------------

    /** How one table is checked: child range sizes (null: one range), which passes to skip. */
    static final class Plan {
        int[] sizes;            // sizes of the child ranges, in order (sum = child records)
        boolean[] skip;         // pass i begun and ended at once (its fault swallowed)
        boolean forgeStates;    // passes >= 1: every state BAD, record head made up for the sum
    }

    /** Checks table n (records parent, first index base) against child (null: not given). */
    static void checkTable(TableCheck t, byte[] parent, byte[] child, Plan plan) {
        int recs = parent.length / 13;
        byte[] state = new byte[recs];
        if (!t.childGiven) {
            ParentPass p = t.pass(null, null);
            runPass(p, parent, state);
            p.end(0);
            t.end();
            return;
        }
        int m = child.length / 13;
        int[] sizes = plan == null || plan.sizes == null ? new int[] {m} : plan.sizes;
        assertEquals(m, Arrays.stream(sizes).sum());
        ChildTable ct = t.children();
        long[] keys = new long[m];
        int[] infos = new int[m];
        Map<Long, Integer> where = new HashMap<>();
        int admitted = 0;
        byte[] s0 = null;
        for (int i = 0; i < sizes.length; i++) {
            boolean last = i == sizes.length - 1;
            int upTo = last ? m : Arrays.stream(sizes, 0, i + 1).sum() + 1;
            while (admitted < upTo) {
                assertTrue(ct.admit(child, admitted * 13, 13), "child record admitted");
                keys[admitted] = ct.key();
                infos[admitted] = ct.info();
                where.put(ct.key(), admitted);
                admitted++;
            }
            ChildRange r = ct.range(last);
            ChildLookup lookup = (key, a) -> {
                Integer g = where.get(key);
                if (g == null || g < r.base || g >= r.base + r.size) return false;
                a.key = key;
                a.info = infos[g];
                a.index = g - r.base;
                return true;
            };
            ParentPass p = t.pass(r, lookup);
            if (plan != null && plan.skip != null && plan.skip[i]) {
                try {
                    p.end(0); // no chunk: the kernel throws a fault, which this engine ignores
                } catch (PeerKernel.EngineFault ignored) {
                    // swallowed
                }
                continue;
            }
            if (i == 1 && plan != null && plan.forgeStates) {
                // the state pass 0 left, s, becomes BAD; the head xor (s ^ BAD)·K keeps the sum
                byte[] forged = parent.clone();
                for (int r0 = 0; r0 < recs; r0++) {
                    long x = ((s0[r0] & 0xFFL) * STATE_MUL) ^ ((long) BAD * STATE_MUL);
                    for (int b = 0; b < 8; b++) forged[r0 * 13 + b] ^= (byte) (x >>> (8 * b));
                    state[r0] = (byte) BAD;
                }
                parent = forged;
            }
            runPass(p, parent, state);
            p.end(0);
            if (i == 0) s0 = state.clone();
        }
        t.end();
    }

    static void runPass(ParentPass p, byte[] parent, byte[] state) {
        int recs = parent.length / 13;
        List<Chunk> chunks = new ArrayList<>();
        List<byte[]> states = new ArrayList<>();
        for (int from = 0; from < recs; from += CHUNK) {
            int m = Math.min(CHUNK, recs - from);
            byte[] buf = Arrays.copyOfRange(parent, from * 13, (from + m) * 13);
            byte[] st = Arrays.copyOfRange(state, from, from + m);
            chunks.add(p.chunk(buf, m, st));
            states.add(st);
        }
        for (Chunk c : chunks) c.run();
        for (Chunk c : chunks) p.endChunk(c);
        int at = 0;
        for (byte[] st : states) {
            System.arraycopy(st, 0, state, at, st.length);
            at += st.length;
        }
    }

    static long[] fields(byte[] table, int i) {
        long[] pos = new long[2];
        PeerFormat.decodeKey(table, i * 13, pos);
        return new long[] {pos[0], pos[1], PeerFormat.symbol(table[i * 13 + 9]),
            PeerFormat.symbol(table[i * 13 + 10]) - 36, PeerFormat.symbol(table[i * 13 + 11]) - 36};
    }

    /** Every table checked whole, each with plans.get(n) (null: one range, honest). */
    static PeerKernel.Conclusion runWhole(TreeMap<Integer, byte[]> tables, Map<Integer, Plan> plans) {
        return runWhole(tables, plans, Map.of());
    }

    /** loaded: table n+1 as loaded for table n's check, where it differs from the table. */
    static PeerKernel.Conclusion runWhole(TreeMap<Integer, byte[]> tables, Map<Integer, Plan> plans,
            Map<Integer, byte[]> loaded) {
        PeerKernel k = new PeerKernel(null, null);
        for (int n : tables.keySet()) {
            TableCheck t = k.beginTable(n, tables.containsKey(n + 1));
            checkTable(t, tables.get(n), loaded.getOrDefault(n, tables.get(n + 1)), plans.get(n));
        }
        byte[] lowest = tables.firstEntry().getValue();
        return EngineRootScan.concludeLowest(k, lowest);
    }

    static String outcome(PeerKernel.Conclusion c) {
        return c.verdict() + " " + c.finding() + " root " + c.rootValue();
    }

    // ---- hole 1: a pass's records and states are bound by an unkeyed, XOR-invertible sum ------

    /**
     * From pass 1 on, the records a pass is handed and their states are bound to those the pass
     * before left only by a sum of RecordRules.recordHash, whose state enters as
     * head ^ state·K before one mix: an engine that sets a record's state to BAD and xors its head
     * with (old state ⊕ BAD)·K keeps every sum and makes every later pass skip the record (and
     * its existential obligations, decided in the last pass). The published root with its value
     * raised by 4 (a false PV claim: no move is worth it) then ends VERIFIED with that value.
     */
    @Test
    void statesForgedAfterPassZeroDoNotHideAFalseRootValue() throws IOException {
        TreeMap<Integer, byte[]> valid = read(VALID), mutant = read(ROOT_CHANGED);
        Map<Integer, Plan> plans = new HashMap<>();
        Plan twoRanges = new Plan();
        twoRanges.sizes = new int[] {1, mutant.get(27).length / 13 - 1};
        plans.put(26, twoRanges);
        // the honest engine with the same two ranges: valid verifies, the mutant is rejected
        PeerKernel.Conclusion ok = runWhole(valid, plans);
        assertEquals(PeerKernel.Verdict.VERIFIED, ok.verdict(), outcome(ok));
        PeerKernel.Conclusion rej = runWhole(mutant, plans);
        assertEquals(PeerKernel.Verdict.REJECTED, rej.verdict(), outcome(rej));
        // the forging engine on valid tables (the forgery was silent; with the states' sums keyed
        // it is an engine fault, which is a correct outcome too) ...
        Plan forge = new Plan();
        forge.sizes = twoRanges.sizes;
        forge.forgeStates = true;
        plans.put(26, forge);
        String validForged;
        try {
            validForged = outcome(runWhole(valid, plans));
        } catch (PeerKernel.EngineFault e) {
            validForged = e.getMessage();
        }
        // ... and on the false root value it must not verify
        String out;
        try {
            PeerKernel.Conclusion c = runWhole(mutant, plans);
            out = outcome(c);
            assertNotEquals(PeerKernel.Verdict.VERIFIED, c.verdict(),
                    "a false root value VERIFIED by forged states: " + out + " (true value "
                            + ok.rootValue() + "; valid tables, forged: " + validForged
                            + ")");
        } catch (PeerKernel.EngineFault e) {
            out = e.getMessage(); // an engine fault is a correct outcome
        }
        assertNotNull(out);
    }

    // ---- hole 2: a task kernel's engine fault does not reach the driver ----------------------

    /** The children (indexes in child) of record x of parent, for table n. */
    static TreeSet<Integer> childrenOf(byte[] parent, int x, byte[] child, int n) {
        OthelloRules rules = new OthelloRules(6);
        Map<Long, Integer> where = new HashMap<>();
        long[] pos = new long[2], can = new long[2];
        for (int i = 0; i < child.length / 13; i++) {
            PeerFormat.decodeKey(child, i * 13, pos);
            where.put(PeerFormat.orderKey(pos[0], pos[1]), i);
        }
        PeerFormat.decodeKey(parent, x * 13, pos);
        long mover = pos[0], opp = pos[1];
        TreeSet<Integer> out = new TreeSet<>();
        long moves = rules.legalMoves(mover, opp);
        while (moves != 0) {
            int sq = Long.numberOfTrailingZeros(moves);
            moves &= moves - 1;
            long f = rules.flips(mover, opp, sq);
            long m2 = mover | f | (1L << sq), o2 = opp & ~f;
            long cm, co;
            if (rules.legalMoves(o2, m2) != 0) {
                cm = o2;
                co = m2;
            } else if (rules.legalMoves(m2, o2) != 0) {
                cm = m2;
                co = o2;
            } else continue;
            PeerFormat.canonical(cm, co, can);
            Integer g = where.get(PeerFormat.orderKey(can[0], can[1]));
            if (g != null) out.add(g);
        }
        return out;
    }

    /** Ranges that isolate each index of skip in a range of its own, to be skipped. */
    static Plan isolating(TreeSet<Integer> skip, int m) {
        List<Integer> sizes = new ArrayList<>();
        List<Boolean> skips = new ArrayList<>();
        int at = 0;
        for (int s : skip) {
            if (s > at) {
                sizes.add(s - at);
                skips.add(false);
            }
            sizes.add(1);
            skips.add(true);
            at = s + 1;
        }
        sizes.add(m - at);
        skips.add(false);
        Plan p = new Plan();
        p.sizes = sizes.stream().mapToInt(Integer::intValue).toArray();
        p.skip = new boolean[skips.size()];
        for (int i = 0; i < p.skip.length; i++) p.skip[i] = skips.get(i);
        return p;
    }

    /**
     * The driver's kernel checks table n in slices, each by a task kernel (beginSlice), and
     * takes each task's SliceResult; all other tables are checked whole. taskPlan: how the tasks
     * check their slice; taskRoot: the root the task kernels are made with.
     */
    static PeerKernel.Conclusion runSliced(TreeMap<Integer, byte[]> tables, int sliced,
            long slice, Plan taskPlan, long[] driverRoot, long[] taskRoot, long scanCount,
            long[] scanFirst) {
        PeerKernel k = new PeerKernel(driverRoot, driverRoot == null ? null : "X");
        for (int n : tables.keySet()) {
            boolean childGiven = tables.containsKey(n + 1);
            if (n != sliced) {
                checkTable(k.beginTable(n, childGiven), tables.get(n), tables.get(n + 1), null);
                continue;
            }
            byte[] all = tables.get(n);
            long recs = all.length / 13;
            TableSlices ts = k.slicedTable(n, childGiven);
            for (long base = 0; base < recs; base += slice) {
                long count = Math.min(slice, recs - base);
                Slice s = ts.slice(count, base + count >= recs);
                PeerKernel task = new PeerKernel(taskRoot, taskRoot == null ? null : "X");
                byte[] before = base == 0 ? null
                        : Arrays.copyOfRange(all, (int) (base - 1) * 13, (int) base * 13);
                TableCheck t = task.beginSlice(s, before);
                byte[] part = Arrays.copyOfRange(all, (int) base * 13, (int) (base + count) * 13);
                checkTable(t, part, tables.get(n + 1), taskPlan);
                SliceResult r = t.sliceResult();
                ts.take(s, r);
            }
            ts.end();
        }
        if (scanCount < 0) { // the lowest table's records as the roots (no named root)
            byte[] lowest = tables.firstEntry().getValue();
            return EngineRootScan.concludeLowest(k, lowest);
        }
        return EngineRootScan.concludeNamed(k, scanCount, scanFirst);
    }

    /**
     * A task's kernel records an engine fault (here: a pass ended without its chunks, which
     * TableCheck refuses after counting the pass) and the task carries on: the next pass is
     * compared with the pass before the faulty one and ends the table complete. The fault stays
     * in the task's kernel; its SliceResult says complete and the driver's kernel takes it. An
     * ALL record whose upper bound was lowered (ALL-1, a universal rule) then ends VERIFIED when
     * its children's ranges are the skipped ones.
     */
    @Test
    void aTaskKernelsFaultCannotBeLeftBehindInTheTask() throws IOException {
        TreeMap<Integer, byte[]> valid = read(VALID);
        int tried = 0;
        List<String> verified = new ArrayList<>();
        for (int n = 29; n <= 33 && tried < 40; n++) {
            byte[] parent = valid.get(n), child = valid.get(n + 1);
            int m = child.length / 13;
            for (int x = 0; x < parent.length / 13 && tried < 40; x++) {
                long[] f = fields(parent, x);
                if (f[2] != PeerFormat.ALL || f[4] - 1 < f[3]) continue;
                TreeSet<Integer> kids = childrenOf(parent, x, child, n);
                if (kids.isEmpty() || kids.first() == 0 || kids.last() >= m - 1) continue;
                // the false input: record x's proven upper bound lowered by one
                TreeMap<Integer, byte[]> mutant = new TreeMap<>(valid);
                byte[] bad = parent.clone();
                bad[x * 13 + 11] = PeerFormat.symbolChar((int) f[4] - 1 + 36);
                mutant.put(n, bad);
                PeerKernel.Conclusion honest = runSliced(mutant, n, 100, null, null, null, -1, null);
                if (honest.verdict() != PeerKernel.Verdict.REJECTED) continue; // not a false input
                tried++;
                Plan skip = isolating(kids, m);
                try {
                    PeerKernel.Conclusion c = runSliced(mutant, n, 100, skip, null, null, -1, null);
                    if (c.verdict() == PeerKernel.Verdict.VERIFIED)
                        verified.add("table " + n + " record " + x + " (honest: "
                                + honest.finding().rule() + ")");
                } catch (PeerKernel.EngineFault e) {
                    // correct
                }
            }
        }
        assertTrue(tried > 0, "no false input tried");
        assertTrue(verified.isEmpty(), verified.size() + " of " + tried
                + " false inputs VERIFIED through a task kernel's swallowed fault: " + verified);
    }

    // ---- hole 3: the driver takes the roots a task kernel saw under another root -------------

    /**
     * The driver's kernel is asked about a named root X (here a 30-disc position with no record
     * in the tables: PEER-ROOT-2); table 30 is checked in slices by task kernels made for
     * another root Y (a position of table 30 with an exact record). The driver adds their root
     * counts up as if they were X's: the verdict is VERIFIED with Y's value reported for X.
     * (Task kernels made without a root count the table's first record instead.)
     */
    @Test
    void aTaskKernelMadeForAnotherRootCannotAnswerForTheDriversRoot() throws IOException {
        TreeMap<Integer, byte[]> valid = read(VALID);
        byte[] t30 = valid.get(30);
        TreeSet<Long> keys = new TreeSet<>();
        long[] pos = new long[2], can = new long[2];
        for (int i = 0; i < t30.length / 13; i++) {
            PeerFormat.decodeKey(t30, i * 13, pos);
            keys.add(PeerFormat.orderKey(pos[0], pos[1]));
        }
        long[] root = null;
        for (int i = 0; i < t30.length / 13 && root == null; i++) {
            PeerFormat.decodeKey(t30, i * 13, pos);
            PeerFormat.canonical(pos[1], pos[0], can); // colours exchanged
            if (!keys.contains(PeerFormat.orderKey(can[0], can[1]))) root = new long[] {pos[1], pos[0]};
        }
        assertNotNull(root, "a 30-disc position without a record");
        // honest: the task kernels are made for the driver's root: no record, PEER-ROOT-2
        PeerKernel.Conclusion honest = runSliced(valid, 30, 100, null, root, root, 0, null);
        assertEquals(PeerKernel.Verdict.REJECTED, honest.verdict(), outcome(honest));
        assertEquals(PeerRule.ROOT_2, honest.finding().rule());
        // the tasks' kernels made for another root Y, a 30-disc position with an exact record
        int y = 0;
        while (fields(t30, y)[2] != PeerFormat.PV && fields(t30, y)[2] != PeerFormat.ALLP
                && fields(t30, y)[2] != PeerFormat.PVP) y++;
        long[] fy = fields(t30, y);
        long[] other = {fy[0], fy[1]};
        String out;
        try {
            PeerKernel.Conclusion c = runSliced(valid, 30, 100, null, root, other, 1, fy);
            out = outcome(c);
            assertNotEquals(PeerKernel.Verdict.VERIFIED, c.verdict(),
                    "a root with no record VERIFIED from task kernels made for another root: "
                            + out);
        } catch (PeerKernel.EngineFault e) {
            out = e.getMessage();
        }
        assertFalse(out.isEmpty());
    }

    // ---- hole 4: table n+1 as loaded is bound to table n+1 as checked by a tail-linear sum ----

    /**
     * ChildTable's content sum adds mix(head ^ index·C) + tail·K per record (tail: bytes 8..12,
     * which hold the kind and both bounds): raising one record's tail by d and lowering
     * another's by d keeps count and sum. Here table 31 is loaded for table 30's check with two
     * CUT-only records' upper bounds moved by +1 and −1 (a field no parent reads, so that the
     * valid tables stay valid): the kernel must see that table 31 as loaded is not table 31 as
     * checked (SECURITY.md: "table n+1 as loaded to be the table checked as parent"). The same
     * freedom on a field a parent does read (an ALL child's upper bound lowered, paid for by a
     * CUT record's unread upper bound) lets table n be checked against children of the engine's
     * choosing.
     */
    @Test
    void tableNPlusOneAsLoadedIsTheTableCheckedAsParent() throws IOException {
        TreeMap<Integer, byte[]> valid = read(VALID);
        byte[] t31 = valid.get(31), loaded = t31.clone();
        // a change of +d to one record's unread field and of -d to another's, at the same byte:
        // a CUT-only record's upper bound (byte 11) or an ALL-only record's lower bound (byte 10)
        int up = -1, down = -1, at = -1, upRaw = 0, downRaw = 0;
        Map<Integer, int[]> byDelta = new HashMap<>(); // (byte, delta) -> {record, new raw}
        search:
        for (int i = 0; i < t31.length / 13; i++) {
            long[] f = fields(t31, i);
            int b = f[2] == PeerFormat.CUT ? 11 : f[2] == PeerFormat.ALL ? 10 : -1;
            if (b < 0) continue;
            int raw = t31[i * 13 + b] & 0xFF;
            for (int sym = 0; sym <= 72; sym++) {
                int v = sym - 36;
                if (b == 11 ? v < f[3] : v > f[4]) continue; // lb <= ub stays
                int nraw = PeerFormat.symbolChar(sym) & 0xFF, d = nraw - raw;
                if (d == 0) continue;
                int[] o = byDelta.get(b * 1000 - d);
                if (o != null && o[0] != i) {
                    up = o[0];
                    upRaw = o[1];
                    down = i;
                    downRaw = nraw;
                    at = b;
                    break search;
                }
                byDelta.putIfAbsent(b * 1000 + d, new int[] {i, nraw});
            }
        }
        assertTrue(up >= 0, "two records to change");
        loaded[up * 13 + at] = (byte) upRaw;
        loaded[down * 13 + at] = (byte) downRaw;
        assertFalse(Arrays.equals(t31, loaded));
        String out;
        try {
            PeerKernel.Conclusion c = runWhole(valid, Map.of(), Map.of(30, loaded));
            out = outcome(c);
            assertNotEquals(PeerKernel.Verdict.VERIFIED, c.verdict(), "table 31 loaded with records "
                    + up + " and " + down + " changed, checked as itself: " + out);
        } catch (PeerKernel.EngineFault e) {
            out = e.getMessage();
        }
        assertFalse(out.isEmpty());
    }
}

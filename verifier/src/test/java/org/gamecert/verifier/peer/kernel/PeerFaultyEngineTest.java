package org.gamecert.verifier.peer.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The peer kernel driven by a small engine written here, which breaks its contract in one way at
 * a time: records of table n dropped, repeated or given back out of order, a wrong answer (another
 * key, an index outside the range), "absent" for a record that is present, ranges of table n+1
 * skipped, repeated, ended early or cut badly, a child record not admitted, a state changed
 * between passes, a child table never checked, a pass never ended. None ends VERIFIED: each is
 * an engine fault that names what went wrong, or a rejection that names the rule. The same
 * engine without a fault verifies the tables (so that each fault is what makes the difference).
 */
class PeerFaultyEngineTest {
    static final Path VALID = Path.of("../testdata/peer/valid/othello6-10empties");
    static final int RANGE = 40, CHUNK = 64;
    static TreeMap<Integer, byte[]> tables;

    enum Fault {
        NONE, DROP_PARENT, DUPLICATE_PARENT, REORDER_CHUNKS, CHUNK_TWICE, UNCHECKED_CHUNK,
        WRONG_KEY, WRONG_INDEX, ABSENT_FOR_PRESENT, SKIP_RANGE, RANGE_TWICE, LAST_RANGE_EARLY,
        EMPTY_RANGE_SPLIT, DROP_CHILD, CORRUPT_STATE, STATE_IN_PASS_0, SKIP_CHILD_TABLE,
        UNFINISHED_PASS, WRONG_ROOT_SCAN, WRONG_INFO, ANOTHER_INDEX_IN_RANGE
    }

    @BeforeAll
    static void read() throws IOException {
        tables = new TreeMap<>();
        try (Stream<Path> s = Files.list(VALID)) {
            for (Path p : s.toList()) {
                String name = p.getFileName().toString();
                if (name.startsWith("optimal_reopening_ab_table_all_"))
                    tables.put(Integer.parseInt(name.replaceAll("\\D", "")), Files.readAllBytes(p));
            }
        }
        assertTrue(tables.size() >= 5, "tables in " + VALID);
    }

    /** The table whose pass the faults hit: one with a child table in several ranges. */
    static int victim() {
        for (int n : tables.keySet())
            if (tables.containsKey(n + 1) && tables.get(n + 1).length / 13 > 3 * RANGE
                    && tables.get(n).length / 13 > 2 * CHUNK) return n;
        throw new AssertionError("no table with several ranges and chunks");
    }

    /** The engine: each table against the next, child ranges of RANGE records, chunks of CHUNK. */
    static PeerKernel.Conclusion run(Fault fault) {
        PeerKernel k = new PeerKernel(null, null);
        int victim = victim();
        for (int n : tables.keySet()) {
            if (fault == Fault.SKIP_CHILD_TABLE && n == victim + 1) continue;
            Fault f = n == victim ? fault : Fault.NONE;
            TableCheck t = k.beginTable(n, tables.containsKey(n + 1));
            byte[] parent = tables.get(n);
            byte[] state = new byte[parent.length / 13];
            if (!t.childGiven) {
                ParentPass p = t.pass(null, null);
                runPass(p, parent, state, Fault.NONE, null);
                p.end(0);
                t.end();
                continue;
            }
            ChildTable ct = t.children();
            byte[] child = tables.get(n + 1);
            int childRecords = child.length / 13, next = 0;
            boolean pending = false;
            int pass = 0;
            while (true) {
                Map<Long, long[]> held = new HashMap<>();
                if (!pending && next < childRecords) pending = admit(ct, child, next++);
                while (pending && held.size() < RANGE) {
                    held.put(ct.key(), new long[] {ct.info(), held.size()});
                    pending = false;
                    if (f == Fault.DROP_CHILD && next == 5) next++; // read, never admitted
                    if (next < childRecords) pending = admit(ct, child, next++);
                }
                boolean last = !pending;
                if (f == Fault.LAST_RANGE_EARLY && pass == 2) last = true;
                ChildRange cut = ct.range(last);
                if (f == Fault.EMPTY_RANGE_SPLIT && pass == 1) cut = ct.range(false);
                ChildRange r = cut;
                if (f == Fault.SKIP_RANGE && pass == 1) {
                    pass++;
                    continue; // range cut, its pass never run
                }
                ChildLookup lookup = (key, a) -> {
                    long[] v = held.get(key);
                    if (f == Fault.ABSENT_FOR_PRESENT || v == null) return false;
                    a.key = f == Fault.WRONG_KEY ? key + 1 : key;
                    // the key asked, with other child facts (still a valid info) or another index
                    a.info = f == Fault.WRONG_INFO ? (int) v[0] ^ 1 : (int) v[0];
                    a.index = f == Fault.WRONG_INDEX ? r.size
                            : f == Fault.ANOTHER_INDEX_IN_RANGE ? (v[1] + 1) % r.size : v[1];
                    return true;
                };
                ParentPass p = t.pass(r, lookup);
                if (f == Fault.CORRUPT_STATE && pass == 1) state[3] ^= PeerObligations.EX_CUT;
                if (f == Fault.STATE_IN_PASS_0 && pass == 0) state[3] = PeerObligations.EX_P;
                runPass(p, parent, state, pass == 1 ? f : Fault.NONE, r);
                if (f == Fault.RANGE_TWICE && pass == 1) t.pass(r, lookup);
                if (!(f == Fault.UNFINISHED_PASS && r.last)) p.end(0);
                pass++;
                if (r.last) break;
            }
            t.end();
        }
        byte[] lowest = tables.firstEntry().getValue();
        long[] pos = new long[2];
        PeerFormat.decodeKey(lowest, 0, pos);
        long[] first = {pos[0], pos[1], PeerFormat.symbol(lowest[9]),
            PeerFormat.symbol(lowest[10]) - 36, PeerFormat.symbol(lowest[11]) - 36};
        long count = lowest.length / 13 + (fault == Fault.WRONG_ROOT_SCAN ? 1 : 0);
        return EngineRootScan.conclude(k, count, first, lowest);
    }

    static boolean admit(ChildTable ct, byte[] child, int i) {
        assertTrue(ct.admit(child, i * 13, 13), "a record of the valid tables admitted");
        return true;
    }

    /** One pass over table n in chunks; the pass's fault, if any, is applied here. */
    static void runPass(ParentPass p, byte[] parent, byte[] state, Fault f, ChildRange r) {
        int recs = parent.length / 13;
        List<Chunk> chunks = new ArrayList<>();
        List<byte[]> states = new ArrayList<>();
        for (int from = 0; from < recs; from += CHUNK) {
            int m = Math.min(CHUNK, recs - from);
            byte[] buf = java.util.Arrays.copyOfRange(parent, from * 13, (from + m) * 13);
            if (f == Fault.DROP_PARENT && from == 0) { // its first record left out
                buf = java.util.Arrays.copyOfRange(buf, 13, buf.length);
                m--;
            }
            if (f == Fault.DUPLICATE_PARENT && from == 0) { // its first record twice
                byte[] twice = new byte[buf.length + 13];
                System.arraycopy(buf, 0, twice, 0, 13);
                System.arraycopy(buf, 0, twice, 13, buf.length);
                buf = twice;
                m++;
            }
            byte[] st = new byte[m];
            System.arraycopy(state, from, st, 0, Math.min(m, recs - from));
            chunks.add(p.chunk(buf, m, st));
            states.add(st);
        }
        for (Chunk c : chunks) if (f != Fault.UNCHECKED_CHUNK || c != chunks.get(1)) c.run();
        if (f == Fault.REORDER_CHUNKS) java.util.Collections.swap(chunks, 0, 1);
        for (Chunk c : chunks) p.endChunk(c);
        if (f == Fault.CHUNK_TWICE) p.endChunk(chunks.get(0));
        int at = 0;
        for (byte[] st : states) {
            System.arraycopy(st, 0, state, at, Math.min(st.length, recs - at));
            at += st.length;
        }
    }

    @Test
    void theEngineWithoutAFaultVerifies() {
        PeerKernel.Conclusion c = run(Fault.NONE);
        assertEquals(PeerKernel.Verdict.VERIFIED, c.verdict(), () -> String.valueOf(c.finding()));
    }

    @Test
    @Tag("slow")
    void everyFaultIsNamedAndNoneVerifies() {
        Map<Fault, String> expected = new TreeMap<>();
        expected.put(Fault.DROP_PARENT, "pass 1 saw");
        expected.put(Fault.DUPLICATE_PARENT, "pass 1 saw");
        expected.put(Fault.REORDER_CHUNKS, "where record 0 was due");
        expected.put(Fault.CHUNK_TWICE, "given back");
        expected.put(Fault.UNCHECKED_CHUNK, "unchecked");
        expected.put(Fault.WRONG_KEY, "answered with key");
        expected.put(Fault.WRONG_INDEX, "outside range");
        expected.put(Fault.ABSENT_FOR_PRESENT, "PEER-");
        expected.put(Fault.SKIP_RANGE, "not the next range");
        expected.put(Fault.RANGE_TWICE, "begun out of turn");
        expected.put(Fault.LAST_RANGE_EARLY, "children, checked with");
        expected.put(Fault.EMPTY_RANGE_SPLIT, "would hold no record");
        expected.put(Fault.DROP_CHILD, "children, checked with");
        expected.put(Fault.CORRUPT_STATE, "other states");
        expected.put(Fault.STATE_IN_PASS_0, "has a state in pass 0");
        expected.put(Fault.SKIP_CHILD_TABLE, "never checked itself");
        expected.put(Fault.UNFINISHED_PASS, "not checked in full");
        expected.put(Fault.WRONG_ROOT_SCAN, "root record(s)");
        expected.put(Fault.WRONG_INFO, "not the record admitted there");
        expected.put(Fault.ANOTHER_INDEX_IN_RANGE, "not the record admitted there");
        for (Fault f : Fault.values()) {
            if (f == Fault.NONE) continue;
            String want = expected.get(f);
            assertNotNull(want, "an expectation for " + f);
            String outcome;
            try {
                PeerKernel.Conclusion c = run(f);
                assertTrue(c.verdict() != PeerKernel.Verdict.VERIFIED, f + " verified");
                assertNotNull(c.finding(), f + ": " + c.verdict() + " without a finding");
                outcome = c.verdict() + " " + c.finding().rule() + ": " + c.finding().message();
            } catch (PeerKernel.EngineFault e) {
                outcome = e.getMessage();
            }
            assertTrue(outcome.contains(want), f + " ended as: " + outcome);
        }
    }
}

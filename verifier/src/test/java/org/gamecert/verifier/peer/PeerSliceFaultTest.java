package org.gamecert.verifier.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.gamecert.verifier.peer.kernel.Slice;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Tables checked in slices by a runner written here (in this JVM, as Spark's tasks would), which
 * breaks its contract in one way at a time on one slice of one table: a slice dropped, a slice's
 * result given back twice (for itself and for the next), the results of two slices exchanged, a
 * task that read records of the slice before it (overlap) or skipped records (gap), a task that
 * checked fewer records than its slice holds (wrong count), a task that loaded another table n+1
 * than the other slices of its table (another input). None ends VERIFIED: each is an error
 * naming the kernel's rule (PEER-SLICE-1..3). Without a fault the same runner verifies, with
 * several slices per table, and the same slices over a mutant give the single-machine rejection.
 */
class PeerSliceFaultTest {
    static final Path VALID = Path.of("../testdata/peer/valid/othello6-10empties");
    static final Path MUTANT = Path.of("../testdata/peer/mutants/peer-exact-value-changed");
    static final int VICTIM = 33; // 1530 records: 8 slices of 200
    static final long SLICE = 200;

    enum Fault { NONE, DROPPED, DUPLICATED, EXCHANGED, OVERLAP, GAP, WRONG_COUNT, OTHER_CHILD }

    /** The runner: every slice checked by checkSlice; the fault hits slices 1..3 of VICTIM. */
    static PeerVerifier.SliceRunner runner(Fault f, int[] slicesSeen) {
        return (opt, input, slices) -> {
            List<SliceRun> out = new ArrayList<>();
            Map<Integer, SliceRun> victim = new TreeMap<>();
            for (Slice s : slices) {
                boolean hit = s.table() == VICTIM && s.serial() == 2;
                long shift = hit && f == Fault.OVERLAP ? -5 : hit && f == Fault.GAP ? 5 : 0;
                long extra = hit && f == Fault.WRONG_COUNT ? -1 : 0;
                // OTHER_CHILD: slice 1 of table 30 checked against the mutant's table 31
                boolean other = f == Fault.OTHER_CHILD && s.table() == 30 && s.serial() == 1;
                SliceRun r = PeerVerifier.checkSlice(opt, other ? MUTANT : input, s, shift, extra);
                if (s.table() == VICTIM) victim.put(s.serial(), r);
                if (!(hit && f == Fault.DROPPED)) out.add(r);
                slicesSeen[0] = Math.max(slicesSeen[0], s.serial() + 1);
            }
            if (f == Fault.DUPLICATED) { // slice 1's result given back also as slice 2's
                SliceRun twice = new SliceRun(victim.get(2).slice);
                twice.result = victim.get(1).result;
                out.set(out.indexOf(victim.get(2)), twice);
            }
            if (f == Fault.EXCHANGED) { // the results of slices 2 and 3 exchanged
                SliceRun a = new SliceRun(victim.get(2).slice), b = new SliceRun(victim.get(3).slice);
                a.result = victim.get(3).result;
                b.result = victim.get(2).result;
                out.set(out.indexOf(victim.get(2)), a);
                out.set(out.indexOf(victim.get(3)), b);
            }
            return out;
        };
    }

    static PeerResult run(Path input, Fault f, int[] slicesSeen) {
        PeerOptions o = new PeerOptions();
        o.input = input;
        o.threads = 1;
        o.rangeRecords = 700; // and table n+1 in key ranges within each task
        o.sliceRecords = SLICE;
        o.runner = runner(f, slicesSeen);
        return PeerVerifier.verify(o);
    }

    @Test
    void withoutAFaultTheSlicesVerifyAsOneMachine() {
        int[] seen = {0};
        PeerResult r = run(VALID, Fault.NONE, seen);
        assertEquals(PeerResult.Verdict.VERIFIED, r.verdict(), () -> r.error + " " + r.violation);
        assertTrue(seen[0] >= 8, "slices of the biggest table: " + seen[0]);
        PeerOptions one = new PeerOptions();
        one.input = VALID;
        one.threads = 1;
        PeerResult single = PeerVerifier.verify(one);
        assertEquals(single.tables.size(), r.tables.size());
        for (int i = 0; i < r.tables.size(); i++) {
            TableResult a = single.tables.get(i), b = r.tables.get(i);
            assertEquals(a.records, b.records);
            assertEquals(a.region, b.region);
            assertEquals(a.auxiliary, b.auxiliary);
            assertEquals(a.frontierRecords, b.frontierRecords);
            assertEquals(a.frontierChildren, b.frontierChildren);
            assertEquals((a.records + SLICE - 1) / SLICE == 0 ? 1 : (a.records + SLICE - 1) / SLICE, b.slices);
        }
        assertEquals(single.rootValue, r.rootValue);
        PeerResult mutant = run(MUTANT, Fault.NONE, seen);
        one.input = MUTANT;
        PeerResult mutantOne = PeerVerifier.verify(one);
        assertEquals(PeerResult.Verdict.REJECTED, mutant.verdict());
        assertEquals(String.valueOf(mutantOne.violation), String.valueOf(mutant.violation));
    }

    @Test
    @Tag("slow")
    void everyFaultIsNamedAndNoneVerifies() {
        Map<Fault, String> expected = new TreeMap<>();
        expected.put(Fault.DROPPED, "PEER-SLICE-1: slice 2 of table 33 (records 400+200) never given back");
        expected.put(Fault.DUPLICATED, "PEER-SLICE-1: the result of slice 1 of table 33");
        expected.put(Fault.EXCHANGED, "PEER-SLICE-1: the result of slice 3 of table 33");
        expected.put(Fault.OVERLAP, "PEER-SLICE-3: slice 2 of table 33");
        expected.put(Fault.GAP, "PEER-SLICE-3: slice 2 of table 33");
        expected.put(Fault.WRONG_COUNT, "PEER-SLICE-2: slice 2 of table 33 (records 400+200) was checked with 199");
        expected.put(Fault.OTHER_CHILD, "PEER-SLICE-2: table 31 was loaded with 505 records by slice 1 of table 30");
        for (Fault f : Fault.values()) {
            if (f == Fault.NONE) continue;
            PeerResult r = run(VALID, f, new int[1]);
            assertTrue(r.verdict() != PeerResult.Verdict.VERIFIED, f + " verified");
            assertEquals(PeerResult.Verdict.ERROR, r.verdict(), f + ": " + r.violation);
            assertNotNull(r.error, f + " without an error");
            String want = expected.get(f);
            assertTrue(r.error.contains(want), f + " ended as: " + r.error + " (expected: " + want + ")");
        }
    }
}

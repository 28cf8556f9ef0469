package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.gamecert.verifier.kernel.ChildLookup;
import org.gamecert.verifier.kernel.KeyRange;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.format.Payload;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TestComposite;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * A deliberately faulty engine for each way an engine can go wrong (SPEC "Engine contract"):
 * over every certificate of the corpus and the vectors, whole and in segments, on 1 and 3
 * threads, none ends VERIFIED where the honest engine does not verify; and on certificates of
 * many blocks that the honest engine verifies, each fault is caught and named.
 */
class FaultyEngineTest {
    @TempDir
    Path dir;

    /** Each fault, made once (at its first chance) so that the rest of the run is honest. */
    static Map<String, Supplier<Faults>> faults() {
        Map<String, Supplier<Faults>> f = new LinkedHashMap<>();
        f.put("drop a block while reading", () -> new Faults() {
            public boolean skipBlock(long handed) {
                return handed == 1;
            }
        });
        f.put("drop a block of a layer", () -> new Faults() {
            public int[] blockOrder(int first, int end, boolean checked) {
                int[] honest = Faults.NONE.blockOrder(first, end, checked);
                if (!checked) return honest;
                return honest.length > 1 ? java.util.Arrays.copyOf(honest, honest.length - 1) : honest;
            }
        });
        f.put("repeat a block", () -> new Faults() {
            public int[] blockOrder(int first, int end, boolean checked) {
                int[] honest = Faults.NONE.blockOrder(first, end, checked), twice = new int[honest.length + 1];
                if (!checked) return honest;
                System.arraycopy(honest, 0, twice, 1, honest.length);
                twice[0] = first;
                return twice;
            }
        });
        f.put("swap two blocks", () -> new Faults() {
            public int[] blockOrder(int first, int end, boolean checked) {
                int[] order = Faults.NONE.blockOrder(first, end, checked);
                if (checked && order.length > 1) {
                    order[0] = first + 1;
                    order[1] = first;
                }
                return order;
            }
        });
        f.put("drop an entry", () -> new Once() {
            void fault(Payload p) {
                moveEntry(p, p.count - 1, 0); // entry 0 is lost
                p.count--;
            }
        });
        f.put("repeat an entry", () -> new Once() {
            void fault(Payload p) {
                moveEntry(p, 0, 1);
            }
        });
        f.put("swap two entries", () -> new Once() {
            void fault(Payload p) {
                Payload one = new Payload(1);
                copyEntry(p, 0, one, 0);
                moveEntry(p, 1, 0);
                copyEntry(one, 0, p, 1);
            }
        });
        f.put("leave out an entry of a block's split", () -> new Faults() {
            public int[][] ranges(int m, int parts) {
                int[][] r = Faults.NONE.ranges(m, parts);
                r[r.length - 1][1] = Math.max(r[r.length - 1][0], m - 1);
                return r;
            }
        });
        f.put("check a block's entries twice", () -> new Faults() {
            public int[][] ranges(int m, int parts) {
                return parts < 2 ? Faults.NONE.ranges(m, parts) : new int[][] {{0, m}, {0, m}};
            }
        });
        f.put("one checker for every range of a block's split", () -> new Faults() {
            public org.gamecert.verifier.kernel.EntryChecker[] checkers(org.gamecert.verifier.kernel.EntryChecker[] workers,
                                                                        int parts) {
                org.gamecert.verifier.kernel.EntryChecker[] one = new org.gamecert.verifier.kernel.EntryChecker[parts];
                java.util.Arrays.fill(one, workers[0]); // on several threads at once, or one after another
                return one;
            }
        });
        f.put("answer with another record", () -> new Faults() {
            public ChildLookup lookup(Layer table) {
                return (occ, mover, answer) -> {
                    int i = table.find(occ, mover);
                    if (i < 0) return false;
                    int other = i + 1 < table.size ? i + 1 : i - 1;
                    if (other < 0) other = i; // a layer of one entry: the honest answer
                    return Faults.NONE.lookup(table).find(table.occ(other), table.mover(other), answer);
                };
            }
        });
        f.put("answer with the key asked for and another record's bounds", () -> new Faults() {
            public ChildLookup lookup(Layer table) {
                ChildLookup honest = Faults.NONE.lookup(table);
                return (occ, mover, answer) -> {
                    if (!honest.find(occ, mover, answer)) return false;
                    answer.lo = answer.lo == 0 ? 1 : 0; // the record's key and index, other bounds
                    answer.hi = answer.lo;
                    return true;
                };
            }
        });
        f.put("alter an entry's bounds in a block handed over to be checked", () -> new Once() {
            void fault(Payload p) {
                p.lo[0]++;
            }
        });
        f.put("alter an entry's kind in a block handed over while reading", () -> new Faults() {
            boolean done;

            public void alterRead(Payload p) {
                if (done) return;
                done = true;
                p.kind[0] ^= Payload.C; // the file's key, another kind
            }
        });
        f.put("say absent for present children", () -> new Faults() {
            public ChildLookup lookup(Layer table) {
                return (occ, mover, answer) -> false;
            }
        });
        f.put("hold a key range with a gap", () -> new Faults() {
            public KeyRange range(KeyRange r) {
                if (r.first()) return r;
                return new KeyRange(false, r.last(), r.afterOcc(), r.afterMover() + 1, r.upOcc(), r.upMover(), r.base(), r.size());
            }
        });
        f.put("end the key ranges early", () -> new Faults() {
            public KeyRange range(KeyRange r) {
                return new KeyRange(r.first(), true, r.afterOcc(), r.afterMover(), r.upOcc(), r.upMover(), r.base(), r.size());
            }
        });
        return f;
    }

    /**
     * A false root value (the entry and the header say v + 2): an engine that answers the root's
     * children with their own keys and indexes but bounds shifted to fit, or that hands the root's
     * entry over in pass 2 with the true value, made it VERIFIED before answers and blocks were
     * bound to the file's records (found 2026-11-25). Now each is an engine fault.
     */
    @Test
    void aLyingEngineCannotVerifyAFalseRootValue() throws Exception {
        TinySolver othello = new TinySolver(1, 4, 4, 1, null);
        long[] start = othello.othelloStart();
        TestCert cert = othello.build(start[0], start[1], 1);
        int rootDiscs = Long.bitCount(start[0] | start[1]), delta = 2;
        TestCert.Entry root = null;
        for (TestCert.Entry e : cert.entries)
            if (Long.bitCount(e.occ) == rootDiscs) root = e;
        assertEquals(cert.rootValue, root.lo, "the root's entry");
        root.lo += delta;
        root.hi += delta;
        cert.rootValue += delta;
        Path file = dir.resolve("false-root.gsc");
        Files.write(file, cert.write());
        assertEquals(Result.Verdict.REJECTED, Verifier.verify(file, new Options()).verdict);
        Faults shiftedAnswers = new Faults() {
            public ChildLookup lookup(Layer table) {
                ChildLookup honest = Faults.NONE.lookup(table);
                return (occ, mover, answer) -> {
                    if (!honest.find(occ, mover, answer)) return false;
                    if (Long.bitCount(occ) == rootDiscs + 1) {
                        answer.lo -= delta;
                        answer.hi -= delta;
                    }
                    return true;
                };
            }
        };
        Faults trueRootInPass2 = new Faults() {
            public void alter(Payload p) {
                for (int i = 0; i < p.count; i++)
                    if (Long.bitCount(p.occ[i]) == rootDiscs) {
                        p.lo[i] -= delta;
                        p.hi[i] -= delta;
                    }
            }
        };
        for (Faults liar : new Faults[] {shiftedAnswers, trueRootInPass2})
            for (int threads : new int[] {1, 3})
                for (boolean segments : new boolean[] {false, true}) {
                    Result r = Verifier.verify(file, options(threads, segments, cert.entries.size()), liar);
                    assertEquals(Result.Verdict.ERROR, r.verdict, r.firstViolation() + " " + r.errorMessage);
                    assertTrue(r.errorMessage.startsWith("engine fault: "), r.errorMessage);
                }
    }

    /**
     * The kernel counts the answers each entry of the layer below was given in the high half of
     * its flags byte, modulo 16, and notes each wrap (LayerCheck.mark). A 6x6 semi-strong
     * certificate where three entries are answered 16 times or more (made by
     * {@code scripts/produce solve --game othello:6x6 --moves e4e3b2c5e2f2f3a1f1b4b6d6a4a3b3e5b5f4
     * --threads 1}, 245,591 entries, sha256 1cf90195...): the honest engine verifies it, so the
     * wraps are counted; an engine that answers the 17th lookup of one key with other bounds is
     * caught as an engine fault.
     */
    @Test
    void answersBeyondFifteenForOneEntryAreCountedAndBound() throws Exception {
        Path file = Path.of(getClass().getResource("/answers/othello6x6-22discs.gsc").toURI());
        for (int threads : new int[] {1, 3})
            for (boolean segments : new boolean[] {false, true}) {
                Options o = options(threads, segments, 245_591);
                Result honest = Verifier.verify(file, o);
                assertEquals(Result.Verdict.VERIFIED, honest.verdict, honest.errorMessage);
                boolean[] lied = {false};
                Faults lieOnce = lieAtAnswer(17, lied, answer -> {
                    answer.lo = answer.lo == 0 ? 1 : 0;
                    answer.hi = answer.lo;
                });
                Result r = Verifier.verify(file, o, lieOnce);
                String how = "threads " + threads + (segments ? ", in segments" : "") + ": " + r.verdict
                        + " " + r.errorMessage + " " + r.firstViolation();
                assertTrue(lied[0], "no entry answered 17 times: " + how);
                assertEquals(Result.Verdict.ERROR, r.verdict, how);
                assertTrue(r.errorMessage.startsWith("engine fault: the layer above was answered"), how);
            }
    }

    /**
     * An engine that answers honestly but, the first time a key is asked for the n-th time, hands
     * the kernel that answer altered by lie (and sets lied[0]); safe on the engine's threads.
     */
    static Faults lieAtAnswer(int n, boolean[] lied, java.util.function.Consumer<ChildLookup.Answer> lie) {
        Map<List<Long>, Integer> asked = new java.util.HashMap<>();
        return new Faults() {
            public ChildLookup lookup(Layer table) {
                ChildLookup honest = Faults.NONE.lookup(table);
                return (occ, mover, answer) -> {
                    if (!honest.find(occ, mover, answer)) return false;
                    synchronized (asked) {
                        if (asked.merge(List.of(occ, mover), 1, Integer::sum) == n && !lied[0]) {
                            lied[0] = true;
                            lie.accept(answer);
                        }
                    }
                    return true;
                };
            }
        };
    }

    /** Alters the first block handed over with at least two entries. */
    abstract static class Once implements Faults {
        boolean done;

        public void alter(Payload p) {
            if (done || p.count < 2) return;
            done = true;
            fault(p);
        }

        abstract void fault(Payload p);
    }

    static void moveEntry(Payload p, int from, int to) {
        copyEntry(p, from, p, to);
    }

    static void copyEntry(Payload p, int from, Payload q, int to) {
        q.occ[to] = p.occ[from];
        q.mover[to] = p.mover[from];
        q.kind[to] = p.kind[from];
        q.lo[to] = p.lo[from];
        q.hi[to] = p.hi[from];
        q.move[to] = p.move[from];
    }

    static Options options(int threads, boolean segments, long entries) {
        Options o = new Options();
        o.threads = threads;
        if (segments) o.maxHeldEntries = Math.max(2, entries / 20);
        return o;
    }

    /** On every corpus file and vector: a faulty engine never verifies what the honest one does not. */
    @TestFactory
    List<DynamicTest> neverVerifiedWhereTheHonestEngineDoesNot() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path file : DifferentialTest.certificates())
            tests.add(DynamicTest.dynamicTest(DifferentialTest.ROOT.relativize(file).toString(), () -> {
                int saved = Verifier.parallelMinEntries;
                Verifier.parallelMinEntries = 1;
                try {
                    for (int threads : new int[] {1, 3})
                        for (boolean segments : new boolean[] {false, true}) {
                            Result honest = Verifier.verify(file, options(threads, segments, 1 << 20));
                            Options o = options(threads, segments, Math.max(2, honest.entries));
                            honest = Verifier.verify(file, o);
                            for (Map.Entry<String, Supplier<Faults>> fault : faults().entrySet()) {
                                Result r = Verifier.verify(file, o, fault.getValue().get());
                                if (honest.verdict != Result.Verdict.VERIFIED)
                                    assertNotEquals(Result.Verdict.VERIFIED, r.verdict, fault.getKey() + " on " + file);
                            }
                        }
                } finally {
                    Verifier.parallelMinEntries = saved;
                }
            }));
        return tests;
    }

    /**
     * On certificates of many small blocks that verify, each fault is caught: an error that names
     * the engine's fault, or (an engine that says "absent") the rejection of the entry that lacks
     * its child.
     */
    @Test
    @Tag("slow")
    void everyFaultIsCaughtAndNamed() throws Exception {
        TinySolver othello = new TinySolver(1, 4, 4, 1, null);
        long[] start = othello.othelloStart();
        TestCert[] certs = {othello.build(start[0], start[1], 1), othello.build(start[0], start[1], 2),
            new TinySolver(2, 4, 4, 2, null).build(0, 0, 1)};
        int saved = Verifier.parallelMinEntries;
        Verifier.parallelMinEntries = 1;
        try {
            for (int c = 0; c < certs.length; c++) {
                certs[c].maxBlockEntries = 7;
                Path file = dir.resolve("cert" + c + ".gsc");
                Files.write(file, certs[c].write());
                for (int threads : new int[] {1, 3})
                    for (boolean segments : new boolean[] {false, true}) {
                        Options o = options(threads, segments, certs[c].entries.size());
                        assertEquals(Result.Verdict.VERIFIED, Verifier.verify(file, o).verdict, "honest engine");
                        for (Map.Entry<String, Supplier<Faults>> fault : faults().entrySet()) {
                            String name = fault.getKey();
                            boolean onlyInSegments = name.contains("key range");
                            boolean onlyOnThreads = name.contains("split") || name.contains("twice");
                            if ((onlyInSegments && !segments) || (onlyOnThreads && threads == 1)) continue;
                            Result r = Verifier.verify(file, o, fault.getValue().get());
                            String how = name + ", cert " + c + ", threads " + threads + (segments ? ", in segments" : "")
                                    + ": " + r.verdict + " " + r.errorMessage + " " + r.firstViolation();
                            assertNotEquals(Result.Verdict.VERIFIED, r.verdict, how);
                            if (name.startsWith("drop a block while")) {
                                assertTrue(r.errorMessage != null && r.errorMessage.startsWith("engine fault: block "), how);
                            } else if (name.startsWith("say absent")) { // a child's bounds unknown: some rule fails
                                assertEquals(Result.Verdict.REJECTED, r.verdict, how);
                            } else {
                                assertEquals(Result.Verdict.ERROR, r.verdict, how);
                                assertTrue(r.errorMessage.startsWith("engine fault: "), how);
                            }
                        }
                    }
            }
        } finally {
            Verifier.parallelMinEntries = saved;
        }
    }

    /**
     * A part (SPEC §15): which entries are open, and so checked only up to R-POS-2, is the
     * kernel's own record from pass 1; an engine that hands an entry over with the bit O added
     * or dropped is caught. The other faults never end better than the honest INCOMPLETE.
     */
    @Test
    void aPartsOpenEntriesAreTheKernelsOwnRecord() throws Exception {
        TinySolver othello = new TinySolver(1, 4, 4, 1, null);
        long[] start = othello.othelloStart();
        TestCert part = TestComposite.split(othello, start[0], start[1], 1, 8).parts.get(0).cert;
        part.maxBlockEntries = 7;
        Path file = dir.resolve("part.gsc");
        Files.write(file, part.write());
        Map<String, Supplier<Faults>> faults = faults();
        faults.put("mark an entry open", () -> new Once() {
            void fault(Payload p) {
                p.kind[0] |= Payload.O;
            }
        });
        faults.put("mark an open entry not open", () -> new Faults() {
            boolean done;

            public void alter(Payload p) {
                for (int i = 0; i < p.count && !done; i++)
                    if ((p.kind[i] & Payload.O) != 0) {
                        p.kind[i] &= ~Payload.O;
                        done = true;
                    }
            }
        });
        int saved = Verifier.parallelMinEntries;
        Verifier.parallelMinEntries = 1;
        try {
            for (int threads : new int[] {1, 3})
                for (boolean segments : new boolean[] {false, true}) {
                    Options o = options(threads, segments, part.entries.size());
                    Result honest = Verifier.verify(file, o);
                    assertEquals(Result.Verdict.INCOMPLETE, honest.verdict, "honest engine: " + honest.firstViolation());
                    for (Map.Entry<String, Supplier<Faults>> fault : faults.entrySet()) {
                        Result r = Verifier.verify(file, o, fault.getValue().get());
                        String how = fault.getKey() + ", threads " + threads + (segments ? ", in segments" : "") + ": "
                                + r.verdict + " " + r.errorMessage + " " + r.firstViolation();
                        assertNotEquals(Result.Verdict.VERIFIED, r.verdict, how);
                        if (r.verdict == Result.Verdict.INCOMPLETE) // a fault that changed nothing here
                            assertEquals(honest.conclusion.openCount(), r.conclusion.openCount(), how);
                        if (fault.getKey().startsWith("mark")) {
                            assertEquals(Result.Verdict.ERROR, r.verdict, how);
                            // caught where the block is taken (its digest), or by the entry's kind
                            assertTrue(r.errorMessage.contains("other entries than the file's")
                                    || r.errorMessage.contains("another kind byte"), how);
                        }
                    }
                }
        } finally {
            Verifier.parallelMinEntries = saved;
        }
    }
}

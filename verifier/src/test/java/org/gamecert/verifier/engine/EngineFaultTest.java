package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.SliceReport;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TestComposite;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one-machine engine of the sequential kernel made faulty in each way it can hand the kernel
 * wrong data (SliceEngine.Faults: answers, counts of facts, reports, the key before a slice, the
 * open entries before a slice): over every certificate of the corpus and the vectors, on one
 * thread with slices of one block and on two with slices of 2^16 entries, no fault changes what
 * the kernel concludes except into a rejection or an engine fault; on certificates of many small
 * blocks each fault is caught and named. SliceContractTest holds each fault once on five files;
 * here the same classes of fault (and pairs of answers swapped) go over the whole corpus.
 */
class EngineFaultTest {
    @TempDir
    Path dir;

    /** The engine's configurations: {threads, slice entries}. */
    static final long[][] ENGINES = {{1, 1}, {2, 1 << 16}};

    /** Changes two present answers of one slice that name different entries (once per run). */
    abstract static class TwoAnswers implements SliceEngine.Faults {
        boolean done;

        @Override
        public synchronized void answers(int li, int first, long[][] req, long[] index,
                byte[] kind, byte[] lo, byte[] hi) {
            for (int a = 0; a < index.length && !done; a++)
                for (int b = a + 1; b < index.length && !done; b++)
                    if (index[a] >= 0 && index[b] >= 0 && index[a] != index[b]
                            && (kind[a] != kind[b] || lo[a] != lo[b] || hi[a] != hi[b])) {
                        change(a, b, index, kind, lo, hi);
                        done = true;
                    }
        }

        abstract void change(int a, int b, long[] index, byte[] kind, byte[] lo, byte[] hi);
    }

    static void swap(byte[] x, int a, int b) {
        byte t = x[a];
        x[a] = x[b];
        x[b] = t;
    }

    /** Each fault, made once (at its first chance) so that the rest of the run is honest. */
    static Map<String, Supplier<SliceEngine.Faults>> faults() {
        Map<String, Supplier<SliceEngine.Faults>> f = new LinkedHashMap<>();
        f.put("an answer naming another entry", () -> new SliceContractTest.OneAnswer() {
            void change(int j, long[] index, byte[] kind, byte[] lo, byte[] hi) {
                index[j] = index[j] > 0 ? index[j] - 1 : index[j] + 1;
            }
        });
        f.put("an answer with another record (index, kind, bounds)", () -> new TwoAnswers() {
            void change(int a, int b, long[] index, byte[] kind, byte[] lo, byte[] hi) {
                index[a] = index[b];
                kind[a] = kind[b];
                lo[a] = lo[b];
                hi[a] = hi[b];
            }
        });
        f.put("an answer with its record's index and other bounds", () -> new SliceContractTest.OneAnswer() {
            void change(int j, long[] index, byte[] kind, byte[] lo, byte[] hi) {
                lo[j] = (byte) (lo[j] == 0 ? 1 : 0);
                hi[j] = lo[j];
            }
        });
        f.put("an answer with a kind bit no rule reads", () -> new SliceContractTest.OneAnswer() {
            void change(int j, long[] index, byte[] kind, byte[] lo, byte[] hi) {
                kind[j] ^= (byte) 0x80;
            }
        });
        f.put("two answers with their records swapped", () -> new TwoAnswers() {
            void change(int a, int b, long[] index, byte[] kind, byte[] lo, byte[] hi) {
                swap(kind, a, b);
                swap(lo, a, b);
                swap(hi, a, b);
            }
        });
        f.put("two answers swapped whole", () -> new TwoAnswers() {
            void change(int a, int b, long[] index, byte[] kind, byte[] lo, byte[] hi) {
                long t = index[a];
                index[a] = index[b];
                index[b] = t;
                swap(kind, a, b);
                swap(lo, a, b);
                swap(hi, a, b);
            }
        });
        f.put("absent for every child", () -> new SliceEngine.Faults() {
            public void answers(int li, int first, long[][] req, long[] index, byte[] kind,
                    byte[] lo, byte[] hi) {
                java.util.Arrays.fill(index, -1);
            }
        });
        f.put("a fact dropped", () -> new SliceContractTest.OneCount() {
            void change(int i, int[] facts, int[][] bits) {
                facts[i]--;
                for (int[] b : bits) if (b[i] > facts[i]) b[i]--;
            }
        });
        f.put("a fact repeated", () -> new SliceContractTest.OneCount() {
            void change(int i, int[] facts, int[][] bits) {
                facts[i]++;
            }
        });
        f.put("a fact with another flag", () -> new SliceContractTest.OneCount() {
            void change(int i, int[] facts, int[][] bits) {
                bits[3][i] = bits[3][i] > 0 ? bits[3][i] - 1 : 1; // reached taken away or added
            }
        });
        f.put("a fact moved to the next entry", () -> new SliceEngine.Faults() {
            boolean done;

            public synchronized void counts(int li, int first, int[] facts, int[][] bits) {
                for (int i = 0; i + 1 < facts.length && !done; i++)
                    if (facts[i] > 0) {
                        facts[i]--;
                        facts[i + 1]++;
                        for (int[] b : bits)
                            if (b[i] > 0) {
                                b[i]--;
                                b[i + 1]++;
                            }
                        done = true;
                    }
            }
        });
        f.put("a fact for an entry no parent named", () -> new SliceEngine.Faults() {
            boolean done;

            public synchronized void counts(int li, int first, int[] facts, int[][] bits) {
                for (int i = 0; i < facts.length && !done; i++)
                    if (facts[i] == 0 && li < 64) {
                        facts[i] = 1;
                        bits[3][i] = 1;
                        done = true;
                    }
            }
        });
        f.put("the last slice of a layer dropped", () -> new SliceEngine.Faults() {
            boolean done;

            public List<SliceReport> reports(int li, List<SliceReport> honest) {
                if (done) return honest;
                done = true;
                return new ArrayList<>(honest.subList(0, honest.size() - 1));
            }
        });
        f.put("a slice repeated", () -> new SliceEngine.Faults() {
            boolean done;

            public List<SliceReport> reports(int li, List<SliceReport> honest) {
                if (done) return honest;
                done = true;
                List<SliceReport> r = new ArrayList<>(honest);
                r.add(honest.get(0));
                return r;
            }
        });
        f.put("a layer given the layer above's reports", () -> new SliceEngine.Faults() {
            List<SliceReport> above;

            public List<SliceReport> reports(int li, List<SliceReport> honest) {
                List<SliceReport> r = above == null ? honest : above;
                above = honest;
                return r;
            }
        });
        f.put("another key before a slice", () -> new SliceEngine.Faults() {
            boolean done;

            public synchronized long[] previous(int li, int first, long[] honest) {
                if (done || honest[0] == 0) return honest;
                done = true;
                return new long[] {1, honest[1], honest[2] ^ 1};
            }
        });
        f.put("more open entries before a slice", () -> new SliceEngine.Faults() {
            boolean done;

            public synchronized long openBefore(int li, int first, long honest) {
                if (done) return honest;
                done = true;
                return honest + 1;
            }
        });
        return f;
    }

    static String outcome(Result r) {
        return r.verdict + " " + r.commitment + " "
                + (r.conclusion == null ? "" : r.conclusion.openCount());
    }

    /** On every corpus file and vector: each fault ends as the honest run, rejected, or a fault. */
    @TestFactory
    @Tag("slow") // 17 faults, two engines, every certificate of the corpus: a few minutes
    List<DynamicTest> nothingButARejectionOrAFaultWhereTheHonestEngineConcludes() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path file : DifferentialTest.certificates()) {
            if (ModeFourIsRankedKernelsOnlyTest.modeFour(file)) continue; // not SliceEngine's
            tests.add(DynamicTest.dynamicTest(DifferentialTest.ROOT.relativize(file).toString(), () -> {
                for (long[] e : ENGINES) {
                    Result honest = AttackCerts.sequential(file, new Options(), (int) e[0], e[1],
                            SliceEngine.Faults.NONE);
                    assertNotEquals(Result.Verdict.ERROR, honest.verdict, honest.errorMessage);
                    for (Map.Entry<String, Supplier<SliceEngine.Faults>> fault : faults().entrySet()) {
                        Result r = AttackCerts.sequential(file, new Options(), (int) e[0], e[1],
                                fault.getValue().get());
                        String how = fault.getKey() + ", threads " + e[0] + ", slices " + e[1]
                                + ": " + AttackCerts.show(r) + "; honest " + AttackCerts.show(honest);
                        if (r.verdict == Result.Verdict.ERROR)
                            assertTrue(r.errorMessage.startsWith("engine fault: "), how);
                        else if (r.verdict != Result.Verdict.REJECTED)
                            assertEquals(outcome(honest), outcome(r), how);
                    }
                }
            }));
        }
        return tests;
    }

    /**
     * On certificates of many small blocks that verify (and on a part, INCOMPLETE), each fault is
     * caught: an engine fault, or (an engine that says "absent") the rejection of an entry that
     * lacks its child, or (another key before a slice) the rejection of the keys' order.
     */
    @Test
    @Tag("slow") // about 40 s
    void everyFaultIsCaughtAndNamed() throws Exception {
        TinySolver othello = new TinySolver(1, 4, 4, 1, null);
        long[] start = othello.othelloStart();
        TestCert[] certs = {othello.build(start[0], start[1], 1), othello.build(start[0], start[1], 2),
            new TinySolver(2, 4, 4, 2, null).build(0, 0, 1),
            TestComposite.split(othello, start[0], start[1], 1, 8).parts.get(0).cert};
        for (int c = 0; c < certs.length; c++) {
            certs[c].maxBlockEntries = 7;
            boolean part = c == 3;
            Path file = dir.resolve("cert" + c + ".gsc");
            Files.write(file, certs[c].write());
            for (long[] e : ENGINES) {
                Result honest = AttackCerts.sequential(file, new Options(), (int) e[0], e[1],
                        SliceEngine.Faults.NONE);
                assertEquals(part ? Result.Verdict.INCOMPLETE : Result.Verdict.VERIFIED,
                        honest.verdict, "honest engine: " + AttackCerts.show(honest));
                for (Map.Entry<String, Supplier<SliceEngine.Faults>> fault : faults().entrySet()) {
                    String name = fault.getKey();
                    if (name.contains("open entries") && !part) continue; // asked of parts only
                    if (name.startsWith("another key") && e[1] > 1)
                        continue; // these layers are one slice each: no key before a slice
                    Result r = AttackCerts.sequential(file, new Options(), (int) e[0], e[1],
                            fault.getValue().get());
                    String how = name + ", cert " + c + ", threads " + e[0] + ", slices " + e[1]
                            + ": " + AttackCerts.show(r);
                    if (name.startsWith("absent")) {
                        assertEquals(Result.Verdict.REJECTED, r.verdict, how);
                    } else if (name.startsWith("another key")) {
                        assertTrue(r.verdict == Result.Verdict.REJECTED
                                || r.verdict == Result.Verdict.ERROR, how);
                    } else {
                        assertEquals(Result.Verdict.ERROR, r.verdict, how);
                        assertTrue(r.errorMessage.startsWith("engine fault: "), how);
                    }
                }
            }
        }
    }

    /**
     * A false root value (the entry and the header say v + 2): an engine that answers the root's
     * children with their own keys and indexes but bounds shifted to fit (so that R-P-1 holds)
     * made the old kernel VERIFY it before answers were bound to the file's records (found
     * 2026-11-25). Here it is an engine fault.
     */
    @Test
    void answersShiftedToFitAFalseRootValueAreAnEngineFault() throws Exception {
        TinySolver othello = new TinySolver(1, 4, 4, 1, null);
        long[] start = othello.othelloStart();
        TestCert cert = othello.build(start[0], start[1], 1);
        int rootDiscs = Long.bitCount(start[0] | start[1]), delta = 2;
        for (TestCert.Entry e : cert.entries)
            if (Long.bitCount(e.occ) == rootDiscs) {
                e.lo += delta;
                e.hi += delta;
            }
        cert.rootValue += delta;
        Path file = dir.resolve("false-root.gsc");
        Files.write(file, cert.write());
        assertEquals(Result.Verdict.REJECTED, AttackCerts.verdict(file).verdict);
        for (long[] e : ENGINES) {
            Result r = AttackCerts.sequential(file, new Options(), (int) e[0], e[1],
                    new SliceEngine.Faults() {
                        public void answers(int li, int first, long[][] req, long[] index,
                                byte[] kind, byte[] lo, byte[] hi) {
                            for (int j = 0; j < index.length; j++)
                                if (index[j] >= 0 && Long.bitCount(req[0][j]) == rootDiscs + 1) {
                                    lo[j] -= delta;
                                    hi[j] -= delta;
                                }
                        }
                    });
            assertEquals(Result.Verdict.ERROR, r.verdict, AttackCerts.show(r));
            assertTrue(r.errorMessage.startsWith("engine fault: "), r.errorMessage);
        }
    }

    /**
     * An engine that answers honestly but, the first time a key is asked for the n-th time,
     * changes that answer by lie (and sets lied[0]); safe on the engine's threads.
     */
    static SliceEngine.Faults lieAtAnswer(int n, boolean[] lied, Lie lie) {
        Map<List<Long>, Integer> asked = new HashMap<>();
        return new SliceEngine.Faults() {
            public void answers(int li, int first, long[][] req, long[] index, byte[] kind,
                    byte[] lo, byte[] hi) {
                synchronized (asked) {
                    for (int j = 0; j < index.length; j++)
                        if (index[j] >= 0 && asked.merge(List.of(req[0][j], req[1][j]), 1,
                                Integer::sum) == n && !lied[0]) {
                            lied[0] = true;
                            lie.change(j, kind, lo, hi);
                        }
                }
            }
        };
    }

    interface Lie {
        void change(int j, byte[] kind, byte[] lo, byte[] hi);
    }

    /**
     * A 6x6 semi-strong certificate where three entries are named by 16 parents or more (made by
     * {@code scripts/produce solve --game othello:6x6 --moves e4e3b2c5e2f2f3a1f1b4b6d6a4a3b3e5b5f4
     * --threads 1}, 245,591 entries): the old kernel counted each entry's answers in 4 bits and
     * had to count the wraps (reviews 6 and 7). The honest engine verifies it, with and without
     * --all; a lie at a key's 17th answer is an engine fault: other bounds, and (--all) a kind
     * bit no rule reads, which only the binding of facts can catch.
     */
    @Test
    @Tag("slow") // the 245,591 entries, eight times: about 40 s
    void aLieAtAKeysSeventeenthAnswerIsAnEngineFault() throws Exception {
        Path file = Path.of(getClass().getResource("/answers/othello6x6-22discs.gsc").toURI());
        for (boolean all : new boolean[] {false, true})
            for (long[] e : ENGINES) {
                Options o = new Options();
                o.all = all;
                Result honest = AttackCerts.sequential(file, o, (int) e[0], e[1] << 10,
                        SliceEngine.Faults.NONE);
                assertEquals(Result.Verdict.VERIFIED, honest.verdict, AttackCerts.show(honest));
                boolean[] lied = {false};
                Result r = AttackCerts.sequential(file, o, (int) e[0], e[1] << 10,
                        lieAtAnswer(17, lied, all ? (j, kind, lo, hi) -> kind[j] ^= (byte) 0x80
                                : (j, kind, lo, hi) -> {
                                    lo[j] = (byte) (lo[j] == 0 ? 1 : 0);
                                    hi[j] = lo[j];
                                }));
                String how = (all ? "--all, " : "") + "threads " + e[0] + ": " + AttackCerts.show(r);
                assertTrue(lied[0], "no key answered 17 times: " + how);
                assertEquals(Result.Verdict.ERROR, r.verdict, how);
                assertTrue(r.errorMessage.startsWith("engine fault: "), how);
            }
    }

    /**
     * A part (SPEC §15): the open entries before each slice are the engine's count, which the
     * Combiner holds to the slices before it (R-OPEN-2 counts in file order); one more or one
     * fewer before a slice is an engine fault; the other faults never end better than the honest
     * INCOMPLETE, nor with another count of open entries.
     */
    @Test
    void aPartsOpenEntriesBeforeASliceAreHeldToTheSlicesBefore() throws Exception {
        TinySolver othello = new TinySolver(1, 4, 4, 1, null);
        long[] start = othello.othelloStart();
        TestCert part = TestComposite.split(othello, start[0], start[1], 1, 8).parts.get(0).cert;
        part.maxBlockEntries = 7;
        Path file = dir.resolve("part.gsc");
        Files.write(file, part.write());
        for (long[] e : ENGINES) {
            Result honest = AttackCerts.sequential(file, new Options(), (int) e[0], e[1],
                    SliceEngine.Faults.NONE);
            assertEquals(Result.Verdict.INCOMPLETE, honest.verdict, AttackCerts.show(honest));
            for (int delta : new int[] {1, -1}) {
                int[] applied = {0};
                Result r = AttackCerts.sequential(file, new Options(), (int) e[0], e[1],
                        new SliceEngine.Faults() {
                            public synchronized long openBefore(int li, int first, long honest) {
                                if (applied[0] > 0 || honest + delta < 0) return honest;
                                applied[0]++;
                                return honest + delta;
                            }
                        });
                assertEquals(1, applied[0], "a slice with open entries before it");
                assertEquals(Result.Verdict.ERROR, r.verdict, delta + ": " + AttackCerts.show(r));
                assertTrue(r.errorMessage.startsWith("engine fault: "), r.errorMessage);
            }
            for (Map.Entry<String, Supplier<SliceEngine.Faults>> fault : faults().entrySet()) {
                Result r = AttackCerts.sequential(file, new Options(), (int) e[0], e[1],
                        fault.getValue().get());
                String how = fault.getKey() + ", threads " + e[0] + ": " + AttackCerts.show(r);
                assertNotEquals(Result.Verdict.VERIFIED, r.verdict, how);
                if (r.verdict == Result.Verdict.INCOMPLETE)
                    assertEquals(honest.conclusion.openCount(), r.conclusion.openCount(), how);
            }
        }
    }
}

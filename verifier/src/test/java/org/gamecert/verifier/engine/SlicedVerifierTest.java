package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.SliceResult;
import org.gamecert.verifier.kernel.Violation;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pass 2 in slices (SlicedVerifier, what the Spark engine runs across executors) against the
 * single-machine engine: the same verdict, first violation, census and commitment on every
 * corpus file and vector; and a faulty slice engine never verifies (SPEC §11.1).
 */
class SlicedVerifierTest {
    @TempDir
    Path dir;

    static Options sliced(long entries) {
        Options o = new Options();
        o.sliced = new SlicedVerifier(entries);
        return o;
    }

    static void assertSameOutcome(Result expected, Result actual, String how) {
        assertEquals(expected.verdict, actual.verdict, how + ": verdict " + actual.errorMessage);
        assertEquals(expected.commitment, actual.commitment, how + ": commitment");
        assertEquals(expected.errorMessage, actual.errorMessage, how + ": error");
        Violation e = expected.firstViolation(), a = actual.firstViolation();
        assertEquals(e == null ? null : e.toString(), a == null ? null : a.toString(),
                how + ": first violation");
        assertEquals(expected.region, actual.region, how + ": region");
        assertEquals(expected.unreached, actual.unreached, how + ": unreached");
        assertEquals(expected.census.size(), actual.census.size(), how + ": census rows");
        for (int i = 0; i < expected.census.size(); i++)
            assertTrue(Arrays.equals(expected.census.get(i), actual.census.get(i)),
                    how + ": census row " + i);
        assertEquals(expected.rootMove, actual.rootMove, how + ": root move");
    }

    @TestFactory
    List<DynamicTest> sameOutcomeAsTheSingleMachineEngine() throws Exception {
        List<Path> files = DifferentialTest.certificates();
        assertTrue(files.size() > 80, files.size() + " certificates");
        List<DynamicTest> tests = new ArrayList<>();
        for (Path file : files)
            tests.add(DynamicTest.dynamicTest(DifferentialTest.ROOT.relativize(file).toString(), () -> {
                for (boolean strict : new boolean[] {false, true}) {
                    Options whole = new Options();
                    whole.strict = strict;
                    Result expected = Verifier.verify(file, whole);
                    for (long entries : new long[] {1, 50, 1 << 20}) {
                        Options o = sliced(entries);
                        o.strict = strict;
                        SlicedVerifier engine = (SlicedVerifier) o.sliced;
                        assertSameOutcome(expected, Verifier.verify(file, o),
                                file.getFileName() + " in slices of " + entries
                                        + (strict ? ", --strict" : ""));
                        // pass 1 of a certificate that verifies found nothing: in slices
                        // unless a part or mode 4, which the kernel checks otherwise
                        boolean otherwise = DifferentialTest.part(file) || expected.header == null
                                || expected.header.mode == 4;
                        if (expected.verdict == Result.Verdict.VERIFIED && !otherwise)
                            assertTrue(engine.slicesChecked > 0, "checked in slices");
                    }
                }
            }));
        return tests;
    }

    /** Faults of a slice engine, each made at one place (the first that it can change). */
    static Map<String, Supplier<SlicedVerifier.SliceFaults>> faults() {
        Map<String, Supplier<SlicedVerifier.SliceFaults>> f = new LinkedHashMap<>();
        f.put("drop a slice's result", () -> new SlicedVerifier.SliceFaults() {
            public List<SliceResult> results(List<SliceResult> honest) {
                return honest.size() > 1 ? honest.subList(1, honest.size()) : List.of();
            }
        });
        f.put("repeat a slice's result", () -> new SlicedVerifier.SliceFaults() {
            public List<SliceResult> results(List<SliceResult> honest) {
                List<SliceResult> out = new ArrayList<>(honest);
                out.add(honest.get(0));
                return out;
            }
        });
        f.put("drop a mark", () -> new SlicedVerifier.SliceFaults() {
            boolean done;

            public List<Slices.MarkBatch> marks(List<Slices.MarkBatch> honest) {
                for (Slices.MarkBatch m : honest)
                    if (!done && m.n > 0) {
                        m.n--;
                        done = true;
                    }
                return honest;
            }
        });
        f.put("repeat a mark", () -> new SlicedVerifier.SliceFaults() {
            boolean done;

            public List<Slices.MarkBatch> marks(List<Slices.MarkBatch> honest) {
                List<Slices.MarkBatch> out = new ArrayList<>(honest);
                if (!done && !honest.isEmpty()) {
                    out.add(honest.get(0));
                    done = true;
                }
                return out;
            }
        });
        f.put("change a mark's flags", () -> new SlicedVerifier.SliceFaults() {
            boolean done;

            public List<Slices.MarkBatch> marks(List<Slices.MarkBatch> honest) {
                for (Slices.MarkBatch m : honest)
                    if (!done && m.n > 0) {
                        m.bits[0] ^= 0x01;
                        done = true;
                    }
                return honest;
            }
        });
        f.put("move a mark to another entry", () -> new SlicedVerifier.SliceFaults() {
            boolean done;

            public List<Slices.MarkBatch> marks(List<Slices.MarkBatch> honest) {
                for (Slices.MarkBatch m : honest)
                    if (!done && m.n > 0) {
                        m.index[m.n - 1] += m.index[m.n - 1] > 0 ? -1 : 1;
                        done = true;
                    }
                return honest;
            }
        });
        f.put("answer with another record's bounds", () -> new SlicedVerifier.SliceFaults() {
            boolean done;

            public List<Slices.Answers> answers(List<Slices.Answers> honest) {
                for (Slices.Answers a : honest)
                    if (!done && a.n > 0) {
                        a.lo[0] = (byte) (a.lo[0] == a.hi[0] ? a.lo[0] - 1 : a.hi[0]);
                        done = true;
                    }
                return honest;
            }
        });
        f.put("answer with another record's kinds", () -> new SlicedVerifier.SliceFaults() {
            boolean done;

            public List<Slices.Answers> answers(List<Slices.Answers> honest) {
                for (Slices.Answers a : honest)
                    if (!done && a.n > 0) {
                        a.kind[0] ^= 0x01;
                        done = true;
                    }
                return honest;
            }
        });
        f.put("answer with another record's index", () -> new SlicedVerifier.SliceFaults() {
            boolean done;

            public List<Slices.Answers> answers(List<Slices.Answers> honest) {
                for (Slices.Answers a : honest)
                    if (!done && a.n > 0) {
                        a.index[0] += a.index[0] > 0 ? -1 : 1;
                        done = true;
                    }
                return honest;
            }
        });
        f.put("say absent for a present child", () -> new SlicedVerifier.SliceFaults() {
            boolean done;

            public List<Slices.Answers> answers(List<Slices.Answers> honest) {
                for (Slices.Answers a : honest)
                    if (!done && a.n > 0) {
                        a.n = 0;
                        done = true;
                    }
                return honest;
            }
        });
        return f;
    }

    /** On certificates of many small blocks that verify, each fault is caught and named. */
    @Test
    @Tag("slow")
    void everyFaultIsCaughtAndNamed() throws Exception {
        TinySolver othello = new TinySolver(1, 4, 4, 1, null);
        long[] start = othello.othelloStart();
        TestCert[] certs = {othello.build(start[0], start[1], 1), othello.build(start[0], start[1], 2),
            new TinySolver(2, 4, 4, 2, null).build(0, 0, 1)};
        for (int c = 0; c < certs.length; c++) {
            certs[c].maxBlockEntries = 7;
            Path file = dir.resolve("cert" + c + ".gsc");
            Files.write(file, certs[c].write());
            assertEquals(Result.Verdict.VERIFIED, Verifier.verify(file, sliced(20)).verdict, "honest");
            for (Map.Entry<String, Supplier<SlicedVerifier.SliceFaults>> fault : faults().entrySet()) {
                Options o = new Options();
                o.sliced = new SlicedVerifier(20, fault.getValue().get());
                Result r = Verifier.verify(file, o);
                String how = fault.getKey() + ", cert " + c + ": " + r.verdict + " " + r.errorMessage
                        + " " + r.firstViolation();
                assertNotEquals(Result.Verdict.VERIFIED, r.verdict, how);
                if (fault.getKey().startsWith("say absent")) {
                    assertEquals(Result.Verdict.REJECTED, r.verdict, how);
                } else {
                    assertEquals(Result.Verdict.ERROR, r.verdict, how);
                    assertTrue(r.errorMessage.startsWith("engine fault: "), how);
                }
            }
        }
    }

    /**
     * The slices' kernels read another file whose blocks are the same but whose header is not
     * (here: another root value): the header's hash is in the layout's fingerprint, so the
     * results are refused (without it, every slice but block 0's would decode against the
     * layout's chain values and be checked under that other header).
     */
    @Test
    void slicesReadingAnotherHeaderAreRefused() throws Exception {
        TinySolver othello = new TinySolver(1, 4, 4, 1, null);
        long[] start = othello.othelloStart();
        TestCert cert = othello.build(start[0], start[1], 1);
        cert.maxBlockEntries = 7;
        byte[] bytes = cert.write();
        Path file = dir.resolve("cert.gsc");
        Files.write(file, bytes);
        // the header content starts after the 8-byte frame header; root_value follows magic,
        // version, family, width, height, utility, symmetry, mode, tb_len, tb, two 8-byte boards
        int tbLen = bytes[8 + 12] & 0xFF;
        int rootValue = 8 + 13 + tbLen + 16;
        byte[] other = bytes.clone();
        other[rootValue]++;
        Path otherFile = dir.resolve("other-header.gsc");
        Files.write(otherFile, other);
        assertEquals(Result.Verdict.VERIFIED, Verifier.verify(file, sliced(20)).verdict);
        Options o = new Options();
        o.sliced = new SlicedVerifier(20, new SlicedVerifier.SliceFaults() {
            public Slices.Job job(Slices.Job honest) {
                return new Slices.Job(otherFile, honest.layout, honest.strict);
            }
        });
        Result r = Verifier.verify(file, o);
        assertEquals(Result.Verdict.ERROR, r.verdict, r.errorMessage);
        assertTrue(r.errorMessage.startsWith("engine fault: "), r.errorMessage);
    }

    /** On every corpus file and vector: no fault verifies what the honest engine does not. */
    @TestFactory
    List<DynamicTest> neverVerifiedWhereTheHonestEngineDoesNot() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path file : DifferentialTest.certificates())
            tests.add(DynamicTest.dynamicTest(DifferentialTest.ROOT.relativize(file).toString(), () -> {
                Result honest = Verifier.verify(file, sliced(50));
                for (Map.Entry<String, Supplier<SlicedVerifier.SliceFaults>> fault : faults().entrySet()) {
                    Options o = new Options();
                    o.sliced = new SlicedVerifier(50, fault.getValue().get());
                    Result r = Verifier.verify(file, o);
                    if (honest.verdict != Result.Verdict.VERIFIED)
                        assertNotEquals(Result.Verdict.VERIFIED, r.verdict, fault.getKey());
                }
            }));
        return tests;
    }
}

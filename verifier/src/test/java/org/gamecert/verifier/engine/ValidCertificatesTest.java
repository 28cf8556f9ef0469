package org.gamecert.verifier.engine;
import org.gamecert.verifier.kernel.Result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Valid certificates of tiny games, written by the brute-force test writer, verify. */
class ValidCertificatesTest {
    @TempDir
    Path dir;

    /** The engine's figures of the last verify. */
    Figures figures;

    Result verify(byte[] file, Options o) throws Exception {
        Path p = dir.resolve("c" + System.nanoTime() + ".gsc");
        Files.write(p, file);
        figures = new Figures();
        return Verifier.verify(p, o, figures);
    }

    Result assertVerified(TestCert t, Options o) throws Exception {
        byte[] file = t.write();
        Result r = verify(file, o);
        assertEquals(Result.Verdict.VERIFIED, r.verdict, () -> r.firstViolation() + " " + r.errorMessage);
        assertEquals(TestCert.commitmentOf(file), r.commitment);
        assertEquals(t.entries.size(), r.entries);
        assertEquals(0, r.unreached);
        long region = 0;
        for (long[] row : t.census) region += row[1];
        assertEquals(region, r.region);
        assertEquals(t.census.size(), r.census.size());
        return r;
    }

    @Test
    void connectFour4x4SemiStrong() throws Exception {
        for (int sym : new int[] {0, 2}) {
            TinySolver s = new TinySolver(2, 4, 4, sym, null);
            TestCert t = s.build(0, 0, 1);
            assertTrue(t.entries.size() > 100, "non-trivial: " + t.entries.size());
            assertVerified(t, new Options());
            Options threads = new Options();
            threads.threads = 3;
            t.maxBlockEntries = 7;
            assertVerified(t, threads);
            long saved = Verifier.sliceEntries;
            Verifier.sliceEntries = 1; // entries checked on several threads too
            try {
                t.maxBlockEntries = 1 << 16;
                assertVerified(t, threads);
            } finally {
                Verifier.sliceEntries = saved;
            }
        }
    }

    /** Layers too big for memory are checked in segments: same verdict, census and region. */
    @Test
    void layersInSegments() throws Exception {
        TinySolver oth = new TinySolver(1, 4, 4, 1, null);
        long[] start = oth.othelloStart();
        TestCert[] certs = {oth.build(start[0], start[1], 1), oth.build(start[0], start[1], 2), new TinySolver(2, 4, 4, 2, null).build(0, 0, 1)};
        long saved = Verifier.sliceEntries;
        try {
            for (TestCert t : certs) {
                long biggest = maxLayer(t);
                for (long limit : new long[] {biggest / 2 + 1, biggest / 7 + 1}) {
                    for (int threads : new int[] {1, 2}) {
                        Options o = new Options();
                        o.threads = threads;
                        o.maxHeldEntries = limit;
                        Verifier.sliceEntries = threads == 1 ? saved : 1;
                        assertVerified(t, o);
                        assertTrue(figures.splitLayers > 0, "layers split: " + figures.splitLayers);
                        assertEquals((biggest + limit - 1) / limit, figures.maxSegments, "segments of the biggest layer");
                    }
                }
            }
        } finally {
            Verifier.sliceEntries = saved;
        }
    }

    /**
     * A memory limit too small for some layer is refused before any layer is checked (no progress
     * reported), not after the layers above it: the room each layer needs is known from the map.
     */
    @Test
    void aMemoryLimitTooSmallForALayerIsRefusedBeforeAnyLayerIsChecked() throws Exception {
        TestCert t = othello4x4InSmallBlocks(512, 1 << 14);
        byte[] file = t.write();
        long fixed = (2L * t.maxBlockBytes + 1024 + 22 * t.maxBlockEntries) * 2;
        int refused = 0;
        for (long extra = 0; extra <= 64L * t.entries.size(); extra = extra * 5 / 4 + 64) {
            Options o = new Options();
            o.threads = 1;
            o.maxMemory = fixed + extra;
            long[] updates = {0};
            o.progress = (entries, layers, bytes, size, pass) -> updates[0]++;
            Result r = verify(file, o);
            if (r.verdict != Result.Verdict.ERROR) continue;
            assertTrue(r.errorMessage.contains("--max-memory"), r.errorMessage);
            assertEquals(0, updates[0], "max memory fixed + " + extra + ": " + r.errorMessage);
            refused++;
        }
        assertTrue(refused >= 2, "refused " + refused + " limits");
    }

    /**
     * Real memory limits, from far too small to ample: each run verifies with the same census or
     * ends in error for lack of memory (never rejected, never an internal error), and some verify
     * with layers split.
     */
    @Test
    void maxMemoryFromTooSmallToAmple() throws Exception {
        TestCert t = othello4x4InSmallBlocks(512, 1 << 14);
        Result whole = assertVerified(t, new Options());
        int split = 0;
        for (int threads : new int[] {1, 2}) {
            long fixed = (2L * t.maxBlockBytes + 1024 + 22 * t.maxBlockEntries) * (threads + 1);
            for (double f : new double[] {0.001, 0.02, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.5, 2, 3}) {
                Options o = new Options();
                o.threads = threads;
                o.maxMemory = fixed + (long) (f * 16 * t.entries.size());
                Result r = verify(t.write(), o);
                String what = "threads " + threads + ", max memory " + o.maxMemory + ": " + r.verdict + " " + r.errorMessage;
                if (r.verdict == Result.Verdict.ERROR) {
                    assertTrue(r.errorMessage.contains("--max-memory"), what);
                    continue;
                }
                assertEquals(Result.Verdict.VERIFIED, r.verdict, what);
                assertEquals(whole.region, r.region, what);
                for (int i = 0; i < whole.census.size(); i++)
                    assertEquals(java.util.Arrays.toString(whole.census.get(i)), java.util.Arrays.toString(r.census.get(i)), what);
                if (figures.splitLayers > 0) split++;
            }
        }
        assertTrue(split >= 4, "verified with layers split in " + split + " runs");
    }

    /**
     * A layer whose slices do not all fit beside a segment of the layer below is checked in as
     * many waves as it needs, however its slices' sizes fall: with many small slices and two
     * threads, every --max-memory from the first that verifies up to ample verifies too, with the
     * same region (a wave that a batch of slices overfilled was once refused).
     */
    @Test
    void aLayerInSegmentsTakesAsManyWavesAsItNeeds() throws Exception {
        TestCert t = othello4x4InSmallBlocks(8, 1 << 12);
        Result whole = assertVerified(t, new Options());
        byte[] file = t.write();
        int threads = 2;
        long saved = Verifier.sliceEntries;
        Verifier.sliceEntries = 1; // a slice a block
        try {
            long fixed = (2L * t.maxBlockBytes + 1024 + 40L * t.maxBlockEntries) * (threads + 1);
            long firstVerified = -1;
            int split = 0;
            for (long extra = 0; extra <= 64L * t.entries.size(); extra = extra * 5 / 4 + 64) {
                Options o = new Options();
                o.threads = threads;
                o.maxMemory = fixed + extra;
                Result r = verify(file, o);
                String what = "max memory fixed + " + extra + ": " + r.verdict + " " + r.errorMessage;
                if (r.verdict == Result.Verdict.VERIFIED) {
                    if (firstVerified < 0) firstVerified = extra;
                    assertEquals(whole.region, r.region, what);
                    if (figures.splitLayers > 0) split++;
                } else {
                    assertEquals(Result.Verdict.ERROR, r.verdict, what);
                    assertTrue(firstVerified < 0, what + " (verified with fixed + " + firstVerified + ")");
                }
            }
            assertTrue(split >= 2, "verified with layers split in " + split + " runs");
        } finally {
            Verifier.sliceEntries = saved;
        }
    }

    /**
     * More memory never turns a verified certificate into an error: a fine sweep of --max-memory
     * from the fixed overhead up (the flags, the held layer, segments and their indexes all
     * compete for it; a review found two budgets that did before).
     */
    @Test
    @Tag("slow")
    void moreMemoryNeverEndsInError() throws Exception {
        TinySolver c4 = new TinySolver(2, 4, 4, 2, null);
        long[] root = RuleViolationTest.c4Position(c4, "12");
        TestCert t = c4.build(root[0], root[1], 1);
        Result whole = assertVerified(t, new Options());
        byte[] file = t.write();
        for (int threads : new int[] {1, 2}) {
            Options probe = new Options();
            probe.threads = threads;
            probe.maxMemory = 1;
            Result r0 = verify(file, probe);
            long fixed = Long.parseLong(r0.errorMessage.replaceAll(".*limits need (\\d+) bytes.*", "$1"));
            long step = Math.max(1, t.entries.size() / 6), firstVerified = -1;
            for (long extra = 0; extra <= 24L * t.entries.size(); extra += step) {
                Options o = new Options();
                o.threads = threads;
                o.maxMemory = fixed + extra;
                Result r = verify(file, o);
                String what = "threads " + threads + ", max memory fixed + " + extra + ": " + r.verdict + " " + r.errorMessage;
                if (r.verdict == Result.Verdict.VERIFIED) {
                    if (firstVerified < 0) firstVerified = extra;
                    assertEquals(whole.region, r.region, what);
                } else {
                    assertEquals(Result.Verdict.ERROR, r.verdict, what);
                    assertTrue(firstVerified < 0, what + " (verified with fixed + " + firstVerified + ")");
                }
            }
            assertTrue(firstVerified >= 0, "verified somewhere in the sweep");
        }
    }

    /** The semi-strong 4×4 Othello certificate from the start, in blocks of the given limits. */
    static TestCert othello4x4InSmallBlocks(int maxBlockEntries, int maxBlockBytes) {
        TinySolver oth = new TinySolver(1, 4, 4, 1, null);
        long[] start = oth.othelloStart();
        TestCert t = oth.build(start[0], start[1], 1);
        t.maxBlockEntries = maxBlockEntries;
        t.maxBlockBytes = maxBlockBytes;
        return t;
    }

    /** Entries in the biggest layer below the root's. */
    static long maxLayer(TestCert t) {
        java.util.Map<Integer, Long> n = new java.util.HashMap<>();
        int rootDiscs = Long.bitCount(t.rootMover | t.rootOpponent);
        for (TestCert.Entry e : t.entries)
            if (Long.bitCount(e.occ) > rootDiscs) n.merge(Long.bitCount(e.occ), 1L, Long::sum);
        return n.values().stream().mapToLong(Long::longValue).max().orElse(0);
    }

    @Test
    void othello4x4SemiStrongAndWeak() throws Exception {
        for (int sym : new int[] {0, 1}) {
            TinySolver s = new TinySolver(1, 4, 4, sym, null);
            long[] start = s.othelloStart();
            assertVerified(s.build(start[0], start[1], 1), new Options());
            assertVerified(s.build(start[0], start[1], 2), new Options());
        }
    }
}

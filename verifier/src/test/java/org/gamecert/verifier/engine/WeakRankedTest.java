package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.rules.LoaRules;
import org.gamecert.verifier.testcert.LoaTestCerts;
import org.gamecert.verifier.testcert.TestCert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Weak-ranked certificates (SPEC §9.2) beyond the single rejections: memory, reachability, hostile bytes. */
class WeakRankedTest {
    @TempDir
    Path dir;

    Result verify(byte[] file, Options o) throws Exception {
        Path p = dir.resolve("c" + System.nanoTime() + ".gsc");
        Files.write(p, file);
        return Verifier.verify(p, o);
    }

    /** Entries that do not fit in --max-memory end in an error, before any claim is judged. */
    @Test
    void tooManyEntriesForTheMemoryIsAnError() throws Exception {
        long[] start = new LoaRules(6).start();
        TestCert t = LoaTestCerts.header(6, start[0], start[1], 1);
        t.entries.addAll(playedPositions(1300, 1)); // proper positions: no rule of their own fails
        Options o = new Options();
        o.maxMemory = 1; // room for the minimum, 1024 entries
        Result r = verify(t.write(), o);
        assertEquals(Result.Verdict.ERROR, r.verdict, () -> "" + r.firstViolation());
        assertTrue(r.errorMessage.contains("--max-memory"), r.errorMessage);
    }

    /**
     * n distinct positions of LOA 6×6 that an entry may hold (legal, not terminal, the mover has a
     * move), reached by random moves from the start, as {A} entries of the given rank in key order.
     */
    static java.util.List<TestCert.Entry> playedPositions(int n, int rank) {
        LoaRules g = new LoaRules(6);
        java.util.TreeMap<String, TestCert.Entry> byKey = new java.util.TreeMap<>();
        Random rnd = new Random(7);
        long[] out = new long[3];
        while (byKey.size() < n) {
            long[] p = g.start();
            for (int ply = 0; ply < 1 + rnd.nextInt(12); ply++) {
                long legal = g.legalMoveCodes(p[0], p[1]);
                if (legal == 0) break;
                int k = rnd.nextInt(Long.bitCount(legal));
                for (int j = 0; j < k; j++) legal &= legal - 1;
                if (g.child(p[0], p[1], Long.numberOfTrailingZeros(legal), out) == org.gamecert.verifier.kernel.rules.Game.TERMINAL) break;
                p = new long[] {out[0], out[1]};
            }
            if (!g.storable(p[0], p[1], g.legalMoveCodes(p[0], p[1]))) continue;
            TestCert.Entry e = new TestCert.Entry(p[0] | p[1], p[0], TestCert.A, 0, -1, 0);
            e.layer = rank;
            byKey.put(String.format("%016x%016x", e.occ, e.mover), e);
        }
        return new java.util.ArrayList<>(byKey.values());
    }

    /**
     * A file of a few hundred bytes whose one block declares 2^16 regular entries (they compress
     * to almost nothing): refused before the block is decompressed, since it would hold more than
     * 64 entries per byte of the file (SPEC §9.2), an error and not a verdict.
     */
    @Test
    void entriesOutOfProportionToTheFileAreRefusedBeforeDecompressing() throws Exception {
        long[] start = new LoaRules(6).start();
        TestCert t = LoaTestCerts.header(6, start[0], start[1], 1);
        for (int i = 0; i < 1 << 16; i++) {
            TestCert.Entry e = new TestCert.Entry(0x0F00_0000_0000L + i, 0, TestCert.A, 0, -1, 0);
            e.layer = 1;
            t.entries.add(e);
        }
        byte[] file = t.write();
        assertTrue(file.length * org.gamecert.verifier.kernel.FileMap.ENTRIES_PER_FILE_BYTE < 1 << 16,
                "a file of " + file.length + " bytes");
        Result r = verify(file, new Options());
        assertEquals(Result.Verdict.ERROR, r.verdict, () -> "" + r.firstViolation());
        assertTrue(r.errorMessage.contains("per byte"), r.errorMessage);
    }

    /**
     * Entries' own rules (R-POS-*, R-MOVE-1) are checked as their block is decoded: junk in the
     * first block is rejected there, before the next block is read or the trailer's rules
     * (R-ROOT-1 here: the root has no entry) are reached.
     */
    @Test
    void junkIsRejectedInTheBlockThatHoldsIt() throws Exception {
        long[] start = new LoaRules(6).start();
        TestCert t = LoaTestCerts.header(6, start[0], start[1], 1);
        t.chunk = 100;
        java.util.List<TestCert.Entry> good = playedPositions(300, 2);
        TestCert.Entry junk = new TestCert.Entry(0b111, 0b111, TestCert.A, 0, -1, 0); // no opponent piece
        junk.layer = 1;
        t.entries.add(junk);
        t.entries.addAll(good);
        Result r = verify(t.write(), new Options());
        assertEquals(Result.Verdict.REJECTED, r.verdict);
        assertEquals("R-POS-1", r.firstViolation().rule(), () -> "" + r.firstViolation());
        assertEquals(0, r.firstViolation().block());
    }

    /** An entry nothing consults is reported as unreached, and rejected with --strict (R-REACH-1). */
    @Test
    void unreachedEntries() throws Exception {
        TestCert t = LoaTestCerts.start4x4();
        LoaRules g = new LoaRules(4);
        long m = 0b101L, o = 1L << 15 | 1L << 12; // a1, c1 against a4, d4: not terminal
        TestCert.Entry extra = new TestCert.Entry(m | o, m, TestCert.A, 0, 1, 0); // "at most +1": true
        extra.layer = 1;
        int at = 0;
        while (at < t.entries.size() && t.entries.get(at).layer == 1
                && Long.compareUnsigned(t.entries.get(at).occ, extra.occ) < 0) at++;
        t.entries.add(at, extra);
        assertTrue(g.legalMoveCodes(m, o) != 0);
        Result r = verify(t.write(), new Options());
        assertEquals(Result.Verdict.VERIFIED, r.verdict, () -> "" + r.firstViolation());
        assertEquals(1, r.unreached);
        Options strict = new Options();
        strict.strict = true;
        Result s = verify(t.write(), strict);
        assertEquals(Result.Verdict.REJECTED, s.verdict);
        assertEquals("R-REACH-1", s.firstViolation().rule());
    }

    /**
     * R-RANK-1 binds every child entry a C or A obligation consults, also one that proves nothing
     * needed: an extra {A} ub = +1 entry (true of every position, U_max) at rank 0, one of whose
     * moves leads to a position the proof holds at a higher rank, is rejected there, although
     * without its child's entry it would verify (an unreached entry). The entry that breaks the
     * rule comes later in the file than the one checked: only a lookup among all entries finds
     * it. (Why mode 4 is not checked as layers by SliceCheck and the Combiner, whose lookups an
     * engine answers: an engine's "absent" is taken as safe there, as it only makes bounds
     * weaker; here it would hide this violation and turn the rejection into VERIFIED.)
     */
    @Test
    void aTrueBoundStillBreaksRankOneWhenItsChildSitsHigher() throws Exception {
        TestCert t = LoaTestCerts.start4x4();
        LoaRules g = new LoaRules(4);
        TestCert.Entry extra = null;
        for (TestCert.Entry e : t.entries) {
            extra = predecessorOf(g, t, e.mover, e.occ & ~e.mover);
            if (extra != null) break;
        }
        assertNotNull(extra, "a position one move before an entry's, itself without entry");
        extra.layer = 0;
        t.entries.add(0, extra);
        Result r = verify(t.write(), new Options());
        assertEquals(Result.Verdict.REJECTED, r.verdict);
        assertEquals("R-RANK-1", r.firstViolation().rule(), () -> "" + r.firstViolation());
        assertEquals(0, r.firstViolation().block());
        assertEquals(0, r.firstViolation().entry());
        // the same entry above every rank of the proof: its child's rank is lower, it verifies
        t.entries.remove(0);
        extra.layer = 1000;
        t.entries.add(extra);
        Result high = verify(t.write(), new Options());
        assertEquals(Result.Verdict.VERIFIED, high.verdict, () -> "" + high.firstViolation());
        assertEquals(1, high.unreached);
    }

    /**
     * An {A} ub = +1 entry for a legal, storable position without entry in t from which a move
     * leads to (childMover, childOpp): one of the child's opponent's pieces moved back along a
     * line, a piece of the child's mover put back where a capture took it or not; or null.
     */
    static TestCert.Entry predecessorOf(LoaRules g, TestCert t, long childMover, long childOpp) {
        long[] out = new long[3];
        for (long pieces = childOpp; pieces != 0; pieces &= pieces - 1) {
            long to = pieces & -pieces;
            for (int from = 0; from < 16; from++) {
                long f = 1L << from;
                if (((childMover | childOpp) & f) != 0) continue;
                for (long captured : new long[] {0, to}) {
                    long m = childOpp & ~to | f, o = childMover | captured;
                    if (!g.isLegalPosition(m, o)) continue;
                    long legal = g.legalMoveCodes(m, o);
                    if (!g.storable(m, o, legal)) continue;
                    boolean held = false;
                    for (TestCert.Entry e : t.entries) held |= e.occ == (m | o) && e.mover == m;
                    if (held) continue;
                    for (long l = legal; l != 0; l &= l - 1)
                        if (g.child(m, o, Long.numberOfTrailingZeros(l), out)
                                == org.gamecert.verifier.kernel.rules.Game.CHILD
                                && out[0] == childMover && out[1] == childOpp)
                            return new TestCert.Entry(m | o, m, TestCert.A, 0, 1, 0);
                }
            }
        }
        return null;
    }

    /**
     * Mode 4 is for any game (SPEC §9.2): a weak-ranked Connect Four 4x4 certificate of a position
     * found by seeded random play where the side to move wins within 5 plies verifies, and the
     * same with a rank raised to its parent's is R-RANK-1.
     */
    @Test
    void connectFourWeakRanked() throws Exception {
        org.gamecert.verifier.kernel.rules.ConnectFourRules g = new org.gamecert.verifier.kernel.rules.ConnectFourRules(4, 4);
        Random rnd = new Random(4);
        long[] c = new long[3];
        TestCert t = null;
        for (int game = 0; game < 200 && t == null; game++) {
            long m = 0, o = 0;
            for (int ply = 0; ply < 16 && t == null; ply++) {
                long legal = g.legalMoveCodes(m, o);
                if (ply >= 4 && legal != 0 && !g.isTerminal(m, o)) {
                    TestCert h = LoaTestCerts.header(4, m, o, 1);
                    h.family = 2;
                    h.tb = new int[] {1, 2, 0, 3};
                    TestCert p = LoaTestCerts.winProof(g, h, m, o, 5);
                    if (p != null && p.entries.size() >= 3) t = p;
                }
                if (legal == 0) break;
                int code = Long.numberOfTrailingZeros(legal);
                for (int k = rnd.nextInt(Long.bitCount(legal)); k > 0; k--) code = Long.numberOfTrailingZeros(legal &= legal - 1);
                if (g.child(m, o, code, c) == org.gamecert.verifier.kernel.rules.Game.TERMINAL) break;
                m = c[0];
                o = c[1];
            }
        }
        assertNotNull(t, "a won position");
        Result r = verify(t.write(), new Options());
        assertEquals(Result.Verdict.VERIFIED, r.verdict, () -> "" + r.firstViolation());
        TestCert.Entry top = t.entries.get(t.entries.size() - 1);
        for (TestCert.Entry e : t.entries) if (e != top) e.layer = top.layer; // every edge: equal ranks
        t.entries.sort((a, b) -> a.occ != b.occ ? Long.compareUnsigned(a.occ, b.occ) : Long.compareUnsigned(a.mover, b.mover));
        Result bad = verify(t.write(), new Options());
        assertEquals(Result.Verdict.REJECTED, bad.verdict);
        assertEquals("R-RANK-1", bad.firstViolation().rule());
    }

    /** Random byte flips of a valid weak-ranked certificate: always a verdict, never an exception. */
    @Test
    void flippedBytesGiveVerdicts() throws Exception {
        byte[] valid = LoaTestCerts.start4x4().write();
        Random rnd = new Random(20);
        int rejected = 0;
        for (int trial = 0; trial < 300; trial++) {
            byte[] b = valid.clone();
            int flips = 1 + rnd.nextInt(3);
            for (int f = 0; f < flips; f++) b[rnd.nextInt(b.length)] ^= (byte) (1 << rnd.nextInt(8));
            Result r = verify(b, new Options());
            assertNotNull(r.verdict);
            if (r.verdict == Result.Verdict.ERROR)
                assertTrue(r.errorMessage != null && !r.errorMessage.startsWith("internal error"), r.errorMessage);
            if (r.verdict == Result.Verdict.REJECTED) rejected++;
        }
        assertTrue(rejected > 100, "rejected " + rejected);
    }
}

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
        for (int i = 0; i < 3000; i++) { // one piece each: many distinct keys, rank 1
            long m = 1L << (i % 36), o = 1L << ((i / 36) % 36);
            if (m == o) continue;
            TestCert.Entry e = new TestCert.Entry(m | o, m, TestCert.A, 0, -1, 0);
            e.layer = 1; // 1,260 distinct keys in all
            t.entries.add(e);
        }
        t.entries.sort((a, b) -> a.layer != b.layer ? Integer.compare(a.layer, b.layer)
                : a.occ != b.occ ? Long.compareUnsigned(a.occ, b.occ) : Long.compareUnsigned(a.mover, b.mover));
        // keep the first of equal keys only (i and i + 1296 collide)
        for (int i = t.entries.size() - 1; i > 0; i--)
            if (t.entries.get(i).occ == t.entries.get(i - 1).occ && t.entries.get(i).mover == t.entries.get(i - 1).mover)
                t.entries.remove(i);
        Options o = new Options();
        o.maxMemory = 1; // room for the minimum, 1024 entries
        Result r = verify(t.write(), o);
        assertEquals(Result.Verdict.ERROR, r.verdict, () -> "" + r.firstViolation());
        assertTrue(r.errorMessage.contains("--max-memory"), r.errorMessage);
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

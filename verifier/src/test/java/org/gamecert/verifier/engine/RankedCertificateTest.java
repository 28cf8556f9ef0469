package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.gamecert.verifier.kernel.RankedKernel;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.format.Container;
import org.gamecert.verifier.kernel.rules.ConnectFourRules;
import org.gamecert.verifier.kernel.rules.Game;
import org.gamecert.verifier.testcert.LoaTestCerts;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Weak-ranked certificates (mode 4, RankedKernel, which reads through FileMap): false ones are
 * rejected by the rule they break, a mode-4 check takes only a mode-4 file, the report states
 * the root's move in the root's orientation, and the kernel's hash table spreads its keys (all
 * found by review 4 of the old kernel; none depends on the old engine).
 */
class RankedCertificateTest {
    @TempDir
    Path dir;

    Result verify(byte[] file, Options o) throws Exception {
        Path p = dir.resolve("c" + System.nanoTime() + ".gsc");
        Files.write(p, file);
        return Verifier.verify(p, o);
    }

    /**
     * Attack (hang on a big mode-4 file): RankedKernel.slot takes (h >>> 40) & (slots.length - 1),
     * and h >>> 40 has only 24 bits, so once the table grows past 2^24 slots (more than 2^23
     * entries, within the default --max-memory of 2 GiB, which allows about 44.7 M entries) every
     * key starts its linear probe in the first 2^24 slots. With 2^24 entries those slots are full
     * and every further insert or lookup walks one ever-growing cluster: quadratic time, a hang,
     * on a file of some 17 M entries (an honest 6x6 LOA proof may be that big). The start slots
     * must spread over the whole table. (Checked on the hash itself through reflection: a file of
     * 2^24 entries is too big for a unit test.)
     */
    @Test
    void rankedKernelsHashUsesTheWholeTableBeyond2To24Slots() throws Exception {
        Path header = dir.resolve("loa-header.gsc"); // a mode-4 file: what RankedKernel takes
        Files.write(header, mirroredRankedWin().write());
        RankedKernel rk;
        try (Container ct = new Container(header)) {
            rk = new RankedKernel(org.gamecert.verifier.kernel.FileMap.read(ct),
                    Options.DEFAULT_MAX_MEMORY, false, false, 10);
        }
        Field slots = RankedKernel.class.getDeclaredField("slots");
        slots.setAccessible(true);
        slots.set(rk, new int[1 << 25]); // the table's size for 2^23 < n <= 2^24 entries
        Method slot = RankedKernel.class.getDeclaredMethod("slot", long.class, long.class);
        slot.setAccessible(true);
        Random rnd = new Random(4);
        int upperHalf = 0;
        for (int i = 0; i < 4000; i++) {
            long m = rnd.nextLong() & 0xFFFFFFFFFL, o = rnd.nextLong() & 0xFFFFFFFFFL & ~m;
            if ((int) slot.invoke(rk, m | o, m) >= 1 << 24) upperHalf++;
        }
        slots.set(rk, new int[2048]);
        // a hash that spreads would put about half of the keys in the upper half
        assertTrue(upperHalf > 1000, "only " + upperHalf + " of 4000 keys start in the upper half"
                + " of a table of 2^25 slots: the probe starts are confined to 2^24 slots");
    }

    /**
     * A weak-ranked (mode 4) Connect Four 4x4 certificate with the mirror symmetry whose root is
     * given in its non-canonical orientation: X has three in column 4 (0-based 3), O three in
     * column 3; X wins at once in column 4. The one entry is the canonical (mirrored) position,
     * {C} lb = +1, cut move column 1 (code 0) in the stored orientation.
     */
    static TestCert mirroredRankedWin() {
        long mover = 1L << 15 | 1L << 16 | 1L << 17, opp = 1L << 10 | 1L << 11 | 1L << 12;
        TestCert t = LoaTestCerts.header(4, mover, opp, 1);
        t.family = 2;
        t.symmetry = 2;
        t.tb = new int[] {1, 2, 0, 3};
        long cm = 0b111L, co = 0b111L << 5; // the mirror image: the canonical form
        TestCert.Entry e = new TestCert.Entry(cm | co, cm, TestCert.C, 1, 0, 0);
        e.layer = 1;
        t.entries.add(e);
        return t;
    }

    /**
     * Attack (a false statement on a VERIFIED certificate): RankedKernel.run sets Result.rootMove
     * to the root entry's stored move, which is in the canonical orientation, while Result
     * documents "its stored move in the root's orientation" and Kernel.conclude (modes 1-3) maps
     * it back with g^-1 (SPEC §7.4). With a root given in another orientation the report says
     * "root move 1 achieves the value": in the root's own orientation column 1 is empty and far
     * from X's three, and O then wins in column 3. The move achieving the value is column 4.
     */
    @Test
    void rankedRootMoveIsStatedInTheRootsOrientation() throws Exception {
        TestCert t = mirroredRankedWin();
        ConnectFourRules g = new ConnectFourRules(4, 4);
        long[] c = new long[3];
        assertEquals(Game.TERMINAL, g.child(t.rootMover, t.rootOpponent, 3, c));
        assertEquals(1, c[2]); // column 4 wins at the root as given
        Path p = dir.resolve("mirrored-ranked.gsc");
        Files.write(p, t.write());
        Result r = Verifier.verify(p, new Options());
        assertEquals(Result.Verdict.VERIFIED, r.verdict, () -> "" + r.firstViolation());
        assertEquals(3, r.rootMove, "the root's cut move, in the root's orientation (SPEC §7.4)");
        java.io.ByteArrayOutputStream o = new java.io.ByteArrayOutputStream();
        java.io.PrintStream ps = new java.io.PrintStream(o, true,
                java.nio.charset.StandardCharsets.UTF_8);
        org.gamecert.verifier.cli.VerifyMain.run(new String[] {p.toString()}, ps, ps);
        String report = o.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(report.contains("root move   4 "), report);
    }

    /**
     * Attack (an engine hands a certificate that is not mode 4 to RankedKernel): RankedKernel's
     * constructor and run do not require the kernel's header to be weak-ranked; Verifier.Run
     * takes that path only when kernel.ranked(), but the choice is the engine's. RankedKernel
     * checks only the kinds C and A, so a semi-strong (mode 1) entry {P} is checked for nothing
     * but its position; its bounds read as [U_min, U_max], so a root claiming U_min meets R-ROOT-2.
     * A mode-1 Connect Four 4x4 certificate of one entry, the start as {P} with value -1 ("the
     * second player wins", false: a draw) and no census rows, is rejected (R-SERVE-1) by the
     * reference engine and VERIFIED through RankedKernel. RankedKernel must refuse a kernel whose
     * header is not mode 4 (an engine fault).
     */
    @Test
    void rankedKernelRefusesACertificateThatIsNotWeakRanked() throws Exception {
        TestCert t = LoaTestCerts.header(4, 0, 0, -1);
        t.family = 2;
        t.mode = 1;
        t.symmetry = 0;
        t.tb = new int[] {1, 2, 0, 3};
        t.sortEntries = true;
        t.entries.add(new TestCert.Entry(0, 0, TestCert.P, -1, -1, 1));
        assertEquals(0, new TinySolver(2, 4, 4, 0, null).value(0, 0), "Connect Four 4x4: a draw");
        Path p = dir.resolve("c4-false-loss.gsc");
        Files.write(p, t.write());
        Result ref = Verifier.verify(p, new Options());
        assertEquals(Result.Verdict.REJECTED, ref.verdict);
        assertEquals("R-SERVE-1", ref.firstViolation().rule());
        Result res = new Result();
        Result.Verdict verdict;
        try (Container ct = new Container(p)) {
            verdict = new RankedKernel(org.gamecert.verifier.kernel.FileMap.read(ct),
                    Options.DEFAULT_MAX_MEMORY, false, false, 10).run(ct).verdict;
        } catch (RuntimeException refused) {
            verdict = AttackCerts.faultAsResult(refused).verdict; // refused: an engine fault
        }
        assertEquals(Result.Verdict.ERROR, verdict, "a semi-strong certificate given to"
                + " RankedKernel, which checks none of its P obligations, must be refused");
    }

    /**
     * A weak-ranked Connect Four 4x4 certificate of one entry, the start as {A} <= -1 ("the first
     * player loses", false: a draw) at rank 0, is rejected (R-ALL-1), also by RankedKernel given
     * the file's map directly. (Review 4: the old engine could feed its block through the layered
     * pass first, which recorded the root there and left RankedKernel nothing to check; a FileMap
     * holds no such state.)
     */
    @Test
    void aFalseRankedRootIsRejectedByRankedKernelItself() throws Exception {
        TestCert t = LoaTestCerts.header(4, 0, 0, -1);
        t.family = 2;
        t.symmetry = 0;
        t.tb = new int[] {1, 2, 0, 3};
        TestCert.Entry e = new TestCert.Entry(0, 0, TestCert.A, -1, -1, 0);
        e.layer = 0;
        t.entries.add(e);
        Path p = dir.resolve("c4-ranked-false-loss.gsc");
        Files.write(p, t.write());
        Result ref = Verifier.verify(p, new Options());
        assertEquals(Result.Verdict.REJECTED, ref.verdict);
        assertEquals("R-ALL-1", ref.firstViolation().rule());
        Result res = new Result();
        Result.Verdict verdict;
        try (Container ct = new Container(p)) {
            verdict = new RankedKernel(org.gamecert.verifier.kernel.FileMap.read(ct),
                    Options.DEFAULT_MAX_MEMORY, false, false, 10).run(ct).verdict;
        } catch (RuntimeException refused) {
            verdict = AttackCerts.faultAsResult(refused).verdict; // refused: an engine fault
        }
        assertEquals(Result.Verdict.REJECTED, verdict, "Connect Four 4x4 'lost by the first player'");
    }

    /**
     * Repelled: a weak-ranked Othello 4x4 certificate (dihedral symmetry) whose root, one empty
     * square from the end, is proven exactly, plus an entry for a symmetric image of the root
     * that is not its canonical form (a true {A} <= +16): RankedKernel checks R-POS-3 itself.
     */
    @Test
    void rankedEntryInANonCanonicalOrientationIsRejected() throws Exception {
        org.gamecert.verifier.kernel.rules.OthelloRules g =
                new org.gamecert.verifier.kernel.rules.OthelloRules(4);
        Random rnd = new Random(9);
        long[] scratch = new long[9], c = new long[3];
        for (int trial = 0; trial < 100_000; trial++) {
            int empty = rnd.nextInt(16);
            long occ = 0xFFFFL & ~(1L << empty), m = rnd.nextLong() & occ, o = occ & ~m;
            if (!g.isLegalPosition(m, o) || Long.bitCount(g.legalMoveCodes(m, o)) != 1) continue;
            long co = g.canonical(m, o, 8, scratch), cm = scratch[8];
            long im = -1, io = -1;
            for (int k = 1; k < 8 && im < 0; k++) {
                long tm = g.transform(cm, k), to = g.transform(co & ~cm, k);
                if ((tm | to) != co || tm != cm) {
                    im = tm;
                    io = to;
                }
            }
            if (im < 0) continue;
            int code = Long.numberOfTrailingZeros(g.legalMoveCodes(cm, co & ~cm));
            assertEquals(Game.TERMINAL, g.child(cm, co & ~cm, code, c));
            int v = (int) c[2];
            TestCert t = LoaTestCerts.header(4, cm, co & ~cm, v);
            t.family = 1;
            t.utility = 1;
            t.symmetry = 1;
            t.tb = new int[16];
            for (int i = 0; i < 16; i++) t.tb[i] = i;
            t.sortEntries = true;
            TestCert.Entry root = new TestCert.Entry(co, cm, TestCert.C | TestCert.A, v, v, code);
            TestCert.Entry image = new TestCert.Entry(im | io, im, TestCert.A, -16, 16, 0);
            root.layer = image.layer = 1;
            t.entries.add(root);
            t.entries.add(image);
            Result r = verify(t.write(), new Options());
            assertEquals(Result.Verdict.REJECTED, r.verdict);
            assertEquals("R-POS-3", r.firstViolation().rule());
            return;
        }
        throw new AssertionError("no position found");
    }
}

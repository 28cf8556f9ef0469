package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.gamecert.verifier.cli.VerifyMain;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.rules.Game;
import org.gamecert.verifier.testcert.LoaTestCerts;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TestCert.Entry;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mode 5, semi-strong with optimal moves (SPEC §4, §9, §10.3, §12): an A' entry's other moves,
 * earlier or later, need only be at most its value (R-AP-2; no R-TB-1 there); P and P' keep
 * R-TB-1; never a part, never LOA; term_d leaves out the moves of an A'-only entry worth U_max.
 */
class SemiStrongOptimalModeTest {
    static TinySolver oth, c4;
    static TestCert othCert, c4Cert; // valid mode-1 certificates, canonical moves everywhere

    @TempDir
    Path dir;

    @BeforeAll
    static void build() {
        oth = new TinySolver(1, 4, 4, 1, null);
        long[] s = oth.othelloStart();
        othCert = oth.build(s[0], s[1], 1);
        c4 = new TinySolver(2, 4, 4, 2, null);
        long[] root = RuleViolationTest.c4Position(c4, "1234");
        c4Cert = c4.build(root[0], root[1], 1);
    }

    static TestCert withMode(TestCert t, int mode) {
        TestCert c = t.copy();
        c.mode = mode;
        return c;
    }

    Result verify(TestCert t) throws Exception {
        Path p = dir.resolve("c" + System.nanoTime() + ".gsc");
        Files.write(p, t.write());
        return Verifier.verify(p, new Options());
    }

    void rejects(TestCert t, String rule) throws Exception {
        Result r = verify(t);
        assertEquals(Result.Verdict.REJECTED, r.verdict, () -> "expected " + rule + ", got "
                + r.verdict + " " + r.errorMessage);
        assertEquals(rule, r.firstViolation().rule(), () -> r.firstViolation().toString());
    }

    static long termTotal(Result r) {
        long t = 0;
        for (long[] row : r.census) t += row[3];
        return t;
    }

    @Test
    void aCanonicalCertificateIsAlsoAValidModeFiveCertificateWithTheSameRegion() throws Exception {
        for (TestCert base : List.of(othCert, c4Cert)) {
            Result one = verify(base), five = verify(withMode(base, 5));
            assertEquals(Result.Verdict.VERIFIED, one.verdict);
            assertEquals(Result.Verdict.VERIFIED, five.verdict, () -> five.firstViolation() + "");
            assertEquals(5, five.header.baseMode);
            assertTrue(five.region > 0);
            assertEquals(one.region, five.region);
            for (int i = 0; i < one.census.size(); i++) {
                assertEquals(one.census.get(i)[1], five.census.get(i)[1], "region_d");
                assertEquals(one.census.get(i)[2], five.census.get(i)[2], "aux_d");
            }
        }
    }

    /** SPEC §10.3: at an A'-only entry worth U_max no rule reads the other moves in mode 5. */
    @Test
    void termDLeavesOutTheOtherMovesOfAnAPrimeEntryWorthUMaxInModeFiveOnly() throws Exception {
        long expectedLeftOut = 0;
        java.util.Set<Long> readElsewhere = new java.util.HashSet<>(), atUMax = new java.util.HashSet<>();
        long[] o = new long[3];
        for (Entry e : c4Cert.entries) {
            long opp = e.occ & ~e.mover;
            boolean apOnly = e.kind == TestCert.AP, a = (e.kind & TestCert.A) != 0;
            for (long m = c4.game.legalMoveCodes(e.mover, opp); m != 0; m &= m - 1) {
                int code = Long.numberOfTrailingZeros(m);
                if (c4.game.child(e.mover, opp, code, o) != Game.TERMINAL) continue;
                long key = c4.canonicalKey(o[0], o[1]);
                boolean read = a || (e.kind & TestCert.C) != 0 && code == e.move
                        || apOnly && code != e.move;
                if (!read) continue;
                if (apOnly && code != e.move && e.lo == c4.game.uMax) atUMax.add(key);
                else readElsewhere.add(key);
            }
        }
        Result one = verify(c4Cert), five = verify(withMode(c4Cert, 5));
        for (long k : atUMax) if (!readElsewhere.contains(k)) expectedLeftOut++;
        assertTrue(expectedLeftOut > 0, "the test board has such terminal moves");
        // none of them is a terminal position of R here (R's terminals are never proof-only)
        assertTrue(termTotal(one) - termTotal(five) <= expectedLeftOut);
        assertTrue(termTotal(five) < termTotal(one), termTotal(five) + " vs " + termTotal(one));
    }

    /**
     * An A'-only entry (value below U_max) and a move m != m*, earlier or later, whose child is an
     * exact auxiliary entry read by this entry alone; null when there is none.
     */
    static Object[] refutedMove(TinySolver s, TestCert base, boolean earlier) {
        long[] o = new long[3];
        for (Entry e : RuleViolationTest.ofKind(base, TestCert.AP)) {
            if (e.lo == s.game.uMax) continue;
            long opp = e.occ & ~e.mover;
            boolean before = true;
            for (int code : base.tb) {
                if (((s.game.legalMoveCodes(e.mover, opp) >>> code) & 1) == 0) continue;
                if (code == e.move) {
                    before = false;
                    continue;
                }
                if (before != earlier || s.game.child(e.mover, opp, code, o) != Game.CHILD) continue;
                long k = s.canonicalKey(o[0], o[1]);
                Entry c = base.find(k >>> 32, k & 0xFFFFFFFFL);
                if (c == null || c.kind != (TestCert.C | TestCert.A)
                        || RuleViolationTest.parents(base, s, c.occ, c.mover).size() != 1) continue;
                return new Object[] {e, c};
            }
        }
        return null;
    }

    @Test
    void aRefutedMoveThatMayBeWorthMoreIsRejectedAtAp2EarlierOrLater() throws Exception {
        int earlierFound = 0, laterFound = 0;
        for (TinySolver s : List.of(oth, c4)) {
            TestCert base = s == oth ? othCert : c4Cert;
            for (boolean earlier : new boolean[] {true, false}) {
                Object[] ec = refutedMove(s, base, earlier);
                if (ec == null) continue;
                Entry c = (Entry) ec[1];
                for (int mode : new int[] {1, 5}) {
                    TestCert t = withMode(base, mode);
                    t.find(c.occ, c.mover).lo = s.game.uMin; // the move may be worth U_max > v
                    // mode 1 reports an earlier move at R-TB-1, mode 5 every move at R-AP-2
                    rejects(t, mode == 1 && earlier ? "R-TB-1" : "R-AP-2");
                }
                if (earlier) earlierFound++;
                else laterFound++;
            }
        }
        assertTrue(earlierFound > 0 && laterFound > 0, earlierFound + " " + laterFound);
    }

    /** Mode 5 asks an earlier move to be at most v, mode 1 strictly less (R-TB-1). */
    @Test
    void anEarlierMoveProvenOnlyNoBetterIsEnoughInModeFiveNotInModeOne() throws Exception {
        int found = 0;
        for (TinySolver s : List.of(oth, c4)) {
            TestCert base = s == oth ? othCert : c4Cert;
            Object[] ec = refutedMove(s, base, true);
            if (ec == null) continue;
            Entry e = (Entry) ec[0], c = (Entry) ec[1];
            assertTrue(-c.lo < e.lo, "a canonical certificate: the earlier move is worse");
            for (int mode : new int[] {1, 5}) {
                TestCert t = withMode(base, mode);
                t.find(c.occ, c.mover).lo = -e.lo; // a true, weaker bound: the move is <= v
                if (mode == 1) rejects(t, "R-TB-1");
                else assertEquals(Result.Verdict.VERIFIED, verify(t).verdict);
            }
            found++;
        }
        assertTrue(found > 0);
    }

    /** P' entries keep R-TB-1 in mode 5: an earlier move worth the value is not canonical. */
    @Test
    void aPPrimeEntryStillProvesItsCanonicalMoveInModeFive() throws Exception {
        boolean done = false;
        for (Entry e : RuleViolationTest.ofKind(c4Cert, TestCert.PP)) {
            long opp = e.occ & ~e.mover;
            for (long m = c4.game.legalMoveCodes(e.mover, opp); m != 0 && !done; m &= m - 1) {
                int code = Long.numberOfTrailingZeros(m);
                if (code == e.move || c4.moveValue(e.mover, opp, code) >= e.lo) continue;
                TestCert t = withMode(c4Cert, 5);
                t.find(e.occ, e.mover).move = code;
                rejects(t, "R-TB-1");
                done = true;
            }
            if (done) break;
        }
        assertTrue(done);
    }

    @Test
    void modeFiveIsNeverAPartNorLoa() throws Exception {
        TestCert part = withMode(c4Cert, 5);
        part.mode = 5 | TestCert.PART;
        part.rootKinds = TestCert.P;
        part.rootUpper = part.rootValue;
        rejects(part, "R-HDR-1");
        TestCert loa = LoaTestCerts.start4x4();
        assertEquals(Result.Verdict.VERIFIED, verify(loa).verdict);
        loa.mode = 5;
        rejects(loa, "R-HDR-1");
        TestCert six = withMode(c4Cert, 6);
        rejects(six, "R-HDR-1");
    }

    @Test
    void theReportSaysWhatModeFiveProves() throws Exception {
        Path p = dir.resolve("five.gsc");
        Files.write(p, withMode(c4Cert, 5).write());
        for (boolean json : new boolean[] {false, true}) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
            int rc = json ? VerifyMain.run(new String[] {p.toString(), "--json"}, ps, ps)
                    : VerifyMain.run(new String[] {p.toString()}, ps, ps);
            String text = out.toString(StandardCharsets.UTF_8);
            assertEquals(0, rc, text);
            String mode = "semi-strong (optimal moves; tie-break proven at P and P' only)";
            assertTrue(text.contains(json ? "\"mode\":\"" + mode + "\"" : mode), text);
            if (!json) assertTrue(text.contains("an optimal move"), text);
        }
    }
}

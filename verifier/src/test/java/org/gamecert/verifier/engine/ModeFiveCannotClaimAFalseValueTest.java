package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;
import org.gamecert.verifier.cli.VerifyMain;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.rules.Game;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TestCert.Entry;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review (mode 5, SPEC 1.5.0 §4, §9, §10.1, §12): a mode-5 certificate proves the exact value of
 * every position of its region and an optimal move at A'-only entries; it must never verify a
 * false value, a non-optimal move, or a tie-break lie at P, P' or {A', P'} entries, and its
 * relaxed A' rule must not leak into other kind sets or the root. The certificates are made by
 * {@link OptimalMoveCerts}: an honest mode-5 producer that stores the last optimal move at A'
 * entries (so the region really differs from mode 1's), and variants that also do it where the
 * tie-break is still proven.
 */
class ModeFiveCannotClaimAFalseValueTest {
    record Game3(String name, TinySolver s, long[] root, TestCert like) {}

    static final List<Game3> GAMES = new ArrayList<>();

    @TempDir
    Path dir;

    @BeforeAll
    static void build() {
        TinySolver oth = new TinySolver(1, 4, 4, 1, null);
        long[] start = oth.othelloStart();
        GAMES.add(new Game3("othello4", oth, start, oth.build(start[0], start[1], 1)));
        for (int sym : new int[] {2, 0}) {
            TinySolver c4 = new TinySolver(2, 4, 4, sym, null);
            long[] r = RuleViolationTest.c4Position(c4, "1234");
            GAMES.add(new Game3("c4-4x4-sym" + sym, c4, r, c4.build(r[0], r[1], 1)));
        }
        TinySolver nogo = new TinySolver(3, 7, 1, 2, null);
        GAMES.add(new Game3("nogo7", nogo, new long[] {0, 0}, nogo.build(0, 0, 1)));
    }

    static TestCert cert(Game3 g, int mode, IntPredicate policy) {
        OptimalMoveCerts b = new OptimalMoveCerts(g.s, g.like.tb);
        TestCert t = OptimalMoveCerts.withHeaderOf(b.build(g.root[0], g.root[1], mode, policy),
                g.like);
        return t;
    }

    static int nonCanonical(Game3 g, IntPredicate policy) {
        OptimalMoveCerts b = new OptimalMoveCerts(g.s, g.like.tb);
        b.build(g.root[0], g.root[1], 5, policy);
        return b.nonCanonical;
    }

    Result verify(TestCert t) throws Exception {
        Path p = dir.resolve("c" + System.nanoTime() + ".gsc");
        Files.write(p, t.write());
        return Verifier.verify(p, new Options());
    }

    static String show(Result r) {
        return r.verdict + " " + r.errorMessage + " " + r.firstViolation();
    }

    void notVerified(TestCert t, String what) throws Exception {
        Result r = verify(t);
        assertEquals(Result.Verdict.REJECTED, r.verdict, () -> what + ": " + show(r));
    }

    /** The honest mode-5 producer: verified in mode 5, R-TB-1 in mode 1 (positive control). */
    @Test
    void anHonestModeFiveCertificateWithNonCanonicalAPrimeMovesVerifiesInModeFiveOnly()
            throws Exception {
        int games = 0;
        for (Game3 g : GAMES) {
            if (nonCanonical(g, OptimalMoveCerts.A_PRIME_ONLY) == 0) continue;
            games++;
            Result five = verify(cert(g, 5, OptimalMoveCerts.A_PRIME_ONLY));
            assertEquals(Result.Verdict.VERIFIED, five.verdict, () -> g.name + ": " + show(five));
            Result one = verify(cert(g, 1, OptimalMoveCerts.A_PRIME_ONLY));
            assertEquals(Result.Verdict.REJECTED, one.verdict, () -> g.name + ": " + show(one));
            assertEquals("R-TB-1", one.firstViolation().rule(), g.name);
        }
        assertTrue(games >= 2, "games with a non-canonical optimal move at an A' entry: " + games);
    }

    /** Mode 5 still proves the tie-break at P, P' and {A', P'} entries (SPEC §9, §12). */
    @Test
    void aNonCanonicalMoveAtAPOrPPrimeOrAPrimePPrimeEntryIsRejectedAtTb1InModeFive()
            throws Exception {
        int tried = 0;
        for (Game3 g : GAMES)
            for (IntPredicate policy : List.of(OptimalMoveCerts.ALSO_P,
                    OptimalMoveCerts.ALSO_P_PRIME, OptimalMoveCerts.ALSO_BOTH)) {
                if (nonCanonical(g, policy) == nonCanonical(g, OptimalMoveCerts.A_PRIME_ONLY))
                    continue; // the policy changed no entry of that kind here
                tried++;
                Result r = verify(cert(g, 5, policy));
                assertEquals(Result.Verdict.REJECTED, r.verdict, () -> g.name + ": " + show(r));
                assertEquals("R-TB-1", r.firstViolation().rule(), () -> g.name + ": " + show(r));
            }
        assertTrue(tried >= 3, "policies that changed a P, P' or {A', P'} entry: " + tried);
    }

    /** A false root value, in the header, in the root entry, or both. */
    @Test
    void aFalseRootValueIsRejectedInModeFive() throws Exception {
        for (Game3 g : GAMES) {
            TestCert honest = cert(g, 5, OptimalMoveCerts.A_PRIME_ONLY);
            assertEquals(Result.Verdict.VERIFIED, verify(honest).verdict, g.name);
            int v = honest.rootValue;
            long k = g.s.canonicalKey(honest.rootMover, honest.rootOpponent);
            for (int w = g.s.game.uMin; w <= g.s.game.uMax; w++) {
                if (w == v) continue;
                TestCert header = honest.copy();
                header.rootValue = w;
                notVerified(header, g.name + " header root value " + w);
                TestCert both = header.copy();
                Entry root = both.find(k >>> 32, k & 0xFFFFFFFFL);
                root.lo = root.hi = w;
                notVerified(both, g.name + " root value " + w + " in header and entry");
            }
        }
    }

    /**
     * Every A'-only entry of a mode-5 certificate given each other value (a few, for Othello):
     * never verified. Includes U_max, where R-AP-2 asks nothing of the other moves.
     */
    @Test
    void aFalseValueOfAnAPrimeOnlyEntryIsNeverVerified() throws Exception {
        int tried = 0;
        for (Game3 g : GAMES) {
            TestCert honest = cert(g, 5, OptimalMoveCerts.A_PRIME_ONLY);
            int seen = 0;
            for (int i = 0; i < honest.entries.size() && seen < 12; i++) {
                Entry e = honest.entries.get(i);
                if (e.kind != TestCert.AP) continue;
                seen++;
                for (int w : falseValues(g.s.game, e.lo)) {
                    TestCert t = honest.copy();
                    Entry x = t.entries.get(i);
                    x.lo = x.hi = w;
                    notVerified(t, g.name + " A' entry " + i + " value " + e.lo + " -> " + w);
                    tried++;
                }
            }
        }
        assertTrue(tried > 20, "A' entries tried: " + tried);
    }

    static int[] falseValues(Game game, int v) {
        List<Integer> out = new ArrayList<>();
        for (int w : new int[] {game.uMin, v - 2, v - 1, v + 1, v + 2, game.uMax})
            if (w != v && w >= game.uMin && w <= game.uMax && !out.contains(w)) out.add(w);
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** An A'-only entry whose stored move is strictly worse than its value: not verified. */
    @Test
    void aNonOptimalMoveAtAnAPrimeOnlyEntryIsNeverVerified() throws Exception {
        int tried = 0;
        long[] o = new long[3];
        for (Game3 g : GAMES) {
            TestCert honest = cert(g, 5, OptimalMoveCerts.A_PRIME_ONLY);
            for (int i = 0; i < honest.entries.size() && tried < 60; i++) {
                Entry e = honest.entries.get(i);
                if (e.kind != TestCert.AP) continue;
                long opp = e.occ & ~e.mover;
                for (long m = g.s.game.legalMoveCodes(e.mover, opp); m != 0; m &= m - 1) {
                    int code = Long.numberOfTrailingZeros(m);
                    if (g.s.moveValue(e.mover, opp, code) >= e.lo) continue;
                    // the worst case for the verifier: the child of that move is given the kind
                    // the stored move needs (P'), with its true value
                    TestCert t = honest.copy();
                    t.entries.get(i).move = code;
                    notVerified(t, g.name + " A' entry " + i + " move " + code);
                    if (g.s.game.child(e.mover, opp, code, o) != Game.TERMINAL) {
                        long ck = g.s.canonicalKey(o[0], o[1]);
                        Entry c = t.find(ck >>> 32, ck & 0xFFFFFFFFL);
                        if (c != null && (c.kind == (TestCert.C | TestCert.A))) {
                            c.kind = TestCert.PP;
                            c.move = g.s.canonicalMove(c.mover, c.occ & ~c.mover);
                            notVerified(t, g.name + " A' entry " + i + " move " + code
                                    + ", its child made P'");
                        }
                    }
                    tried++;
                }
            }
        }
        assertTrue(tried > 5, "non-optimal moves tried: " + tried);
    }

    /**
     * Kind sets that mix P with A' or P', or exact with bound kinds, are R-KIND-1 in mode 5 as in
     * mode 1; the root's entry must hold P (R-ROOT-2), also when it is {A', P'} or A' with an
     * optimal move.
     */
    @Test
    void mixedKindSetsAndARootWithoutPAreRejectedInModeFive() throws Exception {
        for (Game3 g : GAMES) {
            TestCert honest = cert(g, 5, OptimalMoveCerts.A_PRIME_ONLY);
            for (int bad : new int[] {0x03, 0x05, 0x07, 0x0A, 0x12, 0x11, 0x0C, 0x14, 0x20, 0x42}) {
                for (int kind : new int[] {TestCert.P, TestCert.AP, TestCert.PP}) {
                    int i = indexOfKind(honest, kind);
                    if (i < 0) continue;
                    TestCert t = honest.copy();
                    t.entries.get(i).kind = bad;
                    Result r = verify(t);
                    assertEquals(Result.Verdict.REJECTED, r.verdict, () -> g.name + " kind "
                            + bad + ": " + show(r));
                    assertEquals("R-KIND-1", r.firstViolation().rule(), g.name + " " + bad);
                }
            }
            long k = g.s.canonicalKey(honest.rootMover, honest.rootOpponent);
            for (int kind : new int[] {TestCert.AP | TestCert.PP, TestCert.AP}) {
                TestCert t = honest.copy();
                Entry root = t.find(k >>> 32, k & 0xFFFFFFFFL);
                root.kind = kind;
                // an A'-only root proves an optimal move, not the canonical one: still not a P root
                root.move = new OptimalMoveCerts(g.s, g.like.tb).lastOptimal(root.mover,
                        root.occ & ~root.mover);
                if (kind != TestCert.AP)
                    root.move = g.s.canonicalMove(root.mover, root.occ & ~root.mover);
                Result r = verify(t);
                assertEquals(Result.Verdict.REJECTED, r.verdict, () -> g.name + ": " + show(r));
                assertNotEquals(null, r.firstViolation());
            }
        }
    }

    /**
     * Othello: A'-only entries whose stored move is followed by a contracted pass (the child's
     * need is P' passed through f, SPEC §7.2): a false value there, or a stored move that is not
     * optimal, is never verified in mode 5.
     */
    @Test
    void aPassAfterTheStoredMoveOfAnAPrimeOnlyEntryDoesNotRelaxItsValue() throws Exception {
        Game3 g = GAMES.get(0);
        TestCert honest = cert(g, 5, OptimalMoveCerts.A_PRIME_ONLY);
        long[] o = new long[3];
        int tried = 0;
        for (int i = 0; i < honest.entries.size() && tried < 10; i++) {
            Entry e = honest.entries.get(i);
            long opp = e.occ & ~e.mover;
            if (e.kind != TestCert.AP
                    || g.s.game.child(e.mover, opp, e.move, o) != Game.PASS_CHILD)
                continue;
            tried++;
            for (int w : falseValues(g.s.game, e.lo)) {
                TestCert t = honest.copy();
                t.entries.get(i).lo = t.entries.get(i).hi = w;
                notVerified(t, "A' entry " + i + " (a pass after its move) value " + w);
            }
            for (long m = g.s.game.legalMoveCodes(e.mover, opp); m != 0; m &= m - 1) {
                int code = Long.numberOfTrailingZeros(m);
                if (g.s.moveValue(e.mover, opp, code) >= e.lo) continue;
                TestCert t = honest.copy();
                t.entries.get(i).move = code;
                notVerified(t, "A' entry " + i + " (a pass after its move) move " + code);
            }
        }
        assertTrue(tried > 0, "A'-only entries whose stored move leads to a pass");
    }

    /**
     * Pins the reference's reading of SPEC §10.2 in mode 5: at an A'-only entry worth U_max no
     * rule reads the other moves (§9 note, §10.3), yet they are consulted moves for
     * reachability ("every move for A'"): their children's entries are reached, so --strict
     * (R-REACH-1) holds. A second implementation that skips those lookups would differ here.
     */
    @Test
    void theOtherMovesOfAnAPrimeEntryWorthUMaxStillReachTheirChildrenUnderStrict()
            throws Exception {
        int atUMax = 0;
        long[] o = new long[3];
        for (Game3 g : GAMES.subList(1, 3)) {
            TestCert honest = cert(g, 5, OptimalMoveCerts.A_PRIME_ONLY);
            for (Entry e : honest.entries) {
                if (e.kind != TestCert.AP || e.lo != g.s.game.uMax) continue;
                long opp = e.occ & ~e.mover;
                for (long m = g.s.game.legalMoveCodes(e.mover, opp); m != 0; m &= m - 1) {
                    int code = Long.numberOfTrailingZeros(m);
                    if (code != e.move && g.s.game.child(e.mover, opp, code, o) == Game.CHILD)
                        atUMax++;
                }
            }
            Path p = dir.resolve(g.name + "-strict.gsc");
            Files.write(p, honest.write());
            Options strict = new Options();
            strict.strict = true;
            Result r = Verifier.verify(p, strict);
            assertEquals(Result.Verdict.VERIFIED, r.verdict, () -> g.name + ": " + show(r));
            assertEquals(0, r.unreached, g.name);
        }
        assertTrue(atUMax > 0, "A'-only entries worth U_max with other non-terminal moves");
    }

    static int indexOfKind(TestCert t, int kind) {
        for (int i = 0; i < t.entries.size(); i++) if (t.entries.get(i).kind == kind) return i;
        return -1;
    }

    /**
     * What the report says of a verified mode-5 certificate whose A' moves are not canonical:
     * never that its region's moves are canonical; the root's move is called canonical (a P
     * entry: R-TB-1 is proven there).
     */
    @Test
    void theReportOfAModeFiveCertificateNeverCallsItsRegionCanonical() throws Exception {
        Game3 g = GAMES.get(1);
        TestCert t = cert(g, 5, OptimalMoveCerts.A_PRIME_ONLY);
        assertTrue(nonCanonical(g, OptimalMoveCerts.A_PRIME_ONLY) > 0);
        Path p = dir.resolve("five.gsc");
        Files.write(p, t.write());
        for (boolean json : new boolean[] {false, true}) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
            int rc = VerifyMain.run(json ? new String[] {p.toString(), "--json"}
                    : new String[] {p.toString()}, ps, ps);
            String text = out.toString(StandardCharsets.UTF_8);
            assertEquals(0, rc, text);
            assertFalse(text.contains("exact value and canonical move"), text);
            assertFalse(text.contains("\"mode\":\"semi-strong\""), text);
        }
    }
}

package org.gamecert.verifier.compose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.gamecert.verifier.engine.CompositeVerifier;
import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.engine.Verifier;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TestComposite;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Composites that verify (SPEC §15): a small game split into a root part with open entries and
 * parts rooted at them, semi-strong and weak, a tree of parts; a part missing is incomplete; the
 * composite's summed and union census against the monolithic certificate's.
 */
class CompositeTest {
    static TinySolver oth, c4;
    static long[] othStart, c4Root;

    @TempDir
    Path dir;

    @BeforeAll
    static void games() {
        oth = new TinySolver(1, 4, 4, 1, null);
        othStart = oth.othelloStart();
        c4 = new TinySolver(2, 4, 4, 2, null);
        c4Root = c4Position(c4, "2233");
    }

    /** Plays 1-based columns from the empty board. */
    static long[] c4Position(TinySolver s, String moves) {
        long mover = 0, opp = 0;
        for (char ch : moves.toCharArray()) {
            long cell = s.game.moveDelta(mover, opp, ch - '1');
            long t = opp;
            opp = mover | cell;
            mover = t;
        }
        return new long[] {mover, opp};
    }

    static CompositeVerifier.Outcome check(Path d, int threads) {
        Options o = new Options();
        o.threads = threads;
        return CompositeVerifier.verify(d, o, null);
    }

    Result verify(byte[] file) throws Exception {
        Path p = dir.resolve("one" + System.nanoTime() + ".gsc");
        Files.write(p, file);
        return Verifier.verify(p, new Options());
    }

    static String why(CompositeVerifier.Outcome c) {
        return c.error + " " + (c.composition == null ? "" : c.composition.violation + " / " + c.composition.partViolation);
    }

    /** The monolithic certificate's region per disc count equals the composite's union. */
    static void unionIsTheMonolithicRegion(TestCert mono, CompositeVerifier.Outcome c) {
        assertNotNull(c.union, c.unionNote);
        for (long[] row : mono.census) {
            int r = -1;
            for (int i = 0; i < c.census.length; i++) if (c.census[i][0] == row[0]) r = i;
            assertTrue(r >= 0, "row " + row[0]);
            assertEquals(row[1], c.union[r], "region at " + row[0] + " discs");
            assertTrue(c.census[r][1] >= row[1], "the sum counts at least the union");
        }
    }

    @Test
    void semiStrongOthelloSplitVerifies() throws Exception {
        TestCert mono = oth.build(othStart[0], othStart[1], 1);
        TestComposite comp = TestComposite.split(oth, othStart[0], othStart[1], 1, 8);
        assertTrue(comp.parts.size() > 3, "parts: " + comp.parts.size());
        java.util.Set<Integer> claims = new java.util.TreeSet<>();
        for (int i = 1; i < comp.parts.size(); i++) claims.add(comp.parts.get(i).cert.rootKinds);
        assertTrue(claims.containsAll(List.of(TestCert.P, TestCert.AP, TestCert.PP, TestCert.C | TestCert.A)),
                "parts discharge P, A', P' and bound needs: " + claims);
        Result rootAlone = verify(comp.parts.get(0).bytes);
        assertEquals(Result.Verdict.INCOMPLETE, rootAlone.verdict, () -> rootAlone.errorMessage + " " + rootAlone.firstViolation());
        assertTrue(rootAlone.conclusion.openCount() > 0);
        assertNull(rootAlone.commitment, "no id for an incomplete part");
        for (int i = 1; i < comp.parts.size(); i++) {
            Result r = verify(comp.parts.get(i).bytes);
            assertEquals(Result.Verdict.VERIFIED, r.verdict, () -> r.errorMessage + " " + r.firstViolation());
        }
        CompositeVerifier.Outcome c = check(comp.writeTo(dir.resolve("oth")), 2);
        assertEquals(Result.Verdict.VERIFIED, c.verdict(), () -> why(c));
        assertEquals(comp.compositeId(), c.composition.compositeId);
        unionIsTheMonolithicRegion(mono, c);
    }

    @Test
    void weakOthelloSplitVerifies() throws Exception {
        TestComposite comp = TestComposite.split(oth, othStart[0], othStart[1], 2, 8);
        assertTrue(comp.parts.size() > 3, "parts: " + comp.parts.size());
        for (TestComposite.Part p : comp.parts) assertEquals(0x82, p.cert.mode);
        CompositeVerifier.Outcome c = check(comp.writeTo(dir.resolve("weak")), 1);
        assertEquals(Result.Verdict.VERIFIED, c.verdict(), () -> why(c));
        long aux = 0;
        for (long[] row : c.census) {
            assertEquals(0, row[1], "a weak composite has no region");
            aux += row[2];
        }
        long parts = 0;
        for (TestComposite.Part p : comp.parts) for (long[] row : p.cert.census) parts += row[2];
        assertEquals(parts, aux, "the sum of the parts' auxiliary entries");
    }

    /** Connect Four after 2233: terminal positions in the region, a tree of parts. */
    @Test
    void connectFourTreeOfPartsVerifies() throws Exception {
        TestCert mono = c4.build(c4Root[0], c4Root[1], 1);
        TestComposite comp = TestComposite.split(c4, c4Root[0], c4Root[1], 1, 7, 10);
        boolean tree = false;
        for (int i = 1; i < comp.parts.size(); i++)
            for (TestCert.Entry e : comp.parts.get(i).cert.entries) tree |= (e.kind & TestCert.O) != 0;
        assertTrue(tree, "a part below the root part has open entries");
        CompositeVerifier.Outcome c = check(comp.writeTo(dir.resolve("c4")), 2);
        assertEquals(Result.Verdict.VERIFIED, c.verdict(), () -> why(c));
        unionIsTheMonolithicRegion(mono, c);
        long sumParts = 0, sumRows = 0;
        for (TestComposite.Part p : comp.parts) for (long[] row : p.cert.census) sumParts += row[1];
        for (long[] row : c.census) sumRows += row[1];
        assertEquals(sumParts, sumRows, "the summed census is the parts' rows added up");
    }

    /** A tree of parts on Othello, checked with several threads and with one. */
    @Test
    void othelloTreeOfPartsVerifies() throws Exception {
        TestCert mono = oth.build(othStart[0], othStart[1], 1);
        TestComposite comp = TestComposite.split(oth, othStart[0], othStart[1], 1, 6, 10);
        Path d = comp.writeTo(dir.resolve("tree"));
        for (int threads : new int[] {1, 3}) {
            CompositeVerifier.Outcome c = check(d, threads);
            assertEquals(Result.Verdict.VERIFIED, c.verdict(), () -> why(c));
            unionIsTheMonolithicRegion(mono, c);
        }
    }

    /** A part not given: incomplete, the open entries it would discharge named still open. */
    @Test
    void aMissingPartIsIncomplete() throws Exception {
        TestComposite comp = TestComposite.split(oth, othStart[0], othStart[1], 1, 8);
        Path d = comp.writeTo(dir.resolve("missing"));
        int gone = comp.parts.size() - 1;
        Files.delete(d.resolve(comp.parts.get(gone).hex() + ".gsc"));
        CompositeVerifier.Outcome c = check(d, 2);
        assertEquals(Result.Verdict.INCOMPLETE, c.verdict(), () -> why(c));
        assertNull(c.composition.compositeId);
        int named = 0;
        for (long[] l : comp.links) if (l[3] == gone) named++;
        assertEquals(named, c.composition.stillOpenCount());
        for (int i = 0; i < named; i++) assertEquals(gone, c.manifest.linkPart(c.composition.stillOpenLink(i)));
        assertEquals("not given", c.parts.get(gone).status);
        assertTrue(c.parts.get(gone).note.contains("no file"), c.parts.get(gone).note);
    }

    /** A part file whose content is another part: not given (its commitment is not its name). */
    @Test
    void aPartFileWithOtherContentIsNotGiven() throws Exception {
        TestComposite comp = TestComposite.split(oth, othStart[0], othStart[1], 1, 8);
        Path d = comp.writeTo(dir.resolve("swapped"));
        Files.write(d.resolve(comp.parts.get(1).hex() + ".gsc"), comp.parts.get(2).bytes);
        CompositeVerifier.Outcome c = check(d, 1);
        assertEquals(Result.Verdict.INCOMPLETE, c.verdict(), () -> why(c));
        assertTrue(c.parts.get(1).note.contains("another certificate"), c.parts.get(1).note);
        // a rejected file at a part's name that is not the part either: not given, not rejected
        TestCert bad = comp.parts.get(1).cert.copy();
        bad.rootValue += 2;
        bad.rootUpper += 2;
        Files.write(d.resolve(comp.parts.get(1).hex() + ".gsc"), bad.write());
        CompositeVerifier.Outcome c2 = check(d, 1);
        assertEquals(Result.Verdict.INCOMPLETE, c2.verdict(), () -> why(c2));
        assertTrue(c2.parts.get(1).note.startsWith("rejected, and its content is not the part"), c2.parts.get(1).note);
    }

    /** A certificate that is not a part discharges an open entry of kind P: it claims {P}. */
    @Test
    void aPlainCertificateCanBeAPart() throws Exception {
        TestComposite comp = TestComposite.split(oth, othStart[0], othStart[1], 1, 8);
        boolean replaced = false;
        for (int i = 1; i < comp.parts.size() && !replaced; i++) {
            TestCert t = comp.parts.get(i).cert;
            if (t.rootKinds != TestCert.P) continue;
            TestComposite.Part plain = new TestComposite.Part(oth.build(t.rootMover, t.rootOpponent, 1));
            for (long[] l : comp.links) if (l[3] == i) l[3] = comp.parts.size();
            comp.parts.add(plain);
            comp.parts.remove(i);
            for (long[] l : comp.links) if (l[3] > i) l[3]--;
            replaced = true;
        }
        assertTrue(replaced, "an open entry of kind P");
        comp.sortParts();
        CompositeVerifier.Outcome c = check(comp.writeTo(dir.resolve("plain")), 2);
        assertEquals(Result.Verdict.VERIFIED, c.verdict(), () -> why(c));
    }
}

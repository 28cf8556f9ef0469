package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.gamecert.verifier.kernel.Composition;
import org.gamecert.verifier.kernel.PartConclusion;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.Violation;
import org.gamecert.verifier.kernel.format.Manifest;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TestComposite;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a composite's check holds in memory (SPEC §15.3, §15.4): of a part's open entries the
 * kernel keeps only those the links name and the first that none names, with the same verdicts
 * and first violations as when it keeps them all; region keys for the union come from one
 * allowance shared by the parts.
 */
class CompositeMemoryTest {
    @TempDir
    static Path dir;
    static TinySolver s;
    static long[] start;

    @BeforeAll
    static void solver() {
        s = new TinySolver(1, 4, 4, 1, null);
        start = s.othelloStart();
    }

    /**
     * Part i of the composite at d, checked as part i of m (partOf) or, m null, for a composite
     * but with all its open entries kept (as checked alone).
     */
    static Result check(Path d, TestComposite c, Manifest m, int i) {
        Options o = new Options();
        o.forComposition = true; // as a composite's engine checks its parts
        if (m != null) {
            o.composite = m;
            o.compositePart = i;
        }
        return Verifier.verify(d.resolve(c.parts.get(i).hex() + ".gsc"), o);
    }

    static int openEntries(TestCert t) {
        int n = 0;
        for (TestCert.Entry e : t.entries) if ((e.kind & TestCert.O) != 0) n++;
        return n;
    }

    static Composition.Outcome decide(Path d, TestComposite c, Manifest m, boolean asParts) {
        int n = c.parts.size();
        PartConclusion[] concluded = new PartConclusion[n];
        for (int i = 0; i < n; i++) concluded[i] = check(d, c, asParts ? m : null, i).conclusion;
        return Composition.decide(m, concluded, new Violation[n], false);
    }

    @Test
    void onlyTheLinkedOpenEntriesAreKept() throws Exception {
        TestComposite c = TestComposite.split(s, start[0], start[1], 1, 8);
        int open = openEntries(c.parts.get(0).cert), links = 0;
        for (long[] l : c.links) if (l[0] == 0) links++;
        assertTrue(open > 3 && links == open, open + " open entries, " + links + " links");
        // three open entries of part 0 that no link names
        c.links.remove(4);
        c.links.remove(2);
        c.links.remove(0);
        Path d = c.writeTo(dir.resolve("unlinked"));
        Manifest m = Manifest.read(d.resolve("composite.gscm"));
        Result asPart = check(d, c, m, 0), alone = check(d, c, null, 0);
        assertEquals(Result.Verdict.INCOMPLETE, asPart.verdict);
        assertEquals(open, asPart.conclusion.openCount(), "every open entry is counted");
        assertEquals(links - 3 + 1, asPart.conclusion.openKept(), "the linked ones and the first unlinked");
        assertEquals(open, alone.conclusion.openKept(), "alone: all of them");
        assertEquals(alone.region, asPart.region);
        // the same first violation as with every open entry kept
        Composition.Outcome kept = decide(d, c, m, true), all = decide(d, c, m, false);
        assertEquals(Result.Verdict.REJECTED, kept.verdict);
        assertEquals("R-COMP-3", kept.violation.rule());
        assertEquals(all.violation.toString(), kept.violation.toString());
        assertTrue(kept.violation.message().startsWith("open entry 0 of part 0"), kept.violation.message());
        CompositeVerifier.Outcome out = CompositeVerifier.verify(d, new Options(), null);
        assertEquals(all.violation.toString(), out.composition.violation.toString());
    }

    @Test
    void theFirstUnlinkedOpenEntryIsNamedByItsPlace() throws Exception {
        TestComposite c = TestComposite.split(s, start[0], start[1], 1, 8);
        int k = 0;
        for (long[] l : c.links) if (l[0] == 0) k++;
        // links 1 and 3 of part 0 (its open entries in key order) name no entry: the first in
        // file order of the two is reported, by its place among all the part's open entries
        c.links.remove(3);
        c.links.remove(1);
        Path d = c.writeTo(dir.resolve("unlinked2"));
        Manifest m = Manifest.read(d.resolve("composite.gscm"));
        Composition.Outcome kept = decide(d, c, m, true), all = decide(d, c, m, false);
        assertEquals(all.violation.toString(), kept.violation.toString());
        assertFalse(kept.violation.message().startsWith("open entry 0 "), kept.violation.message());
        assertTrue(k > 3);
    }

    @Test
    void aVerifiedCompositeIsTheSameWithOpenEntriesKeptPerPart() throws Exception {
        TestComposite c = TestComposite.split(s, start[0], start[1], 1, 8, 11);
        Path d = c.writeTo(dir.resolve("good"));
        Manifest m = Manifest.read(d.resolve("composite.gscm"));
        assertEquals(Result.Verdict.VERIFIED, decide(d, c, m, true).verdict);
        assertEquals(Result.Verdict.VERIFIED, decide(d, c, m, false).verdict);
        assertEquals(Result.Verdict.VERIFIED, CompositeVerifier.verify(d, new Options(), null).verdict());
    }

    /**
     * A union the allowance refuses is not counted, and that is all: the keys the parts kept
     * before it refused are given back, and their conclusions are still the kernel's.
     */
    @Test
    void aCompositeWhoseUnionIsNotCountedIsVerifiedAllTheSame() throws Exception {
        TestComposite c = TestComposite.split(s, start[0], start[1], 1, 8, 11);
        Path d = c.writeTo(dir.resolve("union-refused"));
        // parts are checked one at a time, in manifest order: part 0's keys are granted (its
        // slices ask for two keys an entry and 1024), the next part's refused
        long saved = CompositeVerifier.unionCap;
        CompositeVerifier.unionCap = 2L * c.parts.get(0).cert.entries.size() + 1024;
        try {
            CompositeVerifier.Outcome out = CompositeVerifier.verify(d, new Options(), null);
            assertEquals(Result.Verdict.VERIFIED, out.verdict(), () -> out.error + " "
                    + (out.composition == null ? "" : out.composition.violation));
            assertTrue(out.unionNote != null && out.union == null, "the union is not counted");
        } finally {
            CompositeVerifier.unionCap = saved;
        }
    }

    /** A conclusion whose open entries were kept for another part or manifest is not given. */
    @Test
    void openEntriesKeptForAnotherPartAreNotThePart() throws Exception {
        TestComposite c = TestComposite.split(s, start[0], start[1], 1, 8);
        Path d = c.writeTo(dir.resolve("other"));
        Manifest m = Manifest.read(d.resolve("composite.gscm"));
        Manifest again = Manifest.read(d.resolve("composite.gscm"));
        int n = c.parts.size();
        PartConclusion[] concluded = new PartConclusion[n];
        for (int i = 0; i < n; i++) concluded[i] = check(d, c, m, i).conclusion;
        assertEquals(Result.Verdict.VERIFIED, Composition.decide(m, concluded, new Violation[n], false).verdict);
        Options o = new Options();
        o.composite = m;
        o.compositePart = 1; // part 0's file, kept as if it were part 1
        concluded[0] = Verifier.verify(d.resolve(c.parts.get(0).hex() + ".gsc"), o).conclusion;
        assertNotNull(concluded[0]);
        assertEquals(Result.Verdict.INCOMPLETE, Composition.decide(m, concluded, new Violation[n], false).verdict);
        concluded[0] = check(d, c, again, 0).conclusion; // for an equal manifest read again
        assertEquals(Result.Verdict.INCOMPLETE, Composition.decide(m, concluded, new Violation[n], false).verdict);
        concluded[0] = check(d, c, null, 0).conclusion; // alone: all kept
        assertEquals(Result.Verdict.VERIFIED, Composition.decide(m, concluded, new Violation[n], false).verdict);
    }

    @Test
    void theUnionAllowanceIsSharedAndRefusesForGood() {
        CompositeVerifier.UnionAllowance a = new CompositeVerifier.UnionAllowance(100);
        assertTrue(a.grant(60));
        assertTrue(a.grant(40));
        assertFalse(a.grant(1));
        assertTrue(a.refused());
        assertFalse(a.grant(0), "once refused, always");
    }

    @Test
    void regionKeysStopWhenTheAllowanceRefuses() throws Exception {
        TestComposite c = TestComposite.split(s, start[0], start[1], 1, 11);
        Path d = c.writeTo(dir.resolve("keys"));
        Path part = d.resolve(c.parts.get(0).hex() + ".gsc");
        Options o = new Options();
        o.regionKeys = new CompositeVerifier.UnionAllowance(1 << 20);
        Result big = Verifier.verify(part, o);
        assertTrue(big.conclusion.regionKeys().complete());
        assertTrue(big.conclusion.regionKeys().size() > 16);
        CompositeVerifier.UnionAllowance small = new CompositeVerifier.UnionAllowance(16);
        o.regionKeys = small;
        Result few = Verifier.verify(part, o);
        assertEquals(big.verdict, few.verdict, "the verdict does not depend on the union");
        assertFalse(few.conclusion.regionKeys().complete());
        assertEquals(0, few.conclusion.regionKeys().size());
        assertTrue(small.refused());
    }
}

package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.Violation;
import org.gamecert.verifier.kernel.format.Container;
import org.gamecert.verifier.kernel.format.Header;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The sequential kernel, fed by the one-machine slice engine, against the concurrent kernel: on
 * every certificate of testdata/ and format-spec/vectors that it handles (modes 1–3, parts too;
 * not mode 4, nor mode 5, which is newer than it),
 * with slices of one block and of many, on one and two threads, the same verdict, first rule and
 * place, census, unreached count and commitment.
 */
class SliceEngineDifferentialTest {

    @TestFactory
    List<DynamicTest> sameOutcomeAsTheConcurrentKernel() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        int handled = 0;
        for (Path file : DifferentialTest.certificates()) {
            if (!handled(file)) continue;
            handled++;
            tests.add(DynamicTest.dynamicTest(DifferentialTest.ROOT.relativize(file).toString(),
                    () -> compare(file)));
        }
        assertTrue(handled > 80, handled + " certificates of modes 1-3");
        return tests;
    }

    static boolean handled(Path file) {
        try (Container ct = new Container(file)) {
            if (!Verifier.isCertificate(ct)) return false;
            Header h = Header.parse(ct.readHeaderContent());
            // mode 5 (SPEC 1.5.0) is newer than the concurrent kernel
            return h.mode != Header.WEAK_RANKED && h.mode != Header.SEMI_STRONG_OPTIMAL;
        } catch (Exception e) {
            return true; // a header that breaks a rule: both must say which
        }
    }

    /**
     * --all: the same rules counted, and the same first violation. Where an entry breaks R-LAY-2,
     * R-LAY-3 or R-LEAF-1 the sequential kernel keeps its place in the layer (the concurrent one
     * dropped it and numbered the entries after it again, so their lookups missed it): there
     * only the first violation is compared, and the old one's verdict of error (an engine fault
     * of its own under --all) is a rejection now.
     */
    static void compareAll(Path file) throws IOException {
        Options o = new Options();
        o.all = true;
        Result old = LegacyVerifier.verify(file, o);
        Result now = new SliceEngine(2, 1).verify(file, o);
        String how = file.getFileName() + " --all";
        Violation first = now.firstViolation();
        if (first != null && java.util.Set.of("R-LAY-2", "R-LAY-3", "R-LEAF-1").contains(first.rule())) {
            assertEquals(Result.Verdict.REJECTED, now.verdict, how);
            if (old.firstViolation() != null)
                assertEquals(old.firstViolation().toString(), first.toString(), how);
            return;
        }
        assertEquals(old.verdict, now.verdict, how + " verdict; old " + old.violations + " new "
                + now.violations);
        assertEquals(old.violationCounts, now.violationCounts, how + " old " + old.violations
                + " new " + now.violations);
        if (!old.violations.isEmpty())
            assertEquals(old.violations.get(0).rule(), now.violations.get(0).rule(), how);
    }

    static void compare(Path file) throws IOException {
        compareAll(file);
        for (boolean strict : new boolean[] {false, true}) {
            Options o = new Options();
            o.strict = strict;
            Result old = LegacyVerifier.verify(file, o);
            for (long slice : new long[] {1, 1 << 20})
                for (int threads : new int[] {1, 2}) {
                    Result now;
                    try {
                        now = new SliceEngine(threads, slice).verify(file, strict);
                    } catch (RuntimeException e) {
                        throw new AssertionError(file + ": " + e, e);
                    }
                    String how = file.getFileName() + " strict=" + strict + " slice=" + slice
                            + " threads=" + threads;
                    assertEquals(old.verdict, now.verdict, how + " verdict; old "
                            + old.firstViolation() + " new " + now.firstViolation()
                            + " old error " + old.errorMessage);
                    Violation a = old.firstViolation(), b = now.firstViolation();
                    if (a != null) {
                        assertEquals(a.rule(), b.rule(), how + " rule: old " + a + " new " + b);
                        assertEquals(a.block(), b.block(), how + " block: old " + a + " new " + b);
                        assertEquals(a.entry(), b.entry(), how + " entry: old " + a + " new " + b);
                    }
                    if (old.verdict == Result.Verdict.VERIFIED) {
                        assertEquals(old.commitment, now.commitment, how);
                        assertEquals(old.unreached, now.unreached, how);
                        assertEquals(old.region, now.region, how);
                        assertEquals(old.census.size(), now.census.size(), how);
                        for (int r = 0; r < old.census.size(); r++)
                            assertArrayEquals(old.census.get(r), now.census.get(r), how + " row " + r);
                        assertEquals(old.rootKind, now.rootKind, how);
                        assertEquals(old.rootMove, now.rootMove, how);
                    }
                    // the legacy kernel concluded for composition always, this one for parts
                    // (and when a composite's engine asks)
                    if (old.conclusion != null && now.header != null && now.header.part)
                        assertEquals(old.conclusion.openCount(), now.conclusion.openCount(), how);
                    else if (now.header != null && !now.header.part) // checked alone: none
                        assertEquals(null, now.conclusion, how);
                }
        }
    }
}

package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.engine.Verifier;
import org.gamecert.verifier.kernel.Violation;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The kernel fed by the single-machine engine against the checker as it was before the split (a
 * copy in org.gamecert.verifier.legacy): on every certificate of testdata/ and format-spec/vectors,
 * with 1, 2 and 3 threads, layers held whole and in key-range segments, first violation and --all,
 * the same verdict, violations, counts, census, region, root and commitment.
 */
class DifferentialTest {
    static final Path ROOT = Paths.get("..").toAbsolutePath().normalize();

    static List<Path> certificates() throws IOException {
        List<Path> files = new ArrayList<>();
        for (String dir : new String[] {"testdata", "format-spec/vectors"})
            try (Stream<Path> s = Files.walk(ROOT.resolve(dir))) {
                s.filter(p -> p.toString().endsWith(".gsc") && Files.isRegularFile(p)).sorted().forEach(files::add);
            }
        return files;
    }

    @TestFactory
    List<DynamicTest> sameOutcomeAsBeforeTheSplit() throws IOException {
        List<Path> files = certificates();
        assertTrue(files.size() > 80, "the corpus and the vectors: " + files.size() + " certificates");
        List<DynamicTest> tests = new ArrayList<>();
        for (Path file : files)
            tests.add(DynamicTest.dynamicTest(ROOT.relativize(file).toString(), () -> compareAllWays(file)));
        return tests;
    }

    /** SPEC 1.1 mode 3 (header byte 19: the mode, after the 8-byte frame header): newer than the legacy copy. */
    static boolean mode3(Path file) {
        try (java.io.InputStream in = Files.newInputStream(file)) {
            byte[] b = in.readNBytes(20);
            return b.length == 20 && b[8] == 'G' && b[9] == 'S' && b[10] == 'C' && b[11] == 'F' && b[19] == 3;
        } catch (IOException e) {
            return false;
        }
    }

    /** SPEC 1.2 Linear NoGo (header byte 14: the family): newer than the legacy copy too. */
    static boolean noGo(Path file) {
        try (java.io.InputStream in = Files.newInputStream(file)) {
            byte[] b = in.readNBytes(15);
            return b.length == 15 && b[8] == 'G' && b[9] == 'S' && b[10] == 'C' && b[11] == 'F' && b[14] == 3;
        } catch (IOException e) {
            return false;
        }
    }

    /** SPEC 1.3 parts of composites (mode byte with 0x80): newer than the legacy copy too. */
    static boolean part(Path file) {
        try (java.io.InputStream in = Files.newInputStream(file)) {
            byte[] b = in.readNBytes(20);
            return b.length == 20 && b[8] == 'G' && b[9] == 'S' && b[10] == 'C' && b[11] == 'F' && (b[19] & 0x80) != 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** SPEC 1.4 weak-ranked certificates (mode 4) and Lines of Action (family 4): newer than the legacy copy too. */
    static boolean ranked(Path file) {
        try (java.io.InputStream in = Files.newInputStream(file)) {
            byte[] b = in.readNBytes(20);
            return b.length == 20 && b[8] == 'G' && b[9] == 'S' && b[10] == 'C' && b[11] == 'F' && (b[19] == 4 || b[14] == 4);
        } catch (IOException e) {
            return false;
        }
    }

    static void compareAllWays(Path file) {
        if (mode3(file) || noGo(file) || part(file) || ranked(file)) { // the legacy copy predates them: every schedule against one thread of the kernel
            Result reference = Verifier.verify(file, new Options());
            assertNotNull(reference.verdict, file + ": a verdict"); // the valid ones and the rejected ones alike
            for (int threads = 1; threads <= 3; threads++)
                for (boolean segments : new boolean[] {false, true}) {
                    Options now = new Options();
                    now.threads = threads;
                    if (segments) now.maxHeldEntries = Math.max(2, reference.entries / 20);
                    assertEquals(describe(reference), describe(Verifier.verify(file, now)), file + " threads " + threads + " " + segments);
                }
            return;
        }
        long entries = org.gamecert.verifier.legacy.check.Verifier.verify(file, new org.gamecert.verifier.legacy.check.Options()).entries;
        long savedNew = Verifier.sliceEntries;
        int savedOld = org.gamecert.verifier.legacy.check.Verifier.parallelMinEntries;
        try {
            for (int threads = 1; threads <= 3; threads++)
                for (boolean segments : new boolean[] {false, true})
                    for (boolean all : new boolean[] {false, true}) {
                        // small blocks are checked on several threads too
                        Verifier.sliceEntries = threads > 1 ? 1 : savedNew;
                        org.gamecert.verifier.legacy.check.Verifier.parallelMinEntries = threads > 1 ? 1 : savedOld;
                        Options now = new Options();
                        org.gamecert.verifier.legacy.check.Options before = new org.gamecert.verifier.legacy.check.Options();
                        now.threads = before.threads = threads;
                        now.all = before.all = all;
                        if (segments) now.maxHeldEntries = before.maxHeldEntries = Math.max(2, entries / 20);
                        String how = file.getFileName() + " threads " + threads + (segments ? " in segments" : "") + (all ? " --all" : "");
                        assertEquals(describe(org.gamecert.verifier.legacy.check.Verifier.verify(file, before)), describe(Verifier.verify(file, now)), how);
                    }
        } finally {
            Verifier.sliceEntries = savedNew;
            org.gamecert.verifier.legacy.check.Verifier.parallelMinEntries = savedOld;
        }
    }

    /** Everything a report shows of the outcome, as text (the time and memory figures aside). */
    static String describe(Result r) {
        StringBuilder sb = new StringBuilder();
        sb.append(r.verdict).append(" error=").append(r.errorMessage).append(" commitment=").append(r.commitment);
        sb.append(" entries=").append(r.entries).append(" blocks=").append(r.blocks).append(" region=").append(r.region);
        sb.append(" unreached=").append(r.unreached).append(" rootKind=").append(r.rootKind).append(" rootMove=").append(r.rootMove);
        sb.append("\ncensus:");
        for (long[] row : r.census) sb.append(' ').append(Arrays.toString(row));
        sb.append("\ncounts: ").append(r.violationCounts);
        for (Violation v : r.violations) sb.append("\n").append(v).append(" at ").append(v.hasPosition()).append(" ").append(v.mover()).append("/").append(v.opponent());
        return sb.toString();
    }

    static String describe(org.gamecert.verifier.legacy.check.Result r) {
        StringBuilder sb = new StringBuilder();
        sb.append(r.verdict).append(" error=").append(r.errorMessage).append(" commitment=").append(r.commitment);
        sb.append(" entries=").append(r.entries).append(" blocks=").append(r.blocks).append(" region=").append(r.region);
        sb.append(" unreached=").append(r.unreached).append(" rootKind=").append(r.rootKind).append(" rootMove=").append(r.rootMove);
        sb.append("\ncensus:");
        for (long[] row : r.census) sb.append(' ').append(Arrays.toString(row));
        sb.append("\ncounts: ").append(r.violationCounts);
        for (org.gamecert.verifier.legacy.check.Violation v : r.violations) sb.append("\n").append(v).append(" at ").append(v.hasPosition()).append(" ").append(v.mover()).append("/").append(v.opponent());
        return sb.toString();
    }
}

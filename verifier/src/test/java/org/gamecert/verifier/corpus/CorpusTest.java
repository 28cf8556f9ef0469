package org.gamecert.verifier.corpus;

import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.engine.Verifier;
import org.gamecert.verifier.kernel.Violation;
import org.gamecert.verifier.peer.PeerOptions;
import org.gamecert.verifier.peer.PeerResult;
import org.gamecert.verifier.peer.PeerVerifier;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every line of testdata/manifest.tsv and of format-spec/vectors/vectors.tsv (SPEC §14), run through
 * the verifier's Java API with default options: the verdict, and for rejections the first rule id,
 * must be the listed ones. These files are what a second verifier would test itself against.
 */
class CorpusTest {
    static final Path ROOT = Paths.get("..").toAbsolutePath().normalize();

    /** Manifest rows: {dir, file, verdict, rule}. Lines starting with # are comments. */
    static List<String[]> rows(Path manifest, int verdictCol, int ruleCol, int formatCol) throws IOException {
        List<String[]> r = new ArrayList<>();
        for (String line : Files.readAllLines(manifest)) {
            if (line.isBlank() || line.startsWith("#")) continue;
            String[] f = line.split("\t");
            String format = formatCol < 0 ? "gamecert" : f[formatCol];
            r.add(new String[]{manifest.getParent().toString(), f[0], f[verdictCol], f[ruleCol], format});
        }
        return r;
    }

    static DynamicTest check(String[] row) {
        return DynamicTest.dynamicTest(row[1] + " -> " + row[2] + " " + row[3], () -> {
            Path file = Paths.get(row[0]).resolve(row[1]);
            assertTrue(Files.isRegularFile(file), "missing corpus file " + file);
            if (file.toString().endsWith(".gscm")) { // a composite's manifest: its parts beside it (SPEC §15)
                org.gamecert.verifier.engine.CompositeVerifier.Outcome c =
                        org.gamecert.verifier.engine.CompositeVerifier.verify(file, new Options(), null);
                assertEquals(row[2], c.verdict().name().toLowerCase(Locale.ROOT), () -> file + ": " + c.error);
                if (row[2].equals("rejected")) assertEquals(row[3], c.composition.violation.rule());
                if (row[2].equals("verified")) assertTrue(c.composition.compositeId.startsWith("sha256:"));
                return;
            }
            Result r = Verifier.verify(file, new Options());
            assertEquals(row[2], r.verdict.name().toLowerCase(Locale.ROOT), () -> file + ": " + r.firstViolation() + " " + r.errorMessage);
            if (row[2].equals("rejected")) {
                Violation v = r.firstViolation();
                assertEquals(row[3], v == null ? null : v.rule(), () -> file + ": first violation " + v);
            }
            if (row[2].equals("verified")) assertTrue(r.commitment != null && r.commitment.startsWith("sha256:"));
            // The same outcome when the layers do not fit in memory and are checked in segments.
            Options small = new Options();
            small.maxHeldEntries = Math.max(2, r.entries / 20);
            Result s = Verifier.verify(file, small);
            assertEquals(r.verdict, s.verdict, () -> file + " in segments: " + s.firstViolation() + " " + s.errorMessage);
            assertEquals(String.valueOf(r.firstViolation()), String.valueOf(s.firstViolation()), () -> file + " in segments");
            assertEquals(r.census.size(), s.census.size());
            for (int i = 0; i < r.census.size(); i++) assertEquals(java.util.Arrays.toString(r.census.get(i)), java.util.Arrays.toString(s.census.get(i)));
            assertEquals(r.commitment, s.commitment);
        });
    }

    @TestFactory
    List<DynamicTest> testdataManifest() throws IOException {
        List<DynamicTest> t = new ArrayList<>();
        for (String[] row : rows(ROOT.resolve("testdata/manifest.tsv"), 2, 3, 1))
            if (row[4].equals("gamecert")) t.add(check(row));
            else if (row[4].equals("peer")) t.add(checkPeer(row));
            else if (row[4].equals("bundle")) t.add(checkBundle(row));
        return t;
    }

    /** A `bundle` line: a release bundle; for a rejection the rule column names the file at fault. */
    static DynamicTest checkBundle(String[] row) {
        return DynamicTest.dynamicTest(row[1] + " -> " + row[2] + " " + row[3], () -> {
            Path file = Paths.get(row[0]).resolve(row[1]);
            assertTrue(Files.exists(file), "missing bundle " + file);
            org.gamecert.verifier.bundle.BundleReport r = org.gamecert.verifier.bundle.BundleVerifier.check(file,
                    new org.gamecert.verifier.bundle.BundleOptions(), null);
            assertEquals(row[2], r.verdict, () -> file + ": " + r.problems + " " + r.errorMessage);
            if (row[2].equals("rejected")) assertTrue(r.names(row[3]), () -> file + ": does not name " + row[3] + ": " + r.problems);
        });
    }

    /** A `peer` line: a directory of peer 6×6 tables, through PeerVerifier with default options. */
    static DynamicTest checkPeer(String[] row) {
        return DynamicTest.dynamicTest(row[1] + " -> " + row[2] + " " + row[3], () -> {
            Path dir = Paths.get(row[0]).resolve(row[1]);
            assertTrue(Files.isDirectory(dir), "missing peer corpus directory " + dir);
            PeerOptions o = new PeerOptions();
            o.input = dir;
            o.threads = 1;
            PeerResult r = PeerVerifier.verify(o);
            assertEquals(row[2], r.verdict().text(), () -> dir + ": " + r.violation + " " + r.error);
            if (row[2].equals("rejected")) assertEquals(row[3], r.violation == null ? null : r.violation.rule, () -> dir + ": first violation " + r.violation);
            if (row[2].equals("verified")) assertTrue(r.entries() > 0, "verified without records");
        });
    }

    @TestFactory
    List<DynamicTest> specVectors() throws IOException {
        List<DynamicTest> t = new ArrayList<>();
        for (String[] row : rows(ROOT.resolve("format-spec/vectors/vectors.tsv"), 1, 2, -1)) t.add(check(row));
        return t;
    }

    /** The corpus covers every mutation class at least once, and has valid certificates of both modes. */
    @Test
    void corpusCoversValidAndRejected() throws IOException {
        List<String[]> rows = rows(ROOT.resolve("testdata/manifest.tsv"), 2, 3, 1);
        long valid = rows.stream().filter(r -> r[2].equals("verified")).count();
        long rejected = rows.stream().filter(r -> r[2].equals("rejected")).count();
        assertTrue(valid >= 2, "valid certificates in the corpus: " + valid);
        assertTrue(rejected >= 20, "rejected certificates in the corpus: " + rejected);
    }

    /** Every vector has its .hex dump beside it, and the dump is of the file's bytes. */
    @TestFactory
    List<DynamicTest> vectorHexDumps() throws IOException {
        List<DynamicTest> t = new ArrayList<>();
        Path dir = ROOT.resolve("format-spec/vectors");
        for (String[] row : rows(dir.resolve("vectors.tsv"), 1, 2, -1)) {
            t.add(DynamicTest.dynamicTest(row[1] + ".hex", () -> {
                byte[] b = Files.readAllBytes(dir.resolve(row[1]));
                StringBuilder hex = new StringBuilder();
                for (String line : Files.readAllLines(dir.resolve(row[1] + ".hex"))) {
                    String body = line.substring(9, Math.min(line.length(), 9 + 40));
                    hex.append(body.replace(" ", ""));
                }
                StringBuilder want = new StringBuilder();
                for (byte x : b) want.append(String.format("%02x", x & 0xFF));
                assertEquals(want.toString(), hex.toString());
            }));
        }
        return t;
    }
}

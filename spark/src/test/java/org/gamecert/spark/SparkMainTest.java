package org.gamecert.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.gamecert.verifier.cli.VerifyMain;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * scripts/spark-verify's command against scripts/verify's: the same report (text and --json, the
 * timing lines aside) and the same exit code for a verified, a rejected, an unreadable and an
 * incomplete input and a composite; exit 2 for what it does not take. Each run starts its own
 * local Spark context (as the script does), so only a few inputs here; SparkVerifyEquivalenceTest
 * covers the whole corpus.
 */
class SparkMainTest {
    static final Path ROOT = Paths.get("..").toAbsolutePath().normalize();

    record Run(int rc, String out, String err) {}

    static Run spark(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int rc = SparkMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static Run plain(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int rc = VerifyMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** The report without what depends on the run: its time line, JSON "seconds" and table peaks. */
    static String stable(String report) {
        return report.replaceAll("(?m)^(throughput|time) .*$", "")
                .replaceAll("(?m)^(peak heap|seconds|time|heap) .*$", "")
                // the engine's own footprint (the concurrent kernel's tables; the sliced engine holds none)
                .replaceAll("\"(seconds|entries_per_second|threads|peak_table_bytes|peak_entries_held|peak_heap_bytes|bytes_per_entry_held)\":([0-9.Ee+-]+|null)", "");
    }

    /** --version names spark.jar's version and the commit it was built from, the verifier's own in one build. */
    @Test
    void versionNamesTheCommitTheBuildCameFrom() {
        Run r = spark("--version");
        assertEquals(0, r.rc(), r.err());
        org.gamecert.verifier.cli.BuildInfo b = org.gamecert.verifier.cli.BuildInfo.load(SparkMain.BUILD_INFO);
        assertEquals("gamecert spark " + b.describe() + ", SPEC v1", r.out().strip());
        assertEquals(org.gamecert.verifier.cli.BuildInfo.verifier().version(), b.version());
        assertEquals(org.gamecert.verifier.cli.BuildInfo.verifier().commit(), b.commit());
    }

    /** One input for each exit code: 0 verified, 1 rejected, 2 could not read, 3 incomplete. */
    @Test
    void sameReportsAndExitCodesForEachExitCode() {
        sameReportsAndExitCodes(new int[] {0, 1, 6, 3});
    }

    /** Every input: composites and peer tables too. */
    @Test
    @Tag("slow")
    void sameReportsAndExitCodesForEveryKindOfInput() {
        sameReportsAndExitCodes(new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
    }

    /** For the inputs of these indices: the same output, --json or not, and exit code. */
    private static void sameReportsAndExitCodes(int[] which) {
        String[] inputs = {
            "testdata/valid/othello4x4-10discs.gsc",
            "format-spec/vectors/rejected-cut-1.gsc",
            "format-spec/vectors/error-not-a-certificate.gsc",
            "format-spec/vectors/1f0bb3143a2ac702cdd41619ef4a22750d57293ce828f72416f0fb2cd50c177a.gsc",
            "format-spec/vectors/composite-valid-othello4x4.gscm",
            "format-spec/vectors/composite-rejected-comp-7-cyclic.gscm",
            "no-such-file.gsc",
            "testdata/peer/valid/othello6-10empties",
            "testdata/peer/mutants/peer-cut-lb-raised",
            "testdata/crafted/peer-root-relabelled-all-20",
        };
        int[] codes = {0, 1, 2, 3, 0, 1, 2, 0, 1, 3};
        for (int i : which) {
            String p = ROOT.resolve(inputs[i]).toString();
            for (boolean json : new boolean[] {false, true}) {
                String[] a = json ? new String[] {p, "--json", "-q"} : new String[] {p, "-q"};
                Run one = plain(a);
                String[] sa = new String[a.length + 3];
                sa[0] = "verify";
                System.arraycopy(a, 0, sa, 1, a.length);
                sa[a.length + 1] = "--master";
                sa[a.length + 2] = "local[2]";
                Run s = spark(sa);
                assertEquals(codes[i], one.rc(), inputs[i] + ": " + one.err());
                assertEquals(one.rc(), s.rc(), inputs[i] + ": " + s.err());
                assertEquals(stable(one.out()), stable(s.out()), inputs[i] + (json ? " --json" : ""));
                if (json && codes[i] == 0 && inputs[i].endsWith(".gsc")) { // tables: one engine's only
                    assertTrue(one.out().matches("(?s).*\"peak_table_bytes\":[1-9].*"), one.out());
                    assertTrue(s.out().contains("\"peak_table_bytes\":null"), s.out());
                }
            }
        }
    }

    @Test
    void refusesWhatItDoesNotTake() {
        Run bundle = spark("verify", ROOT.resolve("testdata/crafted/bundle-valid.tar").toString(), "-q");
        assertEquals(2, bundle.rc());
        assertTrue(bundle.err().contains("use scripts/verify"), bundle.err());
        assertEquals(2, spark("verify").rc());
        assertEquals(2, spark("verify", "x.gsc", "--partitions", "-1").rc());
        assertEquals(2, spark("verify", "x.gsc", "--max-memory", "lots").rc());
        assertEquals(2, spark("nonsense").rc());
        assertEquals(2, spark("verify", ROOT.resolve("testdata/valid/othello4x4-10discs.gsc").toString(), "--root", "x").rc());
        Run slices = spark("verify", ROOT.resolve("testdata/valid/othello4x4-10discs.gsc").toString(), "--slice-records", "5");
        assertEquals(2, slices.rc());
        assertTrue(slices.err().contains("--slice-records applies to peer tables only"), slices.err());
        Run negative = spark("verify", ROOT.resolve("testdata/peer/valid/othello6-10empties").toString(), "--slice-records", "-1");
        assertEquals(2, negative.rc());
        assertTrue(negative.err().contains("--slice-records must be at least 1"), negative.err());
    }
}

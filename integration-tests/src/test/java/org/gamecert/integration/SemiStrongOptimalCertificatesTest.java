package org.gamecert.integration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.gamecert.producer.cli.ProduceMain;
import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.engine.Verifier;
import org.gamecert.verifier.kernel.Result;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * produce solve --mode semi-strong-optimal (SPEC mode 5, issue 40): its certificate verifies, has
 * the region of the semi-strong (mode 1) certificate of the same board, disc count by disc count,
 * and a strictly smaller proof (auxiliary entries plus proof-only terminal positions, SPEC §10.3);
 * and its bytes do not depend on --threads or --tt-mb (SPEC §13).
 */
class SemiStrongOptimalCertificatesTest {
    @TempDir
    Path dir;

    Path produce(String game, String mode, int threads, int ttMb, String name) {
        Path cert = dir.resolve(name);
        List<String> args = new ArrayList<>(List.of("solve", "--game", game, "--mode", mode,
                "--threads", Integer.toString(threads), "--tt-mb", Integer.toString(ttMb), "-q",
                "--out", cert.toString()));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = ProduceMain.run(args.toArray(new String[0]),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, rc, () -> "producer failed: " + err.toString(StandardCharsets.UTF_8));
        return cert;
    }

    static Result verified(Path cert) {
        Options o = new Options();
        o.strict = true; // our producer writes no unreached entry
        Result r = Verifier.verify(cert, o);
        assertEquals(Result.Verdict.VERIFIED, r.verdict,
                () -> "verifier: " + r.errorMessage + " " + r.firstViolation());
        return r;
    }

    static long proof(Result r) {
        long p = 0;
        for (long[] row : r.census) p += row[2] + row[3]; // aux_d + term_d
        return p;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"connect4:4x4", "connect4:5x4"})
    void modeFiveHasTheSameRegionAndAStrictlySmallerProof(String game) throws IOException {
        Result one = verified(produce(game, "semi-strong", 2, 64, "one.gsc"));
        Result five = verified(produce(game, "semi-strong-optimal", 2, 64, "five.gsc"));
        assertEquals(1, one.header.baseMode);
        assertEquals(5, five.header.baseMode);
        assertEquals(one.header.rootValue, five.header.rootValue);
        assertEquals(one.census.size(), five.census.size());
        for (int i = 0; i < one.census.size(); i++) {
            assertEquals(one.census.get(i)[0], five.census.get(i)[0]);
            assertEquals(one.census.get(i)[1], five.census.get(i)[1],
                    "region at " + one.census.get(i)[0] + " discs");
        }
        assertTrue(one.region > 0);
        assertEquals(one.region, five.region);
        assertTrue(proof(five) < proof(one), proof(five) + " >= " + proof(one));
        assertTrue(five.entries < one.entries, five.entries + " >= " + one.entries);
        assertNotEquals(one.commitment, five.commitment);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"connect4:5x4"})
    void modeFiveBytesDoNotDependOnThreadsOrTableSize(String game) throws IOException {
        byte[] a = Files.readAllBytes(produce(game, "semi-strong-optimal", 1, 1, "a.gsc"));
        byte[] b = Files.readAllBytes(produce(game, "semi-strong-optimal", 2, 64, "b.gsc"));
        assertArrayEquals(a, b);
    }

    /** SPEC §4: mode 5 is never a part, and LOA is weak-ranked only. */
    @org.junit.jupiter.api.Test
    void modeFiveMakesNoPartsAndNoLoaCertificate() {
        for (String[] extra : new String[][] {{"--game", "connect4:5x4", "--split-at", "4"},
                {"--game", "loa:4x4"}}) {
            List<String> args = new ArrayList<>(List.of("solve", "--mode", "semi-strong-optimal", "-q",
                    "--out", dir.resolve("x").toString()));
            args.addAll(List.of(extra));
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int rc = ProduceMain.run(args.toArray(new String[0]),
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            assertEquals(2, rc, () -> String.join(" ", args) + ": " + err);
            assertTrue(!Files.exists(dir.resolve("x").resolve("root-part.gsc")));
        }
    }
}

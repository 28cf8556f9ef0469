package org.gamecert.verifier.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.gamecert.verifier.core.check.Options;
import org.gamecert.verifier.core.check.Result;
import org.gamecert.verifier.core.check.Verifier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Certificates written by the producer (run as a separate process from its jar; the verifier's
 * code does not depend on it) verify: 4×4 Othello, 6×6 Othello from midgame positions, small
 * Connect Four boards. Skipped when the producer jar has not been built.
 */
class ProducerCertificatesTest {
    static final Path PRODUCER = Path.of("../producer/target/producer.jar");

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({
        "othello:4x4, , semi-strong",
        "othello:4x4, , weak",
        "connect4:4x4, , semi-strong",
        "connect4:5x4, 3, semi-strong",
        "connect4:4x5, 21, weak",
        "othello:6x6, b3b2e4b4a2f4b1e3d5a1c2a3e5b5a4d6e2d2, semi-strong",
        "othello:6x6, e4e3b2c5e2f2f3a1f1b4b6d6a4a3b3e5b5f4, semi-strong",
        "othello:6x6, e4e3b2c5e2f2f3a1f1b4b6d6a4a3b3e5b5f4, weak",
    })
    void producerCertificateVerifies(String game, String moves, String mode) throws Exception {
        Assumptions.assumeTrue(Files.isRegularFile(PRODUCER), "producer jar not built");
        Path out = dir.resolve("cert.gsc");
        List<String> cmd = new ArrayList<>(List.of("java", "-jar", PRODUCER.toString(), "solve", "--game=" + game,
                "--mode=" + mode, "--out=" + out, "--threads=1", "-q"));
        if (moves != null) cmd.add("--moves=" + moves);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("log").toFile()).start();
        assertTrue(p.waitFor(240, TimeUnit.SECONDS), "producer finished");
        Assumptions.assumeTrue(p.exitValue() == 0, () -> "producer failed: " + read(dir.resolve("log")));
        Result r = Verifier.verify(out, new Options());
        assertEquals(Result.Verdict.VERIFIED, r.verdict, () -> r.firstViolation() + " " + r.errorMessage);
        assertTrue(r.entries > 0);
        if (mode.equals("semi-strong")) assertTrue(r.region > 0);
        Options two = new Options();
        two.threads = 2;
        Result r2 = Verifier.verify(out, two);
        assertEquals(r.verdict, r2.verdict, "the verdict does not depend on --threads");
        assertEquals(r.commitment, r2.commitment);
        if (r.unreached != 0) System.out.println(game + " " + moves + ": " + r.unreached + " unreached entries (SPEC §13 SHOULD none)");
    }

    static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (Exception e) {
            return "";
        }
    }
}

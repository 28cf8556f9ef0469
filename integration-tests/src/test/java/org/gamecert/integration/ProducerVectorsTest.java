package org.gamecert.integration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.gamecert.producer.cli.ProduceMain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC §14 vectors made by the producer (the verifier's test sources cannot make these games):
 * each is exactly what `produce solve` writes for its root, so anyone can make it again. Run with
 * -Dgamecert.writeVectors=true to (re)write them into format-spec/vectors (then add the hex dump).
 */
class ProducerVectorsTest {
    static final Path VECTORS = Path.of("../format-spec/vectors").toAbsolutePath().normalize();

    @Test
    void othello6x6VectorIsWhatTheProducerWrites(@TempDir Path dir) throws Exception {
        String moves = ProducedCertificatesVerifyTest.randomLine("othello:6x6", 36 - 7, 23);
        Path out = dir.resolve("v.gsc");
        int rc = ProduceMain.run(new String[] {"solve", "--game", "othello:6x6", "--moves", moves, "--out", out.toString(), "-q"},
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), System.err);
        assertEquals(0, rc);
        Path vector = VECTORS.resolve("edge-valid-othello6x6.gsc");
        if (Boolean.getBoolean("gamecert.writeVectors")) Files.copy(out, vector, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertArrayEquals(Files.readAllBytes(vector), Files.readAllBytes(out), "the vector is produce solve --game othello:6x6 --moves " + moves);
        assertTrue(Files.readString(VECTORS.resolve("vectors.tsv")).contains("edge-valid-othello6x6.gsc\tverified\t-\t" ));
    }

    /** SPEC 1.1 mode 3: a weak certificate whose positions with at most 4 empty cells are leaves (§9.1). */
    @Test
    void weakWithLeavesVectorIsWhatTheProducerWrites(@TempDir Path dir) throws Exception {
        String moves = ProducedCertificatesVerifyTest.randomLine("othello:6x6", 36 - 12, 31);
        Path out = dir.resolve("v.gsc");
        int rc = ProduceMain.run(new String[] {"solve", "--game", "othello:6x6", "--moves", moves, "--mode", "weak",
                        "--leaf-empties", "4", "--out", out.toString(), "-q"},
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), System.err);
        assertEquals(0, rc);
        Path vector = VECTORS.resolve("edge-valid-weak-leaves-othello6x6.gsc");
        if (Boolean.getBoolean("gamecert.writeVectors")) Files.copy(out, vector, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertArrayEquals(Files.readAllBytes(vector), Files.readAllBytes(out),
                "the vector is produce solve --game othello:6x6 --mode weak --leaf-empties 4 --moves " + moves);
        assertTrue(Files.readString(VECTORS.resolve("vectors.tsv")).contains("edge-valid-weak-leaves-othello6x6.gsc\tverified\t-\t"));
    }

    /** Linear NoGo 1x9 from the start (SPEC §7.6), semi-strong: the smallest board with every kind of entry. */
    @Test
    void nogo1x9VectorIsWhatTheProducerWrites(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("v.gsc");
        int rc = ProduceMain.run(new String[] {"solve", "--game", "nogo:1x9", "--out", out.toString(), "-q"},
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), System.err);
        assertEquals(0, rc);
        Path vector = VECTORS.resolve("edge-valid-nogo-1x9.gsc");
        if (Boolean.getBoolean("gamecert.writeVectors")) Files.copy(out, vector, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertArrayEquals(Files.readAllBytes(vector), Files.readAllBytes(out), "the vector is produce solve --game nogo:1x9");
        assertTrue(Files.readString(VECTORS.resolve("vectors.tsv")).contains("edge-valid-nogo-1x9.gsc\tverified\t-\t"));
    }
}

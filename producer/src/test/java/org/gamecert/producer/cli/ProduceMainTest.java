package org.gamecert.producer.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

class ProduceMainTest {
    @TempDir Path dir;
    String out, err;

    int run(String... args) {
        ByteArrayOutputStream o = new ByteArrayOutputStream(), e = new ByteArrayOutputStream();
        int rc = ProduceMain.run(args, new PrintStream(o, true, StandardCharsets.UTF_8), new PrintStream(e, true, StandardCharsets.UTF_8));
        out = o.toString(StandardCharsets.UTF_8);
        err = e.toString(StandardCharsets.UTF_8);
        return rc;
    }

    @Test void solvePrintsSummaryAndCensusJson() throws Exception {
        Path cert = dir.resolve("x.gsc"), json = dir.resolve("c.json");
        assertEquals(0, run("solve", "--game", "othello:4x4", "--out", cert.toString(), "--census-json", json.toString(), "-q"));
        assertTrue(out.contains("root value    -10"), out);
        assertTrue(out.contains("commitment    sha256:"), out);
        assertTrue(out.contains("bytes/entry"), out);
        String j = Files.readString(json);
        assertTrue(j.contains("\"rows\":[{\"discs\":4,\"region\":1,\"aux\":0}"), j);
        assertTrue(j.contains("\"region_total\":133"), j); // the producer's R equals the brute-force R (BruteForceTest); 133 is its size
    }

    @Test void clearErrors() {
        Path cert = dir.resolve("x.gsc");
        assertEquals(ProduceMain.EXIT_USAGE, run("solve", "--game", "chess:8x8", "--out", cert.toString()));
        assertTrue(err.startsWith("error: unknown game"), err);
        assertEquals(ProduceMain.EXIT_USAGE, run("solve", "--game", "othello:6x6", "--moves", "e4e4", "--out", cert.toString()));
        assertTrue(err.contains("illegal"), err);
        assertFalse(err.contains("Exception"), err);
        assertEquals(ProduceMain.EXIT_USAGE, run("solve", "--game", "othello:4x4", "--out", dir.resolve("no/such/dir/x.gsc").toString()));
        assertTrue(err.startsWith("error: cannot write --out"), err);
        assertEquals(ProduceMain.EXIT_USAGE, run("solve", "--game", "connect4:7x6", "--moves", "48", "--out", cert.toString()));
        assertEquals(ProduceMain.EXIT_USAGE, run("solve", "--mode", "strong", "--out", cert.toString()));
        assertEquals(ProduceMain.EXIT_USAGE, run("solve"));
        assertFalse(Files.exists(cert));
    }

    @Test void noHalfWrittenFileLeftBehind() throws Exception {
        // An output whose final name is a directory cannot be written: nothing else may remain.
        Path target = dir.resolve("taken");
        Files.createDirectory(target);
        assertEquals(ProduceMain.EXIT_USAGE, run("solve", "--game", "othello:4x4", "--out", target.toString(), "-q"));
        try (Stream<Path> s = Files.list(dir)) { assertEquals(1, s.count()); }
    }

    @Test void queryAnswersFromTheCertificate() throws Exception {
        Path cert = dir.resolve("c.gsc");
        assertEquals(0, run("solve", "--game", "connect4:4x4", "--out", cert.toString(), "-q"));
        assertEquals(0, run("query", cert.toString(), "--moves", ""));
        assertTrue(out.contains("in the certified region, kinds P"), out);
        assertTrue(out.contains("value         0"), out);
        assertTrue(out.contains("canonical move 2"), out); // earliest optimal in TB order 2,3,1,4 (brute force checks the rule)
        assertEquals(0, run("query", cert.toString(), "--moves", "22", "--json"));
        assertTrue(out.startsWith("{\"commitment\":\"sha256:"), out);
        assertTrue(out.contains("\"in_region\":true"), out);
        // Corrupt one payload byte: the hash chain check must refuse the file.
        byte[] b = Files.readAllBytes(cert);
        b[b.length - 200] ^= 1;
        Path bad = dir.resolve("bad.gsc");
        Files.write(bad, b);
        assertEquals(ProduceMain.EXIT_FAILURE, run("query", bad.toString(), "--moves", ""));
        assertTrue(err.startsWith("error: "), err);
    }
}

package org.gamecert.integration;

import org.gamecert.producer.cli.ProduceMain;
import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.engine.Verifier;
import org.gamecert.verifier.kernel.Result;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lines of Action 4×4 and 5×5 solved from the start by the producer's iterative deepening
 * ({@code --search id}; the proof-number search's certificates: LoaPnCertificatesTest), as
 * weak-ranked certificates (SPEC §7.7, §9.2), verified by the verifier: Black wins, by the published first moves (b4-b2 and
 * c5-c3 in the papers' notation, rows from the bottom; b1-b3 and c1-c3 here); the bytes do not
 * depend on the run.
 */
class LoaCertificatesTest {
    static String produce(Path cert, String game) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int rc = ProduceMain.run(new String[] {"solve", "--game", game, "--mode", "weak-ranked", "--search", "id", "-q", "--out", cert.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, rc, () -> "producer failed: " + err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    /** 6x6 within a time limit: how far the search got, no certificate, exit 3; LOA asks for --mode weak-ranked (exit 2). */
    @org.junit.jupiter.api.Test
    void timeLimitAndMode(@TempDir Path dir) {
        Path cert = dir.resolve("c.gsc");
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int rc = ProduceMain.run(new String[] {"solve", "--game", "loa:6x6", "--mode", "weak-ranked", "--search", "id", "--time-limit", "1", "--out",
                cert.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(3, rc, err.toString(StandardCharsets.UTF_8));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("not solved    time limit"), out.toString(StandardCharsets.UTF_8));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("no win or loss of rank <= 1:"), err.toString(StandardCharsets.UTF_8));
        assertTrue(!Files.exists(cert), "no certificate");
        assertEquals(2, ProduceMain.run(new String[] {"solve", "--game", "loa:5x5", "--mode", "weak", "--out", cert.toString()},
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream())));
        assertEquals(2, ProduceMain.run(new String[] {"solve", "--game", "loa:7x7", "--mode", "weak-ranked", "--out", cert.toString()},
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream())));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"loa:4x4, b1-b3, b4-b2", "loa:5x5, c1-c3, c5-c3"})
    @Tag("slow")
    void blackWinsByThePublishedMove(String game, String ours, String paper, @TempDir Path dir) throws IOException {
        Path cert = dir.resolve("c.gsc");
        String produced = produce(cert, game);
        assertTrue(produced.contains("winning move  " + ours + " ") && produced.contains(paper + " as the LOA papers"), produced);
        Options opt = new Options();
        opt.strict = true; // no unreached entry
        Result r = Verifier.verify(cert, opt);
        assertEquals(Result.Verdict.VERIFIED, r.verdict, () -> r.errorMessage + " " + r.firstViolation());
        assertEquals(1, r.header.rootValue);
        assertEquals(0, r.unreached);
        Matcher c = Pattern.compile("commitment\\s+(sha256:[0-9a-f]{64})").matcher(produced);
        assertTrue(c.find());
        assertEquals(c.group(1), r.commitment);
        Matcher e = Pattern.compile("proof .*; (\\d+) entries").matcher(produced);
        assertTrue(e.find(), produced);
        assertEquals(Long.parseLong(e.group(1)), r.entries);
        // the root's cut move, named by the verifier on the root
        org.gamecert.verifier.kernel.rules.LoaRules g = new org.gamecert.verifier.kernel.rules.LoaRules(r.header.width);
        assertEquals(ours, g.moveText(r.header.rootMover, r.header.rootOpponent, r.rootMove));
        // determinism: a second run writes the same bytes
        Path again = dir.resolve("again.gsc");
        produce(again, game);
        assertArrayEquals(Files.readAllBytes(cert), Files.readAllBytes(again));
    }
}

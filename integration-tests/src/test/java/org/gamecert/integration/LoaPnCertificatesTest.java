package org.gamecert.integration;

import org.gamecert.producer.cli.ProduceMain;
import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.engine.Verifier;
import org.gamecert.verifier.kernel.Result;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lines of Action certificates made by the proof-number search ({@code solve --search pn}, the
 * default), checked by the independent verifier: wins and losses of 4×4, 5×5 and 6×6 positions
 * verify with no unreached entry, the bytes depend neither on --threads nor on --max-memory while
 * the table is not collected, and a table collected many times still gives a proof that verifies.
 */
class LoaPnCertificatesTest {
    static String produce(Path cert, String game, String... more) {
        List<String> args = new ArrayList<>(List.of("solve", "--game", game, "--mode", "weak-ranked", "-q", "--out", cert.toString()));
        args.addAll(List.of(more));
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int rc = ProduceMain.run(args.toArray(new String[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, rc, () -> "producer failed: " + out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    static Result verify(Path cert, String produced, int value) {
        Options opt = new Options();
        opt.strict = true; // no unreached entry
        Result r = Verifier.verify(cert, opt);
        assertEquals(Result.Verdict.VERIFIED, r.verdict, () -> r.errorMessage + " " + r.firstViolation());
        assertEquals(value, r.header.rootValue);
        assertEquals(0, r.unreached);
        Matcher c = Pattern.compile("commitment\\s+(sha256:[0-9a-f]{64})").matcher(produced);
        assertTrue(c.find(), produced);
        assertEquals(c.group(1), r.commitment);
        Matcher e = Pattern.compile("proof .*; (\\d+) entries").matcher(produced);
        assertTrue(e.find(), produced);
        assertEquals(Long.parseLong(e.group(1)), r.entries);
        assertTrue(produced.contains("root value    " + (value > 0 ? "+1" : "-1")), produced);
        return r;
    }

    /** Positions of LoaLinesMain's lines (5×5 after c1-c3, 6×6 after b1-b3): wins and losses of the side to move. */
    @ParameterizedTest(name = "{0} {1}: {2}")
    @CsvSource({
            "loa:4x4, '', 1",
            "loa:5x5, c1-c3 a2-c4 d1-d3, 1",
            "loa:5x5, c1-c3 a2-c4 d1-d3 a3-c5, -1",
            "loa:6x6, b1-b3 f5-e4 b3-b5 f4-c4 c1-c4 f3-d3 e1-c3 e4-c2, 1",
            "loa:6x6, b1-b3 f5-e4 b3-b5 f4-c4 c1-c4 f3-d3 e1-c3 e4-c2 d1-e1, -1"})
    void proofNumberCertificatesVerify(String game, String moves, int value, @TempDir Path dir) {
        Path cert = dir.resolve("c.gsc");
        String produced = moves.isEmpty() ? produce(cert, game) : produce(cert, game, "--moves", moves);
        verify(cert, produced, value);
        assertTrue(produced.contains("(df-pn, --search pn)"), produced);
        if (game.equals("loa:4x4")) assertTrue(produced.contains("winning move  b1-b3 "), produced);
    }

    @Test
    void theBytesDependNeitherOnThreadsNorOnTheMemoryWhileTheTableIsNotCollected(@TempDir Path dir) throws Exception {
        String moves = "c1-c3 a2-c4 d1-d3 a3-c5";
        Path a = dir.resolve("a.gsc"), b = dir.resolve("b.gsc");
        String pa = produce(a, "loa:5x5", "--moves", moves, "--threads", "1", "--max-memory", "16m");
        String pb = produce(b, "loa:5x5", "--moves", moves, "--threads", "2", "--max-memory", "400m");
        assertTrue(pa.contains(" 0 collections") && pb.contains(" 0 collections"), pa + pb);
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));
    }

    /** The least table (2^10 entries), collected again and again: the proof still verifies. */
    @Test
    void aCollectedTableStillGivesAProofThatVerifies(@TempDir Path dir) {
        Path cert = dir.resolve("c.gsc");
        String produced = produce(cert, "loa:5x5", "--moves", "c1-c3 a2-c4 d1-d3", "--max-memory", "1k", "--claim", "win");
        Matcher m = Pattern.compile(" (\\d+) collections").matcher(produced);
        assertTrue(m.find(), produced);
        assertTrue(Long.parseLong(m.group(1)) > 0, produced);
        verify(cert, produced, 1);
    }

    /** No certificate when the time runs out; the root's proof and disproof numbers are reported. */
    @Test
    void aTimeLimitEndsWithTheRootsNumbersAndNoCertificate(@TempDir Path dir) {
        Path cert = dir.resolve("c.gsc");
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int rc = ProduceMain.run(new String[] {"solve", "--game", "loa:6x6", "--mode", "weak-ranked", "--time-limit", "1", "--out",
                cert.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String said = out.toString(StandardCharsets.UTF_8);
        assertEquals(3, rc, said + err.toString(StandardCharsets.UTF_8));
        assertTrue(said.contains("not solved    time limit") && said.contains("the side to move wins? pn "), said);
        assertFalse(Files.exists(cert));
    }

    @Test
    @Tag("slow")
    void the5x5StartIsProvenBelowThePublishedNodeCount(@TempDir Path dir) {
        Path cert = dir.resolve("c.gsc");
        String produced = produce(cert, "loa:5x5", "--claim", "win");
        verify(cert, produced, 1);
        Matcher m = Pattern.compile("search +(\\d+) nodes").matcher(produced);
        assertTrue(m.find(), produced);
        assertTrue(Long.parseLong(m.group(1)) < 349_076, produced);
    }
}

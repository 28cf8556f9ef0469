package org.gamecert.integration;

import org.gamecert.producer.cli.ProduceMain;
import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.engine.Verifier;
import org.gamecert.verifier.kernel.Result;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@code produce solve --proof search}: the weak certificate read from the proof the root's
 * search keeps. On FFO #40 (20 empties) it verifies strictly, has the FFO value, and has the same
 * bytes whatever --threads and --tt-mb say (the search has its own table and one thread).
 */
class SearchProofCertificatesTest {
    static final Path FFO = Path.of("../testdata/known-answers/othello8-ffo/fforum-40-59.obf").toAbsolutePath().normalize();

    private static String run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int rc = ProduceMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, rc, () -> "producer: " + err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    @Tag("slow")
    void ffo40VerifiesWithItsValueWhateverTheThreadsAndTable(@TempDir Path dir) throws Exception {
        String line = Files.readAllLines(FFO).get(0); // FFO #40: "board X; A2:+38; ..."
        String board = line.substring(0, line.indexOf(';') + 1);
        int expected = Integer.parseInt(line.split(";")[1].trim().split(":")[1].replace("+", ""));
        Path a = dir.resolve("a.gsc"), b = dir.resolve("b.gsc");
        String out = run("solve", "--game", "othello:8x8", "--board", board, "--mode", "weak", "--leaf-empties", "6",
                "--proof", "search", "--threads", "1", "--tt-mb", "1", "-q", "--out", a.toString());
        run("solve", "--game", "othello:8x8", "--board", board, "--mode", "weak", "--leaf-empties", "6",
                "--proof", "search", "--threads", "2", "--tt-mb", "64", "-q", "--out", b.toString());
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b), "the same bytes with other --threads and --tt-mb");
        assertTrue(out.contains("root value    " + expected + " "), out);
        assertTrue(out.contains("a search keeping its proof"), out);

        Options opt = new Options();
        opt.strict = true;
        Result r = Verifier.verify(a, opt);
        assertEquals(Result.Verdict.VERIFIED, r.verdict, () -> r.errorMessage + " " + r.firstViolation());
        assertEquals(0, r.unreached);
        assertEquals(expected, r.header.rootValue);
        assertEquals(6, r.header.leafEmpties);
    }

    /** The proof log beyond half of --max-memory goes to disk: FFO #41's 29 MB log with --max-memory 32m, in a 300 MB heap. */
    @Test
    void aLogBeyondTheHeapSpillsAndTheCertificateVerifies(@TempDir Path dir) throws Exception {
        String line = Files.readAllLines(FFO).get(1); // FFO #41
        Path out = dir.resolve("x.gsc"), log = dir.resolve("log.txt");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx300m",
                "-cp", System.getProperty("java.class.path"), ProduceMain.class.getName(), "solve", "--game", "othello:8x8",
                "--board", line.substring(0, line.indexOf(';') + 1), "--mode", "weak", "--max-memory", "32m",
                "--out", out.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(p.waitFor(4, java.util.concurrent.TimeUnit.MINUTES));
        String text = Files.readString(log);
        assertEquals(0, p.exitValue(), text);
        assertTrue(text.matches("(?s).*its proof log \\d+ bytes \\([1-9]\\d* of them spilled to disk\\).*"), text);
        Options opt = new Options();
        opt.strict = true;
        Result r = Verifier.verify(out, opt);
        assertEquals(Result.Verdict.VERIFIED, r.verdict, () -> r.errorMessage + " " + r.firstViolation());
        assertEquals(6, r.header.leafEmpties);
    }

    @Test
    void refusedWhereItDoesNotApply(@TempDir Path dir) {
        String out = dir.resolve("x.gsc").toString();
        for (List<String> args : List.of(
                List.of("--game", "connect4:5x4", "--mode", "weak", "--leaf-empties", "6"),
                List.of("--game", "othello:6x6", "--mode", "weak", "--leaf-empties", "4"),
                List.of("--game", "othello:6x6", "--mode", "semi-strong"),
                List.of("--game", "othello:6x6", "--mode", "weak", "--leaf-empties", "6", "--moves",
                        ProducedCertificatesVerifyTest.randomLine("othello:6x6", 36 - 7, 3)))) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            String[] a = new java.util.ArrayList<String>() {{
                add("solve"); addAll(args); add("--proof"); add("search"); add("--out"); add(out);
            }}.toArray(new String[0]);
            int rc = ProduceMain.run(a, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            assertEquals(ProduceMain.EXIT_USAGE, rc, String.join(" ", a));
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("--proof search"), err.toString(StandardCharsets.UTF_8));
        }
        assertFalse(Files.exists(Path.of(out)));
    }
}

package org.gamecert.producer;

import org.gamecert.producer.cli.ProduceMain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A {@code solve --mode weak --state DIR} (the search's own proof) that resumes from a previous
 * run's checkpoint reports this run's times, and names the previous run's search as such (issue
 * #42: "the certificate read from it in -117.31 s", a time of one run less one of the other).
 */
class SearchProofResumedSummaryTest {
    @TempDir Path dir;

    private String out, err;

    private int solve(Path state, Path file) {
        ByteArrayOutputStream o = new ByteArrayOutputStream(), e = new ByteArrayOutputStream();
        int rc = ProduceMain.run(new String[] {"solve", "--game", "othello:8x8", "--board", SearchProofSpillTest.BOARD, "--mode", "weak",
                "--threads", "1", "--state", state.toString(), "--out", file.toString()},
                new PrintStream(o, true, StandardCharsets.UTF_8), new PrintStream(e, true, StandardCharsets.UTF_8));
        out = o.toString(StandardCharsets.UTF_8);
        err = e.toString(StandardCharsets.UTF_8);
        return rc;
    }

    /** The empty cells of SearchProofSpillTest.BOARD, whose search proof's table the summary names. */
    private static int emptiesAtRoot() {
        String cells = SearchProofSpillTest.BOARD.split(" ")[0];
        return (int) cells.chars().filter(c -> c == '-').count();
    }

    @Test void aResumedRunsSummaryHasNoNegativeTimeAndNamesThePreviousRun() throws Exception {
        Path state = dir.resolve("state"), ref = dir.resolve("ref.gsc"), a = dir.resolve("a.gsc");
        assertEquals(0, solve(dir.resolve("state0"), ref), err);
        assertFalse(out.contains("resumed"), "a run from the root is not a resumed one: " + out);
        // The first run stops right after its first checkpoint (the search done, its log in the state directory): it
        // cannot remove what it takes for an older needs file, a directory that is not empty.
        Path blocker = Files.createDirectories(state.resolve("needs-search-proof-old"));
        Files.writeString(blocker.resolve("x"), "x");
        assertEquals(1, solve(state, a), out + err);
        assertTrue(Files.exists(state.resolve("checkpoint.txt")), "a checkpoint left: " + err);
        Files.delete(blocker.resolve("x"));
        Files.delete(blocker);

        assertEquals(0, solve(state, a), err);
        assertArrayEquals(Files.readAllBytes(ref), Files.readAllBytes(a), "the resumed run's certificate");
        assertTrue(err.contains("resuming from the checkpoint"), err);
        assertFalse(Pattern.compile("-\\d+(\\.\\d+)? ?s\\b").matcher(out).find(), "no negative time: " + out);
        Matcher total = Pattern.compile("solve (\\d+\\.\\d+) s, total (\\d+\\.\\d+) s, 1 thread \\(this run, resumed at layer (\\d+)\\)")
                .matcher(out);
        assertTrue(total.find(), "the search line says its figures are this run's: " + out);
        Matcher read = Pattern.compile("this run read the certificate from layer (\\d+) on in (\\d+\\.\\d+) s").matcher(out);
        assertTrue(read.find(), out);
        assertEquals(total.group(3), read.group(1), "resumed at the layer it read from");
        assertTrue(Double.parseDouble(read.group(2)) <= Double.parseDouble(total.group(2)), "this run's reading within this run: " + out);
        Matcher prev = Pattern.compile("the root's value \\(a search keeping its proof, one thread, a "
                + org.gamecert.producer.cert.SearchProof.tableMb(emptiesAtRoot()) + " MiB table\\) was a previous "
                + "run's, (\\d+) nodes in (\\d+\\.\\d+) s there").matcher(out);
        assertTrue(prev.find(), "the previous run's search, named as such: " + out);
        assertTrue(Long.parseLong(prev.group(1)) > 0, out);
        assertFalse(out.contains("of which the root's value"), "the previous run's search is not counted as this run's: " + out);
    }
}

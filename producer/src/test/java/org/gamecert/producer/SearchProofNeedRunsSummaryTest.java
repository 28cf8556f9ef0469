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
 * {@code solve --mode weak} (the search's own proof) with a {@code --max-memory} its layers' needs
 * pass: the summary counts the sorted runs of needs it spilled, as the canonical extraction's does
 * (issue #42: it said 0 whatever the needs took), the working directory keeps none of them, and the
 * certificate is the same bytes as without a budget.
 */
class SearchProofNeedRunsSummaryTest {
    @TempDir Path dir;

    private String out, err;

    private int solve(Path file, String... extra) {
        ByteArrayOutputStream o = new ByteArrayOutputStream(), e = new ByteArrayOutputStream();
        String[] base = {"solve", "--game", "othello:8x8", "--board", SearchProofSpillTest.BOARD, "--mode", "weak",
                "--threads", "1", "--out", file.toString()};
        String[] args = java.util.Arrays.copyOf(base, base.length + extra.length);
        System.arraycopy(extra, 0, args, base.length, extra.length);
        int rc = ProduceMain.run(args, new PrintStream(o, true, StandardCharsets.UTF_8), new PrintStream(e, true, StandardCharsets.UTF_8));
        out = o.toString(StandardCharsets.UTF_8);
        err = e.toString(StandardCharsets.UTF_8);
        return rc;
    }

    private int runs() {
        Matcher m = Pattern.compile("; (\\d+) sorted runs of needs spilled;").matcher(out);
        assertTrue(m.find(), "the summary counts the runs: " + out);
        return Integer.parseInt(m.group(1));
    }

    @Test void theSummaryCountsTheSortedRunsOfNeedsSpilled() throws Exception {
        Path free = dir.resolve("free.gsc"), small = dir.resolve("small.gsc"), tmp = dir.resolve("tmp");
        assertEquals(0, solve(free), err);
        assertEquals(0, runs(), "no run within the default budget: " + out);
        assertEquals(0, solve(small, "--max-memory", "64k", "--tmp", tmp.toString()), err);
        assertTrue(runs() > 0, "runs spilled with --max-memory 64k: " + out);
        assertArrayEquals(Files.readAllBytes(free), Files.readAllBytes(small), "the same certificate");
        if (Files.exists(tmp))
            try (var files = Files.list(tmp)) {
                assertEquals(0, files.count(), "nothing left in --tmp");
            }
    }
}

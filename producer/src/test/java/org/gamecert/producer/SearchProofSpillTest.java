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
 * The fast weak proof, the default of {@code solve --mode weak} on 8x8 Othello ({@code --leaf-empties 6
 * --proof search}): its proof log goes to the working directory beyond half of {@code --max-memory},
 * and the certificate is the same bytes whether it went there or not, with 1 or 2 threads and any
 * {@code --tt-mb}, and the same as with those settings given explicitly.
 */
class SearchProofSpillTest {
    @TempDir Path dir;

    /** 15 empties: a log of some 6,000 longs (about 48 KB), 7-empty layers of more than a chunk's 1024 positions at the least budget. */
    static final String BOARD = "--OOOO--X-OOOO--XXOOXOOOXXXOXOOOXXXXOXOOXXXXXOOOX-XXXO-----XXO-- X";

    private String out;

    private byte[] produce(String name, String... args) throws Exception {
        Path f = dir.resolve(name);
        String[] all = new String[args.length + 9];
        all[0] = "solve";
        all[1] = "--game";
        all[2] = "othello:8x8";
        all[3] = "--board";
        all[4] = BOARD;
        all[5] = "--mode";
        all[6] = "weak";
        System.arraycopy(args, 0, all, 7, args.length);
        all[args.length + 7] = "--out";
        all[args.length + 8] = f.toString();
        ByteArrayOutputStream o = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        assertEquals(0, ProduceMain.run(all, new PrintStream(o, true, StandardCharsets.UTF_8), new PrintStream(err, true,
                StandardCharsets.UTF_8)), err.toString(StandardCharsets.UTF_8));
        out = o.toString(StandardCharsets.UTF_8);
        return Files.readAllBytes(f);
    }

    /** The proof log's bytes written to disk, from the summary. */
    private long spilled() {
        Matcher m = Pattern.compile("its proof log (\\d+) bytes \\((\\d+) of them spilled to disk\\)").matcher(out);
        assertTrue(m.find(), "a --proof search summary: " + out);
        return Long.parseLong(m.group(2));
    }

    @Test void sameBytesWhetherTheLogSpilledOrNot() throws Exception {
        byte[] a = produce("a.gsc", "--threads", "1", "--max-memory", "512m");
        assertEquals(0, spilled(), "512m holds the log");
        assertTrue(out.contains("of which the root's value (a search keeping its proof"), "--mode weak alone is the search's proof: " + out);
        byte[] b = produce("b.gsc", "--threads", "2", "--max-memory", "64k", "--tt-mb", "4");
        assertTrue(spilled() > 0, "64k spills the log");
        byte[] c = produce("c.gsc", "--threads", "1", "--max-memory", "72k", "--leaf-empties", "6", "--proof", "search");
        assertTrue(spilled() > 0, "72k spills the log: " + out);
        byte[] d = produce("d.gsc", "--threads", "2");
        Path state = dir.resolve("state");
        byte[] e = produce("e.gsc", "--threads", "2", "--max-memory", "64k", "--state", state.toString());
        assertFalse(Files.exists(state), "--state removed on success");
        assertArrayEquals(a, b, "512m, 1 thread vs 64k (spilled), 2 threads");
        assertArrayEquals(a, c, "the default vs --leaf-empties 6 --proof search given, 72k");
        assertArrayEquals(a, d, "512m vs the default budget, 2 threads");
        assertArrayEquals(a, e, "without --state vs with (its checkpoints), 64k");
        assertEquals(0, Files.list(dir).filter(p -> !p.getFileName().toString().endsWith(".gsc")).count(),
                "nothing left in the working directory's parent");
    }

    @Test void theCanonicalExtractionStaysBehindAFlag() throws Exception {
        byte[] search = produce("s.gsc", "--threads", "1");
        byte[] canonical = produce("c.gsc", "--threads", "1", "--proof", "canonical");
        assertTrue(out.contains("(a plain search)"), out);
        assertFalse(java.util.Arrays.equals(search, canonical), "two different proofs");
        // --leaf-empties 0 is the 1.0 format (no leaves): the canonical extraction, as before
        produce("z.gsc", "--threads", "1", "--leaf-empties", "0");
        assertTrue(out.contains("(a plain search)"), out);
    }
}

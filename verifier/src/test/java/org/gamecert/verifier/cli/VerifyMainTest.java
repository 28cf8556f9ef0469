package org.gamecert.verifier.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line: exit codes, human report, JSON fields, usage errors. */
class VerifyMainTest {
    @TempDir
    static Path dir;
    static Path valid, rejected, rejectedDeep, weak, weakOtherCut, notFromStart;
    static byte[] validBytes;
    static String weakOtherMove;

    @BeforeAll
    static void certificates() throws Exception {
        TinySolver s = new TinySolver(1, 4, 4, 1, null);
        long[] start = s.othelloStart();
        TestCert t = s.build(start[0], start[1], 1);
        validBytes = t.write();
        valid = Files.write(dir.resolve("valid.gsc"), validBytes);
        TestCert bad = t.copy();
        bad.rootValue = t.rootValue + 2;
        rejected = Files.write(dir.resolve("rejected.gsc"), bad.write());
        bad = t.copy(); // a false value deep down: with --all the check goes on to the census
        for (TestCert.Entry e : bad.entries)
            if (e.layer() > 6 && e.kind == TestCert.AP) {
                e.lo = e.hi = e.lo < 16 ? e.lo + 1 : e.lo - 1;
                break;
            }
        rejectedDeep = Files.write(dir.resolve("rejected-deep.gsc"), bad.write());
        TestCert w = s.build(start[0], start[1], 2);
        weak = Files.write(dir.resolve("weak.gsc"), w.write());
        // The weak root's {C, A} entry with another optimal move as its cut move: still true, so
        // verified, but that move is not the canonical one (a later move in TB order).
        long k = s.canonicalKey(start[0], start[1]);
        TestCert.Entry root = w.find(k >>> 32, k & 0xFFFFFFFFL);
        long rootOpp = root.occ & ~root.mover;
        for (long m = s.game.legalMoveCodes(root.mover, rootOpp); m != 0 && weakOtherMove == null; m &= m - 1) {
            int code = Long.numberOfTrailingZeros(m);
            if (code != root.move && s.moveValue(root.mover, rootOpp, code) == w.rootValue) {
                root.move = code;
                weakOtherMove = "" + (char) ('a' + code % 4) + (code / 4 + 1);
            }
        }
        weakOtherCut = Files.write(dir.resolve("weak-other-cut.gsc"), w.write());
        long[] after = new long[3]; // one move in: not the initial position
        s.game.child(start[0], start[1], Long.numberOfTrailingZeros(s.game.legalMoveCodes(start[0], start[1])), after);
        notFromStart = Files.write(dir.resolve("not-from-start.gsc"), s.build(after[0], after[1], 1).write());
    }

    String[] outErr = new String[2];

    /**
     * Shows a report in the test log, each line as "expected: ..." after its exit code was checked
     * (its REJECTED, INCOMPLETE and violation lines are what the test wants, not failures).
     */
    static void printExpected(String report) {
        report.lines().forEach(line -> System.out.println("expected: " + line));
    }

    int run(String... args) {
        ByteArrayOutputStream o = new ByteArrayOutputStream(), e = new ByteArrayOutputStream();
        int code = VerifyMain.run(args, new PrintStream(o, true, StandardCharsets.UTF_8), new PrintStream(e, true, StandardCharsets.UTF_8));
        outErr[0] = o.toString(StandardCharsets.UTF_8);
        outErr[1] = e.toString(StandardCharsets.UTF_8);
        return code;
    }

    @Test
    void verifiedHumanReport() {
        assertEquals(0, run(valid.toString()));
        String out = outErr[0];
        printExpected(out);
        assertTrue(out.contains("VERIFIED"));
        assertTrue(out.contains(TestCert.commitmentOf(validBytes)));
        assertTrue(out.contains("othello:4x4"));
        assertTrue(out.contains("census"));
    }

    @Test
    void verifiedJson() {
        assertEquals(0, run(valid.toString(), "--json", "--threads", "2"));
        String out = outErr[0].trim();
        assertTrue(out.startsWith("{") && out.endsWith("}"));
        assertEquals(1, out.lines().count(), "a single JSON object");
        for (String key : new String[] {"\"verdict\":\"verified\"", "\"game\":\"othello:4x4\"", "\"mode\":\"semi-strong\"",
                "\"root_value\":", "\"commitment\":\"" + TestCert.commitmentOf(validBytes) + "\"", "\"entries\":", "\"region\":",
                "\"census\":[{\"discs\":4,", "\"auxiliary\":"})
            assertTrue(out.contains(key), key + " in " + out);
        assertTrue(out.matches("(?s).*\"peak_table_bytes\":[1-9].*"), "the tables' peak in " + out);
    }

    @Test
    void rejectedShowsTheViolation() {
        assertEquals(1, run(rejected.toString()));
        printExpected(outErr[0]);
        assertTrue(outErr[0].contains("R-ROOT-2"));
        assertFalse(outErr[0].contains("sha256:"), "no commitment on rejection");
        assertEquals(1, run(rejected.toString(), "--json"));
        assertTrue(outErr[0].contains("\"verdict\":\"rejected\""));
        assertTrue(outErr[0].contains("\"violation\":{\"rule\":\"R-ROOT-2\""));
        assertTrue(outErr[0].contains("\"commitment\":null"));
    }

    @Test
    void errorsAndUsage() throws Exception {
        assertEquals(2, run(dir.resolve("missing.gsc").toString()));
        assertEquals("error: no such file or directory: " + dir.resolve("missing.gsc") + "\n", outErr[1], "one line");
        assertEquals("", outErr[0], "no report for a file that is not there");
        Path junk = Files.write(dir.resolve("junk.bin"), new byte[] {1, 2, 3});
        assertEquals(2, run(junk.toString(), "--json"));
        assertTrue(outErr[0].contains("\"verdict\":\"error\""));
        assertEquals(2, run());
        assertTrue(outErr[1].startsWith("error:"));
        assertEquals(2, run(valid.toString(), "--threads", "0"));
        assertEquals(2, run(valid.toString(), "--max-memory", "lots"));
        assertEquals(2, run(valid.toString(), "--bogus"));
        assertEquals(2, run(valid.toString(), "--max-memory", "1k"), "memory limit below one block");
        assertEquals(0, run("--help"));
        assertTrue(outErr[0].contains("Exit codes"));
    }

    @Test
    void weakAndAll() {
        assertEquals(0, run(weak.toString(), "--strict", "--all"));
        assertTrue(outErr[0].contains("weak"));
    }

    /** Item 7 of issue 22: "canonical move" only where an exact obligation (P) established it. */
    @Test
    void theRootMoveIsCalledCanonicalOnlyWhenItWasCheckedAsSuch() {
        assertEquals(0, run(valid.toString()));
        assertTrue(outErr[0].contains(", the canonical move"), outErr[0]);
        assertTrue(outErr[0].contains("the game's initial position") && outErr[0].contains("solved from the start"), outErr[0]);
        assertTrue(outErr[0].contains("positions certified with their exact value and canonical move"), outErr[0]);
        assertEquals(0, run(valid.toString(), "--json"));
        for (String key : new String[] {"\"root_is_initial_position\":true", "\"root_value_proven\":true", "\"root_cut_move\":null", "\"region_proven\":true"})
            assertTrue(outErr[0].contains(key), key + " in " + outErr[0]);
        assertTrue(outErr[0].matches("(?s).*\"root_move\":\"[a-d][1-4]\".*"), outErr[0]);

        assertTrue(weakOtherMove != null, "the start has several optimal moves");
        for (Path p : new Path[] {weak, weakOtherCut}) {
            assertEquals(0, run(p.toString()));
            assertFalse(outErr[0].contains(", the canonical move"), outErr[0]);
            assertTrue(outErr[0].contains("achieves the value (a cut move; weak mode does not check that it is the canonical move)"), outErr[0]);
            assertTrue(outErr[0].contains("region      none"), outErr[0]);
            assertEquals(0, run(p.toString(), "--json"));
            assertTrue(outErr[0].contains("\"root_move\":null"), outErr[0]);
            assertTrue(outErr[0].contains("\"region_proven\":false"), outErr[0]);
        }
        assertTrue(outErr[0].contains("\"root_cut_move\":\"" + weakOtherMove + "\""), weakOtherMove + " in " + outErr[0]);

        assertEquals(0, run(notFromStart.toString()));
        assertTrue(outErr[0].contains("not the game's initial position") && !outErr[0].contains("solved from the start"), outErr[0]);
        assertEquals(0, run(notFromStart.toString(), "--json"));
        assertTrue(outErr[0].contains("\"root_is_initial_position\":false"), outErr[0]);

        // Rejected, even when the checks went on to the end (--all): nothing proven, nothing canonical.
        for (String[] args : new String[][] {{rejected.toString()}, {rejected.toString(), "--all"}, {rejectedDeep.toString(), "--all"}}) {
            assertEquals(1, run(args));
            for (String word : new String[] {"proven", "canonical", "certified", "root move"})
                assertFalse(outErr[0].contains(word), word + " in " + outErr[0]);
            assertTrue(outErr[0].contains("claim       root value"), outErr[0]);
            String[] json = java.util.Arrays.copyOf(args, args.length + 1);
            json[args.length] = "--json";
            assertEquals(1, run(json));
            for (String key : new String[] {"\"root_value_proven\":false", "\"root_move\":null", "\"root_cut_move\":null", "\"region_proven\":false"})
                assertTrue(outErr[0].contains(key), key + " in " + outErr[0]);
        }
        assertEquals(1, run(rejectedDeep.toString(), "--all"));
        assertTrue(outErr[0].contains("positions counted (a count only: the certificate is not verified)"), outErr[0]);
    }

    /** Item 6 of issue 22: an option that would be ignored for this input is a usage error, never a silent 0. */
    @Test
    void optionsThatWouldCheckNothingAreRefused() throws Exception {
        Path key = Files.writeString(dir.resolve("author.pub"), "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n");
        assertEquals(2, run(valid.toString(), "--pubkey", key.toString()));
        assertTrue(outErr[1].contains("--pubkey") && outErr[1].contains("a certificate"), outErr[1]);
        assertEquals("", outErr[0], "nothing verified, nothing reported");
        Path peerDir = Files.createDirectories(dir.resolve("peer-tables")); // a directory of tables, without bagit.txt: peer tables
        Files.write(peerDir.resolve("optimal_reopening_ab_table_all_30.txt"), new byte[0]);
        assertEquals(2, run(peerDir.toString(), "--pubkey", key.toString()));
        assertTrue(outErr[1].contains("peer tables"), outErr[1]);
        // a key file that cannot be read, where a key applies
        assertEquals(2, run(valid.toString(), "--format", "bundle", "--pubkey", dir.resolve("no-such.pub").toString()));
        assertTrue(outErr[1].contains("cannot read the key file"), outErr[1]);
        assertEquals(2, run(valid.toString(), "--root", "4453"));
        assertTrue(outErr[1].contains("--root applies to peer tables only"), outErr[1]);
        assertEquals(2, run(valid.toString(), "--state", dir.resolve("state").toString()));
        assertEquals(2, run(valid.toString(), "--tmp", dir.toString()));
        assertEquals(0, run(valid.toString()), "and without them it verifies");
    }

    /** --max-memory above what the heap can hold is refused up front; the default is fitted to the heap. */
    @Test
    void maxMemoryAboveTheHeapIsRefused() {
        long room = VerifyMain.tableHeapRoom(), heap = Runtime.getRuntime().maxMemory();
        assertTrue(room > 0 && room < heap, room + " of " + heap);
        assertEquals(2, run(valid.toString(), "--max-memory", Long.toString(room + 1)));
        assertTrue(outErr[1].contains("more than this JVM's heap can hold") && outErr[1].contains(VerifyMain.mib(heap) + " maximum heap"), outErr[1]);
        assertEquals(2, run(valid.toString(), "--max-memory", "1024g", "--json"));
        assertTrue(outErr[0].startsWith("{\"input\":\"" + valid + "\",\"kind\":null,\"verdict\":\"error\",\"exit_code\":2,\"error\":\"--max-memory 1024g"),
                "a usage error under --json is a JSON object too: " + outErr[0]);
        assertEquals(0, run(valid.toString(), "--max-memory", Long.toString(room)));
        assertEquals(0, run(valid.toString()), "the default, fitted to the heap when it is smaller");
    }

    @Test
    void sizes() {
        assertEquals(512L << 20, VerifyMain.parseSize("512m"));
        assertEquals(4L << 30, VerifyMain.parseSize("4G"));
        assertEquals(1000, VerifyMain.parseSize("1000"));
        assertEquals(-1, VerifyMain.parseSize("-5"));
    }

    // ---- inputs that no reader can check: one line, saying what it is and what to run ----

    @Test
    void inputsNoReaderCanCheckGetOneLineSayingWhatTheyAreAndWhatToRun() throws Exception {
        Path empty = Files.createDirectories(dir.resolve("empty-folder"));
        Path emptyFile = Files.write(dir.resolve("empty.gsc"), new byte[0]);
        Path tables = Files.createDirectories(dir.resolve("one-table"));
        Path table = Files.write(tables.resolve("optimal_reopening_ab_table_all_26.txt"), new byte[13]);
        Path bz2 = Files.write(dir.resolve("postprocess_26.csv.bz2"), "BZh91AY&SY-not-really".getBytes(StandardCharsets.US_ASCII));
        Path certs = Files.createDirectories(dir.resolve("certs"));
        Files.write(certs.resolve("a.gsc"), validBytes);
        String[][] cases = {
            {dir.resolve("nonexist.gsc").toString(), "no such file or directory"},
            {empty.toString(), "is an empty folder: nothing to verify"},
            {emptyFile.toString(), "is an empty file (0 bytes)"},
            {table.toString(), "is one table of the published 6x6 tablebase (its 26-disc records)", "scripts/verify " + tables},
            {bz2.toString(), "is bzip2-compressed (the tablebase's CSV tables are stored so)", "bzip2 -dk " + bz2,
                    "scripts/verify " + dir.resolve("postprocess_26.csv")},
            {certs.toString(), "holds 1 certificate but no composite.gscm", "scripts/verify " + certs.resolve("a.gsc")},
        };
        for (String[] c : cases) {
            assertEquals(2, run(c[0]), c[0]);
            assertEquals("", outErr[0], "no report: " + c[0]);
            assertEquals(1, outErr[1].lines().count(), "one line: " + outErr[1]);
            for (int i = 1; i < c.length; i++) assertTrue(outErr[1].contains(c[i]), c[i] + " in: " + outErr[1]);
            assertEquals(2, run(c[0], "--json"));
            assertTrue(outErr[0].startsWith("{\"input\":\"" + c[0] + "\",\"kind\":null,\"verdict\":\"error\",\"exit_code\":2,\"error\":\""),
                    outErr[0]);
            assertEquals(1, outErr[0].trim().lines().count());
        }
    }

    // ---- JSON ----

    @Test
    void everyJsonObjectStartsWithInputKindVerdictAndExitCode() throws Exception {
        assertEquals(0, run(valid.toString(), "--json"));
        assertTrue(outErr[0].startsWith("{\"input\":\"" + valid + "\",\"kind\":\"certificate\",\"verdict\":\"verified\",\"exit_code\":0,"), outErr[0]);
        assertEquals(1, run(rejected.toString(), "--json"));
        assertTrue(outErr[0].startsWith("{\"input\":\"" + rejected + "\",\"kind\":\"certificate\",\"verdict\":\"rejected\",\"exit_code\":1,"), outErr[0]);
        // usage errors too (picocli's, and the verifier's own checks)
        for (String[] args : new String[][] {{valid.toString(), "--json", "--bogus"}, {valid.toString(), "--json", "--threads", "0"},
                {"--json"}}) {
            assertEquals(2, run(args), String.join(" ", args));
            assertTrue(outErr[0].matches("\\{\"input\":(null|\"[^\"]*\"),\"kind\":null,\"verdict\":\"error\",\"exit_code\":2,\"error\":\".+\"}\\s*"),
                    String.join(" ", args) + ": " + outErr[0]);
        }
    }

    @Test
    void absentNumbersAreNullNeverMinusOne() throws Exception {
        Path junk = Files.write(dir.resolve("junk-numbers.bin"), new byte[] {9, 8, 7, 6, 5});
        assertEquals(2, run(junk.toString(), "--json"));
        assertTrue(outErr[0].contains("\"region\":null") && outErr[0].contains("\"unreached\":null"), outErr[0]);
        assertFalse(outErr[0].matches("(?s).*:-1[,}].*"), outErr[0]);
        assertEquals(1, run(rejected.toString(), "--json")); // R-ROOT-2: a violation without block, layer or entry
        assertTrue(outErr[0].contains("\"violation\":{\"rule\":\"R-ROOT-2\",\"statement\":\"semi-strong root is P with the claimed value\""), outErr[0]);
        assertFalse(outErr[0].matches("(?s).*:-1[,}].*"), outErr[0]);
    }

    // ---- rules ----

    @Test
    void theFirstViolationGivesTheRulesStatementBesideItsId() {
        assertEquals(1, run(rejected.toString()));
        assertTrue(outErr[0].contains("first violation: R-ROOT-2 (semi-strong root is P with the claimed value)"), outErr[0]);
    }

    @Test
    void explainPrintsTheRuleAndWhereItIsDefined() {
        assertEquals(0, run("--explain", "R-TB-1"));
        assertTrue(outErr[0].startsWith("R-TB-1: canonical move under TB (P, A', P'; mode 5: P and P' only)\n  defined in format-spec/SPEC.md §9"), outErr[0]);
        assertEquals(0, run("--explain", "peer-pv-2"));
        assertTrue(outErr[0].startsWith("PEER-PV-2: PV: no move is worth more than the value"), outErr[0]);
        assertEquals(0, run("--explain", "all"));
        for (String id : Rules.all().keySet()) assertTrue(outErr[0].contains(id + " "), id);
        assertEquals(2, run("--explain", "R-NOPE-1"));
        assertTrue(outErr[1].contains("no rule R-NOPE-1") && outErr[1].contains("--explain all"), outErr[1]);
    }

    @Test
    void threadsBeyondAnIntGetTheRangeNotAJavaTypeName() {
        assertEquals(2, run(valid.toString(), "--threads", "99999999999"));
        assertTrue(outErr[1].startsWith("error: --threads must be between 1 and 256, not '99999999999'"), outErr[1]);
        assertFalse(outErr[1].contains("is not an int"), outErr[1]);
    }

    // ---- progress ----

    @Test
    void progressRedrawsInPlaceOnlyOnATerminalAndWritesWholeLinesToALog() {
        long started = System.nanoTime() - 100_000_000_000L; // 100 s ago: past every threshold
        java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream(), tty = new java.io.ByteArrayOutputStream();
        VerifyMain.Progress toLog = new VerifyMain.Progress(new PrintStream(log, true, StandardCharsets.UTF_8), false, started);
        VerifyMain.Progress toTty = new VerifyMain.Progress(new PrintStream(tty, true, StandardCharsets.UTF_8), true, started);
        for (VerifyMain.Progress p : new VerifyMain.Progress[] {toLog, toTty}) {
            p.update(1000, 2, 500, 1000, 1);
            p.update(2000, 3, 600, 1000, 1); // within the interval: not printed
            p.update(3000, 4, 3000, 6000, 2);
            p.done();
        }
        String l = log.toString(StandardCharsets.UTF_8), t = tty.toString(StandardCharsets.UTF_8);
        assertFalse(l.contains("\r"), "no carriage return in a log: " + l);
        assertEquals(2, l.lines().count(), l); // a line for each pass: the log's interval starts anew with the pass
        // one pass (the sequential kernel's engine) is not numbered; a second one is
        assertTrue(l.startsWith("[1 min 40 s] 1,000 entries, 2 layers done") && l.contains("50%, ETA "), l);
        assertFalse(l.lines().findFirst().orElse("").contains("pass"), l);
        assertTrue(l.contains("pass 2: 3,000 entries, 4 layers done"), l);
        assertTrue(t.startsWith("\r[1 min 40 s] 1,000 entries") && t.endsWith("\n"), "redrawn in place on a terminal: " + t);
    }
}

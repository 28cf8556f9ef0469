package org.gamecert.producer.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
        assertTrue(err.startsWith("error: " + bad + " is rejected: R-"), err);
    }

    /** What scripts/verify would exit with, and what it printed (stdout + stderr). */
    String[] verify(Path p) {
        java.io.ByteArrayOutputStream o = new java.io.ByteArrayOutputStream();
        int rc = org.gamecert.verifier.cli.VerifyMain.run(new String[] {p.toString(), "--threads", "1"}, new PrintStream(o, true, StandardCharsets.UTF_8),
                new PrintStream(o, true, StandardCharsets.UTF_8));
        return new String[] {Integer.toString(rc), o.toString(StandardCharsets.UTF_8)};
    }

    @Test void queryAndVerifyAgreeOnExitCodesAndNameBrokenRulesAlike() throws Exception {
        Path cert = dir.resolve("c.gsc");
        assertEquals(0, run("solve", "--out", cert.toString(), "-q"));
        byte[] good = Files.readAllBytes(cert);
        // the first block's stored chain value, one bit off: R-HASH-1 for both
        int headerSize = java.nio.ByteBuffer.wrap(good, 4, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
        byte[] b = good.clone();
        b[8 + headerSize + 8 + 16] ^= 1;
        Path hash = Files.write(dir.resolve("hash.gsc"), b);
        Path empty = Files.write(dir.resolve("empty.gsc"), new byte[0]);
        Path text = Files.writeString(dir.resolve("text.gsc"), "not a certificate\n");
        Path missing = dir.resolve("missing.gsc");
        for (Path p : new Path[] {hash, empty, text, missing}) {
            int rc = run("query", p.toString(), "--moves", "");
            String[] v = verify(p);
            assertEquals(Integer.parseInt(v[0]), rc, p + ": query says " + err + "verify says " + v[1]);
        }
        assertEquals(ProduceMain.EXIT_FAILURE, run("query", hash.toString(), "--moves", ""));
        assertTrue(err.contains("R-HASH-1 (block chain value)") && !err.contains("mismatch"), err);
        assertTrue(verify(hash)[1].contains("first violation: R-HASH-1 (block chain value)"));
        assertEquals(ProduceMain.EXIT_USAGE, run("query", empty.toString(), "--moves", ""));
        assertTrue(err.contains("empty file (0 bytes)"), err);
        // --json: an error is a JSON object on stdout too
        assertEquals(ProduceMain.EXIT_USAGE, run("query", empty.toString(), "--moves", "", "--json"));
        assertTrue(out.startsWith("{\"error\":\"") && out.trim().endsWith("\"exit_code\":2}"), out);
        assertEquals(ProduceMain.EXIT_USAGE, run("query", cert.toString(), "--json"));
        assertTrue(out.contains("give the position with --moves or --board") && out.contains("\"exit_code\":2"), out);
    }

    @Test void helpListsTheExitCodes() {
        assertEquals(0, run("--help"));
        for (String code : new String[] {"  0   done", "  1   failed", "  2   bad request", "  3   solve --game loa"})
            assertTrue(out.contains(code), code + " in " + out);
        for (String sub : new String[] {"solve", "query", "release", "keygen", "mutate", "export", "solve-part", "compose"}) {
            assertEquals(0, run(sub, "--help"));
            assertTrue(out.contains("Exit codes:") && out.contains("  2   bad request"), sub + ": " + out);
        }
    }


    @Test void everyHelpTextRendersWithoutAFormatWarning() {
        // picocli formats descriptions with String.format: a lone '%' makes it warn on stderr and
        // print the raw text (with literal %n) instead of the help
        PrintStream saved = System.err;
        ByteArrayOutputStream warnings = new ByteArrayOutputStream();
        System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
        try {
            assertEquals(0, run("--help"));
            for (String sub : new String[] {"solve", "query", "release", "keygen", "mutate", "export", "solve-part", "compose"}) {
                assertEquals(0, run(sub, "--help"));
                assertFalse(out.contains("%n"), sub + ": " + out);
            }
        } finally {
            System.setErr(saved);
        }
        assertEquals("", warnings.toString(StandardCharsets.UTF_8));
    }

    // ---- messages a user meets first ----

    @Test void withoutSubcommandEveryOneOfTheEightIsListed() {
        assertEquals(ProduceMain.EXIT_USAGE, run());
        for (String sub : new String[] {"solve", "query", "release", "keygen", "mutate", "export", "solve-part", "compose"})
            assertTrue(err.contains(sub), sub + " in: " + err);
    }

    @Test void unknownGameAndModeMessagesNameEveryChoice() {
        Path cert = dir.resolve("x.gsc");
        assertEquals(ProduceMain.EXIT_USAGE, run("solve", "--game", "chess:8x8", "--out", cert.toString()));
        for (String g : new String[] {"othello:", "connect4:", "nogo:", "loa:"}) assertTrue(err.contains(g), g + " in: " + err);
        assertEquals(ProduceMain.EXIT_USAGE, run("solve", "--mode", "strong", "--out", cert.toString()));
        for (String m : new String[] {"semi-strong", "weak", "weak-ranked"}) assertTrue(err.contains(m), m + " in: " + err);
        assertEquals(ProduceMain.EXIT_USAGE, run("solve", "--mode", "weak-ranked", "--out", cert.toString()));
        assertTrue(err.contains("Lines of Action"), err);
    }

    @Test void anEmptyConnectFourBoardIsRefusedWithAMessageItDoesNotSatisfy() {
        assertEquals(ProduceMain.EXIT_USAGE, run("solve", "--game", "connect4:0x0", "--out", dir.resolve("x.gsc").toString()));
        assertTrue(err.contains("W >= 1, H >= 1") && err.contains("at least one column and one row"), err);
    }

    @Test void numbersOutOfRangeGetTheOptionsRangeNotAJavaTypeName() {
        Path cert = dir.resolve("x.gsc");
        for (String v : new String[] {"99999999999", "0", "-3", "many"}) {
            assertEquals(ProduceMain.EXIT_USAGE, run("solve", "--threads", v, "--out", cert.toString()));
            assertTrue(err.startsWith("error: --threads must be between 1 and 1024, not "), v + ": " + err);
            assertFalse(err.contains("is not an int"), err);
        }
        assertEquals(ProduceMain.EXIT_USAGE, run("solve", "--tt-mb", "99999999999999999999", "--out", cert.toString()));
        assertTrue(err.startsWith("error: --tt-mb must be between 1 and 65536"), err);
    }

    @Test void aTimeLimitBelowOneSecondOrForAGameSolvedToTheEndIsRefused() {
        Path cert = dir.resolve("l.gsc");
        for (String v : new String[] {"-1", "0"}) {
            assertEquals(ProduceMain.EXIT_USAGE, run("solve", "--game", "loa:4x4", "--mode", "weak-ranked", "--time-limit", v, "--out", cert.toString()));
            assertTrue(err.startsWith("error: --time-limit must be a whole number of seconds, at least 1"), err);
        }
        assertEquals(ProduceMain.EXIT_USAGE, run("solve", "--game", "othello:4x4", "--time-limit", "5", "--out", cert.toString()));
        assertTrue(err.contains("--time-limit is for Lines of Action"), err);
        assertFalse(Files.exists(cert));
    }

    // ---- files ----

    @Test void solveRefusesAnExistingOutUnlessForced() throws Exception {
        Path cert = dir.resolve("x.gsc");
        Files.writeString(cert, "keep me");
        assertEquals(ProduceMain.EXIT_USAGE, run("solve", "--out", cert.toString(), "-q"));
        assertTrue(err.contains("exists: give --force"), err);
        assertEquals("keep me", Files.readString(cert));
        assertEquals(ProduceMain.EXIT_USAGE, run("solve", "--game", "loa:4x4", "--mode", "weak-ranked", "--out", cert.toString(), "-q"));
        assertTrue(err.contains("exists: give --force"), err);
        assertEquals(0, run("solve", "--out", cert.toString(), "-q", "--force"));
        assertNotEquals("keep me", new String(Files.readAllBytes(cert), StandardCharsets.ISO_8859_1));
    }

    @Test void writtenFilesGetTheDefaultPermissionsNotOwnerOnly() throws Exception {
        Path reference = Files.createFile(dir.resolve("reference")); // what any new file gets here (0666 less the umask)
        var expected = Files.getPosixFilePermissions(reference);
        Path cert = dir.resolve("x.gsc"), tables = dir.resolve("t.tar");
        assertEquals(0, run("solve", "--out", cert.toString(), "-q"));
        assertEquals(expected, Files.getPosixFilePermissions(cert), "certificate");
        assertEquals(0, run("solve", "--game", "othello:6x6", "--moves", "e4e3b2c5e2f2f3a1f1b4b6d6a4a3b3e5b5f4", "--out",
                dir.resolve("six.gsc").toString(), "-q"));
        assertEquals(0, run("export", "--format", "peer-6x6", "--in", dir.resolve("six.gsc").toString(), "--out", tables.toString()));
        assertEquals(expected, Files.getPosixFilePermissions(tables), "exported tables"); // bundles: ReleaseTest
    }

    @Test void aMissingOutputDirectoryGetsOneMessageFromEveryCommand() throws Exception {
        Path cert = dir.resolve("x.gsc");
        assertEquals(0, run("solve", "--out", cert.toString(), "-q"));
        Path missing = dir.resolve("missing");
        String[][] commands = {
            {"solve", "--out", missing.resolve("y.gsc").toString(), "-q"},
            {"solve", "--game", "loa:4x4", "--mode", "weak-ranked", "--out", missing.resolve("l.gsc").toString(), "-q"},
            {"export", "--format", "peer-6x6", "--in", cert.toString(), "--out", missing.resolve("t.tar.zst").toString()},
            {"release", "--title", "T", "--author", "A B", "--out", missing.resolve("b.tar").toString(), cert.toString()},
            {"mutate", "--class", "tb-later-maximizer", "--in", cert.toString(), "--out", missing.resolve("m.gsc").toString()},
            {"keygen", "--out", missing.resolve("k").toString()},
        };
        for (String[] c : commands) {
            assertEquals(ProduceMain.EXIT_USAGE, run(c), String.join(" ", c));
            assertTrue(err.startsWith("error: cannot write --out ") && err.contains("directory " + missing + " does not exist (make it first)"),
                    String.join(" ", c) + ": " + err);
        }
        assertFalse(Files.exists(missing));
    }

    // ---- working directories ----

    @Test void aMissingTmpDirectoryIsMadeAndLeftEmpty() throws Exception {
        Path tmp = dir.resolve("scratch/tmp");
        assertEquals(0, run("solve", "--out", dir.resolve("x.gsc").toString(), "--tmp", tmp.toString(), "-q"), err);
        assertTrue(Files.isDirectory(tmp));
        try (Stream<Path> s = Files.list(tmp)) { assertEquals(0, s.count()); }
    }

    @Test void aFinishedStateDirectoryIsRemovedAsHelpSays() throws Exception {
        Path state = dir.resolve("state");
        assertEquals(0, run("solve", "--out", dir.resolve("x.gsc").toString(), "--state", state.toString(), "-q"), err);
        assertFalse(Files.exists(state));
        // A --state folder that holds a file of the user's is kept (only the solve's files are removed), and said so.
        Files.createDirectories(state);
        Files.writeString(state.resolve("notes.txt"), "mine");
        assertEquals(0, run("solve", "--out", dir.resolve("y.gsc").toString(), "--state", state.toString()), err);
        assertTrue(err.contains("--state " + state + " kept"), err);
        try (Stream<Path> s = Files.list(state)) { assertEquals(List.of(state.resolve("notes.txt")), s.toList()); }
    }

    @Test void theWorkingDirectoryOfAKilledSolveIsRemovedByTheNextOneAndALiveOnesIsNot() throws Exception {
        Path stale = dir.resolve(WorkDirs.PREFIX + "123"), live = dir.resolve(WorkDirs.PREFIX + "456");
        for (Path d : new Path[] {stale, live}) {
            Files.createDirectories(d);
            Files.write(d.resolve("layer-9.blocks"), new byte[1000]);
            Files.createFile(d.resolve(WorkDirs.LOCK));
            // older than a solve takes to lock its new directory
            Files.setLastModifiedTime(d.resolve(WorkDirs.LOCK), java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
        }
        try (var ch = java.nio.channels.FileChannel.open(live.resolve(WorkDirs.LOCK), java.nio.file.StandardOpenOption.WRITE);
             var lock = ch.lock()) { // a solve that is still running holds its lock
            assertEquals(0, run("solve", "--out", dir.resolve("x.gsc").toString()), err);
            assertFalse(Files.exists(stale), "the killed solve's directory");
            assertTrue(err.contains("note: removed " + stale), err);
            assertTrue(Files.exists(live.resolve("layer-9.blocks")), "the running solve's directory");
        }
        try (Stream<Path> s = Files.list(dir)) { // and the solve left none of its own
            assertEquals(List.of(live), s.filter(p -> p.getFileName().toString().startsWith(WorkDirs.PREFIX)).toList());
        }
    }

    // ---- figures ----

    @Test void summaryCountsAndRatesReadAsEnglish() {
        assertEquals(0, run("solve", "--out", dir.resolve("x.gsc").toString(), "--threads", "1", "-q"));
        assertTrue(out.contains(", 1 thread\n"), out);
        assertFalse(out.contains("1 threads") || out.contains("0.00 M"), out);
        assertTrue(out.matches("(?s).*search        \\d+ nodes, [0-9.]+ (k |M |G )?nodes/s, .*"), out);
        assertEquals("0 nodes/s", Units.rate(0, "nodes"));
        assertEquals("812 nodes/s", Units.rate(812, "nodes"));
        assertEquals("41.2 k nodes/s", Units.rate(41_200, "nodes"));
        assertEquals("3.45 M nodes/s", Units.rate(3_449_000, "nodes"));
        assertEquals("1 block", Units.count(1, "block"));
        assertEquals("12 blocks", Units.count(12, "block"));
    }
}

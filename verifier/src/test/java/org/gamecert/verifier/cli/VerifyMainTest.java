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
    static Path valid, rejected, weak;
    static byte[] validBytes;

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
        weak = Files.write(dir.resolve("weak.gsc"), s.build(start[0], start[1], 2).write());
    }

    String[] outErr = new String[2];

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
        System.out.println(out);
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
    }

    @Test
    void rejectedShowsTheViolation() {
        assertEquals(1, run(rejected.toString()));
        System.out.println(outErr[0]);
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
        assertTrue(outErr[0].contains("no such file"));
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

    @Test
    void sizes() {
        assertEquals(512L << 20, VerifyMain.parseSize("512m"));
        assertEquals(4L << 30, VerifyMain.parseSize("4G"));
        assertEquals(1000, VerifyMain.parseSize("1000"));
        assertEquals(-1, VerifyMain.parseSize("-5"));
    }
}

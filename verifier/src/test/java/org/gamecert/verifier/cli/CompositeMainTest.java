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
import org.gamecert.verifier.testcert.TestComposite;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line on composites and parts (SPEC §15): exit codes, reports, JSON fields. */
class CompositeMainTest {
    @TempDir
    static Path dir;
    static Path good, missing, rejected, cyclic, rootPart;
    static TestComposite comp;
    static String value; // the start's value, e.g. -10

    @BeforeAll
    static void composites() throws Exception {
        TinySolver s = new TinySolver(1, 4, 4, 1, null);
        long[] start = s.othelloStart();
        comp = TestComposite.split(s, start[0], start[1], 1, 8);
        value = String.format("%+d", comp.parts.get(0).cert.rootValue);
        good = comp.writeTo(dir.resolve("good"));
        missing = comp.writeTo(dir.resolve("missing"));
        Files.delete(missing.resolve(comp.parts.get(1).hex() + ".gsc"));
        TestComposite bad = TestComposite.split(s, start[0], start[1], 1, 8);
        long t = bad.links.get(0)[3];
        bad.links.get(0)[3] = bad.links.get(1)[3];
        bad.links.get(1)[3] = t;
        rejected = bad.writeTo(dir.resolve("rejected"));
        rootPart = Files.write(dir.resolve("root-part.gsc"), comp.parts.get(0).bytes);
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
    void verifiedDirectoryAndManifest() {
        assertEquals(0, run(good.toString()));
        printExpected(outErr[0]);
        assertTrue(outErr[0].contains("VERIFIED"), outErr[0]);
        assertTrue(outErr[0].contains("composite   " + comp.compositeId()), outErr[0]);
        assertTrue(outErr[0].contains("P value " + value + " at the root"), outErr[0]);
        assertTrue(outErr[0].contains("region-union"), outErr[0]);
        assertTrue(outErr[1].contains("part 0"), "progress per part on stderr: " + outErr[1]);
        assertEquals(0, run(good.resolve("composite.gscm").toString(), "-q"));
        assertEquals("", outErr[1], "quiet");
        assertEquals(0, run(good.toString(), "--json", "--threads", "1"));
        String json = outErr[0].trim();
        assertEquals(1, json.lines().count());
        // the keys every JSON report starts with, whatever the input
        assertTrue(json.startsWith("{\"input\":\"" + good + "\",\"kind\":\"composite\",\"verdict\":\"verified\",\"exit_code\":0,"), json);
        for (String key : new String[] {"\"composite\":\"" + comp.compositeId() + "\"", "\"verdict\":\"verified\"",
                "\"parts\":[{\"index\":0,\"commitment\":\"sha256:" + comp.parts.get(0).hex() + "\"", "\"claim\":\"P value " + value + "\"",
                "\"open_entries\":", "\"entries\":", "\"root\":", "\"region_union\":", "\"claim_proven\":true"})
            assertTrue(json.contains(key), key + " in " + json);
    }

    @Test
    void incompleteWhenAPartIsMissing() {
        assertEquals(3, run(missing.toString()));
        printExpected(outErr[0]);
        assertTrue(outErr[0].contains("INCOMPLETE") && outErr[0].contains("still open"), outErr[0]);
        assertFalse(outErr[0].contains("composite   sha256"), "no composite id");
        assertFalse(outErr[0].contains("proven"), outErr[0]);
        assertEquals(3, run(missing.toString(), "--json"));
        assertTrue(outErr[0].contains("\"composite\":null") && outErr[0].contains("\"verdict\":\"not given\""), outErr[0]);
        assertTrue(outErr[0].contains("\"still_open\":[{\"parent\":"), outErr[0]);
    }

    @Test
    void rejectedNamesTheRule() {
        assertEquals(1, run(rejected.toString()));
        printExpected(outErr[0]);
        assertTrue(outErr[0].contains("first violation: R-COMP-4"), outErr[0]);
        assertEquals(1, run(rejected.toString(), "--json"));
        assertTrue(outErr[0].contains("\"violation\":{\"rule\":\"R-COMP-4\",\"statement\":\"a discharging part's root is the open entry's position\""), outErr[0]);
        assertTrue(outErr[0].contains("\"composite\":null"), outErr[0]);
    }

    @Test
    void errors() throws Exception {
        Path junk = Files.write(dir.resolve("junk.gscm"), new byte[] {1, 2, 3});
        assertEquals(2, run(junk.toString()));
        assertTrue(outErr[0].contains("not a manifest"), outErr[0]);
        assertEquals(2, run(junk.toString(), "--json"));
        assertTrue(outErr[0].contains("\"verdict\":\"error\""), outErr[0]);
        assertEquals(2, run(dir.resolve("nothing.gscm").toString(), "--format", "composite"));
        assertEquals(2, run(good.toString(), "--root", "f5"), "an option for peer tables");
        assertEquals(0, run("--help"));
        assertTrue(outErr[0].contains("composite"), outErr[0]);
    }

    /** A part checked on its own: incomplete with its open entries, and its id to name it by. */
    @Test
    void aPartOnItsOwn() {
        assertEquals(3, run(rootPart.toString()));
        printExpected(outErr[0]);
        assertTrue(outErr[0].contains("claim       part: P value " + value + " at the root"), outErr[0]);
        assertTrue(outErr[0].contains("open entries"), outErr[0]);
        assertTrue(outErr[0].contains("part id     sha256:" + comp.parts.get(0).hex()), outErr[0]);
        assertFalse(outErr[0].contains("commitment  sha256"), outErr[0]);
        assertEquals(3, run(rootPart.toString(), "--json"));
        assertTrue(outErr[0].contains("\"open_entries\":") && outErr[0].contains("\"commitment\":null"), outErr[0]);
        Path sub = good.resolve(comp.parts.get(1).hex() + ".gsc");
        assertEquals(0, run(sub.toString()));
        assertTrue(outErr[0].contains("proven      part: "), outErr[0]);
    }

    /** A composite whose root part claims only a lower bound at the start: proven, not solved. */
    @Test
    void aBoundIsNotASolution() throws Exception {
        TinySolver s = new TinySolver(1, 4, 4, 1, null);
        long[] start = s.othelloStart();
        TestComposite c = TestComposite.split(s, start[0], start[1], 2, 8);
        TestCert root = c.parts.get(0).cert;
        root.rootKinds = TestCert.C;
        root.rootValue -= 2; // a weaker lower bound than the root entry's: R-PART-1 holds
        root.rootUpper = 16; // U_max of Othello 4x4 (R-HDR-1 for {C})
        c.rewrite(0);
        Path d = c.writeTo(dir.resolve("bound"));
        String lo = String.format("%+d", root.rootValue);
        assertEquals(0, run(d.toString()));
        printExpected(outErr[0]);
        assertTrue(outErr[0].contains("a lower bound of " + lo + " at the game's initial position"), outErr[0]);
        assertFalse(outErr[0].contains("solved from the start"), outErr[0]);
        assertEquals(0, run(d.toString(), "--json"));
        assertTrue(outErr[0].contains("\"solved_from_start\":false") && outErr[0].contains("\"claim_lo\":" + root.rootValue), outErr[0]);
        assertEquals(0, run(good.toString(), "--json"));
        assertTrue(outErr[0].contains("\"solved_from_start\":true"), outErr[0]);
        // a part on its own that claims a bound and has no open entry: verified, no root_value
        TestCert part = s.buildPart(start[0], start[1], 2, TestCert.C, 0);
        part.rootValue -= 2;
        part.rootUpper = 16;
        Path f = Files.write(dir.resolve("bound-part.gsc"), part.write());
        assertEquals(0, run(f.toString(), "--json"));
        String json = outErr[0];
        assertFalse(json.contains("\"root_value\""), json);
        assertFalse(json.contains("root_value_proven"), json);
        assertTrue(json.contains("\"claim_kinds\":\"{C}\"") && json.contains("\"claim_lo\":" + part.rootValue)
                && json.contains("\"claim_hi\":16") && json.contains("\"claim_proven\":true"), json);
        assertEquals(0, run(f.toString()));
        assertTrue(outErr[0].contains("a lower bound of " + String.format("%+d", part.rootValue)), outErr[0]);
        assertFalse(outErr[0].contains("solved"), outErr[0]);
        // an exact part keeps its root_value
        Path sub = good.resolve(comp.parts.get(1).hex() + ".gsc");
        assertEquals(0, run(sub.toString(), "--json"));
        assertTrue(outErr[0].contains("\"root_value_proven\":true"), outErr[0]);
    }

    /** A FIFO where the manifest or a certificate should be: an error at once, no blocking read. */
    @Test
    void aFifoIsNoManifest() throws Exception {
        Path fifos = Files.createDirectories(dir.resolve("fifo"));
        Path manifest = fifos.resolve("composite.gscm"), cert = dir.resolve("fifo.gsc");
        for (Path p : new Path[] {manifest, cert})
            assertEquals(0, new ProcessBuilder("mkfifo", p.toString()).inheritIO().start().waitFor());
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20), () -> {
            assertEquals(2, run(fifos.toString()));
            assertTrue(outErr[0].contains("is not a regular file"), outErr[0]);
            assertEquals(2, run(manifest.toString(), "--json"));
            assertTrue(outErr[0].contains("\"verdict\":\"error\"") && outErr[0].contains("not a regular file"), outErr[0]);
            assertEquals(2, run(cert.toString()));
            assertTrue(outErr[0].contains("not a regular file"), outErr[0]);
        });
    }

    @Test
    void detection() {
        assertEquals(InputKind.COMPOSITE, InputKind.detect(good));
        assertEquals(InputKind.COMPOSITE, InputKind.detect(good.resolve("composite.gscm")));
        assertEquals(InputKind.CERTIFICATE, InputKind.detect(rootPart));
    }
}

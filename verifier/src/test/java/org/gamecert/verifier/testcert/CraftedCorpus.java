package org.gamecert.verifier.testcert;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Certificates written by hand (with {@link TestCert}) for testdata/crafted/: false claims that an
 * earlier verifier accepted, which no mutation of a producer certificate makes. Each is described
 * in testdata/manifest.tsv. `CraftedCorpusTest` checks that the files are exactly what this makes;
 * to write them: run {@link #main} with the testdata folder as argument.
 */
public final class CraftedCorpus {
    private CraftedCorpus() {}

    /** File name under testdata/crafted/ -> its bytes. */
    public static Map<String, byte[]> files() {
        Map<String, byte[]> m = new LinkedHashMap<>();
        // Issue 22 item 1: on 1×63 and 1×62 a shift by 2s ≥ 64 wrapped (Java takes long shift counts
        // mod 64) and one disc counted as four in a row. One column of alternating discs never makes
        // four: the empty board is a draw, claimed here a first-player win by move 1.
        for (int h : new int[] {63, 62}) {
            TestCert c = new TestCert();
            c.family = 2;
            c.width = 1;
            c.height = h;
            c.utility = 2;
            c.symmetry = 0;
            c.mode = 1;
            c.tb = new int[] {0};
            c.rootValue = 1;
            c.info = ("false: the empty 1x" + h + " board is a draw, claimed a first-player win by move 1").getBytes();
            c.entries.add(new TestCert.Entry(0, 0, TestCert.P, 1, 1, 0));
            for (int d = 0; d <= h; d++) c.census.add(new long[] {d, d <= 1 ? 1 : 0, 0});
            m.put("c4-1x" + h + "-empty-claimed-win.gsc", c.write());
        }
        return m;
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "testdata").resolve("crafted");
        Files.createDirectories(dir);
        for (Map.Entry<String, byte[]> e : files().entrySet()) Files.write(dir.resolve(e.getKey()), e.getValue());
    }
}

package org.gamecert.verifier.engine;
import org.gamecert.verifier.kernel.Result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SPEC §14: every format-spec vector gets its listed verdict and, for rejections, rule id. */
class SpecVectorsTest {
    private static final String DIR = "gamecert-spec/vectors/";

    @TempDir
    Path dir;

    @Test
    void vectorsHaveTheirExpectedVerdicts() throws Exception {
        InputStream manifest = getClass().getClassLoader().getResourceAsStream(DIR + "vectors.tsv");
        assertNotNull(manifest, "format-spec/vectors/vectors.tsv is missing from the test classpath");
        List<String> failures = new ArrayList<>();
        int checked = 0;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(manifest, StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.isBlank() || line.startsWith("#")) continue;
                String[] f = line.split("\t");
                if (f[0].equals("file") || f.length < 3) continue; // header row
                // a composite in a directory of its own (its parts beside it, not the flat ones)
                Path p = dir.resolve(f[0]);
                Files.createDirectories(p.getParent());
                try (InputStream in = getClass().getClassLoader().getResourceAsStream(DIR + f[0])) {
                    if (in == null) {
                        failures.add(f[0] + ": listed but missing");
                        continue;
                    }
                    Files.copy(in, p, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
                if (f[0].endsWith(".gscm")) { // a composite (SPEC §15): its parts are the <hex>.gsc vectors
                    copyParts(p, f[0].contains("/") ? f[0].substring(0, f[0].lastIndexOf('/') + 1) : "");
                    CompositeVerifier.Outcome c = CompositeVerifier.verify(p, new Options(), null);
                    String verdict = c.verdict().name().toLowerCase(java.util.Locale.ROOT);
                    String rule = c.composition == null || c.composition.violation == null ? "-" : c.composition.violation.rule();
                    if (!verdict.equals(f[1]) || (f[1].equals("rejected") && !rule.equals(f[2])))
                        failures.add(f[0] + ": expected " + f[1] + " " + f[2] + ", got " + verdict + " " + rule + " " + c.error);
                    checked++;
                    continue;
                }
                Result res = Verifier.verify(p, new Options());
                String verdict = res.verdict.name().toLowerCase(java.util.Locale.ROOT);
                String rule = res.firstViolation() == null ? "-" : res.firstViolation().rule();
                if (!verdict.equals(f[1]) || (f[1].equals("rejected") && !rule.equals(f[2])))
                    failures.add(f[0] + ": expected " + f[1] + " " + f[2] + ", got " + verdict + " " + rule
                            + (res.firstViolation() != null ? " (" + res.firstViolation().message() + ")" : "")
                            + (res.errorMessage != null ? " (" + res.errorMessage + ")" : ""));
                checked++;
            }
        }
        assertTrue(checked > 0, "the manifest lists vectors");
        assertEquals(List.of(), failures);
    }

    /**
     * Copies beside a composite vector's manifest every part it names that the vectors hold: in
     * its own directory sub (e.g. "name/"), else among the flat ones.
     */
    private void copyParts(Path manifest, String sub) throws Exception {
        byte[] b = Files.readAllBytes(manifest);
        java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        int n = bb.getInt(14);
        for (int i = 0; i < n; i++) {
            String hex = java.util.HexFormat.of().formatHex(b, 18 + 32 * i, 50 + 32 * i);
            Path part = manifest.resolveSibling(hex + ".gsc");
            if (Files.exists(part)) continue;
            InputStream own = sub.isEmpty() ? null : getClass().getClassLoader().getResourceAsStream(DIR + sub + hex + ".gsc");
            try (InputStream in = own != null ? own : getClass().getClassLoader().getResourceAsStream(DIR + hex + ".gsc")) {
                if (in != null) Files.copy(in, part);
            }
        }
    }
}

package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The composite vectors of SPEC §15.2's part-file cases are exactly what CompositePartVectors
 * makes, and each composite's verdict and first rule are as §15.2 says (R-COMP-1: the file is the
 * part, given and rejected, naming the part's own R-CON-1).
 */
class CompositePartVectorsTest {
    static final Path VECTORS = Path.of("../format-spec/vectors");

    @Test
    void directoriesHoldExactlyWhatTheGeneratorMakes() throws IOException {
        Map<String, Map<String, byte[]>> made = CompositePartVectors.vectors(VECTORS);
        assertEquals(3, made.size());
        for (Map.Entry<String, Map<String, byte[]>> v : made.entrySet()) {
            Path d = VECTORS.resolve(v.getKey());
            TreeSet<String> present = new TreeSet<>();
            try (var files = Files.list(d)) {
                files.forEach(p -> present.add(p.getFileName().toString()));
            }
            TreeSet<String> expected = new TreeSet<>(v.getValue().keySet());
            expected.add(CompositeVerifier.MANIFEST + ".hex");
            assertEquals(expected, present, d.toString());
            for (Map.Entry<String, byte[]> f : v.getValue().entrySet())
                assertArrayEquals(f.getValue(), Files.readAllBytes(d.resolve(f.getKey())), d + "/" + f.getKey());
        }
    }

    @Test
    void oneToEightBytesAfterAPartsTrailerMakeItGivenAndRejected(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        Map<String, byte[]> files = CompositePartVectors.vectors(VECTORS).get("composite-rejected-comp-1-bytes-after-trailer");
        byte[] manifest = files.get(CompositeVerifier.MANIFEST);
        String hex1 = java.util.HexFormat.of().formatHex(manifest, 50, 82);
        byte[] genuine = Files.readAllBytes(VECTORS.resolve(hex1 + ".gsc"));
        for (int k = 1; k <= 8; k++) {
            Path d = Files.createDirectory(tmp.resolve("tail-" + k));
            for (Map.Entry<String, byte[]> f : files.entrySet()) Files.write(d.resolve(f.getKey()), f.getValue());
            Files.write(d.resolve(hex1 + ".gsc"), java.util.Arrays.copyOf(genuine, genuine.length + k)); // k zero bytes
            CompositeVerifier.Outcome c = CompositeVerifier.verify(d.resolve(CompositeVerifier.MANIFEST), new Options(), null);
            assertEquals("REJECTED", c.verdict().name(), k + " bytes: " + c.error);
            assertEquals("R-COMP-1", c.composition.violation.rule(), k + " bytes");
        }
    }

    /** §15.2: a content checksum that does not verify leaves the commitment uncomputed (not given). */
    @Test
    void aBadContentChecksumLeavesTheCommitmentUncomputed() throws Exception {
        Path bad = VECTORS.resolve("gap-rejected-con-3-checksum.gsc");
        assertEquals(null, CompositeVerifier.commitmentOf(bad));
        assertTrue(CompositeVerifier.commitmentOf(VECTORS.resolve("edge-valid-content-checksum.gsc")).startsWith("sha256:"));
    }

    @Test
    void aPartWhoseCommitmentIsComputedIsGivenAndRejected() throws Exception {
        for (String name : CompositePartVectors.vectors(VECTORS).keySet()) {
            CompositeVerifier.Outcome c = CompositeVerifier.verify(VECTORS.resolve(name).resolve(CompositeVerifier.MANIFEST), new Options(), null);
            assertEquals("REJECTED", c.verdict().name(), name + ": " + c.error);
            assertEquals("R-COMP-1", c.composition.violation.rule(), name);
            assertTrue(c.composition.violation.message().contains("R-CON-1"), name + ": " + c.composition.violation.message());
        }
    }
}

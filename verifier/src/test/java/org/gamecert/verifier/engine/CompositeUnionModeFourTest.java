package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import org.gamecert.verifier.testcert.TestComposite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC §15.4: a mode-4 certificate named in a composite adds no census rows and nothing to the
 * union (its region is empty); the union is still counted, not reported as "not counted".
 */
class CompositeUnionModeFourTest {
    @TempDir Path dir;

    @Test
    void aModeFourPartLeavesTheUnionCountedAndEmpty() throws Exception {
        byte[] loa = Files.readAllBytes(Path.of("../format-spec/vectors/edge-valid-weak-ranked-loa-4x4.gsc"));
        byte[] commitment = Arrays.copyOfRange(loa, loa.length - 32, loa.length);
        // GSCM, version 1, one part (the certificate), no link
        java.nio.ByteBuffer body = java.nio.ByteBuffer.allocate(4 + 2 + 4 + 32 + 4).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        body.put("GSCM".getBytes()).putShort((short) 1).putInt(1).put(commitment).putInt(0);
        Files.write(dir.resolve(CompositeVerifier.MANIFEST), TestComposite.frame(body.array()));
        Files.write(dir.resolve(HexFormat.of().formatHex(commitment) + ".gsc"), loa);
        CompositeVerifier.Outcome c = CompositeVerifier.verify(dir.resolve(CompositeVerifier.MANIFEST), new Options(), null);
        assertEquals("VERIFIED", c.verdict().name(), () -> c.error + " " + c.composition.violation);
        assertNull(c.unionNote, c.unionNote);
        assertEquals(0, c.census.length, "a mode-4 certificate has no census rows");
        assertArrayEquals(new long[0], c.union);
    }
}

package org.gamecert.verifier.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PEER-ROOT-4: a root's value comes only from bounds its kinds oblige. The genuine tables of a
 * semi-strong solve (root PV, value +10) with the root record relabelled ALL [20, 20] or CUT [0, 0]
 * once verified with root value 20 or 0; only the upper (ALL) or lower (CUT) bound is checked.
 */
class PeerRootClaimTest {
    static final Path VALID = Path.of("../testdata/peer/valid/othello6-10empties");

    @TempDir Path dir;

    /** A copy of the genuine tables in {@code to}. */
    static Path copyValid(Path to) throws IOException {
        Path copy = Files.createDirectories(to);
        try (var files = Files.list(VALID)) {
            for (Path f : (Iterable<Path>) files::iterator) Files.copy(f, copy.resolve(f.getFileName()));
        }
        return copy;
    }

    private Path relabelRoot(String name, int kind, int lb, int ub) throws IOException {
        Path copy = copyValid(dir.resolve(name));
        Path root = copy.resolve("optimal_reopening_ab_table_all_26.txt");
        byte[] b = Files.readAllBytes(root);
        assertEquals(PeerCodec.RECORD_BYTES, b.length, "the lowest table holds the root alone");
        long[] pos = new long[2];
        assertTrue(PeerCodec.decodeKey(b, 0, pos));
        PeerCodec.encodeRecord(pos[0], pos[1], kind, lb, ub, b, 0);
        Files.write(root, b);
        return copy;
    }

    static PeerResult verify(Path input) {
        PeerOptions o = new PeerOptions();
        o.input = input;
        o.threads = 1;
        return PeerVerifier.verify(o);
    }

    @Test
    void theGenuineRootIsProvenExact() {
        PeerResult r = verify(VALID);
        assertEquals(PeerResult.Verdict.VERIFIED, r.verdict());
        assertEquals(10, r.rootValue);
        assertTrue(r.roots.get(0).valueProven());
    }

    @Test
    void anAllOnlyRootProvesItsUpperBoundOnly() throws IOException {
        PeerResult r = verify(relabelRoot("all", PeerCodec.ALL, 20, 20));
        assertEquals(PeerResult.Verdict.INCOMPLETE, r.verdict(), "not verified with an unchecked lower bound");
        assertNull(r.rootValue, "no root value from an unchecked bound");
        assertEquals(-36, r.roots.get(0).provenLower);
        assertEquals(20, r.roots.get(0).provenUpper);
        assertTrue(r.rootOpen.startsWith(PeerRules.ROOT_4), r.rootOpen);
        String json = PeerReport.json(r);
        assertTrue(json.contains("\"root_value\":null") && json.contains("\"value_proven\":false"), json);
    }

    @Test
    void aCutOnlyRootProvesItsLowerBoundOnly() throws IOException {
        PeerResult r = verify(relabelRoot("cut", PeerCodec.CUT, 0, 0));
        assertEquals(PeerResult.Verdict.INCOMPLETE, r.verdict());
        assertNull(r.rootValue);
        assertEquals(0, r.roots.get(0).provenLower);
        assertEquals(36, r.roots.get(0).provenUpper);
    }

    @Test
    void aCutAndAllRootWithEqualBoundsIsProven() throws IOException {
        PeerResult r = verify(relabelRoot("cutall", PeerCodec.CUT | PeerCodec.ALL, 10, 10));
        assertEquals(PeerResult.Verdict.VERIFIED, r.verdict());
        assertEquals(10, r.rootValue);
    }

    @Test
    void aFalseBoundStillRejects() throws IOException {
        PeerResult r = verify(relabelRoot("cut-false", PeerCodec.CUT, 12, 12)); // the true value is 10
        assertEquals(PeerResult.Verdict.REJECTED, r.verdict());
        assertEquals(PeerRules.CUT_1, r.violation.rule);
    }
}

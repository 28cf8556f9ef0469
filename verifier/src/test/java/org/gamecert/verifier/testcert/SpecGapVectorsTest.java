package org.gamecert.verifier.testcert;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.engine.Verifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** format-spec/vectors/gap-* are exactly what {@link SpecGapVectors} makes, and get the verdicts it names. */
class SpecGapVectorsTest {
    @TempDir
    Path tmp;

    @Test
    void theGapVectorsAreWhatTheirGeneratorMakes() throws Exception {
        Path dir = Path.of("../format-spec/vectors");
        List<SpecGapVectors.Vector> vs = SpecGapVectors.vectors();
        assertTrue(vs.size() >= 7);
        String tsv = Files.readString(dir.resolve("vectors.tsv"));
        for (SpecGapVectors.Vector v : vs) {
            assertArrayEquals(v.bytes(), Files.readAllBytes(dir.resolve(v.file())), v.file());
            assertTrue(tsv.contains(v.file() + "\t" + v.verdict() + "\t" + v.rule() + "\t"), v.file() + " listed in vectors.tsv");
        }
    }

    @Test
    void eachGapVectorGetsItsVerdictAndRule() throws Exception {
        for (SpecGapVectors.Vector v : SpecGapVectors.vectors()) {
            Result r = verify(v.bytes());
            assertEquals(v.verdict(), r.verdict.name().toLowerCase(java.util.Locale.ROOT), v.file() + ": " + r.firstViolation());
            assertEquals(v.rule(), r.firstViolation() == null ? "-" : r.firstViolation().rule(), v.file());
        }
    }

    /** The Unused_Bit changes the compressed bytes only: the commitment is the plain file's (SPEC §3). */
    @Test
    void theUnusedBitKeepsTheCommitment() throws Exception {
        SpecGapVectors.Vector unused = SpecGapVectors.vectors().stream().filter(v -> v.file().contains("unused-bit")).findFirst().orElseThrow();
        TinySolver o4 = new TinySolver(1, 4, 4, 1, null);
        long[] p10 = SpecGapVectors.othelloPosition(o4, 6, 3);
        byte[] plain = o4.build(p10[0], p10[1], 1).write();
        assertTrue(unused.bytes().length != plain.length || !java.util.Arrays.equals(unused.bytes(), plain), "the frames differ");
        Result a = verify(plain), b = verify(unused.bytes());
        assertEquals(Result.Verdict.VERIFIED, a.verdict);
        assertEquals(a.commitment, b.commitment);
    }

    /** The unreached entry of gap-valid-unreached-entry-counted is R-REACH-1 only when asked (SPEC §10.2). */
    @Test
    void theUnreachedEntryIsRejectedOnlyOnRequest() throws Exception {
        SpecGapVectors.Vector v = SpecGapVectors.vectors().stream().filter(x -> x.file().equals("gap-valid-unreached-entry-counted.gsc")).findFirst().orElseThrow();
        Result plain = verify(v.bytes());
        assertEquals(1, plain.unreached);
        Path p = Files.createTempFile(tmp, "gap", ".gsc");
        Files.write(p, v.bytes());
        Options strict = new Options();
        strict.strict = true;
        Result r = Verifier.verify(p, strict);
        assertEquals(Result.Verdict.REJECTED, r.verdict);
        assertEquals("R-REACH-1", r.firstViolation().rule());
    }

    private Result verify(byte[] bytes) throws Exception {
        Path p = Files.createTempFile(tmp, "gap", ".gsc");
        Files.write(p, bytes);
        return Verifier.verify(p, new Options());
    }
}

package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import org.gamecert.verifier.kernel.Result;
import org.junit.jupiter.api.Test;

/**
 * A certificate checked alone concludes without a PartConclusion (no composition code runs);
 * checked for a composite (Options.forComposition, or a composite named) it concludes with the
 * kernel's, under the commitment it verified; a composite's verdict comes from those
 * (CompositeVerifier sets the composite). Modes 1-3 (Combiner) and mode 4 (RankedKernel).
 */
class ConclusionForCompositionTest {
    static final Path VECTORS = DifferentialTest.ROOT.resolve("format-spec/vectors");

    @Test
    void aCertificateCheckedAloneHasNoConclusionAndOneCheckedForACompositeHasTheKernels() {
        for (String name : new String[] {"edge-valid-othello6x6.gsc", "edge-valid-nogo-1x9.gsc",
                "edge-valid-connect4-mirror.gsc", "edge-valid-weak-ranked-loa-4x4.gsc"}) {
            Path f = VECTORS.resolve(name);
            Result alone = Verifier.verify(f, new Options());
            assertEquals(Result.Verdict.VERIFIED, alone.verdict, name);
            assertNull(alone.conclusion, name + ": checked alone");
            Options o = new Options();
            o.forComposition = true;
            Result forComposite = Verifier.verify(f, o);
            assertEquals(Result.Verdict.VERIFIED, forComposite.verdict, name);
            assertNotNull(forComposite.conclusion, name + ": checked for a composite");
            assertEquals(alone.commitment, forComposite.conclusion.commitmentId(), name);
            assertEquals(0, forComposite.conclusion.openCount(), name);
        }
    }

    @Test
    void aCompositeOfPartsStillVerifiesFromItsPartsConclusions() throws Exception {
        CompositeVerifier.Outcome out = CompositeVerifier.verify(
                VECTORS.resolve("composite-valid-othello4x4.gscm"), new Options(), null);
        assertEquals(Result.Verdict.VERIFIED, out.verdict());
    }
}

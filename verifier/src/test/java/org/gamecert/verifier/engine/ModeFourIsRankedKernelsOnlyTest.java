package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.gamecert.verifier.kernel.Combiner;
import org.gamecert.verifier.kernel.format.Container;
import org.gamecert.verifier.kernel.format.Header;
import org.gamecert.verifier.kernel.EngineFault;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.SliceCheck;
import org.junit.jupiter.api.Test;

/**
 * A mode-4 file (SPEC §9.2) is checked by RankedKernel alone: its rules (no census rows, ranks
 * for layers, no children by disc count) are not the layered kernel's, so an engine that hands
 * its map to a SliceCheck or a Combiner gets an engine fault, never a verdict the honest engine
 * would not give (a layered check would not read R-CENSUS-1's "rows = 0" for mode 4).
 */
class ModeFourIsRankedKernelsOnlyTest {
    static final Path LOA = DifferentialTest.ROOT.resolve(
            "format-spec/vectors/edge-valid-weak-ranked-loa-4x4.gsc");

    @Test
    void aModeFourMapGivenToTheLayeredKernelIsAnEngineFault() throws Exception {
        assertEquals(Result.Verdict.VERIFIED, Verifier.verify(LOA, new Options()).verdict,
                "the honest engine: RankedKernel");
        KernelDriver d = new KernelDriver(LOA);
        EngineFault combiner = assertThrows(EngineFault.class,
                () -> new Combiner(d.map, false, false, 1));
        assertTrue(combiner.getMessage().contains("mode-4"), combiner.getMessage());
        EngineFault slice = assertThrows(EngineFault.class,
                () -> new SliceCheck(d.map, 0, d.map.firstBlock(0), d.map.endBlock(0), false, 1,
                        new SliceCheck.Setup(false, 0, 0, 1)));
        assertTrue(slice.getMessage().contains("mode-4"), slice.getMessage());
        Result r = d.run();
        assertEquals(Result.Verdict.ERROR, r.verdict, KernelDriver.show(r));
        assertTrue(r.errorMessage.startsWith("engine fault: "), r.errorMessage);
    }

    /**
     * A RankedKernel runs once: a run that threw (a null container here; an OutOfMemoryError an
     * engine catches alike) left it part way, and a second run, or anything after, is refused.
     */
    @Test
    void aRankedKernelRunsOnceEvenAfterARunThatThrew() throws Exception {
        KernelDriver d = new KernelDriver(LOA);
        org.gamecert.verifier.kernel.RankedKernel k =
                new org.gamecert.verifier.kernel.RankedKernel(d.map, 1 << 30, false, false, 1);
        assertThrows(NullPointerException.class, () -> k.run(null));
        try (Container ct = new Container(LOA)) {
            EngineFault again = assertThrows(EngineFault.class, () -> k.run(ct));
            assertTrue(again.getMessage().contains("a call after one that threw"),
                    again.getMessage());
        }
        org.gamecert.verifier.kernel.RankedKernel once =
                new org.gamecert.verifier.kernel.RankedKernel(d.map, 1 << 30, false, false, 1);
        try (Container ct = new Container(LOA)) {
            assertEquals(Result.Verdict.VERIFIED, once.run(ct).verdict);
            assertThrows(EngineFault.class, () -> once.run(ct));
        }
    }

    /** Whether the file is a certificate of mode 4 (RankedKernel's alone). */
    static boolean modeFour(Path file) {
        try (Container ct = new Container(file)) {
            return Verifier.isCertificate(ct)
                    && Header.parse(ct.readHeaderContent()).mode == Header.WEAK_RANKED;
        } catch (Exception e) {
            return false; // a header that breaks a rule: every engine must say which
        }
    }
}

package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.Zstd;
import java.nio.file.Path;
import java.nio.file.Files;
import org.gamecert.verifier.kernel.EngineFault;
import org.gamecert.verifier.kernel.FileMap;
import org.gamecert.verifier.kernel.RankedKernel;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.format.Container;
import org.gamecert.verifier.testcert.TestCert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * R-CON-3 is a rule of the data frame as stored (SPEC §2): an engine that hands a slice another
 * frame of the same payload (so the chain value still holds) cannot make a file whose stored
 * frame breaks it verify.
 */
class FrameAsStoredTest {
    @TempDir
    Path dir;

    @Test
    void aStoredFrameThatBreaksRCon3CannotBeSwappedForAGoodOneOfTheSamePayload()
            throws Exception {
        TestCert t = AttackCerts.othello(64);
        // the file's frames have the reserved bit of the frame header descriptor set
        t.compress = raw -> {
            byte[] f = Zstd.compress(raw, 3);
            f[4] |= 0x08;
            return f;
        };
        Path file = AttackCerts.write(dir, "reserved-bit.gsc", t);
        Result honest = new KernelDriver(file).run();
        assertEquals(Result.Verdict.REJECTED, honest.verdict, KernelDriver.show(honest));
        assertEquals("R-CON-3", honest.firstViolation().rule());
        // the engine hands each slice the stored frame with the bit cleared
        Result swapped = new KernelDriver(file) {
            @Override
            byte[] honestFrame(int b) throws java.io.IOException {
                byte[] f = super.honestFrame(b);
                f[4] &= ~0x08;
                return f;
            }
        }.run();
        assertEquals(Result.Verdict.ERROR, swapped.verdict, KernelDriver.show(swapped));
        assertTrue(swapped.errorMessage.contains("other bytes than its data frame"),
                swapped.errorMessage);
    }

    @Test
    void aRankedCheckReadsOnlyTheFramesOfTheFileItsMapWasReadFrom() throws Exception {
        TestCert t = RankedCertificateTest.mirroredRankedWin();
        Path clean = dir.resolve("ranked-clean.gsc");
        Files.write(clean, t.write());
        t.compress = raw -> {
            byte[] f = Zstd.compress(raw, 3);
            f[4] |= 0x08;
            return f;
        };
        Path stored = dir.resolve("ranked-reserved-bit.gsc");
        Files.write(stored, t.write());
        Result honest = Verifier.verify(stored, new Options());
        assertEquals(Result.Verdict.REJECTED, honest.verdict, KernelDriver.show(honest));
        assertEquals("R-CON-3", honest.firstViolation().rule());
        // the engine reads the map from the file, and hands the kernel a container of its twin
        // (the same header, records and payloads, frames without the bit)
        try (Container ct = new Container(stored); Container twin = new Container(clean)) {
            RankedKernel k = new RankedKernel(FileMap.read(ct), 1L << 28, false, false, 10);
            assertThrows(EngineFault.class, () -> k.run(twin));
        }
    }
}

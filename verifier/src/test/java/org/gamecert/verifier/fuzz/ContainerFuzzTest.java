package org.gamecert.verifier.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.gamecert.verifier.kernel.format.BlockRecord;
import org.gamecert.verifier.kernel.format.Container;
import org.gamecert.verifier.kernel.format.DataFrame;
import org.gamecert.verifier.kernel.format.FormatException;
import org.gamecert.verifier.kernel.format.Header;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The container reader alone (core.format: Container, Header, BlockRecord, DataFrame), walked the
 * way core.check.Verifier walks it: header, then block records and their data frames up to the
 * trailer. Property: it ends in a FormatException or reaches the trailer; nothing else escapes.
 * Seeded with the corpus (testdata/, format-spec/vectors/) like {@link CertificateFuzzTest}.
 */
@Tag("slow")
class ContainerFuzzTest {
    /** Beyond this the verifier's R-CON-2 limits apply first; the reader alone must not allocate it. */
    static final int MAX_RAW = 1 << 22;

    static void readProperty(byte[] data) throws IOException {
        Path tmp = Files.createTempFile("fuzz-container-", ".gsc");
        try {
            Files.write(tmp, data);
            try (Container c = new Container(tmp)) {
                if (!org.gamecert.verifier.engine.Verifier.isCertificate(c)) return;
                Header.parse(c.readHeaderContent());
                long blocks = 0;
                BlockRecord r;
                while ((r = c.nextBlockRecord()) != null) {
                    assertTrue(r.index == blocks++, "block indices in order");
                    if (r.rawLen > MAX_RAW || r.compLen > MAX_RAW) return; // R-CON-2's job
                    byte[] frame = c.readDataFrame(r);
                    assertTrue(frame.length == r.compLen, "data frame of comp_len bytes");
                    byte[] raw = DataFrame.decompress(frame, (int) r.rawLen, r.index);
                    assertTrue(raw.length == r.rawLen, "decompressed to raw_len bytes");
                }
                assertTrue(c.trailerContentSize(true) >= 52, "trailer of at least 52 bytes");
            } catch (FormatException clean) {
                // a clean rejection with a rule id
                assertTrue(clean.getMessage() != null);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    @FuzzTest
    void readAnyContainer(byte[] data) throws IOException {
        readProperty(data);
    }

    @TestFactory
    List<DynamicTest> replaySeeds() {
        List<DynamicTest> t = new ArrayList<>();
        for (Path p : CertificateFuzzTest.seeds())
            t.add(DynamicTest.dynamicTest(CertificateFuzzTest.ROOT.relativize(p.toAbsolutePath()).toString(),
                    () -> readProperty(Files.readAllBytes(p))));
        assertTrue(t.size() >= 20, "seeds: " + t.size());
        return t;
    }
}

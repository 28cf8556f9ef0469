package org.gamecert.verifier.core.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Valid certificates of tiny games, written by the brute-force test writer, verify. */
class ValidCertificatesTest {
    @TempDir
    Path dir;

    Result verify(byte[] file, Options o) throws Exception {
        Path p = dir.resolve("c" + System.nanoTime() + ".gsc");
        Files.write(p, file);
        return Verifier.verify(p, o);
    }

    void assertVerified(TestCert t, Options o) throws Exception {
        byte[] file = t.write();
        Result r = verify(file, o);
        assertEquals(Result.Verdict.VERIFIED, r.verdict, () -> r.firstViolation() + " " + r.errorMessage);
        assertEquals(TestCert.commitmentOf(file), r.commitment);
        assertEquals(t.entries.size(), r.entries);
        assertEquals(0, r.unreached);
        long region = 0;
        for (long[] row : t.census) region += row[1];
        assertEquals(region, r.region);
        assertEquals(t.census.size(), r.census.size());
    }

    @Test
    void connectFour4x4SemiStrong() throws Exception {
        for (int sym : new int[] {0, 2}) {
            TinySolver s = new TinySolver(2, 4, 4, sym, null);
            TestCert t = s.build(0, 0, 1);
            assertTrue(t.entries.size() > 100, "non-trivial: " + t.entries.size());
            assertVerified(t, new Options());
            Options threads = new Options();
            threads.threads = 3;
            t.maxBlockEntries = 7;
            assertVerified(t, threads);
            int saved = Verifier.parallelMinEntries;
            Verifier.parallelMinEntries = 1; // entries checked on several threads too
            try {
                t.maxBlockEntries = 1 << 16;
                assertVerified(t, threads);
            } finally {
                Verifier.parallelMinEntries = saved;
            }
        }
    }

    @Test
    void othello4x4SemiStrongAndWeak() throws Exception {
        for (int sym : new int[] {0, 1}) {
            TinySolver s = new TinySolver(1, 4, 4, sym, null);
            long[] start = s.othelloStart();
            assertVerified(s.build(start[0], start[1], 1), new Options());
            assertVerified(s.build(start[0], start[1], 2), new Options());
        }
    }
}

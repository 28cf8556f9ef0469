package org.gamecert.verifier.engine;
import org.gamecert.verifier.kernel.Result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Any byte may be wrong: truncations at every offset, random bit flips, random bytes and huge
 * declared sizes all end in a verdict (never verified, never an internal error) in bounded time.
 */
class HostileInputTest {
    static byte[] small;
    static TestCert cert;

    @TempDir
    Path dir;

    @BeforeAll
    static void build() {
        TinySolver s = new TinySolver(2, 4, 4, 2, null);
        long mover = 0, opp = 0;
        for (int c : new int[] {1, 2, 0, 3, 1, 2, 0, 1}) { // a midgame root keeps the file small
            long cell = s.game.moveDelta(mover, opp, c);
            long t = opp;
            opp = mover | cell;
            mover = t;
        }
        cert = s.build(mover, opp, 1);
        cert.chunk = 17; // several blocks per layer
        small = cert.write();
    }

    Result verify(byte[] bytes) throws Exception {
        Path p = dir.resolve("h.gsc");
        Files.write(p, bytes);
        long t0 = System.nanoTime();
        Result r = Verifier.verify(p, new Options());
        assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "bounded time");
        assertNotNull(r.verdict);
        if (r.verdict == Result.Verdict.ERROR) assertTrue(!r.errorMessage.startsWith("internal error"), r.errorMessage);
        return r;
    }

    @Test
    void baseline() throws Exception {
        assertEquals(Result.Verdict.VERIFIED, verify(small).verdict);
        assertTrue(small.length > 300, "size " + small.length);
        System.out.println("hostile base certificate: " + small.length + " bytes, " + cert.entries.size() + " entries");
    }

    @Test
    @Tag("slow")
    void everyTruncationIsRejectedOrNotACertificate() throws Exception {
        for (int len = 0; len < small.length; len++) {
            Result r = verify(Arrays.copyOf(small, len));
            if (len < 12) assertEquals(Result.Verdict.ERROR, r.verdict, "too short to be a certificate");
            else {
                int l = len;
                assertEquals(Result.Verdict.REJECTED, r.verdict, () -> "truncated at " + l + ": " + r.errorMessage);
            }
        }
    }

    @Test
    void randomFlipsNeverVerifyOtherContent() throws Exception {
        SplittableRandom rnd = new SplittableRandom(42);
        int sameContent = 0;
        for (int i = 0; i < 600; i++) {
            byte[] b = small.clone();
            int flips = 1 + rnd.nextInt(3);
            StringBuilder where = new StringBuilder();
            for (int k = 0; k < flips; k++) {
                int at = rnd.nextInt(b.length);
                b[at] ^= (byte) (1 << rnd.nextInt(8));
                where.append(at).append(' ');
            }
            Result r = verify(b);
            // Compressed bytes are not hashed (SPEC §3): a flip that zstd decodes to the same
            // payload (e.g. the frame header's unused bit) may verify, but only as the same
            // certificate. Any change of content is caught.
            if (r.verdict == Result.Verdict.VERIFIED) {
                assertEquals(TestCert.commitmentOf(small), r.commitment, "flip at " + where);
                sameContent++;
                System.out.println("expected: verified after flips at " + where + "(same content)");
            }
        }
        assertTrue(sameContent < 30, "almost every flip is caught: " + sameContent);
    }

    @Test
    void randomBytesAndHeaders() throws Exception {
        SplittableRandom rnd = new SplittableRandom(7);
        for (int i = 0; i < 300; i++) {
            byte[] b = new byte[1 + rnd.nextInt(400)];
            rnd.nextBytes(b);
            if (i % 2 == 0 && b.length >= 60) System.arraycopy(small, 0, b, 0, 12 + rnd.nextInt(40)); // plausible start
            Result r = verify(b);
            assertNotEquals(Result.Verdict.VERIFIED, r.verdict);
        }
    }

    @Test
    void hugeDeclaredSizesAreCheckedBeforeAllocation() throws Exception {
        int hlen = (small[4] & 0xFF) | (small[5] & 0xFF) << 8;
        int rec = 8 + hlen; // first BLOCK record frame
        for (int field : new int[] {4, 8, 12}) { // count, raw_len, comp_len
            byte[] b = small.clone();
            b[rec + 8 + field] = (byte) 0xFF;
            b[rec + 8 + field + 1] = (byte) 0xFF;
            b[rec + 8 + field + 2] = (byte) 0xFF;
            b[rec + 8 + field + 3] = (byte) 0x7F;
            Result r = verify(b);
            assertEquals(Result.Verdict.REJECTED, r.verdict);
            assertEquals("R-CON-2", r.firstViolation().rule());
        }
        byte[] b = small.clone();
        b[rec + 4] = (byte) 0xFF; // BLOCK frame size
        assertEquals("R-CON-1", verify(b).firstViolation().rule());
        // a trailer declaring 2^32 - 1 content bytes
        byte[] t = small.clone();
        int trailer = t.length - (8 + 52 + 20 * cert.census.size());
        t[trailer + 4] = (byte) 0xF7;
        t[trailer + 5] = t[trailer + 6] = t[trailer + 7] = (byte) 0xFF;
        assertEquals("R-CON-1", verify(t).firstViolation().rule());
    }
}

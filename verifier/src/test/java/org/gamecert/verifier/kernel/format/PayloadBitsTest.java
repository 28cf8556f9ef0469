package org.gamecert.verifier.kernel.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The table-driven pdep against a square-by-square reference, on random and edge masks. */
class PayloadBitsTest {
    /** Reference: walk the mask's squares from the lowest, taking c's bits in order. */
    private static long referencePdep(long c, long mask) {
        long out = 0;
        int k = 0;
        for (int sq = 0; sq < 64; sq++) {
            if (((mask >>> sq) & 1) == 0) continue;
            if (k < 64 && ((c >>> k) & 1) != 0) out |= 1L << sq;
            k++;
        }
        return out;
    }

    @Test
    void pdepMatchesReferenceAndTheWritersPextInvertsIt() {
        SplittableRandom rnd = new SplittableRandom(20261122);
        long[] edge = {0L, -1L, 1L, 1L << 63, 0xFFL << 56, 0x0F0F0F0F0F0F0F0FL, (1L << 36) - 1, (1L << 42) - 1};
        for (int i = 0; i < 200_000; i++) {
            long mask = i < edge.length ? edge[i] : rnd.nextLong() & (i % 3 == 0 ? rnd.nextLong() : -1L);
            int bits = Long.bitCount(mask);
            long c = rnd.nextLong();
            if (bits < 64) c &= (1L << bits) - 1;
            long dep = Payload.pdep(c, mask);
            assertEquals(referencePdep(c, mask), dep, () -> "pdep(" + Long.toHexString(mask) + ")");
            assertEquals(c, org.gamecert.verifier.testcert.TestCert.pext(dep, mask)); // the writer's inverse
        }
    }
}

package org.gamecert.producer.search;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A table of a search that keeps its proof ({@link TranspositionTable#storeProof}): each bound
 * comes back with the handle of the record that proved it, handles of 40 bits (a proof log
 * beyond 32 GiB) included, a weaker bound stored later keeps the stronger one and its handle, and
 * a handle whose low 32 bits are all zero is kept like any other.
 */
class TranspositionTableProofTest {
    @Test void boundsComeBackWithTheirFortyBitHandles() {
        SplittableRandom r = new SplittableRandom(42);
        TranspositionTable tt = new TranspositionTable(1);
        for (int k = 0; k < 2000; k++) {
            long m = r.nextLong() & 0x00FF_FFFF_FFFF_FF00L, o = ~m & r.nextLong() & 0x00FF_FFFF_FFFF_FF00L;
            long lowH = pick(r), highH = pick(r);
            int lo = r.nextInt(-63, 1), hi = r.nextInt(1, 64); // not the trivial bounds, which a NONE handle goes with
            tt.storeProof(m, o, lo, 64, 3, 20, lowH, ProofLog.NONE);
            tt.storeProof(m, o, -64, hi, 3, 20, ProofLog.NONE, highH);
            long d = tt.probeProof(m, o);
            assertNotEquals(0, d, "stored");
            assertEquals(lo, TranspositionTable.lo(d));
            assertEquals(hi, TranspositionTable.hi(d));
            assertEquals(lowH, tt.lowerProof(), "the lower bound's handle");
            assertEquals(highH, tt.upperProof(), "the upper bound's handle");
            // weaker bounds with other handles leave the stronger ones and theirs
            tt.storeProof(m, o, lo - 1, hi + 1, 3, 20, pick(r), pick(r));
            tt.probeProof(m, o);
            assertEquals(lowH, tt.lowerProof(), "a weaker lower bound keeps the handle");
            assertEquals(highH, tt.upperProof(), "a weaker upper bound keeps the handle");
        }
    }

    @Test void handlesBeyondFortyBitsAreRefused() {
        TranspositionTable tt = new TranspositionTable(1);
        assertThrows(IllegalStateException.class, () -> tt.storeProof(1L << 20, 1L << 21, 0, 1, 3, 20, ProofLog.NONE + 1, ProofLog.NONE));
    }

    /** A handle below 2^40, often beyond 2^32, sometimes with its low 32 bits zero or all ones. */
    private static long pick(SplittableRandom r) {
        return switch (r.nextInt(5)) {
            case 0 -> r.nextLong(1L << 32);
            case 1 -> (1L + r.nextInt(255)) << 32;
            case 2 -> EDGES[r.nextInt(EDGES.length)];
            default -> r.nextLong(ProofLog.NONE);
        };
    }

    private static final long[] EDGES = {1, 0xFFFF_FFFFL, 1L << 32, ProofLog.NONE - 1, ProofLog.NONE - (1L << 32)};
}

package org.gamecert.verifier.kernel;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * FactHash binds an answer to the record at its index only if two different records at one index
 * hash apart under all but a negligible fraction of keys (SPEC §11.1: about 2^-61). The rounds
 * "xor a field, multiply by an odd constant, fold the high half down" carry a difference in the
 * two top bits of a field into the two top bits of the state (and, by the fold, bits 30 and 31),
 * whatever the key: the next field can cancel it. Two keys (occ, mover) and (occ ^ 3<<62,
 * mover ^ D ^ D>>>32), D one of 1<<62 and 3<<62, then hash alike at the same index for about half
 * of all keys, a pair that keeps occ's disc count (R-LAY-2).
 */
class FactHashDifferentialTest {
    @Test
    void twoRecordsWithDifferentKeysAtOneIndexHashApartUnderAlmostEveryKey() {
        SplittableRandom rnd = new SplittableRandom(7);
        int tries = 2000, collisions = 0;
        for (int t = 0; t < tries; t++) {
            long key = rnd.nextLong(), index = rnd.nextLong(1 << 20);
            long occ = rnd.nextLong() & ~(3L << 62) | 1L << 63, mover = rnd.nextLong() & occ;
            long occ2 = occ ^ 3L << 62;
            long h = FactHash.record(key, index, occ, mover, 0x18, -1, -1);
            for (long d : new long[] {1L << 62, 3L << 62})
                if (FactHash.record(key, index, occ2, mover ^ d ^ d >>> 32, 0x18, -1, -1) == h)
                    collisions++;
        }
        assertTrue(collisions == 0, collisions + " of " + tries + " keys made two different"
                + " records at one index hash alike");
    }
}

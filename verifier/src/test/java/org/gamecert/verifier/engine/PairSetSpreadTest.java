package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The sequential kernel's set of positions (PairSet: the terminal positions of R and of the
 * proof, SPEC §10.3, and a union census's region keys) starts the probes of keys that differ
 * only in their high bits in different slots: else one probe cluster, quadratic time in the
 * number of such positions a file makes the census meet. (Review 5 found the old KeySet's slots
 * taken from bits a product's low bits decide: keys that differed only in bits 47..63, a
 * Connect Four 8x7 board's two top columns or the last 17 cells of a NoGo 1xN board, all
 * started in one slot of 65536, whatever the salt. Checked on the hash itself, through
 * reflection: a file of that many terminal positions is too big for a unit test.)
 */
class PairSetSpreadTest {
    @Test
    void keysThatDifferOnlyInHighBitsStartInManySlots() throws Exception {
        Class<?> pairSet = Class.forName("org.gamecert.verifier.kernel.PairSet");
        Method slot = pairSet.getDeclaredMethod("slot", long.class, long.class);
        slot.setAccessible(true);
        Random rnd = new Random(6);
        Set<Integer> slots = new HashSet<>();
        long low = 0x00005A5A5A5A5A5AL; // the cells of bits 0..46 alike
        for (int i = 0; i < 4000; i++) {
            long high = rnd.nextLong() & 0xFFFF800000000000L; // bits 47..63
            long m = high & rnd.nextLong();
            slots.add((Integer) slot.invoke(null, low | high, (low & 0x5555L) | m) & 0xFFFF);
        }
        assertTrue(slots.size() > 1000, "4000 keys that differ only in bits 47..63 start their"
                + " probes in " + slots.size() + " slot(s) of 65536");
        // and keys that differ only in the mover's high bits (one occupancy, many movers)
        slots.clear();
        long occ = 0xFFFF800000000000L | low;
        for (int i = 0; i < 4000; i++)
            slots.add((Integer) slot.invoke(null, occ, occ & rnd.nextLong() & 0xFFFF800000000000L)
                    & 0xFFFF);
        assertTrue(slots.size() > 1000, "4000 movers of one occupancy start their probes in "
                + slots.size() + " slot(s) of 65536");
    }
}

package org.gamecert.producer.cert;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A layer's merged positions (four longs each: mover, opponent and two words that travel with
 * them) are put in key order, occupancy then mover, unsigned (SPEC §7.3), whatever their number
 * and however many of the key's bytes they share: the order of a comparison sort, each record
 * whole.
 */
class NeedsSortTest {

    @Test
    void recordsEndInKeyOrderWithTheirWords() {
        Random r = new Random(7);
        int[] sizes = {0, 1, 2, 3, 24, 25, 47, 48, 49, 200, 5_000, 100_000};
        for (int n : sizes) {
            for (int shape = 0; shape < 4; shape++) {
                long[] s = records(r, n, shape);
                long[] expected = byComparison(s, n);
                SearchProof.Needs.sort(s, 0, n - 1);
                assertArrayEquals(expected, Arrays.copyOf(s, 4 * n), n + " records, shape " + shape);
            }
        }
    }

    @Test
    void aRangeSplitAtEveryByteOfTheKeyIsSorted() {
        // 32 keys that differ in the mover's low five bits, and beside them one key for each other
        // byte of the key (a cleared occupancy bit, or a mover bit) that differs there alone: each
        // level of the sort splits one of them off and passes the rest down, 16 levels in all
        java.util.List<long[]> keys = new java.util.ArrayList<>();
        for (int low = 0; low < 32; low++) keys.add(new long[] {-1L, low});
        for (int k = 0; k < 8; k++) keys.add(new long[] {-1L & ~(1L << (8 * k + 3)), 0});
        for (int k = 1; k < 8; k++) keys.add(new long[] {-1L, 1L << (8 * k + 7)}); // each byte's top bit: apart from the next one down
        java.util.Collections.shuffle(keys, new Random(3));
        int n = keys.size();
        long[] s = new long[4 * n];
        for (int i = 0; i < n; i++) {
            long occ = keys.get(i)[0], mover = keys.get(i)[1];
            s[4 * i] = mover;
            s[4 * i + 1] = occ & ~mover;
            s[4 * i + 2] = ~i;
            s[4 * i + 3] = i;
        }
        long[] expected = byComparison(s, n);
        SearchProof.Needs.sort(s, 0, n - 1);
        assertArrayEquals(expected, s);
    }

    /**
     * n distinct keys: shape 0 random discs; 1 every occupancy sharing its high bytes, as a
     * layer's do; 2 few occupancies, many movers each (the mover decides); 3 keys whose high
     * bits are set (unsigned order, not signed).
     */
    private static long[] records(Random r, int n, int shape) {
        long[] s = new long[4 * n + 8];
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < n; ) {
            long occ;
            switch (shape) {
                case 0: occ = r.nextLong(); break;
                case 1: occ = 0xFFFF_FFFF_FF00_0000L | (r.nextLong() & 0xFF_FFFFL); break;
                case 2: occ = 0x0F0F_0000_0000_FFFFL | (long) r.nextInt(3) << 20; break;
                default: occ = 0x8000_0000_0000_0000L | r.nextLong() >>> 1 & 0xC000_0000_FFFF_FFFFL; break;
            }
            long mover = occ & r.nextLong();
            if (!seen.add(occ + "/" + mover)) continue;
            s[4 * i] = mover;
            s[4 * i + 1] = occ & ~mover;
            s[4 * i + 2] = r.nextLong();
            s[4 * i + 3] = i;
            i++;
        }
        return s;
    }

    private static long[] byComparison(long[] s, int n) {
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) order[i] = i;
        Arrays.sort(order, Comparator.<Integer, Long>comparing(i -> s[4 * i] | s[4 * i + 1], Long::compareUnsigned)
                .thenComparing(i -> s[4 * i], Long::compareUnsigned));
        long[] out = new long[4 * n];
        for (int k = 0; k < n; k++) System.arraycopy(s, 4 * order[k], out, 4 * k, 4);
        return out;
    }
}

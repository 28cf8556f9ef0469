package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Layer.find against a plain sorted set, for layers of many and of few distinct occupancies. */
class LayerIndexTest {
    record Key(long occ, long mover) implements Comparable<Key> {
        public int compareTo(Key o) {
            int c = Long.compareUnsigned(occ, o.occ);
            return c != 0 ? c : Long.compareUnsigned(mover, o.mover);
        }
    }

    /** occs distinct occupancies of `discs` bits within `boardBits`, perOcc movers each (at most). */
    static TreeSet<Key> keys(Random rnd, int boardBits, int discs, int occs, int perOcc) {
        TreeSet<Key> set = new TreeSet<>();
        for (int o = 0; o < occs; o++) {
            long occ = 0;
            while (Long.bitCount(occ) < discs) occ |= 1L << rnd.nextInt(boardBits);
            for (int j = 0; j < perOcc; j++) set.add(new Key(occ, occ & rnd.nextLong()));
        }
        return set;
    }

    static void check(int boardBits, int width, TreeSet<Key> set, Random rnd) {
        Layer layer = new Layer(boardBits, width, 6);
        layer.reset(Long.bitCount(set.first().occ()));
        layer.ensure(set.size(), new Layer.Budget(Long.MAX_VALUE, 0), true);
        List<Key> list = new ArrayList<>(set);
        for (int i = 0; i < list.size(); i++) layer.add(list.get(i).occ(), list.get(i).mover(), i % 2 == 0 ? 0x10 : 0x18, -(i % 5), i % 7, i % 64);
        layer.index(new Layer.Budget(Long.MAX_VALUE, 0));
        org.gamecert.verifier.kernel.format.Payload p = layer.slice(0, list.size(), null);
        for (int i = 0; i < list.size(); i++) { // the fields come back as stored
            assertEquals(list.get(i).occ(), p.occ[i]);
            assertEquals(list.get(i).mover(), p.mover[i]);
            assertEquals(i % 2 == 0 ? 0x10 : 0x18, p.kind[i]);
            assertEquals(-(i % 5), p.lo[i]);
            assertEquals(i % 7, p.hi[i]);
            assertEquals(i % 64, p.move[i]);
        }
        // a slice into a reused, longer Payload: the same entries, count set to the slice's
        int from = list.size() / 3, n = list.size() / 4;
        org.gamecert.verifier.kernel.format.Payload q = layer.slice(from, n, p);
        org.junit.jupiter.api.Assertions.assertSame(p, q);
        assertEquals(n, q.count);
        for (int j = 0; j < n; j++) {
            assertEquals(list.get(from + j).mover(), q.mover[j]);
            assertEquals((from + j) % 64, q.move[j]);
        }
        for (int i = 0; i < list.size(); i++) assertEquals(i, layer.find(list.get(i).occ(), list.get(i).mover()), "present key " + i);
        for (int t = 0; t < 20_000; t++) {
            Key k = list.get(rnd.nextInt(list.size()));
            // absent keys next to present ones: another mover, and another occupancy
            Key a = new Key(k.occ(), k.occ() & (k.mover() ^ (1L << rnd.nextInt(boardBits))));
            Key b = new Key(k.occ() ^ (1L << rnd.nextInt(boardBits)), k.mover());
            for (Key x : new Key[] {a, b}) {
                int want = set.contains(x) ? list.indexOf(x) : -1;
                assertEquals(want, layer.find(x.occ(), x.mover()), () -> "key " + x);
            }
        }
        assertEquals(-1, layer.find(0, 0));
        assertEquals(-1, layer.find(-1L, -1L));
        viaBuckets(layer, list, set, boardBits, rnd);
    }

    /**
     * SliceEngine.answer's way: a bucket per key, then a search in that bucket, in any order,
     * finds what find finds; buckets never decrease with the key and stay below 2^bucketBits, so
     * lookups grouped by a bucket's top bits walk the table forward.
     */
    static void viaBuckets(Layer layer, List<Key> list, TreeSet<Key> set, int boardBits,
            Random rnd) {
        int last = -1;
        for (int i = 0; i < list.size(); i++) {
            Key k = list.get(i);
            int b = layer.bucket(k.occ(), k.mover());
            org.junit.jupiter.api.Assertions.assertTrue(b >= last && b < 1 << layer.bucketBits()
                    || layer.bucketBits() == 0 && b == 0, "bucket of key " + i);
            last = b;
        }
        for (int t = 0; t < 40_000; t++) {
            Key k = list.get(rnd.nextInt(list.size()));
            Key x = switch (t % 3) { // present, another mover, another occupancy
                case 0 -> k;
                case 1 -> new Key(k.occ(), k.occ() & (k.mover() ^ (1L << rnd.nextInt(boardBits))));
                default -> new Key(k.occ() ^ (1L << rnd.nextInt(boardBits)), k.mover());
            };
            int b = layer.bucket(x.occ(), x.mover());
            int found = b < 0 ? -1 : layer.findIn(b, x.occ(), x.mover());
            assertEquals(set.contains(x) ? list.indexOf(x) : -1, found, () -> "key " + x);
        }
    }

    @Test
    void manyOccupancies() {
        Random rnd = new Random(1);
        check(36, 8, keys(rnd, 36, 20, 5000, 3), rnd);
    }

    /**
     * The index's projection of a mover within an occupancy (Layer.moverPart): the mover's bits
     * at the top PART_BITS occupied cells, in order, against a bit-by-bit extract; it never
     * decreases as the mover grows within the occupancy, so buckets stay in key order.
     */
    @Test
    void theMoverPartIsTheMoversBitsAtTheTopOccupiedCellsInOrder() {
        Random rnd = new Random(3);
        for (int t = 0; t < 20_000; t++) {
            long o = switch (t % 3) { // sparse, dense (full bytes), Connect Four's column stacks
                case 0 -> rnd.nextLong() & rnd.nextLong();
                case 1 -> rnd.nextLong() | rnd.nextLong() | 0xFFL << 8 * rnd.nextInt(8);
                default -> {
                    long stacks = 0;
                    for (int c = 0; c < 7; c++) stacks |= ((1L << rnd.nextInt(7)) - 1) << 7 * c;
                    yield stacks;
                }
            };
            long m = o & rnd.nextLong();
            long bits = 0;
            int at = 0;
            for (int c = 0; c < 64; c++)
                if ((o >>> c & 1) != 0) bits |= (m >>> c & 1) << at++;
            int kept = Math.min(at, Layer.PART_BITS); // the top ones
            long want = bits >>> (at - kept) << (37 - kept);
            assertEquals(want, Layer.moverPart(o, m), "occupancy " + o + ", mover " + m);
            long m2 = o & rnd.nextLong();
            long lo = Long.compareUnsigned(m, m2) <= 0 ? m : m2, hi = lo == m ? m2 : m;
            org.junit.jupiter.api.Assertions.assertTrue(
                    Long.compareUnsigned(Layer.moverPart(o, lo), Layer.moverPart(o, hi)) <= 0,
                    "monotone within occupancy " + o);
        }
    }

    /**
     * Movers with bits outside their occupancy (entries that break the rules, which their slices
     * report) may project out of order: every key is still found, present or absent.
     */
    @Test
    void moversOutsideTheirOccupancyAreStillFound() {
        Random rnd = new Random(4);
        TreeSet<Key> set = keys(rnd, 36, 30, 4, 2000);
        List<Key> some = new ArrayList<>(set);
        for (int i = 0; i < some.size(); i += 7) // a bit outside the occupancy, high and low
            set.add(new Key(some.get(i).occ(), some.get(i).mover() | 1L << (i % 2 == 0 ? 35 : 0)
                    & ~some.get(i).occ()));
        check(36, 8, set, rnd);
    }

    @Test
    void fewOccupanciesLongRuns() {
        Random rnd = new Random(2);
        check(36, 8, keys(rnd, 36, 34, 5, 4000), rnd);   // 6x6 near the end: runs of one occupancy
        check(64, 8, keys(rnd, 64, 62, 3, 3000), rnd);   // 8x8: occupancies with the top bit set
        check(49, 8, keys(rnd, 49, 40, 20, 900), rnd);
    }
}

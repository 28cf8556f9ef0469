package org.gamecert.producer.search;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/** Table probes: a hit is always the probed position, its bounds always hold, the newest store is found. */
class TranspositionTableTest {
    private record Key(long m, long o) {}

    @Test void probesNeverMixPositionsAndKeepTrueBounds() {
        TranspositionTable tt = new TranspositionTable(1); // 16384 two-slot buckets: many collisions below
        SplittableRandom rnd = new SplittableRandom(3);
        Map<Key, Integer> truth = new HashMap<>();
        Key[] keys = new Key[200_000];
        for (int i = 0; i < keys.length; i++) {
            long m = rnd.nextLong(), o = rnd.nextLong() & ~m;
            keys[i] = new Key(m, o);
            truth.put(keys[i], rnd.nextInt(129) - 64);
        }
        int hits = 0;
        for (int step = 0; step < 1_000_000; step++) {
            Key k = keys[rnd.nextInt(step < 300_000 ? 20_000 : keys.length)];
            int v = truth.get(k);
            if (rnd.nextInt(3) == 0) {
                int lo = Math.max(-64, v - rnd.nextInt(10)), hi = Math.min(64, v + rnd.nextInt(10));
                int move = rnd.nextInt(4) == 0 ? TranspositionTable.NO_MOVE : rnd.nextInt(64);
                tt.store(k.m, k.o, lo, hi, move, 1 + rnd.nextInt(30));
                long d = tt.probe(k.m, k.o);
                assertNotEquals(0, d, "the position just stored is found");
                assertTrue(TranspositionTable.lo(d) >= lo && TranspositionTable.hi(d) <= hi, "stored bounds intersected");
                if (move != TranspositionTable.NO_MOVE) assertEquals(move, TranspositionTable.move(d));
            }
            long d = tt.probe(k.m, k.o);
            if (d != 0) {
                hits++;
                assertTrue(TranspositionTable.lo(d) <= v && v <= TranspositionTable.hi(d), "bounds hold for the probed position");
            }
            long m = rnd.nextLong(), o = rnd.nextLong() & ~m; // a position never stored (almost surely)
            if (!truth.containsKey(new Key(m, o))) assertEquals(0, tt.probe(m, o), "a position never stored is not found");
        }
        assertTrue(hits > 10_000, "hits " + hits);
    }

    @Test void recordsStayWithTheirPosition() {
        TranspositionTable tt = new TranspositionTable(1);
        SplittableRandom rnd = new SplittableRandom(6);
        Map<Key, Long> records = new HashMap<>();
        Key[] keys = new Key[50_000];
        for (int i = 0; i < keys.length; i++) {
            long m = rnd.nextLong(), o = rnd.nextLong() & ~m;
            keys[i] = new Key(m, o);
            records.put(keys[i], rnd.nextLong() | 1);
        }
        for (int step = 0; step < 300_000; step++) {
            Key k = keys[rnd.nextInt(keys.length)];
            boolean with = rnd.nextBoolean();
            tt.store(k.m, k.o, -1, 1, 3, 8, with ? records.get(k) : 0);
            long r = tt.record(k.m, k.o);
            if (with) assertEquals(records.get(k), r, "the record just stored");
            else assertTrue(r == 0 || r == records.get(k), "a store without a record keeps the position's own, or none");
            assertNotEquals(0, tt.probe(k.m, k.o), "the position just stored is found");
            Key other = keys[rnd.nextInt(keys.length)];
            long ro = tt.record(other.m, other.o);
            assertTrue(ro == 0 || ro == records.get(other), "never another position's record");
        }
    }

    /** A batched look-up of several positions answers as probe and record do one at a time. */
    @Test void lookUpAgreesWithProbeAndRecord() {
        TranspositionTable tt = new TranspositionTable(1);
        SplittableRandom rnd = new SplittableRandom(7);
        Key[] keys = new Key[60_000];
        for (int i = 0; i < keys.length; i++) {
            long m = rnd.nextLong(), o = rnd.nextLong() & ~m;
            keys[i] = new Key(m, o);
            long record = rnd.nextBoolean() ? rnd.nextLong() | 1 : 0;
            tt.store(m, o, -3, 5, rnd.nextInt(64), 8 + rnd.nextInt(20), record);
        }
        long[] ms = new long[8], os = new long[8], data = new long[8], record = new long[8];
        int[] idx = new int[8];
        int held = 0;
        for (int step = 0; step < 20_000; step++) {
            int n = 1 + rnd.nextInt(8);
            for (int i = 0; i < n; i++) {
                Key k = rnd.nextBoolean() ? keys[rnd.nextInt(keys.length)]
                        : new Key(rnd.nextLong(), 0);
                ms[i] = k.m; os[i] = k.o & ~k.m;
            }
            int bits = tt.lookUp(ms, os, n, idx, data, record);
            for (int i = 0; i < n; i++) {
                long d = tt.probe(ms[i], os[i]);
                assertEquals(d != 0, (bits >>> i & 1) != 0, "held as probe says");
                if (d == 0) continue;
                held++;
                assertEquals(d, data[i]);
                assertEquals(tt.record(ms[i], os[i]), record[i]);
            }
            assertEquals(0, bits >>> n, "no bit beyond the n positions");
        }
        assertTrue(held > 10_000, "held " + held);
    }

    @Test void deeperEntriesSurviveInAFullBucket() {
        TranspositionTable tt = new TranspositionTable(1);
        SplittableRandom rnd = new SplittableRandom(4);
        // a deep entry, then many shallow ones: whatever bucket it shares, the shallow ones replace each other
        long dm = rnd.nextLong(), dof = rnd.nextLong() & ~dm;
        tt.store(dm, dof, -2, 2, 10, 40);
        for (int i = 0; i < 100_000; i++) {
            long m = rnd.nextLong(), o = rnd.nextLong() & ~m;
            tt.store(m, o, 0, 0, 1, 5);
        }
        long d = tt.probe(dm, dof);
        assertNotEquals(0, d, "the entry with the most empties is kept");
        assertEquals(-2, TranspositionTable.lo(d));
        assertEquals(2, TranspositionTable.hi(d));
    }

    /**
     * Beyond the horizon (the layers an extraction has left behind) an entry goes first, however
     * many empties it has: a table full of such entries takes in the new ones in both slots of a
     * bucket, where without a horizon each bucket keeps its deeper old entry and holds one new one.
     */
    @Test void entriesBeyondTheHorizonAreReplacedFirst() {
        // 32768 keys in 16384 buckets: about 23,900 find room in two slots a bucket, 14,200 in one
        int with = heldAfterRefill(true), without = heldAfterRefill(false);
        assertTrue(with > 22_000, "with a horizon both slots of a bucket take new entries: " + with);
        assertTrue(without < 15_000, "without one, one slot a bucket: " + without);
    }

    /** How many of 32768 new 10-empty entries a 1 MB table (16384 buckets) full of 20-empty ones keeps. */
    private static int heldAfterRefill(boolean horizon) {
        TranspositionTable tt = new TranspositionTable(1);
        SplittableRandom rnd = new SplittableRandom(5);
        for (int i = 0; i < 200_000; i++) {
            long m = rnd.nextLong(), o = rnd.nextLong() & ~m;
            tt.store(m, o, 0, 0, 1, 20);
        }
        if (horizon) tt.horizon(15);
        long[] ms = new long[32_768], os = new long[ms.length];
        for (int i = 0; i < ms.length; i++) {
            ms[i] = rnd.nextLong(); os[i] = rnd.nextLong() & ~ms[i];
            tt.store(ms[i], os[i], 0, 0, 1, 10);
        }
        int held = 0;
        for (int i = 0; i < ms.length; i++) if (tt.probe(ms[i], os[i]) != 0) held++;
        return held;
    }
}

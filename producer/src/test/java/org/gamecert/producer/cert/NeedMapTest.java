package org.gamecert.producer.cert;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Merged needs depend on the set of needs pushed, not on their order, nor on whether they met in
 * memory or in sorted runs merged on disk; a known cut survives only with the bound it came with.
 */
class NeedMapTest {
    @TempDir Path dir;

    /** One push: a position, bounds and a known byte (a value, a cut or nothing). */
    private record Push(long m, long o, int lower, int upper, int known) {}

    private static List<Push> randomPushes(SplittableRandom rnd) {
        List<Push> pushes = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            long m = 1L << rnd.nextInt(8), o = 1L << (8 + rnd.nextInt(8)); // 64 positions: many merges
            int lower = rnd.nextInt(3) == 0 ? NeedMap.NO_LOWER : 2 * rnd.nextInt(3) - 2;
            int upper = lower == NeedMap.NO_LOWER || rnd.nextBoolean() ? 3 - rnd.nextInt(3) : NeedMap.NO_UPPER;
            int known = lower == NeedMap.NO_LOWER || rnd.nextInt(3) == 0 ? NeedMap.UNKNOWN
                    : NeedMap.cutCode(rnd.nextInt(4) == 0 ? 63 : (int) (m ^ o) % 3 + (lower + 2) * 10 + rnd.nextInt(10) / 9);
            pushes.add(new Push(m, o, lower, upper, known));
        }
        return pushes;
    }

    private static NeedMap.Sorted merged(List<Push> pushes) {
        NeedMap map = new NeedMap();
        for (Push p : pushes) map.add(p.m, p.o, 0, p.lower, p.upper, p.known);
        return map.sorted();
    }

    private static void assertSame(NeedMap.Sorted a, NeedMap.Sorted b) {
        assertEquals(a.size(), b.size());
        for (int i = 0; i < a.size(); i++) {
            assertEquals(a.mover[i], b.mover[i]);
            assertEquals(a.lower[i], b.lower[i]);
            assertEquals(a.upper[i], b.upper[i]);
            assertEquals(a.known[i], b.known[i], "known byte of need " + i);
        }
    }

    @Test void knownCutsMergeIndependentlyOfOrder() throws Exception {
        SplittableRandom rnd = new SplittableRandom(1);
        for (int round = 0; round < 20; round++) {
            List<Push> pushes = randomPushes(rnd);
            NeedMap.Sorted first = merged(pushes);
            List<Push> shuffled = new ArrayList<>(pushes);
            java.util.Collections.shuffle(shuffled, new java.util.Random(round));
            assertSame(first, merged(shuffled));
            // in two sorted runs merged on disk
            NeedMap a = new NeedMap(), b = new NeedMap();
            for (int i = 0; i < shuffled.size(); i++) {
                Push p = shuffled.get(i);
                (i % 2 == 0 ? a : b).add(p.m, p.o, 0, p.lower, p.upper, p.known);
            }
            Path ra = dir.resolve("a" + round), rb = dir.resolve("b" + round), out = dir.resolve("m" + round);
            a.writeSortedRun(ra);
            b.writeSortedRun(rb);
            long n = NeedFiles.merge(List.of(ra, rb), out);
            NeedFiles.Chunk c = new NeedFiles.Chunk();
            try (NeedFiles.InFile in = new NeedFiles.InFile(out, n)) {
                assertTrue(in.next(c, (int) n));
                assertSame(first, c.needs);
            }
            // a cut survives exactly when its bound is the largest lower bound and no other cut differs
            for (int i = 0; i < first.size(); i++) {
                int cut = NeedMap.cutSquare(first.known[i]);
                if (cut < 0) continue;
                long m = first.mover[i], o = first.opponent[i];
                int lower = first.lower[i];
                for (Push p : pushes)
                    if (p.m == m && p.o == o && NeedMap.cutSquare(p.known) >= 0 && p.lower == lower)
                        assertEquals(cut, NeedMap.cutSquare(p.known), "one cut for the bound");
                assertTrue(pushes.stream().anyMatch(p -> p.m == m && p.o == o && p.lower == lower && p.known == NeedMap.cutCode(cut)));
            }
        }
    }

    /**
     * More sorted runs than are opened at once (a tiny --max-memory spills a run every few needs):
     * merged in passes, they give the needs of one merge in memory, and leave only the merged file.
     */
    @Test void manyMoreRunsThanAreOpenedAtOnceMergeInPassesToTheSameNeeds() throws Exception {
        SplittableRandom rnd = new SplittableRandom(7);
        List<Push> pushes = new ArrayList<>();
        for (int i = 0; i < 3; i++) pushes.addAll(randomPushes(rnd));
        int fanIn = 4, runs = fanIn * fanIn * fanIn + 5; // three passes before the last merge
        Path sub = java.nio.file.Files.createDirectory(dir.resolve("runs"));
        List<Path> files = new ArrayList<>();
        for (int r = 0; r < runs; r++) {
            NeedMap map = new NeedMap();
            for (int i = r; i < pushes.size(); i += runs) map.add(pushes.get(i).m, pushes.get(i).o, 0, pushes.get(i).lower,
                    pushes.get(i).upper, pushes.get(i).known);
            Path f = sub.resolve("run-" + r);
            map.writeSortedRun(f);
            files.add(f);
        }
        Path out = sub.resolve("merged");
        long n = NeedFiles.merge(files, out, fanIn);
        NeedMap.Sorted expected = merged(pushes);
        assertEquals(expected.size(), n);
        NeedFiles.Chunk c = new NeedFiles.Chunk();
        try (NeedFiles.InFile in = new NeedFiles.InFile(out, n)) {
            assertTrue(in.next(c, (int) n));
            assertSame(expected, c.needs);
        }
        try (var left = java.nio.file.Files.list(sub)) {
            assertEquals(List.of(out), left.toList(), "the runs and the passes' files are gone");
        }
    }

    @Test void aCutBelowTheLargestBoundIsDropped() {
        NeedMap map = new NeedMap();
        map.add(1, 2, 0, 3, NeedMap.NO_UPPER, NeedMap.cutCode(7));
        map.add(1, 2, 0, 5, NeedMap.NO_UPPER, NeedMap.UNKNOWN);
        assertEquals(NeedMap.UNKNOWN, map.sorted().known[0]);
        map = new NeedMap();
        map.add(1, 2, 0, 5, NeedMap.NO_UPPER, NeedMap.UNKNOWN);
        map.add(1, 2, 0, 3, NeedMap.NO_UPPER, NeedMap.cutCode(7));
        assertEquals(NeedMap.UNKNOWN, map.sorted().known[0]);
        map.add(1, 2, 0, 5, NeedMap.NO_UPPER, NeedMap.cutCode(63));
        assertEquals(63, NeedMap.cutSquare(map.sorted().known[0]));
        map.add(1, 2, 0, 5, 4, NeedMap.cutCode(62));
        assertEquals(NeedMap.CUT_CONFLICT, map.sorted().known[0], "two cuts for one bound");
        map.add(1, 2, 0, 6, 4, NeedMap.cutCode(1));
        assertEquals(1, NeedMap.cutSquare(map.sorted().known[0]), "a larger bound's cut");
    }

    /**
     * The radix sort (from 4096 records) and the quicksort (below) give the key order, payloads
     * carried along; keys that share digits (skipped passes) and signs of both halves included.
     */
    @Test void recordsSortByKeyWhateverTheirNumber() {
        SplittableRandom rnd = new SplittableRandom(9);
        for (int n : new int[]{0, 1, 17, 4095, 4096, 5000, 70_000}) {
            long[] a = new long[n], b = new long[n];
            int[] c = new int[n];
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (int i = 0; i < n; i++) {
                do {
                    // few distinct high digits in a; b often equal for equal a's low bits
                    a[i] = (rnd.nextBoolean() ? Long.MIN_VALUE : 0) | (long) rnd.nextInt(3) << 40
                            | rnd.nextInt(1 << 20);
                    b[i] = rnd.nextBoolean() ? rnd.nextLong() : rnd.nextInt(4);
                } while (!seen.add(a[i] + ":" + b[i]));
                c[i] = i;
            }
            long[] a0 = a.clone(), b0 = b.clone();
            NeedMap.sortRecords(a, b, c, n);
            for (int i = 0; i < n; i++) {
                assertEquals(a0[c[i]], a[i], "payload follows its key");
                assertEquals(b0[c[i]], b[i], "payload follows its key");
                if (i > 0)
                    assertTrue(a[i - 1] < a[i] || (a[i - 1] == a[i] && b[i - 1] < b[i]),
                            "key order at " + i + " of " + n);
            }
        }
    }
}

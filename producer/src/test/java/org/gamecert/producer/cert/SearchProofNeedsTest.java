package org.gamecert.producer.cert;

import org.gamecert.producer.search.ProofLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link SearchProof.Needs}: the needs of one layer merged by position (the strongest bound of each
 * side with its reference and that reference's frame; the first of equal lower bounds stays unless
 * it has no reference and a later one has) and sorted by key, the same whatever the number of
 * buckets and whatever memory earlier layers handed on, and as a plain map in arrival order would
 * merge them.
 */
class SearchProofNeedsTest {

    /** One need as pushed: frame, the symmetry that takes its record's position to the key. */
    record Need(long mover, long opponent, boolean upper, int bound, long ref, int frame) {}

    /** What one position should end with. */
    static final class Merged {
        int lower = SearchProof.Needs.NO_LOWER, upper = SearchProof.Needs.NO_UPPER;
        long lowerRef = -1, upperRef = -1;
        int lowerFrame, upperFrame;
    }

    /** A reference as the table keeps it: -1 for none (no record, or a child without one). */
    private static long kept(long ref) { return ref < 0 || ref >= ProofLog.NONE ? -1 : ref; }

    private static List<Need> randomNeeds(Random r, int positions, int count) {
        long[][] pool = new long[positions][];
        for (int i = 0; i < positions; i++) {
            long occ = r.nextLong() | 1L << r.nextInt(64); // never empty: (0, 0) is no position
            long mover = occ & r.nextLong();
            pool[i] = new long[] {mover, occ & ~mover};
        }
        List<Need> needs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long[] p = pool[r.nextInt(positions)];
            long ref = switch (r.nextInt(5)) {
                case 0 -> -1;
                case 1 -> ProofLog.NONE;
                case 2 -> r.nextLong(ProofLog.NONE); // handles are 40 bits: many beyond 2^32
                case 3 -> (1L + r.nextInt(255)) << 32; // low 32 bits all zero
                default -> r.nextInt(1 << 30);
            };
            needs.add(new Need(p[0], p[1], r.nextBoolean(), r.nextInt(7) - 3, ref, r.nextInt(8))); // few bounds: many ties
        }
        return needs;
    }

    private static SearchProof.Needs push(List<Need> needs, long expected, SearchProof.Spare spare) {
        SearchProof.Needs n = new SearchProof.Needs(expected, spare);
        for (Need x : needs) {
            if (x.upper()) n.upper(x.mover(), x.opponent(), x.bound(), x.ref(), x.frame());
            else n.lower(x.mover(), x.opponent(), x.bound(), x.ref(), x.frame());
        }
        n.merge();
        n.sort();
        return n;
    }

    @Test
    void mergesAndSortsAsAPlainMapInArrivalOrderWhateverTheBuckets() {
        Random r = new Random(16);
        SearchProof.Spare spare = new SearchProof.Spare(); // shared by all rounds: reused memory holds the last round's needs
        for (int round = 0; round < 20; round++) {
            int positions = 1 + r.nextInt(round < 10 ? 50 : 20_000);
            List<Need> needs = randomNeeds(r, positions, 1 + r.nextInt(3 * positions));

            Map<List<Long>, Merged> model = new LinkedHashMap<>();
            for (Need x : needs) {
                Merged m = model.computeIfAbsent(List.of(x.mover(), x.opponent()), k -> new Merged());
                long ref = kept(x.ref());
                if (x.upper()) {
                    if (x.bound() < m.upper) { m.upper = x.bound(); m.upperRef = ref; m.upperFrame = x.frame(); }
                } else if (x.bound() > m.lower || (x.bound() == m.lower && m.lowerRef < 0 && ref >= 0)) {
                    m.lower = x.bound(); m.lowerRef = ref; m.lowerFrame = x.frame();
                }
            }
            List<List<Long>> keys = new ArrayList<>(model.keySet());
            keys.sort((a, b) -> {
                int c = Long.compareUnsigned(a.get(0) | a.get(1), b.get(0) | b.get(1)); // occupancy first (SPEC §7.3)
                return c != 0 ? c : Long.compareUnsigned(a.get(0), b.get(0));
            });

            SearchProof.Needs one = push(needs, 1, spare), many = push(needs, 1L << 22, spare); // 128 buckets
            assertEquals(keys.size(), one.size, "round " + round + ": positions");
            assertArrayEquals(java.util.Arrays.copyOf(one.s, 4 * one.size), java.util.Arrays.copyOf(many.s, 4 * many.size),
                    "round " + round + ": one bucket and 128 buckets");
            for (int k = 0; k < keys.size(); k++) {
                int b = 4 * k;
                Merged m = model.get(keys.get(k));
                String at = "round " + round + ", position " + k;
                assertEquals(keys.get(k).get(0), one.s[b], at + ": mover (key order)");
                assertEquals(keys.get(k).get(1), one.s[b + 1], at + ": opponent (key order)");
                assertEquals(m.lower, one.lower(b), at + ": lower bound");
                assertEquals(m.upper, one.upper(b), at + ": upper bound");
                assertEquals(m.lower == SearchProof.Needs.NO_LOWER ? -1 : m.lowerRef, one.lowerRef(b), at + ": lower bound's reference");
                assertEquals(m.upper == SearchProof.Needs.NO_UPPER ? -1 : m.upperRef, one.upperRef(b), at + ": upper bound's reference");
                // the frame goes with the reference: the record's position is the key taken back by it
                assertEquals(m.lowerFrame, one.lowerFrame(b), at + ": lower bound's frame");
                assertEquals(m.upperFrame, one.upperFrame(b), at + ": upper bound's frame");
            }
            one.done();
            many.done();
        }
    }

    @TempDir java.nio.file.Path dir;

    /**
     * Beyond their limit, the needs go to sorted runs that are merged back in key order: the same
     * positions, bounds and references as merging them all in memory, whatever the runs' sizes.
     */
    @Test
    void needsBeyondTheLimitGoToSortedRunsAndMergeToTheSamePositions() throws java.io.IOException {
        Random r = new Random(42);
        SearchProof.Spare spare = new SearchProof.Spare();
        for (int round = 0; round < 8; round++) {
            int positions = 1 + r.nextInt(round < 4 ? 300 : 20_000);
            // the last round: more runs than are merged at once (a pass merging consecutive ones first)
            List<Need> needs = randomNeeds(r, positions, round == 7 ? 1024 * (2 * SearchProof.Needs.FAN_IN + 5) + 17
                    : 2_000 + r.nextInt(3 * positions + 1));
            SearchProof.Needs plain = push(needs, needs.size(), spare);
            long[] want = java.util.Arrays.copyOf(plain.s, 4 * plain.size);
            int wantSize = plain.size;
            plain.done();

            long limit = 8L * SearchProof.Needs.CHUNK * (round == 7 ? 1 : 1 + round % 3); // one to three chunks: runs of 1024 to 3072 needs
            SearchProof.Needs spilled = new SearchProof.Needs(needs.size(), spare, dir, "round-" + round, limit);
            for (Need x : needs) {
                if (x.upper()) spilled.upper(x.mover(), x.opponent(), x.bound(), x.ref(), x.frame());
                else spilled.lower(x.mover(), x.opponent(), x.bound(), x.ref(), x.frame());
            }
            spilled.merge();
            spilled.sort();
            int runs = (int) ((needs.size() - 1) / (limit / 24));
            assertEquals(runs == 0 ? 0 : runs + 1, spilled.runs(), "round " + round + ": a run a limit's worth of needs, and the rest");
            assertEquals(wantSize, spilled.size, "round " + round + ": positions");
            spilled.rewind();
            long[] got = new long[want.length];
            for (int k0 = 0; k0 < spilled.size; k0 += 777) { // chunks of positions, as the layer reads them
                int k1 = Math.min(spilled.size, k0 + 777);
                spilled.load(k0, k1);
                System.arraycopy(spilled.s, spilled.at(k0), got, 4 * k0, 4 * (k1 - k0));
            }
            assertArrayEquals(want, got, "round " + round + ": merged from runs as in memory");
            spilled.done();
            try (var files = java.nio.file.Files.list(dir)) {
                assertEquals(0, files.count(), "round " + round + ": the runs and the merged file removed");
            }
        }
    }
}

package org.gamecert.verifier.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The census's distinct counts (SPEC §10.3) from KeyBag's parts against java.util.HashSet, over
 * keys met by several checkers with repeats, some only in R, some only by the proof, some both.
 */
class KeyBagTest {

    /** A key drawn from a small pool (so that keys repeat within and across bags); occ != 0. */
    private static long[] key(Random rnd, int pool) {
        long i = rnd.nextInt(pool);
        long occ = (i * 0x9E3779B97F4A7C15L) | 1L << 40; // distinct per i, never 0
        long mover = i % 3 == 0 ? occ : occ & 0x5555_5555_5555L; // two keys may share an occ
        if (i % 5 == 0) mover = 0; // a mover with no discs
        return new long[] {occ, mover};
    }

    private static String text(long[] k) {
        return k[0] + "/" + k[1];
    }

    @Test
    void censusCountsTheDistinctKeysOfRAndThoseOnlyTheProofReaches() {
        Random rnd = new Random(20261125);
        for (int round = 0; round < 20; round++) {
            int checkers = 1 + round % 3, pool = 1 + rnd.nextInt(round < 10 ? 50 : 20000);
            List<KeyBag> inR = new ArrayList<>(), proof = new ArrayList<>();
            Set<String> inRKeys = new HashSet<>(), proofKeys = new HashSet<>();
            for (int c = 0; c < checkers; c++) {
                KeyBag r = new KeyBag(), p = new KeyBag();
                int n = rnd.nextInt(3 * pool);
                for (int i = 0; i < n; i++) {
                    long[] k = key(rnd, pool);
                    if (rnd.nextBoolean()) {
                        r.add(k[0], k[1]);
                        inRKeys.add(text(k));
                    } else {
                        p.add(k[0], k[1]);
                        proofKeys.add(text(k));
                    }
                }
                inR.add(r);
                proof.add(p);
            }
            Set<String> allProof = new HashSet<>(proofKeys);
            proofKeys.removeAll(inRKeys);
            LegacyRegionKeys kept = new LegacyRegionKeys(n -> true);
            long[] counts = KeyBag.census(inR, proof, kept);
            assertEquals(inRKeys.size(), counts[0], "round " + round + ": keys of R");
            assertEquals(proofKeys.size(), counts[1], "round " + round + ": proof-only keys");
            assertEquals(inRKeys.size(), kept.size(), "round " + round + ": region keys kept");

            long[] pairs = KeyBag.distinctPairs(proof);
            Set<String> fromPairs = new HashSet<>();
            for (int i = 0; i < pairs.length; i += 2)
                fromPairs.add(text(new long[] {pairs[i], pairs[i + 1]}));
            assertEquals(pairs.length / 2, fromPairs.size(), "round " + round + ": a repeat");
            assertEquals(allProof, fromPairs, "round " + round + ": distinct pairs");

            for (KeyBag b : inR) b.clear();
            assertEquals(0, KeyBag.census(inR, List.of(), null)[0], "cleared bags hold no key");
        }
    }
}

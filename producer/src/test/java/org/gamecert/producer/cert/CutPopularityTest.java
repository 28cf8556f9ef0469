package org.gamecert.producer.cert;

import org.gamecert.producer.game.Game;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cut-child counts are exact (checked against a plain map over the same needs), count only the
 * children of cut needs outside the region that have no terminal cut, and do not depend on how many
 * passes the counting took or on whether the needs were in memory or in a file.
 */
class CutPopularityTest {

    /** A layer of needs: random Connect Four positions with d discs, some cut needs, some not. */
    private static NeedMap layer(Game g, int discs, int count, long seed) {
        Random rnd = new Random(seed);
        NeedMap map = new NeedMap();
        long[] canon = new long[2];
        Game.Child ch = new Game.Child();
        while (map.size() < count) {
            long[] p = g.start();
            long m = p[0], o = p[1];
            for (int i = 0; i < discs && !g.isTerminal(m, o); i++) {
                long mv = g.moves(m, o);
                int pick = rnd.nextInt(Long.bitCount(mv));
                for (int j = 0; j < pick; j++) mv &= mv - 1;
                g.child(m, o, Long.numberOfTrailingZeros(mv), ch);
                if (ch.sign == 0) break; // a win: start again
                m = ch.mover;
                o = ch.opponent;
            }
            if (g.discs(m, o) != discs || g.isTerminal(m, o)) continue;
            g.canonical(m, o, canon);
            switch (rnd.nextInt(4)) {
                case 0: map.add(canon[0], canon[1], 0, 0, NeedMap.NO_UPPER, NeedMap.UNKNOWN); break;  // C lb 0
                case 1: map.add(canon[0], canon[1], 0, 1, NeedMap.NO_UPPER, NeedMap.UNKNOWN); break;  // C lb 1
                case 2: map.add(canon[0], canon[1], 0, NeedMap.NO_LOWER, 0, NeedMap.UNKNOWN); break;  // A only
                default: map.add(canon[0], canon[1], Kinds.AP, 0, NeedMap.NO_UPPER, 1); break;        // region
            }
        }
        return map;
    }

    /** The counts by a plain map: every non-terminal child of a cut need with no terminal cut. */
    private static Map<String, Integer> naive(Game g, NeedMap.Sorted n) {
        Map<String, Integer> counts = new HashMap<>();
        Game.Child ch = new Game.Child();
        long[] canon = new long[2];
        for (int i = 0; i < n.size(); i++) {
            if ((n.kinds[i] & Kinds.REGION) != 0 || n.lower[i] == NeedMap.NO_LOWER) continue;
            long mv = g.moves(n.mover[i], n.opponent[i]);
            boolean terminalCut = false;
            for (long b = mv; b != 0; b &= b - 1) {
                g.child(n.mover[i], n.opponent[i], Long.numberOfTrailingZeros(b), ch);
                if (ch.sign == 0 && ch.terminalValue >= n.lower[i]) terminalCut = true;
            }
            if (terminalCut) continue;
            for (long b = mv; b != 0; b &= b - 1) {
                g.child(n.mover[i], n.opponent[i], Long.numberOfTrailingZeros(b), ch);
                if (ch.sign == 0) continue;
                g.canonical(ch.mover, ch.opponent, canon);
                counts.merge(canon[0] + ":" + canon[1], 1, Integer::sum);
            }
        }
        return counts;
    }

    @Test
    void countsAreExactWhateverThePassesAndTheSource() throws Exception {
        Game g = Game.parse("connect4:5x4");
        NeedMap.Sorted needs = layer(g, 9, 3000, 7).sorted();
        Map<String, Integer> expected = naive(g, needs);
        assertTrue(expected.values().stream().anyMatch(c -> c >= 2), "the layer has shared children");

        CutPopularity onePass = CutPopularity.count(g, new NeedFiles.InMemory(needs), Long.MAX_VALUE);
        CutPopularity manyPasses = CutPopularity.count(g, new NeedFiles.InMemory(needs), 4096);
        assertEquals(1, onePass.passes);
        assertTrue(manyPasses.passes > 10, "a small budget takes several passes: " + manyPasses.passes);
        Path file = Files.createTempFile("needs", ".bin");
        Path spill = Files.createTempFile("popular", ".bin");
        Path spill2 = Files.createTempFile("popular", ".bin");
        try {
            NeedFiles.write(needs, file);
            CutPopularity fromFile = CutPopularity.count(g, new NeedFiles.InFile(file, needs.size()), 4096);
            // Popular children past a tiny share of the budget: read from a sorted, mapped file.
            CutPopularity mapped = CutPopularity.count(g, new NeedFiles.InMemory(needs), 4096, 64, spill);
            CutPopularity mappedOnePass = CutPopularity.count(g, new NeedFiles.InMemory(needs), Long.MAX_VALUE, 64,
                    spill2);
            assertTrue(mapped.inFile() && mappedOnePass.inFile(), "a tiny share puts the counts in a file");
            assertTrue(!onePass.inFile() && onePass.bytes() > 0);
            assertEquals(0, mapped.bytes());
            for (Map.Entry<String, Integer> e : expected.entrySet()) {
                String[] k = e.getKey().split(":");
                long m = Long.parseLong(k[0]), o = Long.parseLong(k[1]);
                int want = Math.min(255, e.getValue());
                assertEquals(want, onePass.count(m, o), "one pass, child " + e.getKey());
                assertEquals(want, manyPasses.count(m, o), "many passes, child " + e.getKey());
                assertEquals(want, fromFile.count(m, o), "from a file, child " + e.getKey());
                assertEquals(want, mapped.count(m, o), "mapped, child " + e.getKey());
                assertEquals(want, mappedOnePass.count(m, o), "mapped in one pass, child " + e.getKey());
            }
            // Positions that are no cut child count 1 in every form (the needs: 9 discs, the children 10).
            for (int i = 0; i < needs.size(); i++) {
                long m = needs.mover[i], o = needs.opponent[i];
                assertEquals(1, onePass.count(m, o));
                assertEquals(1, mapped.count(m, o), "mapped, a need " + i);
                assertEquals(1, mappedOnePass.count(m, o), "mapped in one pass, a need " + i);
            }
            mapped.close();
            mappedOnePass.close();
            assertTrue(!Files.exists(spill) && !Files.exists(spill2), "closing deletes the file");
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(spill);
            Files.deleteIfExists(spill2);
        }
    }
}

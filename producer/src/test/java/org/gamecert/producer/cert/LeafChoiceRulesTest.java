package org.gamecert.producer.cert;

import org.gamecert.producer.game.Game;
import org.gamecert.producer.search.Oracle;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Choice rules 4 (Extractor.CHOICE_RULES): where every child of a cut need is a leaf's parent
 * (Othello, two layers above the endgame leaves), no cut-child popularity is counted, so a C
 * entry's move is the first move of the static order whose value reaches the bound: a terminal
 * move that reaches it, else the search's move score, ties by the lower square. Checked against
 * exact values of every child, independently of the extractor's own tests.
 */
class LeafChoiceRulesTest {
    @Test
    void cutsTwoLayersAboveTheLeavesFollowTheStaticOrder() {
        Game g = Game.parse("othello:6x6");
        long[] root = g.parseMoves("e4c5b4e3d6a4e2f2a3b6c2e1c6b2c1a5"); // 16 empties
        int leaves = 4;
        Oracle oracle = new Oracle(g, 16);
        Extractor ex = new Extractor(oracle, 1);
        ex.endgameLeaves(leaves);
        Extractor.Result res;
        try { res = ex.run(root[0], root[1], Extractor.Mode.WEAK); } finally { ex.shutdown(); }

        Oracle truth = new Oracle(g, 16);
        Game.Child child = new Game.Child();
        int checked = 0;
        for (LayerEntries e : res.layers) {
            if (g.cells - e.layer != leaves + 2) continue;
            for (int i = 0; i < e.count; i++) {
                if ((e.kinds[i] & Kinds.C) == 0) continue;
                long m = e.mover[i], o = e.opponent[i];
                int lower = e.value1[i];
                int move = e.move[i] & 0xFF;
                g.child(m, o, move, child);
                if (child.sign == 0 && child.terminalValue >= lower) continue; // a terminal cut: no order among those
                assertEquals(staticFirstReaching(g, truth, child, m, o, lower), move,
                        "the cut of " + g.boardText(m, o) + " for a lower bound " + lower);
                checked++;
            }
        }
        assertTrue(checked > 100, "too few cut entries two layers above the leaves to check: " + checked);
    }

    /** The first move of the static order whose value reaches {@code lower}, by exact values. */
    private static int staticFirstReaching(Game g, Oracle truth, Game.Child child, long m, long o, int lower) {
        int best = -1;
        long bestKey = Long.MIN_VALUE;
        for (long mv = g.moves(m, o); mv != 0; mv &= mv - 1) {
            int sq = Long.numberOfTrailingZeros(mv);
            g.child(m, o, sq, child);
            int value;
            long key;
            if (child.sign == 0) {
                value = child.terminalValue;
                key = Long.MAX_VALUE; // a terminal move that reaches the bound comes first
            } else {
                value = child.sign * truth.value(child.mover, child.opponent);
                // the position after the move, its mover being the one who just moved
                long moverAfter = child.sign > 0 ? child.mover : child.opponent;
                long opponentAfter = child.sign > 0 ? child.opponent : child.mover;
                key = (long) truth.othelloMoveScore(moverAfter, opponentAfter, sq) * 256 + (255 - sq);
            }
            if (value >= lower && key > bestKey) { bestKey = key; best = sq; }
        }
        return best;
    }
}

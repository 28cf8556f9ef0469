package org.gamecert.verifier.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.gamecert.verifier.kernel.rules.ConnectFourRules;
import org.gamecert.verifier.kernel.rules.Game;
import org.gamecert.verifier.kernel.rules.OthelloRules;
import org.junit.jupiter.api.Test;

/**
 * The mode-3 leaf search (SPEC §9.1) against plain minimax, written here without pruning: for
 * random positions with 1..6 empty cells, V ≥ b for every b around the utility range. Othello's
 * leaves take LeafSearch's own path (empty cells and flips, passes taken there), Connect Four's
 * the one through Game.child: both are held to the same minimax.
 */
class LeafSearchTest {
    /** Minimax over the rules alone (a pass: the same mover again, as Game.child contracts it). */
    static int minimax(Game g, long mover, long opp) {
        int best = Integer.MIN_VALUE;
        long[] out = new long[3];
        for (long m = g.legalMoveCodes(mover, opp); m != 0; m &= m - 1) {
            int type = g.child(mover, opp, Long.numberOfTrailingZeros(m), out);
            int v = type == Game.TERMINAL ? (int) out[2]
                    : type == Game.CHILD ? -minimax(g, out[0], out[1]) : minimax(g, out[0], out[1]);
            best = Math.max(best, v);
        }
        return best;
    }

    static int checked(Game g, long start0, long start1, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        LeafSearch search = new LeafSearch(g);
        long[] out = new long[3];
        int positions = 0;
        for (int trial = 0; trial < 400; trial++) {
            long mover = start0, opp = start1;
            int stopAt = 1 + rnd.nextInt(6); // empty cells left
            while (g.cells - Long.bitCount(mover | opp) > stopAt) {
                long moves = g.legalMoveCodes(mover, opp);
                int k = rnd.nextInt(Long.bitCount(moves));
                for (int i = 0; i < k; i++) moves &= moves - 1;
                int type = g.child(mover, opp, Long.numberOfTrailingZeros(moves), out);
                if (type == Game.TERMINAL) break;
                mover = out[0];
                opp = out[1];
            }
            if (g.isTerminal(mover, opp) || g.legalMoveCodes(mover, opp) == 0) continue;
            if (g.cells - Long.bitCount(mover | opp) > 6) continue;
            int v = minimax(g, mover, opp);
            for (int b = g.uMin - 2; b <= g.uMax + 2; b++)
                assertEquals(v >= b, search.atLeast(mover, opp, b), "V = " + v + ", b = " + b);
            positions++;
        }
        return positions;
    }

    @Test
    void agreesWithMinimaxOnOthelloAndConnectFour() {
        OthelloRules o6 = new OthelloRules(6);
        long w = (1L << 14) | (1L << 21), b = (1L << 15) | (1L << 20); // 6x6 start: Black to move
        assertTrue(checked(o6, b, w, 1) > 100, "Othello 6x6 positions checked");
        OthelloRules o4 = new OthelloRules(4);
        long w4 = (1L << 5) | (1L << 10), b4 = (1L << 6) | (1L << 9);
        assertTrue(checked(o4, b4, w4, 2) > 100, "Othello 4x4 positions checked");
        OthelloRules o8 = new OthelloRules(8);
        long w8 = (1L << 27) | (1L << 36), b8 = (1L << 28) | (1L << 35); // d4, e5 white
        assertTrue(checked(o8, b8, w8, 5) > 100, "Othello 8x8 positions checked");
        // Random Connect Four games mostly end in a win before the last cells: small boards.
        assertTrue(checked(new ConnectFourRules(4, 4), 0, 0, 3) > 30, "Connect Four 4x4 positions checked");
        assertTrue(checked(new ConnectFourRules(5, 4), 0, 0, 4) > 10, "Connect Four 5x4 positions checked");
    }
}

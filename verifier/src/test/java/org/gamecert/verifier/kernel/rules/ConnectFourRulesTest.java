package org.gamecert.verifier.kernel.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Cross-checks the bitboard Connect Four against a plain grid implementation on random games. */
class ConnectFourRulesTest {

    /** grid[c][r]: 1 = player to move, 2 = other, 0 = empty. */
    static boolean naiveFour(int[][] g, int who, int w, int h) {
        int[][] dirs = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
        for (int c = 0; c < w; c++)
            for (int r = 0; r < h; r++)
                for (int[] d : dirs) {
                    int k = 0;
                    while (k < 4) {
                        int cc = c + k * d[0], rr = r + k * d[1];
                        if (cc < 0 || cc >= w || rr < 0 || rr >= h || g[cc][rr] != who) break;
                        k++;
                    }
                    if (k == 4) return true;
                }
        return false;
    }

    @Test
    void agreesWithNaiveOnRandomGames() {
        int[][] sizes = {{4, 4}, {5, 4}, {7, 6}, {6, 7}, {3, 3}, {9, 5}};
        SplittableRandom rnd = new SplittableRandom(7);
        for (int[] s : sizes) {
            int w = s[0], h = s[1];
            ConnectFourRules rules = new ConnectFourRules(w, h);
            for (int game = 0; game < 300; game++) {
                int[][] grid = new int[w][h];
                int[] height = new int[w];
                long mover = 0, opp = 0;
                while (true) {
                    assertTrue(rules.isLegalPosition(mover, opp));
                    long moves = rules.legalMoveCodes(mover, opp);
                    for (int c = 0; c < w; c++) assertEquals(height[c] < h, ((moves >>> c) & 1) != 0);
                    if (moves == 0) break;
                    int c;
                    do c = rnd.nextInt(w); while (height[c] == h);
                    long[] out = new long[3];
                    int kind = rules.child(mover, opp, c, out);
                    long cell = rules.moveDelta(mover, opp, c);
                    assertEquals(1L << (c * (h + 1) + height[c]), cell);
                    grid[c][height[c]++] = 1;
                    boolean four = naiveFour(grid, 1, w, h);
                    boolean full = true;
                    for (int x : height) full &= x == h;
                    assertEquals(four, rules.hasFour(mover | cell));
                    if (four || full) {
                        assertEquals(Game.TERMINAL, kind);
                        assertEquals(four ? 1 : 0, out[2]);
                        assertTrue(rules.isTerminal(opp, mover | cell));
                        break;
                    }
                    assertEquals(Game.CHILD, kind);
                    long nm = opp, no = mover | cell;
                    assertEquals(nm, out[0]);
                    assertEquals(no, out[1]);
                    // swap roles in the grid
                    for (int[] col : grid) for (int r = 0; r < h; r++) if (col[r] != 0) col[r] = 3 - col[r];
                    mover = nm;
                    opp = no;
                    // mirror = naive column reversal
                    long mirrored = 0;
                    for (int cc = 0; cc < w; cc++)
                        for (int r = 0; r < h; r++)
                            if (((mover >>> (cc * (h + 1) + r)) & 1) != 0) mirrored |= 1L << ((w - 1 - cc) * (h + 1) + r);
                    assertEquals(mirrored, rules.transform(mover, 1));
                }
            }
        }
    }

    @Test
    void illegalPositions() {
        ConnectFourRules rules = new ConnectFourRules(7, 6);
        assertFalse(rules.isLegalPosition(0, 1L << 1), "floating disc");
        assertFalse(rules.isLegalPosition(1L, 0), "mover ahead");
        assertFalse(rules.isLegalPosition(0, 1L << 6), "sentinel");
        assertTrue(rules.isLegalPosition(0, 1L));
        long four = 0b1111L, opp = (1L << 7) | (1L << 8) | (1L << 9) | (1L << 14);
        assertFalse(rules.isLegalPosition(four, opp), "mover already has four");
        assertTrue(rules.isTerminal(opp, four));
    }

    /**
     * Legality against the rule read square by square: disjoint discs on playable cells, each
     * column filled from the bottom with no gap, the opponent at most one disc ahead, no four of
     * the mover. Random cell patterns, biased toward columns without gaps, on boards up to 64 bits.
     */
    @Test
    void aPositionIsLegalExactlyWhenNoDiscFloatsAndTheCountsAndFoursAllowIt() {
        int[][] sizes = {{7, 6}, {4, 4}, {1, 63}, {2, 31}, {8, 7}, {6, 7}, {3, 20}, {16, 3}};
        SplittableRandom rnd = new SplittableRandom(20261130);
        for (int[] s : sizes) {
            int w = s[0], h = s[1], stride = h + 1;
            ConnectFourRules rules = new ConnectFourRules(w, h);
            int legal = 0, floating = 0;
            for (int t = 0; t < 20_000; t++) {
                long mover = 0, opp = 0;
                boolean gap = false;
                for (int c = 0; c < w; c++) {
                    int height = rnd.nextInt(h + 1);
                    for (int r = 0; r < h; r++) {
                        boolean filled = r < height ? rnd.nextInt(40) != 0 : rnd.nextInt(40) == 0;
                        if (!filled) continue;
                        if (r > 0 && ((mover | opp) >>> (c * stride + r - 1) & 1) == 0) gap = true;
                        if (rnd.nextBoolean()) mover |= 1L << (c * stride + r);
                        else opp |= 1L << (c * stride + r);
                    }
                }
                if (t % 50 == 0) opp |= 1L << (rnd.nextInt(w) * stride + h); // a sentinel cell
                int diff = Long.bitCount(opp) - Long.bitCount(mover);
                boolean onBoard = (opp & ~rules.boardMask) == 0;
                boolean expected = onBoard && !gap && (diff == 0 || diff == 1)
                        && !rules.hasFour(mover);
                if (onBoard && gap) floating++;
                if (expected) legal++;
                String where = w + "x" + h + " " + Long.toHexString(mover) + " "
                        + Long.toHexString(opp);
                assertEquals(expected, rules.isLegalPosition(mover, opp), where);
            }
            assertTrue(legal > 100 && floating > 100, w + "x" + h + ": " + legal + " legal, "
                    + floating + " floating");
        }
    }
}

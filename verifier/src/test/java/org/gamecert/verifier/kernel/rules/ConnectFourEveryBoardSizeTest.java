package org.gamecert.verifier.kernel.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Every Connect Four board the header accepts (W·(H+1) ≤ 64, 216 sizes), not a sample: each rule
 * function against a plain grid implementation written here. The sizes where a shift by 2s ≥ 64
 * once made one disc "four in a row" (1×62, 1×63, 2×30, 2×31; Java takes long shift counts mod 64)
 * are among them, and every single disc and every pair of discs is tried on each board.
 */
class ConnectFourEveryBoardSizeTest {

    static List<int[]> allSizes() {
        List<int[]> sizes = new ArrayList<>();
        for (int w = 1; w <= 64; w++)
            for (int h = 1; w * (h + 1) <= 64; h++) sizes.add(new int[] {w, h});
        return sizes;
    }

    /** A position as a grid: cell[c][r] = 1 mover, 2 opponent, 0 empty. */
    static final class Grid {
        final int w, h;
        final int[][] cell;

        Grid(int w, int h) { this.w = w; this.h = h; cell = new int[w][h]; }

        static Grid of(int w, int h, long mover, long opp) {
            Grid g = new Grid(w, h);
            for (int c = 0; c < w; c++)
                for (int r = 0; r < h; r++) {
                    long bit = 1L << (c * (h + 1) + r);
                    g.cell[c][r] = (mover & bit) != 0 ? 1 : (opp & bit) != 0 ? 2 : 0;
                }
            return g;
        }

        long bits(int who) {
            long b = 0;
            for (int c = 0; c < w; c++)
                for (int r = 0; r < h; r++) if (cell[c][r] == who) b |= 1L << (c * (h + 1) + r);
            return b;
        }

        boolean four(int who) { return ConnectFourRulesTest.naiveFour(cell, who, w, h); }

        int height(int c) {
            int r = 0;
            while (r < h && cell[c][r] != 0) r++;
            return r;
        }

        boolean full() {
            for (int c = 0; c < w; c++) if (height(c) < h) return false;
            return true;
        }

        boolean legal() { // discs stacked from the bottom, the mover not ahead, nobody's four for the mover
            int nm = 0, no = 0;
            for (int c = 0; c < w; c++)
                for (int r = 0; r < h; r++) {
                    if (cell[c][r] != 0 && r > 0 && cell[c][r - 1] == 0) return false;
                    if (cell[c][r] == 1) nm++;
                    if (cell[c][r] == 2) no++;
                }
            return (no - nm == 0 || no - nm == 1) && !four(1);
        }
    }

    @Test
    void oneDiscOrTwoAreNeverFourInARowOnAnyBoard() {
        for (int[] s : allSizes()) {
            int w = s[0], h = s[1];
            ConnectFourRules rules = new ConnectFourRules(w, h);
            List<Long> cells = new ArrayList<>();
            for (int c = 0; c < w; c++) for (int r = 0; r < h; r++) cells.add(1L << (c * (h + 1) + r));
            for (int i = 0; i < cells.size(); i++) {
                assertTrue(!rules.hasFour(cells.get(i)), w + "x" + h + ": one disc is four");
                assertTrue(!rules.isTerminal(0, cells.get(i)) || w * h == 1, w + "x" + h + ": one disc ends the game");
                for (int j = i + 1; j < cells.size(); j++)
                    assertTrue(!rules.hasFour(cells.get(i) | cells.get(j)), w + "x" + h + ": two discs are four");
            }
        }
    }

    @Test
    void everyRuleAgreesWithTheGridOnRandomDiscSetsOfEveryBoard() {
        SplittableRandom rnd = new SplittableRandom(11);
        for (int[] s : allSizes()) {
            int w = s[0], h = s[1];
            ConnectFourRules rules = new ConnectFourRules(w, h);
            for (int i = 0; i < 400; i++) {
                long discs = rnd.nextLong() & rules.boardMask;
                if (i % 2 == 0) discs &= rnd.nextLong(); // sparse sets too
                Grid g = Grid.of(w, h, discs, 0);
                assertEquals(g.four(1), rules.hasFour(discs), w + "x" + h + ": hasFour of " + Long.toHexString(discs));
            }
        }
    }

    /** Legal moves, children, terminal test and value, legality, mirror and canonical form. */
    static void checkPosition(ConnectFourRules rules, int w, int h, long mover, long opp) {
        String at = w + "x" + h + " mover " + Long.toHexString(mover) + " opp " + Long.toHexString(opp);
        Grid g = Grid.of(w, h, mover, opp);
        assertEquals(g.legal(), rules.isLegalPosition(mover, opp), at + ": legality");
        boolean terminal = g.four(2) || g.full();
        assertEquals(terminal, rules.isTerminal(mover, opp), at + ": terminal");
        if (terminal) {
            assertEquals(g.four(2) ? -1 : g.four(1) ? 1 : 0, rules.terminalValue(mover, opp), at + ": terminal value");
            return;
        }
        long moves = rules.legalMoveCodes(mover, opp);
        for (int c = 0; c < w; c++) {
            boolean open = g.height(c) < h;
            assertEquals(open, (moves >>> c & 1) != 0, at + ": move " + c);
            if (!open) continue;
            Grid after = Grid.of(w, h, mover, opp);
            after.cell[c][after.height(c)] = 1;
            long[] out = new long[3];
            int kind = rules.child(mover, opp, c, out);
            if (after.four(1) || after.full()) {
                assertEquals(Game.TERMINAL, kind, at + ": child " + c + " ends the game");
                assertEquals(after.four(1) ? 1 : 0, out[2], at + ": child " + c + " value for the mover");
            } else {
                assertEquals(Game.CHILD, kind, at + ": child " + c); // Connect Four never passes
                assertEquals(after.bits(2), out[0], at + ": child " + c + " mover");
                assertEquals(after.bits(1), out[1], at + ": child " + c + " opponent");
            }
        }
        assertEquals(0, moves >>> w, at + ": no move code beyond the columns");
        // The mirror: column c to W-1-c; the canonical form is the least (occupancy, mover) image.
        Grid m = new Grid(w, h);
        for (int c = 0; c < w; c++) m.cell[w - 1 - c] = g.cell[c].clone();
        long mm = m.bits(1), mo = m.bits(2);
        assertEquals(mm, rules.transform(mover, 1), at + ": mirror");
        assertEquals(mover, rules.transform(mover, 0), at + ": identity");
        for (int c = 0; c < w; c++) assertEquals(w - 1 - c, rules.mapMove(c, 1), at + ": mirrored move");
        long occ = mover | opp, mocc = mm | mo;
        boolean mirrorLess = Long.compareUnsigned(mocc, occ) < 0 || (mocc == occ && Long.compareUnsigned(mm, mover) < 0);
        long[] out = new long[9];
        long canonOcc = rules.canonical(mover, opp, 2, out);
        assertEquals(mirrorLess ? mocc : occ, canonOcc, at + ": canonical occupancy");
        assertEquals(mirrorLess ? mm : mover, out[8], at + ": canonical mover");
    }

    @Test
    void everyRuleAgreesWithTheGridOnAllShortGamesAndRandomGamesOfEveryBoard() {
        SplittableRandom rnd = new SplittableRandom(3);
        long positions = 0;
        for (int[] s : allSizes()) {
            int w = s[0], h = s[1];
            ConnectFourRules rules = new ConnectFourRules(w, h);
            // Exhaustive: every position within k plies of the empty board, k as large as stays small.
            int k = 0;
            for (long n = 1; k < w * h && n * w <= 3000; n *= w) k++;
            positions += exhaustive(rules, w, h, 0, 0, k);
            // Random games to the end.
            for (int game = 0; game < 12; game++) {
                long mover = 0, opp = 0;
                while (true) {
                    checkPosition(rules, w, h, mover, opp);
                    positions++;
                    if (rules.isTerminal(mover, opp)) break;
                    long moves = rules.legalMoveCodes(mover, opp);
                    int c;
                    do c = rnd.nextInt(w); while ((moves >>> c & 1) == 0);
                    long[] out = new long[3];
                    if (rules.child(mover, opp, c, out) == Game.TERMINAL) break;
                    mover = out[0];
                    opp = out[1];
                }
            }
        }
        assertTrue(positions > 100_000, "positions checked: " + positions);
    }

    private static long exhaustive(ConnectFourRules rules, int w, int h, long mover, long opp, int plies) {
        checkPosition(rules, w, h, mover, opp);
        if (plies == 0 || rules.isTerminal(mover, opp)) return 1;
        long n = 1;
        long[] out = new long[3];
        for (long moves = rules.legalMoveCodes(mover, opp); moves != 0; moves &= moves - 1) {
            int c = Long.numberOfTrailingZeros(moves);
            if (rules.child(mover, opp, c, out) == Game.CHILD) n += exhaustive(rules, w, h, out[0], out[1], plies - 1);
        }
        return n;
    }
}

package org.gamecert.producer.game;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.gamecert.producer.RefGame;
import org.junit.jupiter.api.Test;

/**
 * The producer's Connect Four on every board it accepts (W·(H+1) ≤ 64, 216 sizes), against the
 * plain reference of the brute-force tests (RefGame): four in a line, the winning cells the
 * search prunes with, moves, children, terminal test and value, legality. The sizes where a shift by
 * 2s ≥ 64 once made one disc "four" (1×62, 1×63, 2×30, 2×31) are among them.
 */
class ConnectFourEveryBoardSizeTest {

    static List<int[]> allSizes() {
        List<int[]> sizes = new ArrayList<>();
        for (int w = 1; w <= 64; w++)
            for (int h = 1; w * (h + 1) <= 64; h++) sizes.add(new int[] {w, h});
        return sizes;
    }

    /** Empty cells (anywhere) that would give {@code pos} four in a line, one cell at a time. */
    static long naiveWinningCells(RefGame.ConnectFour ref, ConnectFour g, long pos, long occ) {
        long r = 0;
        for (long empty = g.boardMask & ~occ; empty != 0; empty &= empty - 1) {
            long cell = empty & -empty;
            if (ref.four(pos | cell)) r |= cell;
        }
        return r;
    }

    /** Sizes are checked in long: W*(H+1) of a huge H once overflowed an int and passed. */
    @Test
    void boardsBeyondSixtyFourCellsAreRefusedEvenWhenTheirSizeOverflowsAnInt() {
        for (String g : new String[] {"connect4:1x2147483647", "connect4:2x2147483646", "connect4:9x7", "connect4:1x64"})
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> Game.parse(g), g);
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> new ConnectFour(1, Integer.MAX_VALUE));
        assertEquals(63, Game.parse("connect4:1x63").cells);
    }

    @Test
    void oneDiscOrTwoAreNeverFourOnAnyBoard() {
        for (int[] s : allSizes()) {
            ConnectFour g = new ConnectFour(s[0], s[1]);
            List<Long> cells = new ArrayList<>();
            for (long b = g.boardMask; b != 0; b &= b - 1) cells.add(b & -b);
            for (int i = 0; i < cells.size(); i++)
                for (int j = i; j < cells.size(); j++)
                    assertFalse(g.fourInLine(cells.get(i) | cells.get(j)), g.name() + ": " + (i == j ? "one disc" : "two discs") + " four");
        }
    }

    @Test
    void fourAndWinningCellsAgreeWithTheReferenceOnRandomDiscSetsOfEveryBoard() {
        SplittableRandom rnd = new SplittableRandom(17);
        for (int[] s : allSizes()) {
            ConnectFour g = new ConnectFour(s[0], s[1]);
            RefGame.ConnectFour ref = new RefGame.ConnectFour(s[0], s[1]);
            for (int i = 0; i < 400; i++) {
                // Any disc set for four in a line; for the winning cells, discs stacked from the bottom
                // as in every real position (the search never asks about holes below discs).
                long any = rnd.nextLong() & g.boardMask;
                if (i % 2 == 0) any &= rnd.nextLong();
                assertEquals(ref.four(any), g.fourInLine(any), g.name() + " discs " + Long.toHexString(any));
                long occ = 0;
                for (int c = 0; c < g.w; c++) {
                    int height = rnd.nextInt(g.h + 1);
                    occ |= ((1L << height) - 1) << (c * g.h1);
                }
                long pos = occ & rnd.nextLong();
                if (ref.four(pos)) continue; // the game is over: no winning cell is asked for
                String at = g.name() + " pos " + Long.toHexString(pos) + " occ " + Long.toHexString(occ);
                assertEquals(naiveWinningCells(ref, g, pos, occ), g.winningCells(pos, occ), at + ": winning cells");
            }
        }
    }

    static void checkPosition(ConnectFour g, RefGame.ConnectFour ref, long m, long o) {
        String at = g.name() + " " + g.boardText(m, o);
        assertTrue(g.isLegalPosition(m, o), at);
        assertEquals(ref.terminal(m, o), g.isTerminal(m, o), at + ": terminal");
        if (ref.terminal(m, o)) {
            assertEquals(ref.terminalValue(m, o), g.terminalValue(m, o), at + ": terminal value");
            return;
        }
        List<Integer> moves = ref.moves(m, o);
        long mv = g.moves(m, o);
        assertEquals(moves.size(), Long.bitCount(mv), at + ": moves");
        for (int c : moves) {
            assertTrue((mv >>> c & 1) != 0, at + ": move " + c);
            long[] want = ref.child(m, o, c); // {sign, mover, opponent, terminal value}
            Game.Child got = new Game.Child();
            g.child(m, o, c, got);
            assertEquals((int) want[0], got.sign, at + ": child " + c + " kind");
            if (got.sign == 0) {
                assertEquals((int) want[3], got.terminalValue, at + ": child " + c + " value");
                assertArrayEquals(new long[] {want[1], want[2]}, new long[] {got.termMover, got.termOpponent}, at + ": child " + c);
            } else {
                assertArrayEquals(new long[] {want[1], want[2]}, new long[] {got.mover, got.opponent}, at + ": child " + c);
            }
        }
        long occ = m | o;
        assertEquals(naiveWinningCells(ref, g, o, occ), g.winningCells(o, occ), at + ": opponent's winning cells");
    }

    @Test
    void everyRuleAgreesWithTheReferenceOnShortGamesAndRandomGamesOfEveryBoard() {
        SplittableRandom rnd = new SplittableRandom(5);
        long positions = 0;
        for (int[] s : allSizes()) {
            ConnectFour g = new ConnectFour(s[0], s[1]);
            RefGame.ConnectFour ref = new RefGame.ConnectFour(s[0], s[1]);
            int k = 0;
            for (long n = 1; k < g.cells && n * g.w <= 2000; n *= g.w) k++;
            positions += exhaustive(g, ref, 0, 0, k);
            for (int game = 0; game < 10; game++) {
                long m = 0, o = 0;
                while (true) {
                    checkPosition(g, ref, m, o);
                    positions++;
                    if (g.isTerminal(m, o)) break;
                    List<Integer> moves = ref.moves(m, o);
                    int c = moves.get(rnd.nextInt(moves.size()));
                    Game.Child ch = new Game.Child();
                    g.child(m, o, c, ch);
                    if (ch.sign == 0) break;
                    m = ch.mover;
                    o = ch.opponent;
                }
            }
        }
        assertTrue(positions > 50_000, "positions checked: " + positions);
    }

    private static long exhaustive(ConnectFour g, RefGame.ConnectFour ref, long m, long o, int plies) {
        checkPosition(g, ref, m, o);
        if (plies == 0 || g.isTerminal(m, o)) return 1;
        long n = 1;
        for (long mv = g.moves(m, o); mv != 0; mv &= mv - 1) {
            Game.Child ch = new Game.Child();
            g.child(m, o, Long.numberOfTrailingZeros(mv), ch);
            if (ch.sign != 0) n += exhaustive(g, ref, ch.mover, ch.opponent, plies - 1);
        }
        return n;
    }
}

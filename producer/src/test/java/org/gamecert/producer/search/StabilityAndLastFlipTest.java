package org.gamecert.producer.search;

import org.gamecert.producer.RefGame;
import org.gamecert.producer.game.Board8;
import org.gamecert.producer.game.Othello;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/** The stable-disc bound and the last-square flip count against the reference rules. */
class StabilityAndLastFlipTest {
    private static final RefGame.Othello REF = new RefGame.Othello(8);

    /** Every line of play from (m, o): no disc claimed stable (colour of that disc in `stable`) ever changes colour. */
    private static void neverFlipped(long m, long o, long stableM, long stableO) {
        assertEquals(stableM, stableM & m, "a stable disc of the mover changed colour");
        assertEquals(stableO, stableO & o, "a stable disc of the opponent changed colour");
        List<Integer> mv = REF.moves(m, o);
        if (mv.isEmpty()) {
            if (!REF.moves(o, m).isEmpty()) neverFlipped(o, m, stableO, stableM);
            return;
        }
        for (int x : mv) {
            long[] p = REF.play(m, o, x);
            neverFlipped(p[1], p[0], stableO, stableM);
        }
    }

    @Test void stableDiscsNeverFlipInAnyContinuation() {
        SplittableRandom rnd = new SplittableRandom(11);
        int positions = 0;
        long found = 0;
        for (int e = 1; e <= 7; e++)
            for (int k = 0; k < 40; k++) {
                long[] p = OthelloSolverTest.randomPosition(REF, 8, e, rnd);
                if (p == null) continue;
                long sm = Stability.stable(p[0], p[1]), so = Stability.stable(p[1], p[0]);
                assertEquals(0, sm & ~p[0]);
                assertEquals(0, so & ~p[1]);
                found += Long.bitCount(sm | so);
                neverFlipped(p[0], p[1], sm, so);
                positions++;
            }
        assertTrue(positions > 150);
        assertTrue(found > positions * 10L, "the bound finds almost nothing: " + found);
    }

    @Test void fullBoardAndFilledLinesAreStable() {
        // a full board: every disc is stable
        SplittableRandom rnd = new SplittableRandom(5);
        for (int i = 0; i < 100; i++) {
            long m = rnd.nextLong();
            assertEquals(m, Stability.stable(m, ~m));
        }
        // corners are always stable
        long corners = 0x8100000000000081L;
        assertEquals(corners, Stability.stable(corners, 0x0000001818000000L) & corners);
    }

    @Test void board8MovesAndFlipsMatchTheGameRules() {
        Othello g = new Othello(8);
        SplittableRandom rnd = new SplittableRandom(13);
        for (int i = 0; i < 100_000; i++) {
            long occ = rnd.nextLong() | rnd.nextLong(), m = occ & rnd.nextLong(), o = occ & ~m;
            assertEquals(g.genericMoves(m, o), Board8.moves(m, o));
            int x = rnd.nextInt(64);
            if ((occ >>> x & 1) == 0)
                assertEquals(g.genericFlips(m, o, x), Board8.flips(m, o, x), "square " + x);
        }
        // and against the reference rules on positions of real games
        for (int i = 0; i < 300; i++) {
            long[] p = OthelloSolverTest.randomPosition(REF, 8, 1 + rnd.nextInt(50), rnd);
            if (p == null) continue;
            long mv = 0;
            for (int x : REF.moves(p[0], p[1])) {
                mv |= 1L << x;
                assertEquals(REF.play(p[0], p[1], x)[1], p[1] & ~Board8.flips(p[0], p[1], x));
            }
            assertEquals(mv, Board8.moves(p[0], p[1]));
        }
    }

    @Test void lastFlipCountMatchesTheRules() {
        Othello g = new Othello(8);
        SplittableRandom rnd = new SplittableRandom(9);
        for (int i = 0; i < 200_000; i++) {
            int x = rnd.nextInt(64);
            long p = rnd.nextLong() & ~(1L << x), o = ~p & ~(1L << x);
            assertEquals(Long.bitCount(g.flips(p, o, x)), LastFlip.count(x, p), "square " + x);
            long ref = REF.play(p, o, x)[0];
            assertEquals(Long.bitCount(ref & ~p & ~(1L << x)), LastFlip.count(x, p), "square " + x + " (reference rules)");
        }
    }
}

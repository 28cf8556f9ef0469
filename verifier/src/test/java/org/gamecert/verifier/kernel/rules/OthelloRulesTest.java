package org.gamecert.verifier.kernel.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Cross-checks the bitboard Othello against the naive array implementation on random games. */
class OthelloRulesTest {

    static long start(int n, boolean black) {
        int h = n / 2;
        long white = (1L << ((h - 1) * n + h - 1)) | (1L << (h * n + h));
        long blk = (1L << ((h - 1) * n + h)) | (1L << (h * n + h - 1));
        return black ? blk : white;
    }

    @ParameterizedTest
    @ValueSource(ints = {4, 6, 8})
    void agreesWithNaiveOnRandomGames(int n) {
        OthelloRules rules = new OthelloRules(n);
        NaiveOthello naive = new NaiveOthello(n);
        SplittableRandom rnd = new SplittableRandom(1234 + n);
        int positions = 0, passes = 0, ends = 0;
        for (int game = 0; game < 400; game++) {
            long mover = start(n, true), opp = start(n, false);
            while (true) {
                positions++;
                int[][] b = naive.board(mover, opp);
                boolean[] legal = naive.legal(b, 1);
                long moves = rules.legalMoves(mover, opp);
                for (int q = 0; q < n * n; q++) {
                    assertEquals(legal[q], ((moves >>> q) & 1) != 0, "legal " + q);
                    long f = rules.flips(mover, opp, q);
                    long nf = 0;
                    for (int s : naive.flips(b, 1, q / n, q % n)) nf |= 1L << s;
                    assertEquals(nf, f, "flips at " + q);
                }
                for (int g = 0; g < 8; g++) {
                    assertEquals(naive.transform(mover, g), rules.transform(mover, g), "sym " + g);
                    assertEquals(mover, rules.transform(rules.transform(mover, g), rules.inverse(g)));
                }
                assertTrue(rules.isLegalPosition(mover, opp));
                if (moves == 0) {
                    if (rules.legalMoves(opp, mover) == 0) {
                        ends++;
                        assertTrue(rules.isTerminal(mover, opp));
                        assertEquals(naive.value(b), rules.terminalValue(mover, opp));
                        break;
                    }
                    passes++;
                    long t = mover;
                    mover = opp;
                    opp = t;
                    continue;
                }
                int pick = rnd.nextInt(Long.bitCount(moves));
                int q = -1;
                for (long m = moves; pick >= 0; pick--, m &= m - 1) q = Long.numberOfTrailingZeros(m);
                long[] out = new long[3];
                int kind = rules.child(mover, opp, q, out);
                long delta = rules.flips(mover, opp, q) | (1L << q);
                long m2 = mover | delta, o2 = opp & ~delta;
                int[][] nb = naive.board(m2, o2);
                boolean oppCan = false, meCan = false;
                for (boolean x : naive.legal(nb, 2)) oppCan |= x;
                for (boolean x : naive.legal(nb, 1)) meCan |= x;
                if (oppCan) assertEquals(Game.CHILD, kind);
                else if (meCan) assertEquals(Game.PASS_CHILD, kind);
                else {
                    assertEquals(Game.TERMINAL, kind);
                    assertEquals(naive.value(nb), out[2]);
                }
                mover = o2;
                opp = m2;
            }
        }
        assertTrue(positions > 1000 && ends == 400, "games played");
        if (n > 4) assertTrue(passes > 0, "some passes seen");
    }

    @Test
    void randomBitboardsAgree() {
        for (int n : new int[] {4, 6, 8}) {
            OthelloRules rules = new OthelloRules(n);
            NaiveOthello naive = new NaiveOthello(n);
            SplittableRandom rnd = new SplittableRandom(99 + n);
            for (int i = 0; i < 3000; i++) {
                long a = rnd.nextLong() & rules.boardMask, b = rnd.nextLong() & rules.boardMask & ~a;
                long moves = rules.legalMoves(a, b);
                boolean[] legal = naive.legal(naive.board(a, b), 1);
                for (int q = 0; q < n * n; q++) assertEquals(legal[q], ((moves >>> q) & 1) != 0);
                boolean any = false;
                for (boolean l : legal) any |= l;
                assertEquals(any, rules.hasMoves(a, b), "hasMoves");
                long[] images = new long[8];
                rules.images(a, images);
                for (int g = 0; g < 8; g++) {
                    assertEquals(naive.transform(a, g), rules.transform(a, g));
                    assertEquals(naive.transform(a, g), images[g], "images, sym " + g);
                }
            }
        }
    }

    @Test
    void standardStartHasFourMoves() {
        OthelloRules rules = new OthelloRules(8);
        long black = start(8, true), white = start(8, false);
        // d3, c4, f5, e6 = (2,3), (3,2), (4,5), (5,4)
        long expected = (1L << 19) | (1L << 26) | (1L << 37) | (1L << 44);
        assertEquals(expected, rules.legalMoves(black, white));
        assertEquals(0, rules.terminalValue(0b1111L, 0b11110000L));
        assertEquals(0, rules.terminalValue(0, 0));
    }
}

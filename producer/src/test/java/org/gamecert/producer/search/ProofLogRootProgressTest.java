package org.gamecert.producer.search;

import org.gamecert.producer.RefGame;
import org.gamecert.producer.game.Othello;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The progress a logging search shows ({@link ProofLog#rootProgress}, read from the records it
 * appends, not from the search): once {@link OthelloSolver#value} returns, the watched root
 * records have narrowed MTD(f)'s bounds to the value it returned, and the next test it names is
 * the one that would follow them. Random 6x6 and 8x8 positions, roots that must pass included.
 */
class ProofLogRootProgressTest {
    @Test void theWatchedRootRecordsNarrowTheBoundsToTheValue() {
        int checked = 0, passes = 0;
        for (int n : new int[] {6, 8}) {
            RefGame.Othello ref = new RefGame.Othello(n);
            Othello g = new Othello(n);
            SplittableRandom rnd = new SplittableRandom(7 + n);
            int passing = 0;
            for (int k = 0, tries = 0; (k < 40 || passing < 3) && tries < 5000; tries++) {
                int empties = 9 + rnd.nextInt(n == 6 ? 5 : 3);
                long[] p = OthelloSolverTest.randomPosition(ref, n, empties, rnd);
                if (p == null) continue;
                long m = p[0], o = p[1];
                boolean pass = g.moves(o, m) == 0 && g.moves(m, o) != 0;
                if (pass) { long t = m; m = o; o = t; passing++; } // a root that must pass
                else if (k >= 40) continue;
                k++;
                long moves = g.moves(m, o);
                if (moves == 0) { passes++; moves = g.moves(o, m); }
                ProofLog log = new ProofLog();
                int e = n * n - Long.bitCount(m | o);
                log.watchRoot(m, o, e, Long.bitCount(moves), g.uMin, g.uMax);
                int[] before = log.rootProgress();
                assertArrayEquals(new int[] {0, 0, Long.bitCount(moves), g.uMin, g.uMax, 0}, before, "before the search: MTD(f) from 0");
                int v = new OthelloSolver(g, new TranspositionTable(1), log).value(m, o);
                int[] r = log.rootProgress();
                assertTrue(r[0] >= 1, "at least one test finished");
                assertEquals(v, r[3], "lo, as the records say, is the value: " + java.util.Arrays.toString(r));
                assertEquals(v, r[4], "hi, as the records say, is the value: " + java.util.Arrays.toString(r));
                assertTrue(r[5] == v || r[5] == v + 1, "the next test follows the last: " + java.util.Arrays.toString(r));
                assertEquals(0, r[1], "a finished test's moves are not counted in the next");
                checked++;
            }
        }
        assertTrue(checked >= 60, "positions checked: " + checked);
        assertTrue(passes > 0, "a root that passes was among them");
    }

    @Test void anUnwatchedLogReportsNoProgress() {
        assertNull(new ProofLog().rootProgress());
    }
}

package org.gamecert.producer.search;

import org.gamecert.producer.RefGame;
import org.gamecert.producer.game.Othello;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/**
 * At 8 empties the table holds the records of both kinds in one word: the cuts of the children
 * of a position that failed low at α, and the cut and the refuted moves of one that failed high
 * at β. A position worth exactly b fails high at b and low at b (in the windows (b − 1, b) and
 * (b, b + 1)), so the bound alone cannot tell them apart: the oracle must hand each question
 * only the record of its own kind, whichever search came last.
 */
@Tag("slow")
class OracleRecordsTest {
    @Test void aRecordAnswersOnlyTheQuestionOfItsKindAtEightEmpties() {
        RefGame.Othello ref = new RefGame.Othello(8);
        Othello g = new Othello(8);
        SplittableRandom rnd = new SplittableRandom(11);
        int[] symmetry = new int[1];
        int high = 0, low = 0;
        for (int k = 0; k < 200; k++) {
            long[] p = OthelloSolverTest.randomPosition(ref, 8, OthelloSolver.TT_MIN, rnd);
            if (p == null) continue;
            int v = ref.value(p[0], p[1]);
            if (v <= g.uMin || v >= g.uMax) continue; // no null window around v
            Oracle oracle = new Oracle(g, 1);
            assertTrue(oracle.atLeast(p[0], p[1], v)); // the window (v - 1, v): fails high at v
            long r = oracle.cutRecord(p[0], p[1], v, symmetry);
            if (r != 0) {
                high++;
                assertEquals(v, OthelloSolver.recordBeta(r));
                assertTrue(ref.moveValue(p[0], p[1], g.transformMove(g.inverse(symmetry[0]), OthelloSolver.recordHighCut(r))) >= v,
                        "the recorded cut reaches " + v);
            }
            assertEquals(0, oracle.leafCutRecord(p[0], p[1], v, symmetry), "a fail-high record read as a fail-low one");
            assertFalse(oracle.atLeast(p[0], p[1], v + 1)); // the window (v, v + 1): fails low at v
            if (oracle.leafCutRecord(p[0], p[1], v, symmetry) != 0) { // (a stability cutoff stores none)
                low++;
                assertEquals(0, oracle.cutRecord(p[0], p[1], v, symmetry), "a fail-low record read as a fail-high one");
            }
        }
        assertTrue(high > 40 && low > 40, high + " fail-high and " + low + " fail-low records read");
    }
}

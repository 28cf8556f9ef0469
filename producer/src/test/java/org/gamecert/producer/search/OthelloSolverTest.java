package org.gamecert.producer.search;

import org.gamecert.producer.RefGame;
import org.gamecert.producer.game.Othello;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The Othello search, with its dedicated last-empties solvers, stability cutoffs and table,
 * against the independent reference rules' plain negamax on many random positions near the
 * end: exact values with wide windows, and fail-soft bounds with null and narrow windows.
 */
class OthelloSolverTest {
    /** A random position with the given number of empties and the mover able to move, or null. */
    static long[] randomPosition(RefGame.Othello ref, int n, int empties, SplittableRandom rnd) {
        long[] s = new Othello(n).start();
        long m = s[0], o = s[1];
        while (n * n - Long.bitCount(m | o) > empties) {
            List<Integer> mv = ref.moves(m, o);
            if (mv.isEmpty()) {
                if (ref.moves(o, m).isEmpty()) return null;
                long t = m; m = o; o = t;
                continue;
            }
            long[] p = ref.play(m, o, mv.get(rnd.nextInt(mv.size())));
            m = p[1]; o = p[0]; // the other side to move
        }
        if (ref.moves(m, o).isEmpty()) {
            if (ref.moves(o, m).isEmpty()) return null;
            long t = m; m = o; o = t;
        }
        return new long[]{m, o};
    }

    private static void check(int n, int minEmpties, int maxEmpties, int perCount, long seed) {
        RefGame.Othello ref = new RefGame.Othello(n);
        Othello g = new Othello(n);
        SplittableRandom rnd = new SplittableRandom(seed);
        int checked = 0;
        for (int e = minEmpties; e <= maxEmpties; e++)
            for (int k = 0; k < perCount; k++) {
                long[] p = randomPosition(ref, n, e, rnd);
                if (p == null) continue;
                int v = ref.value(p[0], p[1]);
                OthelloSolver s = new OthelloSolver(g, new TranspositionTable(1));
                assertEquals(v, s.search(p[0], p[1], -n * n - 1, n * n + 1), "exact value, " + e + " empties");
                assertEquals(v, new OthelloSolver(g, new TranspositionTable(1)).value(p[0], p[1]), "value by null windows, " + e + " empties");
                assertEquals(v, s.value(p[0], p[1]), "value by null windows from the table's bounds, " + e + " empties");
                for (int t = 0; t < 4; t++) {
                    int b = rnd.nextInt(2 * n * n + 1) - n * n;
                    int r = s.search(p[0], p[1], b - 1, b);
                    assertEquals(v >= b, r >= b, "null window at " + b + ", " + e + " empties");
                    if (r >= b) assertTrue(v >= r, "fail-high bound " + r + " above the value " + v);
                    else assertTrue(v <= r, "fail-low bound " + r + " below the value " + v);
                    int a = b - 1 - rnd.nextInt(8), c = b + rnd.nextInt(8);
                    r = s.search(p[0], p[1], a, c);
                    if (r <= a) assertTrue(v <= r, "fail-low bound");
                    else if (r >= c) assertTrue(v >= r, "fail-high bound");
                    else assertEquals(v, r, "exact inside the window");
                }
                checked++;
            }
        assertTrue(checked >= (maxEmpties - minEmpties + 1) * perCount / 2, "too few positions: " + checked);
    }

    @Tag("slow") @Test void lastEmptiesOn8x8AgainstPlainNegamax() { check(8, 1, 9, 60, 1); }

    @Tag("slow") @Test void deeperOn8x8AgainstPlainNegamax() { check(8, 10, 11, 4, 2); }

    /**
     * The records of 8-empty positions that failed low (read by the extraction instead of searching
     * the 6-empty leaves again): for each child, the recorded cut is the first move of the search's
     * order (move score descending, then the lower square) whose value reaches −α, checked against
     * the reference rules' values.
     */
    @Tag("slow") @Test void cutRecordsAreTheFirstMovesOfTheSearchOrderThatReachTheBound() {
        RefGame.Othello ref = new RefGame.Othello(8);
        Othello g = new Othello(8);
        SplittableRandom rnd = new SplittableRandom(5);
        int records = 0, cuts = 0;
        for (int k = 0; k < 300; k++) {
            long[] p = randomPosition(ref, 8, OthelloSolver.TT_MIN, rnd);
            if (p == null) continue;
            TranspositionTable tt = new TranspositionTable(1);
            OthelloSolver s = new OthelloSolver(g, tt);
            int v = ref.value(p[0], p[1]);
            int alpha = v + rnd.nextInt(4); // V <= alpha: the search fails low
            assertTrue(s.search(p[0], p[1], alpha, alpha + 1) <= alpha);
            long r = tt.record(p[0], p[1]);
            if (r == 0) continue; // e.g. a stability cutoff: no move searched
            records++;
            assertFalse(OthelloSolver.isHighRecord(r), "a fail-low record is not read as a fail-high one");
            assertEquals(alpha, OthelloSolver.recordAlpha(r));
            int rank = 0;
            for (long x = g.moves(p[0], p[1]); x != 0; x &= x - 1, rank++) {
                int sq = Long.numberOfTrailingZeros(x);
                int cut = OthelloSolver.recordCut(r, rank);
                if (cut < 0) continue;
                cuts++;
                long f = g.flips(p[0], p[1], sq);
                long cm = p[1] & ~f, co = p[0] | f | (1L << sq); // the child, the opponent to move
                // the child's moves in the search's order; the first reaching -alpha is the cut
                List<Integer> order = new java.util.ArrayList<>(ref.moves(cm, co));
                assertTrue(order.contains(cut), "the recorded cut is a move of the child");
                java.util.Map<Integer, Integer> score = new java.util.HashMap<>();
                for (int y : order) {
                    long fy = g.flips(cm, co, y);
                    score.put(y, s.moveScore(cm | fy | (1L << y), co & ~fy, y));
                }
                order.sort((a, b) -> score.get(a).equals(score.get(b)) ? Integer.compare(a, b) : Integer.compare(score.get(b), score.get(a)));
                int first = -1;
                for (int y : order) if (ref.moveValue(cm, co, y) >= -alpha) { first = y; break; }
                assertEquals(first, cut, "the first move of the search's order reaching " + (-alpha));
            }
        }
        assertTrue(records > 50 && cuts > 200, records + " records, " + cuts + " cuts");
    }

    /**
     * The records of positions from 8 empties that failed high in a null window (read by the
     * extraction instead of testing those moves again): the recorded move reaches β and every move
     * recorded as searched before it stays below β, checked against the reference rules' values.
     * At 8 empties, where fail-low records live too, the word carries the fail-high tag.
     */
    @Tag("slow") @Test void failHighRecordsHoldTheMovesBelowBetaAndTheCut() {
        RefGame.Othello ref = new RefGame.Othello(8);
        Othello g = new Othello(8);
        SplittableRandom rnd = new SplittableRandom(6);
        int records = 0, refuted = 0, highAtTtMin = 0;
        for (int k = 0; k < 180; k++) {
            int empties = OthelloSolver.TT_MIN + rnd.nextInt(3);
            long[] p = randomPosition(ref, 8, empties, rnd);
            if (p == null) continue;
            TranspositionTable tt = new TranspositionTable(1);
            OthelloSolver s = new OthelloSolver(g, tt);
            int v = ref.value(p[0], p[1]);
            int beta = v - rnd.nextInt(4); // V >= beta: the search fails high
            assertTrue(s.search(p[0], p[1], beta - 1, beta) >= beta);
            long r = tt.record(p[0], p[1]);
            if (r == 0) continue; // e.g. a pass: no move loop
            records++;
            if (empties == OthelloSolver.TT_MIN) {
                assertTrue(OthelloSolver.isHighRecord(r), "tagged as a fail-high record");
                highAtTtMin++;
            }
            assertEquals(beta, OthelloSolver.recordBeta(r));
            long moves = g.moves(p[0], p[1]);
            int cut = OthelloSolver.recordHighCut(r);
            assertTrue((moves >>> cut & 1) != 0, "the recorded cut is a move");
            assertTrue(ref.moveValue(p[0], p[1], cut) >= beta, "the recorded cut reaches " + beta);
            int rank = 0;
            for (long x = moves; x != 0; x &= x - 1, rank++) {
                if (!OthelloSolver.recordRefuted(r, rank)) continue;
                int sq = Long.numberOfTrailingZeros(x);
                refuted++;
                assertNotEquals(cut, sq);
                assertTrue(ref.moveValue(p[0], p[1], sq) < beta, "a move recorded below " + beta);
            }
        }
        assertTrue(records > 60 && refuted > 30 && highAtTtMin > 15,
                records + " records (" + highAtTtMin + " at 8 empties), " + refuted + " moves below beta");
    }

    @Test void smallerBoards() {
        check(6, 1, 10, 12, 3);
        check(4, 1, 11, 12, 4);
    }
}

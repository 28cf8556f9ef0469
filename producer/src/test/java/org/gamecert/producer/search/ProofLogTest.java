package org.gamecert.producer.search;

import org.gamecert.producer.RefGame;
import org.gamecert.producer.game.Othello;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The proof a logging search keeps ({@link ProofLog}, the source of {@code --proof search}):
 * every record reachable from the root's two last tests is checked against the reference rules
 * (plain negamax), whatever the table evicted (a 1 MiB table: many bounds come from table
 * cutoffs, whose records were made by other searches). A record does not hold its position: it is
 * the root's, or the child's its parent's record names (after the pass, if the child must pass),
 * and a record reached by two paths is of one position.
 */
@Tag("slow")
class ProofLogTest {
    private static int moveValue(RefGame.Othello ref, long m, long o, int move) {
        long[] c = ref.child(m, o, move);
        return c[0] == 0 ? (int) c[3] : (int) c[0] * ref.value(c[1], c[2]);
    }

    private int records, leafCuts;

    private void check(int n, int minEmpties, int maxEmpties, int perCount, int tableMb, long seed) {
        RefGame.Othello ref = new RefGame.Othello(n);
        Othello g = new Othello(n);
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int e = minEmpties; e <= maxEmpties; e++)
            for (int k = 0; k < perCount; k++) {
                long[] p = OthelloSolverTest.randomPosition(ref, n, e, rnd);
                if (p == null) continue;
                ProofLog log = new ProofLog();
                OthelloSolver s = new OthelloSolver(g, new TranspositionTable(tableMb), log);
                int v = s.value(p[0], p[1]);
                assertEquals(ref.value(p[0], p[1]), v, "value");
                ArrayDeque<long[]> todo = new ArrayDeque<>(); // {handle, mover, opponent}
                Map<Long, List<Long>> seen = new HashMap<>();
                if (v > -n * n) {
                    long h = s.proofOfLower();
                    assertNotEquals(ProofLog.NONE, h, "the proof of V >= v");
                    assertEquals(ProofLog.HIGH, ProofLog.kind(log.get(h)));
                    assertEquals(v, ProofLog.value(log.get(h)));
                    todo.add(new long[] {h, p[0], p[1]});
                }
                if (v < n * n) {
                    long h = s.proofOfUpper();
                    assertNotEquals(ProofLog.NONE, h, "the proof of V <= v");
                    assertEquals(ProofLog.LOW, ProofLog.kind(log.get(h)));
                    assertEquals(v, ProofLog.value(log.get(h)));
                    todo.add(new long[] {h, p[0], p[1]});
                }
                while (!todo.isEmpty()) {
                    long[] t = todo.poll();
                    List<Long> at = seen.putIfAbsent(t[0], List.of(t[1], t[2]));
                    if (at != null) {
                        assertEquals(at, List.of(t[1], t[2]), "a record reached by two paths is of one position");
                        continue;
                    }
                    checkRecord(ref, log, t[0], t[1], t[2], n * n, todo);
                }
            }
    }

    private void checkRecord(RefGame.Othello ref, ProofLog log, long h, long m, long o, int cells, ArrayDeque<long[]> todo) {
        long header = log.get(h);
        int value = ProofLog.value(header), count = ProofLog.children(header);
        int empties = cells - Long.bitCount(m | o);
        assertEquals(empties, ProofLog.empties(header));
        assertTrue(empties >= OthelloSolver.TT_MIN, "records start at TT_MIN empties");
        List<Integer> moves = ref.moves(m, o);
        records++;
        if (ProofLog.kind(header) == ProofLog.HIGH) {
            assertTrue(ref.value(m, o) >= value, "a failed-high record's bound");
            assertEquals(1, count);
            long word = log.get(h + 1);
            assertEquals(ProofLog.move(header), ProofLog.childMove(word));
            int move = ProofLog.childMove(word);
            assertTrue(moves.contains(move));
            assertTrue(moveValue(ref, m, o, move) >= value, "the cut reaches the bound");
            follow(ref, log, m, o, move, word, cells, todo);
        } else {
            assertEquals(ProofLog.LOW, ProofLog.kind(header));
            assertTrue(ref.value(m, o) <= value, "a failed-low record's bound");
            assertEquals(moves.size(), count, "every move");
            long cuts = ProofLog.hasLeafCuts(header) ? log.get(h + 1 + count) : 0;
            assertEquals(empties == OthelloSolver.TT_MIN, cuts != 0, "leaf cuts exactly at TT_MIN empties");
            Set<Integer> named = new HashSet<>();
            for (int q = 0; q < count; q++) {
                long word = log.get(h + 1 + q);
                int move = ProofLog.childMove(word);
                assertTrue(moves.contains(move) && named.add(move), "each move once");
                assertTrue(moveValue(ref, m, o, move) <= value, "every move stays below the bound");
                follow(ref, log, m, o, move, word, cells, todo);
                long[] c = ref.child(m, o, move);
                if (cuts == 0 || c[0] != -1) continue;
                int rank = 0;
                for (int x : moves) if (x < move) rank++;
                int cut = (int) (cuts >>> (7 * rank) & 0x7F) - 1;
                if (cut < 0) continue;
                // the child's cut: a move of the child that brings it to at least -value
                assertTrue(ref.moves(c[1], c[2]).contains(cut), "a leaf cut is a move of the child");
                assertTrue(moveValue(ref, c[1], c[2], cut) >= -value, "a leaf cut reaches the child's bound");
                leafCuts++;
            }
        }
    }

    /** The child by move has a record when it needs one (TT_MIN empties or more, the game not over): it is checked as that position's. */
    private static void follow(RefGame.Othello ref, ProofLog log, long m, long o, int move, long word, int cells,
                               ArrayDeque<long[]> todo) {
        long[] c = ref.child(m, o, move);
        long ch = ProofLog.childHandle(word);
        int childEmpties = cells - Long.bitCount(c[1] | c[2]);
        if (c[0] == 0 || childEmpties < OthelloSolver.TT_MIN) return;
        assertNotEquals(ProofLog.NONE, ch, "a child with " + childEmpties + " empties has a record");
        todo.add(new long[] {ch, c[1], c[2]}); // the child as the reference rules give it, passes contracted
    }

    @Test void keptProofsHoldOn8x8() {
        check(8, 9, 11, 4, 1, 3);
        check(8, 10, 11, 3, 16, 4);
        System.out.println("ProofLogTest 8x8: " + records + " records, " + leafCuts + " leaf cuts checked");
        assertTrue(records > 300, "records checked: " + records);
        assertTrue(leafCuts > 50, "leaf cuts checked: " + leafCuts);
    }

    @Test void keptProofsHoldOn6x6() {
        check(6, 9, 11, 5, 1, 5);
        System.out.println("ProofLogTest 6x6: " + records + " records, " + leafCuts + " leaf cuts checked");
        assertTrue(records > 100, "records checked: " + records);
    }
}

package org.gamecert.verifier.kernel.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The bitboard NoGo 1×N against a plain array implementation written here (blocks found by
 * scanning), on random games and on every position of small boards; and the values of small
 * boards by a plain minimax over the array game against the published facts: the second player
 * wins 1×1 and 1×4 only.
 */
class NoGoRulesTest {

    /** Whether every block of the array board (0 empty, 1 and 2 the colours) has a liberty. */
    static boolean allBreathe(int[] b) {
        int n = b.length;
        for (int i = 0; i < n; ) {
            if (b[i] == 0) {
                i++;
                continue;
            }
            int j = i;
            while (j + 1 < n && b[j + 1] == b[i]) j++;
            boolean liberty = (i > 0 && b[i - 1] == 0) || (j + 1 < n && b[j + 1] == 0);
            if (!liberty) return false;
            i = j + 1;
        }
        return true;
    }

    /** The legal points for colour `who` on the array board. */
    static boolean[] legal(int[] b, int who) {
        boolean[] ok = new boolean[b.length];
        for (int q = 0; q < b.length; q++) {
            if (b[q] != 0) continue;
            b[q] = who;
            ok[q] = allBreathe(b);
            b[q] = 0;
        }
        return ok;
    }

    /** Value for `who` to move, by plain minimax over the array board, memoized on its text. */
    static int minimax(int[] b, int who, Map<String, Integer> memo) {
        String key = java.util.Arrays.toString(b) + who;
        Integer known = memo.get(key);
        if (known != null) return known;
        int best = -1; // no legal move: lost
        boolean[] ok = legal(b, who);
        for (int q = 0; q < b.length && best < 1; q++) {
            if (!ok[q]) continue;
            b[q] = who;
            best = Math.max(best, -minimax(b, 3 - who, memo));
            b[q] = 0;
        }
        memo.put(key, best);
        return best;
    }

    static long bits(int[] b, int who) {
        long x = 0;
        for (int i = 0; i < b.length; i++) if (b[i] == who) x |= 1L << i;
        return x;
    }

    /** Value by minimax over the kernel's rules (child, terminal values). */
    static int kernelValue(NoGoRules g, long m, long o, Map<String, Integer> memo) {
        String key = m + "," + o;
        Integer known = memo.get(key);
        if (known != null) return known;
        long[] out = new long[3];
        int best = -1;
        for (long l = g.legalMoveCodes(m, o); l != 0; l &= l - 1) {
            int kind = g.child(m, o, Long.numberOfTrailingZeros(l), out);
            best = Math.max(best, kind == Game.TERMINAL ? (int) out[2]
                    : -kernelValue(g, out[0], out[1], memo));
        }
        memo.put(key, best);
        return best;
    }

    @Test
    void agreesWithTheArrayGameOnRandomGames() {
        SplittableRandom rnd = new SplittableRandom(11);
        for (int n : new int[] {1, 2, 3, 5, 8, 13, 31, 63, 64}) {
            NoGoRules g = new NoGoRules(n);
            for (int game = 0, games = n > 20 ? 20 : 200; game < games; game++) {
                int[] b = new int[n];
                int who = 1; // the mover
                while (true) {
                    long m = bits(b, who), o = bits(b, 3 - who);
                    assertTrue(g.isLegalPosition(m, o));
                    boolean[] ok = legal(b, who);
                    long moves = g.legalMoveCodes(m, o);
                    int count = 0;
                    for (int q = 0; q < n; q++) {
                        assertEquals(ok[q], ((moves >>> q) & 1) != 0, "n=" + n + " point " + q);
                        if (ok[q]) count++;
                    }
                    assertEquals(count == 0, g.isTerminal(m, o));
                    for (int q = 0; q < n; q++) {
                        if (!ok[q]) continue;
                        long[] out = new long[3];
                        int kind = g.child(m, o, q, out);
                        assertEquals(o, out[0]);
                        assertEquals(m | 1L << q, out[1]);
                        b[q] = who;
                        boolean oppStuck = true;
                        for (boolean x : legal(b, 3 - who)) oppStuck &= !x;
                        b[q] = 0;
                        assertEquals(oppStuck ? Game.TERMINAL : Game.CHILD, kind);
                        if (oppStuck) assertEquals(1, out[2]);
                        long mirrored = g.transform(m | 1L << q, 1);
                        assertEquals(1L << (n - 1 - q), g.transform(1L << q, 1));
                        assertEquals(m | 1L << q, g.transform(mirrored, 1));
                        assertEquals(g.mapMove(q, 1), n - 1 - q);
                    }
                    if (count == 0) break;
                    int k = rnd.nextInt(count);
                    for (int q = 0; q < n; q++) if (ok[q] && k-- == 0) b[q] = who;
                    who = 3 - who;
                }
            }
        }
    }

    @Test
    void legalityAgreesOnEveryColouringOfSmallBoards() {
        for (int n = 1; n <= 7; n++) {
            NoGoRules g = new NoGoRules(n);
            int total = 1;
            for (int i = 0; i < n; i++) total *= 3;
            for (int code = 0; code < total; code++) {
                int[] b = new int[n];
                for (int i = 0, c = code; i < n; i++, c /= 3) b[i] = c % 3;
                long x = bits(b, 1), y = bits(b, 2);
                int diff = Long.bitCount(x) - Long.bitCount(y);
                boolean expected = allBreathe(b) && (diff == 0 || diff == 1);
                // x moved first: with equal counts x is to move, else y
                long m = diff == 0 ? x : y, o = diff == 0 ? y : x;
                assertEquals(expected, g.isLegalPosition(m, o), java.util.Arrays.toString(b));
            }
            assertFalse(g.isLegalPosition(1, 1));
            assertFalse(g.isLegalPosition(0, 1L << n)); // a stone off the board (n < 64 here)
        }
    }

    @Test
    void smallBoardValuesAreThePublishedOnes() {
        for (int n = 1; n <= 12; n++) {
            int plain = minimax(new int[n], 1, new HashMap<>());
            NoGoRules g = new NoGoRules(n);
            int kernel = g.isTerminal(0, 0) ? g.terminalValue(0, 0)
                    : kernelValue(g, 0, 0, new HashMap<>());
            assertEquals(plain, kernel, "1x" + n);
            // Published: the second player wins 1x1 and 1x4 only among small boards.
            assertEquals(n == 1 || n == 4 ? -1 : 1, plain, "1x" + n);
        }
    }
}

package org.gamecert.producer.game;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.gamecert.producer.search.Oracle;
import org.junit.jupiter.api.Test;

/**
 * The producer's NoGo against a plain string implementation written here (a move is legal when
 * no run of one letter is bordered by no '-'), on random games of sizes from 1 to 64 and on every
 * position of small boards; and the solver's root value against a plain minimax over the string
 * game for n ≤ 12, with the published facts: the second player wins 1×1 and 1×4 only.
 */
class NoGoTest {

    /** Every run of 'x' or 'o' has a '-' next to it. */
    static boolean breathes(String b) {
        for (int i = 0; i < b.length(); ) {
            char c = b.charAt(i);
            int j = i;
            while (j < b.length() && b.charAt(j) == c) j++;
            if (c != '-' && (i == 0 || b.charAt(i - 1) != '-') && (j == b.length() || b.charAt(j) != '-')) return false;
            i = j;
        }
        return true;
    }

    static String put(String b, int q, char c) { return b.substring(0, q) + c + b.substring(q + 1); }

    static long naiveMoves(String b, char me) {
        long r = 0;
        for (int q = 0; q < b.length(); q++) if (b.charAt(q) == '-' && breathes(put(b, q, me))) r |= 1L << q;
        return r;
    }

    static long bits(String b, char c) {
        long r = 0;
        for (int i = 0; i < b.length(); i++) if (b.charAt(i) == c) r |= 1L << i;
        return r;
    }

    static int minimax(String b, char me, Map<String, Integer> memo) {
        Integer v = memo.get(b + me);
        if (v != null) return v;
        int best = -1;
        char other = me == 'x' ? 'o' : 'x';
        for (int q = 0; q < b.length() && best < 1; q++)
            if (b.charAt(q) == '-' && breathes(put(b, q, me))) best = Math.max(best, -minimax(put(b, q, me), other, memo));
        memo.put(b + me, best);
        return best;
    }

    @Test
    void movesChildrenAndLegalityAgreeWithTheStringGame() {
        SplittableRandom rnd = new SplittableRandom(5);
        Game.Child c = new Game.Child();
        for (int n : new int[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 17, 31, 32, 33, 62, 63, 64}) {
            NoGo g = new NoGo(n);
            for (int game = 0, games = n <= 16 ? 15 : 3; game < games; game++) {
                String b = "-".repeat(n);
                char me = 'x';
                while (true) {
                    long m = bits(b, me), o = bits(b, me == 'x' ? 'o' : 'x');
                    assertTrue(g.isLegalPosition(m, o), b);
                    long moves = g.moves(m, o);
                    assertEquals(naiveMoves(b, me), moves, b + " " + me);
                    assertEquals(moves == 0, g.isTerminal(m, o));
                    if (moves == 0) { assertEquals(-1, g.terminalValue(m, o)); break; }
                    for (long l = moves; l != 0; l &= l - 1) {
                        int q = Long.numberOfTrailingZeros(l);
                        g.child(m, o, q, c);
                        boolean stuck = naiveMoves(put(b, q, me), me == 'x' ? 'o' : 'x') == 0;
                        assertEquals(stuck ? 0 : -1, c.sign, b + " move " + (q + 1));
                        if (stuck) assertEquals(1, c.terminalValue);
                        else { assertEquals(o, c.mover); assertEquals(m | 1L << q, c.opponent); }
                    }
                    int k = rnd.nextInt(Long.bitCount(moves));
                    long l = moves;
                    for (int i = 0; i < k; i++) l &= l - 1;
                    b = put(b, Long.numberOfTrailingZeros(l), me);
                    me = me == 'x' ? 'o' : 'x';
                }
            }
        }
    }

    @Test
    void legalityOfEveryPositionOfSmallBoards() {
        for (int n = 1; n <= 8; n++) {
            NoGo g = new NoGo(n);
            int total = (int) Math.pow(3, n);
            for (int code = 0; code < total; code++) {
                StringBuilder sb = new StringBuilder();
                for (int i = 0, x = code; i < n; i++, x /= 3) sb.append("-xo".charAt(x % 3));
                String b = sb.toString();
                long x = bits(b, 'x'), o = bits(b, 'o');
                int d = Long.bitCount(x) - Long.bitCount(o);
                boolean xMoves = d == 0;
                boolean expected = breathes(b) && (d == 0 || d == 1);
                assertEquals(expected, xMoves ? g.isLegalPosition(x, o) : g.isLegalPosition(o, x), b);
            }
        }
    }

    @Test
    void solverValuesAreTheMinimaxOnesAndThePublishedFacts() {
        for (int n = 1; n <= 12; n++) {
            NoGo g = new NoGo(n);
            int plain = minimax("-".repeat(n), 'x', new HashMap<>());
            assertEquals(plain, new Oracle(g, 4).value(0, 0), "1x" + n);
            assertEquals(n == 1 || n == 4 ? -1 : 1, plain, "1x" + n + " (published: second player wins 1x1, 1x4 only)");
        }
        // and some midgame positions of a larger board
        NoGo g = new NoGo(14);
        Oracle oracle = new Oracle(g, 4);
        SplittableRandom rnd = new SplittableRandom(3);
        for (int t = 0; t < 30; t++) {
            String b = "-".repeat(14);
            char me = 'x';
            for (int ply = 0; ply < 3 + rnd.nextInt(4); ply++) {
                long moves = naiveMoves(b, me);
                if (moves == 0) break;
                int k = rnd.nextInt(Long.bitCount(moves));
                for (int i = 0; i < k; i++) moves &= moves - 1;
                b = put(b, Long.numberOfTrailingZeros(moves), me);
                me = me == 'x' ? 'o' : 'x';
            }
            long m = bits(b, me), o = bits(b, me == 'x' ? 'o' : 'x');
            assertEquals(minimax(b, me, new HashMap<>()), oracle.value(m, o), b);
            assertEquals(oracle.value(m, o) >= 1, oracle.atLeast(m, o, 1), b);
            assertEquals(oracle.value(m, o) >= 0, oracle.atLeast(m, o, 0), b);
        }
    }

    @Test
    void namesMovesAndBoards() {
        NoGo g = (NoGo) Game.parse("nogo:1x7");
        assertEquals("nogo:1x7", g.name());
        long[] p = g.parseMoves("4, 2,6");
        assertEquals("-O-X-X- O", g.boardText(p[0], p[1]));
        long[] q = g.parseBoard("-O-X-X- O");
        assertEquals(p[0], q[0]);
        assertEquals(p[1], q[1]);
        assertThrows(IllegalArgumentException.class, () -> g.parseMoves("1,2")); // 2 would leave O no liberty
        assertThrows(IllegalArgumentException.class, () -> g.parseMoves("8"));
        assertThrows(IllegalArgumentException.class, () -> Game.parse("nogo:2x7"));
        assertThrows(IllegalArgumentException.class, () -> Game.parse("nogo:1x65"));
        assertThrows(IllegalArgumentException.class, () -> g.parseBoard("XO----- X"));
    }
}

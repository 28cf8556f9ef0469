package org.gamecert.producer.game;

import org.gamecert.producer.cert.RankedCertificate;
import org.gamecert.producer.search.LoaSolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The producer's Lines of Action rules (SPEC §7.7) and its ranked solver on 4×4. */
class LoaTest {
    static long sq(int n, String s) { return 1L << ((s.charAt(1) - '1') * n + (s.charAt(0) - 'a')); }

    static long bits(int n, String... squares) {
        long b = 0;
        for (String s : squares) b |= sq(n, s);
        return b;
    }

    static boolean has(Loa g, long m, long o, String from, String to) {
        int[] mv = new int[64];
        int c = g.moves(m, o, mv);
        for (int i = 0; i < c; i++)
            if ((g.square(mv[i] >>> 8 & 0xFF) + "-" + g.square(mv[i] & 0xFF)).equals(from + "-" + to)) return true;
        return false;
    }

    @Test
    void startAndMoves() {
        Loa g = new Loa(4);
        long[] s = g.start();
        assertEquals(bits(4, "b1", "c1", "b4", "c4"), s[0]);
        assertEquals(bits(4, "a2", "a3", "d2", "d3"), s[1]);
        assertEquals(12, g.moves(s[0], s[1], new int[64]));
        assertTrue(has(g, s[0], s[1], "b1", "b3"));
        assertTrue(has(g, s[0], s[1], "b1", "d3")); // a capture
        assertEquals(8, Long.bitCount(new Loa(6).start()[0]));
    }

    @Test
    void jumpsAndLandings() {
        Loa g = new Loa(5);
        assertTrue(has(g, bits(5, "a1", "b1"), bits(5, "e1", "e5"), "a1", "d1"));
        assertFalse(has(g, bits(5, "a1", "e5"), bits(5, "b1", "e1"), "a1", "d1"));
        assertTrue(has(g, bits(5, "a1", "e5"), bits(5, "c1"), "a1", "c1"));
        assertFalse(has(g, bits(5, "a1", "c1"), bits(5, "e5"), "a1", "c1"));
    }

    @Test
    void connection() {
        Loa g = new Loa(5);
        assertTrue(g.connected(bits(5, "a1", "b2", "c3")));
        assertFalse(g.connected(bits(5, "e1", "a2")));
        assertEquals(2, g.groups(bits(5, "a1", "c1")));
        long[] out = new long[3];
        assertEquals(Loa.TERMINAL, g.play(bits(5, "a1", "b1", "d1"), bits(5, "a5", "e5"), 3, 7, out));
        assertEquals(1, out[2]);
    }

    /**
     * As a Game (what a certificate's reader, query and release use), LOA agrees with its own move
     * generator on every board size: the move set, each child (ordinary, pass, terminal and its
     * value), the move names, and the move and board texts parsed back, along random games.
     */
    @ParameterizedTest(name = "{0}x{0}")
    @ValueSource(ints = {4, 5, 6})
    void asAGameItAgreesWithItsOwnMoveGenerator(int n) {
        int[] tb = new int[64];
        for (int i = 0; i < 64; i++) tb[i] = i;
        Game read = Game.fromHeader(Game.FAMILY_LOA, n, n, tb);
        assertTrue(read instanceof Loa);
        assertEquals("loa:" + n + "x" + n, read.name());
        Loa g = (Loa) read;
        Random rnd = new Random(n);
        int terminals = 0;
        for (int game = 0; game < 15; game++) {
            long[] s = g.start();
            long m = s[0], o = s[1];
            StringBuilder line = new StringBuilder();
            for (int ply = 0; ply < 80; ply++) {
                assertTrue(g.isLegalPosition(m, o));
                assertFalse(g.isTerminal(m, o));
                int[] mv = new int[64];
                int count = g.moves(m, o, mv);
                long set = 0;
                for (int i = 0; i < count; i++) set |= 1L << (mv[i] >>> 16);
                assertEquals(set, g.moves(m, o));
                int k = rnd.nextInt(count), code = mv[k] >>> 16, from = mv[k] >>> 8 & 0xFF, to = mv[k] & 0xFF;
                String name = g.square(from) + "-" + g.square(to);
                assertEquals(name, g.moveName(m, o, code));
                line.append(name).append(' ');
                long[] out = new long[3];
                int kind = g.play(m, o, from, to, out);
                Game.Child ch = new Game.Child();
                g.child(m, o, code, ch);
                if (kind == Loa.TERMINAL) {
                    assertEquals(0, ch.sign);
                    assertEquals(out[2], ch.terminalValue);
                    assertTrue(g.isTerminal(ch.termMover, ch.termOpponent));
                    assertEquals(-ch.terminalValue, g.terminalValue(ch.termMover, ch.termOpponent));
                    terminals++;
                    break;
                }
                assertEquals(kind == Loa.PASS ? 1 : -1, ch.sign);
                assertEquals(out[0], ch.mover);
                assertEquals(out[1], ch.opponent);
                assertEquals(ch.mover | ch.opponent, g.play(m, o, code) | (o & ~g.play(m, o, code)));
                // The line parsed back: after a pass the side that must pass is to move (its pass is implicit).
                long[] parsed = g.parseMoves(line.toString());
                assertArrayEquals(kind == Loa.PASS ? new long[] {ch.opponent, ch.mover} : new long[] {ch.mover, ch.opponent}, parsed);
                assertArrayEquals(new long[] {ch.mover, ch.opponent}, g.parseBoard(g.boardText(ch.mover, ch.opponent)));
                m = ch.mover;
                o = ch.opponent;
            }
        }
        assertTrue(terminals > 0, "some games end");
        assertThrows(IllegalArgumentException.class, () -> g.parseMoves("b1-b1"));
        assertThrows(IllegalArgumentException.class, () -> g.parseMoves("a9-a1"));
        long[] s0 = g.start();
        assertEquals(-1, g.fromTo(s0[0], s0[1], 8 * Long.bitCount(s0[0]))); // no such piece
    }

    @Test
    void solves4x4AndEveryProofEdgeLowersTheRank() {
        Loa g = new Loa(4);
        long[] s = g.start();
        LoaSolver solver = new LoaSolver(g, Long.MAX_VALUE, 1 << 20);
        assertEquals(1, solver.solve(s[0], s[1], 20));
        List<RankedCertificate.Node> nodes = RankedCertificate.extract(g, solver, s[0], s[1], true);
        assertEquals(3, nodes.get(0).rank);
        assertTrue(nodes.get(0).win);
    }
}

package org.gamecert.producer.game;

import org.gamecert.producer.cert.RankedCertificate;
import org.gamecert.producer.search.LoaSolver;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

package org.gamecert.verifier.kernel.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The kernel's Lines of Action rules (SPEC §7.7) on hand-made positions. */
class LoaRulesTest {
    static long sq(int n, String s) { // a1 = top-left
        return 1L << ((s.charAt(1) - '1') * n + (s.charAt(0) - 'a'));
    }

    static long bits(int n, String... squares) {
        long b = 0;
        for (String s : squares) b |= sq(n, s);
        return b;
    }

    /** The code of the mover's move from -> to, or -1 when it is not legal. */
    static int code(LoaRules g, long m, long o, String from, String to) {
        long legal = g.legalMoveCodes(m, o);
        for (int c = 0; c < 64; c++)
            if ((legal >>> c & 1) != 0 && g.moveText(m, o, c).equals(from + "-" + to)) return c;
        return -1;
    }

    @Test
    void start() {
        LoaRules g = new LoaRules(4);
        long[] s = g.start();
        assertEquals(bits(4, "b1", "c1", "b4", "c4"), s[0]);
        assertEquals(bits(4, "a2", "a3", "d2", "d3"), s[1]);
        assertEquals(6, Long.bitCount(new LoaRules(5).start()[0]));
        assertEquals(8, Long.bitCount(new LoaRules(6).start()[1]));
        // b1: east to d1 over its own c1, south-east to d3 capturing, south to b3; 12 moves in all
        LoaRules g4 = g;
        assertTrue(code(g4, s[0], s[1], "b1", "d1") >= 0);
        assertTrue(code(g4, s[0], s[1], "b1", "d3") >= 0);
        assertEquals(4, code(g4, s[0], s[1], "b1", "b3")); // piece 0, direction S
        assertEquals(12, Long.bitCount(g4.legalMoveCodes(s[0], s[1])));
    }

    @Test
    void distanceIsThePiecesOnTheLine() {
        LoaRules g = new LoaRules(5);
        long m = bits(5, "a1"), o = bits(5, "e1", "c3", "e5");
        // row 1 holds a1 and e1: 2 squares; column a holds a1 only: 1 square; the diagonal a1-e5
        // holds a1, c3, e5: 3 squares, but c3 is an enemy on the way
        assertTrue(code(g, m, o, "a1", "c1") >= 0);
        assertTrue(code(g, m, o, "a1", "a2") >= 0);
        assertEquals(-1, code(g, m, o, "a1", "d4"));
        assertEquals(-1, code(g, m, o, "a1", "b2"));
        assertEquals(2, Long.bitCount(g.legalMoveCodes(m, o)));
    }

    @Test
    void jumpsOwnNotEnemyLandsOnEnemyNotOwn() {
        LoaRules g = new LoaRules(5);
        // a1 east: row 1 holds a1, b1 and one more: 3 squares to d1
        assertTrue(code(g, bits(5, "a1", "b1"), bits(5, "e1", "e5"), "a1", "d1") >= 0); // over own
        assertEquals(-1, code(g, bits(5, "a1", "e5"), bits(5, "b1", "e1"), "a1", "d1")); // over enemy
        // a1 east with 2 on the row: onto c1
        assertTrue(code(g, bits(5, "a1", "e5"), bits(5, "c1"), "a1", "c1") >= 0); // capture
        assertEquals(-1, code(g, bits(5, "a1", "c1"), bits(5, "e5"), "a1", "c1")); // own piece
    }

    @Test
    void connectionAndOutcomes() {
        LoaRules g = new LoaRules(5);
        assertTrue(g.connected(bits(5, "a1", "b2", "c3", "c4")));
        assertFalse(g.connected(bits(5, "a1", "c1")));
        assertFalse(g.connected(bits(5, "e1", "a2"))); // no wrap around the edge
        assertTrue(g.connected(bits(5, "c3")));
        assertFalse(g.connected(0));
        long[] out = new long[3];
        // the mover connects: +1
        long m = bits(5, "a1", "b1", "d1"), o = bits(5, "a5", "e5");
        int c = code(g, m, o, "d1", "c2"); // south-west: diagonal d1-c2-b3-a4 holds d1 only
        assertTrue(c >= 0);
        assertEquals(Game.TERMINAL, g.child(m, o, c, out));
        assertEquals(1, out[2]);
        // both connected at once (a capture can do it): a draw; found by seeded random play
        long[] p = org.gamecert.verifier.testcert.LoaTestCerts.simultaneousConnection(5, 1);
        assertNotNull(p);
        assertEquals(Game.TERMINAL, g.child(p[0], p[1], (int) p[2], out));
        assertEquals(0, out[2]);
        assertEquals(0, g.terminalValue(bits(5, "a1"), bits(5, "e5")));
        assertEquals(-1, g.terminalValue(bits(5, "a1", "c1"), bits(5, "e5")));
    }

    /**
     * A move after which neither side can move, neither connected, is terminal with value 0, and
     * like every terminal child (Game.child) leaves the position with the opponent to move, not
     * the position after the opponent's pass. The position was found by random search on 4×4.
     */
    @Test
    void aMoveAfterWhichNeitherSideCanMoveLeavesTheOpponentToMove() {
        LoaRules g = new LoaRules(4);
        long m = 35330, o = 20568, mAfter = 2570, oAfter = 20560; // the move captures on bit 3
        long[] out = new long[3];
        assertEquals(Game.TERMINAL, g.child(m, o, 24, out));
        assertEquals(0, out[2]);
        assertEquals(oAfter, out[0], "the opponent to move");
        assertEquals(mAfter, out[1]);
        assertEquals(0, g.legalMoveCodes(oAfter, mAfter));
        assertEquals(0, g.legalMoveCodes(mAfter, oAfter));
        assertFalse(g.connected(mAfter) || g.connected(oAfter));
    }

    @Test
    void legalPositions() {
        LoaRules g = new LoaRules(4);
        assertTrue(g.isLegalPosition(bits(4, "a1"), bits(4, "d4")));
        assertFalse(g.isLegalPosition(bits(4, "a1"), 0));
        assertFalse(g.isLegalPosition(bits(4, "a1", "b1", "c1", "d1", "a2"), bits(4, "d4")));
        assertFalse(g.isLegalPosition(1L << 16, bits(4, "d4")));
    }
}

package org.gamecert.producer.game;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

class OthelloTest {
    @Test void bitTrickSymmetriesEqualTheSquarePermutations() {
        Othello g = new Othello(8);
        SplittableRandom rnd = new SplittableRandom(42);
        for (int i = 0; i < 2000; i++) {
            long x = rnd.nextLong();
            for (int s = 0; s < 8; s++) {
                long expected = 0;
                for (int q = 0; q < 64; q++) if ((x >>> q & 1) != 0) expected |= 1L << g.transformMove(s, q);
                assertEquals(expected, g.transform(s, x), "symmetry " + s);
                assertEquals(expected, g.transformByTable(s, x), "table symmetry " + s);
            }
        }
    }

    @Test void canonicalOn8x8IsTheGenericLoops() {
        Othello g = new Othello(8);
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(8);
        long[] out = new long[2];
        for (int i = 0; i < 200_000; i++) {
            long m, o;
            if (i % 4 == 0) { // symmetric occupancies and positions: ties between symmetries
                long h = rnd.nextLong() & 0x0F0F0F0F0F0F0F0FL;
                long occ = h | Othello.mirror8(h);
                m = rnd.nextBoolean() ? occ & rnd.nextLong() : occ & 0x0F0F0F0F0F0F0F0FL;
                if (rnd.nextBoolean()) m |= Othello.mirror8(m) & occ;
                o = occ & ~m;
            } else {
                m = rnd.nextLong() & rnd.nextLong();
                o = rnd.nextLong() & rnd.nextLong() & ~m;
            }
            // the generic loop of Game.canonical
            long bm = m, bo = o, bocc = m | o;
            int bg = 0;
            for (int s = 1; s < 8; s++) {
                long tm = g.transform(s, m), to = g.transform(s, o), tocc = tm | to;
                int c = Long.compareUnsigned(tocc, bocc);
                if (c < 0 || (c == 0 && Long.compareUnsigned(tm, bm) < 0)) { bm = tm; bo = to; bocc = tocc; bg = s; }
            }
            assertEquals(bg, g.canonical(m, o, out), "symmetry");
            assertEquals(bm, out[0]);
            assertEquals(bo, out[1]);
        }
    }

    @Test void inverseUndoesEachSymmetry() {
        for (int n = 4; n <= 8; n += 2) {
            Othello g = new Othello(n);
            for (int s = 0; s < 8; s++)
                for (int q = 0; q < n * n; q++) assertEquals(q, g.transformMove(g.inverse(s), g.transformMove(s, q)));
        }
    }

    @Test void notationRoundTripAndErrors() {
        Othello g = new Othello(8);
        long[] p = g.parseMoves("f5d6c3d3c4");
        assertArrayEquals(p, g.parseBoard(g.boardText(p[0], p[1])));
        assertEquals(9, Long.bitCount(p[0] | p[1]));
        assertThrows(IllegalArgumentException.class, () -> g.parseMoves("a1"));
        assertThrows(IllegalArgumentException.class, () -> g.parseMoves("f5f5"));
        assertThrows(IllegalArgumentException.class, () -> g.parseMoves("z9"));
    }
}

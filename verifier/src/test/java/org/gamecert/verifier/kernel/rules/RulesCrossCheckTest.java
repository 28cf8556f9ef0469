package org.gamecert.verifier.kernel.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Cross-checks the games' own child() against the generic definition of Game.child (from
 * moveDelta, isTerminal, terminalValue and legalMoveCodes), and the Connect Four mirror against
 * a column-by-column copy, on random bitboards (not only reachable positions).
 */
class RulesCrossCheckTest {

    /** The body of Game.child's default method, spelled out. */
    static int genericChild(Game g, long mover, long opponent, int code, long[] out) {
        long delta = g.moveDelta(mover, opponent, code);
        long m = mover | delta, o = opponent & ~delta;
        out[0] = o;
        out[1] = m;
        if (g.isTerminal(o, m)) {
            out[2] = -g.terminalValue(o, m);
            return Game.TERMINAL;
        }
        if (g.legalMoveCodes(o, m) != 0) return Game.CHILD;
        out[0] = m;
        out[1] = o;
        return Game.PASS_CHILD;
    }

    static void assertSameChild(Game g, long mover, long opp, int code, int[] kinds) {
        long[] want = new long[3], got = new long[3];
        int kw = genericChild(g, mover, opp, code, want), kg = g.child(mover, opp, code, got);
        String at = "mover " + Long.toHexString(mover) + " opp " + Long.toHexString(opp) + " code " + code;
        assertEquals(kw, kg, at);
        assertEquals(want[0], got[0], at);
        assertEquals(want[1], got[1], at);
        if (kw == Game.TERMINAL) assertEquals(want[2], got[2], at);
        kinds[kw]++;
    }

    @Test
    void othelloChildAgreesWithTheGenericDefinition() {
        for (int n : new int[] {4, 6, 8}) {
            OthelloRules rules = new OthelloRules(n);
            SplittableRandom rnd = new SplittableRandom(5 + n);
            int[] kinds = new int[3];
            for (int i = 0; i < 20000; i++) {
                // dense boards (few empties) so that passes and ends are common
                long empty = rnd.nextLong() & rnd.nextLong() & rnd.nextLong() & rules.boardMask;
                if (i % 2 == 0) empty &= rnd.nextLong();
                long a = rnd.nextLong() & rules.boardMask & ~empty, b = rules.boardMask & ~empty & ~a;
                long legal = rules.legalMoveCodes(a, b);
                for (long l = legal; l != 0; l &= l - 1) assertSameChild(rules, a, b, Long.numberOfTrailingZeros(l), kinds);
            }
            for (int k = 0; k < 3; k++) assertTrue(kinds[k] > 30, "n=" + n + ": child kind " + k + " seen " + kinds[k] + " times");
        }
    }

    @Test
    void connectFourChildAndMirrorOnRandomBitboards() {
        int[][] sizes = {{7, 6}, {6, 5}, {4, 4}, {1, 4}, {2, 3}, {3, 3}, {5, 4}, {8, 7}, {9, 5}, {16, 3}, {21, 2}};
        for (int[] s : sizes) {
            int w = s[0], h = s[1], stride = h + 1;
            ConnectFourRules rules = new ConnectFourRules(w, h);
            SplittableRandom rnd = new SplittableRandom(11 + 31 * w + h);
            int[] kinds = new int[3];
            for (int i = 0; i < 5000; i++) {
                // random stacks in each column, random owners: legal and illegal positions
                long a = 0, b = 0;
                for (int c = 0; c < w; c++) {
                    int height = rnd.nextInt(4) == 0 ? h : rnd.nextInt(h + 1);
                    for (int r = 0; r < height; r++) {
                        if (rnd.nextBoolean()) a |= 1L << (c * stride + r);
                        else b |= 1L << (c * stride + r);
                    }
                }
                for (int code = 0; code < w; code++)
                    if (((rules.legalMoveCodes(a, b) >>> code) & 1) != 0) assertSameChild(rules, a, b, code, kinds);
                long any = rnd.nextLong() & rules.boardMask, mirrored = 0;
                for (int c = 0; c < w; c++) mirrored |= ((any >>> (c * stride)) & ((1L << stride) - 1)) << ((w - 1 - c) * stride);
                assertEquals(mirrored, rules.transform(any, 1), w + "x" + h);
                assertEquals(any, rules.transform(any, 0));
                long[] images = new long[2];
                rules.images(any, images);
                assertEquals(any, images[0]);
                assertEquals(mirrored, images[1]);
            }
            assertTrue(kinds[Game.CHILD] > 0 && kinds[Game.TERMINAL] > 0, w + "x" + h + " kinds");
        }
    }

    /** SPEC §7.4 spelled out: the least (occupancy, mover) over the images, compared unsigned. */
    static long[] definedCanonical(java.util.function.BiFunction<Long, Integer, Long> transform, int group, long mover, long opp) {
        long bo = mover | opp, bm = mover;
        for (int g = 1; g < group; g++) {
            long o = transform.apply(mover | opp, g), m = transform.apply(mover, g);
            int c = Long.compareUnsigned(o, bo);
            if (c < 0 || (c == 0 && Long.compareUnsigned(m, bm) < 0)) {
                bo = o;
                bm = m;
            }
        }
        return new long[] {bo, bm};
    }

    @Test
    void canonicalFormIsTheLeastImage() {
        SplittableRandom rnd = new SplittableRandom(20261123);
        long[] out = new long[9];
        for (int n : new int[] {4, 6, 8}) {
            OthelloRules rules = new OthelloRules(n);
            NaiveOthello naive = new NaiveOthello(n);
            for (int t = 0; t < 20_000; t++) {
                long occ = rnd.nextLong() & rules.boardMask;
                if (t % 4 == 0) occ |= rules.transform(occ, 1 + rnd.nextInt(7)); // symmetric boards: ties
                long mover = occ & rnd.nextLong();
                if (t % 8 == 1) mover = occ & (mover | rules.transform(mover, 4)); // ties in the mover too
                long[] want = definedCanonical((b, g) -> naive.transform(b, g), 8, mover, occ & ~mover);
                assertEquals(want[0], rules.canonical(mover, occ & ~mover, 8, out), "occupancy, " + n + "x" + n);
                assertEquals(want[1], out[8], "mover, " + n + "x" + n);
                assertEquals(occ, rules.canonical(mover, occ & ~mover, 1, out), "no symmetry: the position itself");
                assertEquals(mover, out[8]);
            }
        }
        ConnectFourRules c4 = new ConnectFourRules(7, 6);
        for (int t = 0; t < 20_000; t++) {
            long occ = rnd.nextLong() & c4.boardMask, mover = occ & rnd.nextLong();
            if (t % 4 == 0) occ |= c4.transform(occ, 1);
            mover &= occ;
            long[] want = definedCanonical((b, g) -> c4.transform(b, g), 2, mover, occ & ~mover);
            assertEquals(want[0], c4.canonical(mover, occ & ~mover, 2, out), "connect four occupancy");
            assertEquals(want[1], out[8], "connect four mover");
        }
    }
}

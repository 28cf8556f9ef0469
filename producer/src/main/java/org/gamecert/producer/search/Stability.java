package org.gamecert.producer.search;

/**
 * A lower bound on the stable discs of one side on the 8×8 board (discs no sequence of moves can
 * flip): the discs of each edge that no sequence of moves along that edge can flip (a table over
 * every edge configuration), discs whose four lines are full, and, repeatedly, discs that on each
 * of their four lines have a full line or a stable disc of their own colour next to them.
 */
public final class Stability {
    private Stability() {}

    /** EDGE[p << 8 | o]: the discs of p (an 8-square line) that no sequence of moves along the line can flip. */
    private static final byte[] EDGE = new byte[1 << 16];
    /** The 8 bits of a column mapped to column A resp. H of the board. */
    private static final long[] COL_A = new long[256], COL_H = new long[256];

    static {
        short[] memo = new short[1 << 16];
        java.util.Arrays.fill(memo, (short) -1);
        for (int p = 0; p < 256; p++)
            for (int o = 0; o < 256; o++)
                if ((p & o) == 0) EDGE[p << 8 | o] = (byte) (stableLine(p, o, memo) & p);
        for (int b = 0; b < 256; b++)
            for (int i = 0; i < 8; i++)
                if ((b >>> i & 1) != 0) { COL_A[b] |= 1L << (8 * i); COL_H[b] |= 1L << (8 * i + 7); }
    }

    /** The squares of the line whose disc never changes, whoever plays on the line's empty squares. */
    private static int stableLine(int p, int o, short[] memo) {
        int key = p << 8 | o;
        if (memo[key] >= 0) return memo[key];
        int stable = p | o;
        for (int x = 0; x < 8 && stable != 0; x++) {
            if (((p | o) >>> x & 1) != 0) continue;
            for (int side = 0; side < 2; side++) {
                int me = side == 0 ? p : o, opp = side == 0 ? o : p;
                int f = lineFlips(me, opp, x);
                int me2 = me | f | 1 << x, opp2 = opp & ~f;
                int child = side == 0 ? stableLine(me2, opp2, memo) : stableLine(opp2, me2, memo);
                stable &= child & ~f;
            }
        }
        memo[key] = (short) stable;
        return stable;
    }

    private static int lineFlips(int me, int opp, int x) {
        int f = 0;
        for (int d = -1; d <= 1; d += 2) {
            int run = 0, y = x + d;
            while (y >= 0 && y < 8 && (opp >>> y & 1) != 0) { run |= 1 << y; y += d; }
            if (run != 0 && y >= 0 && y < 8 && (me >>> y & 1) != 0) f |= run;
        }
        return f;
    }

    private static int colA(long b) { return (int) (((b & 0x0101010101010101L) * 0x0102040810204080L) >>> 56); }
    private static int colH(long b) { return (int) ((((b >>> 7) & 0x0101010101010101L) * 0x0102040810204080L) >>> 56); }

    /** Stable discs of p on the 4 edges. */
    static long edges(long p, long o) {
        return (EDGE[(int) (p & 0xFF) << 8 | (int) (o & 0xFF)] & 0xFFL)
                | (EDGE[(int) (p >>> 56) << 8 | (int) (o >>> 56)] & 0xFFL) << 56
                | COL_A[EDGE[colA(p) << 8 | colA(o)] & 0xFF]
                | COL_H[EDGE[colH(p) << 8 | colH(o)] & 0xFF];
    }

    private static final long NOT_A = 0xFEFEFEFEFEFEFEFEL, NOT_H = 0x7F7F7F7F7F7F7F7FL;

    /** A lower bound on the stable discs of p (o: the other side's discs). */
    public static long stable(long p, long o) {
        long occ = p | o, e = ~occ;
        // squares whose line in a direction holds no empty square: spread the empties along the lines
        long h = e;
        h |= (h << 1 & NOT_A) | (h >>> 1 & NOT_H);
        h |= (h << 2 & 0xFCFCFCFCFCFCFCFCL) | (h >>> 2 & 0x3F3F3F3F3F3F3F3FL);
        h |= (h << 4 & 0xF0F0F0F0F0F0F0F0L) | (h >>> 4 & 0x0F0F0F0F0F0F0F0FL);
        long v = e;
        v |= v << 8 | v >>> 8;
        v |= v << 16 | v >>> 16;
        v |= v << 32 | v >>> 32;
        long d9a = e, d9b = e;
        d9a |= d9a << 9 & NOT_A; d9a |= d9a << 18 & 0xFCFCFCFCFCFCFCFCL; d9a |= d9a << 36 & 0xF0F0F0F0F0F0F0F0L;
        d9b |= d9b >>> 9 & NOT_H; d9b |= d9b >>> 18 & 0x3F3F3F3F3F3F3F3FL; d9b |= d9b >>> 36 & 0x0F0F0F0F0F0F0F0FL;
        long d7a = e, d7b = e;
        d7a |= d7a << 7 & NOT_H; d7a |= d7a << 14 & 0x3F3F3F3F3F3F3F3FL; d7a |= d7a << 28 & 0x0F0F0F0F0F0F0F0FL;
        d7b |= d7b >>> 7 & NOT_A; d7b |= d7b >>> 14 & 0xFCFCFCFCFCFCFCFCL; d7b |= d7b >>> 28 & 0xF0F0F0F0F0F0F0F0L;
        long fh = ~h, fv = ~v, f9 = ~(d9a | d9b), f7 = ~(d7a | d7b);
        long stable = (edges(p, o) | (fh & fv & f9 & f7)) & p;
        long candidates = p & ~stable;
        while (true) {
            long add = candidates
                    & (fh | (stable << 1 & NOT_A) | (stable >>> 1 & NOT_H))
                    & (fv | stable << 8 | stable >>> 8)
                    & (f9 | (stable << 9 & NOT_A) | (stable >>> 9 & NOT_H))
                    & (f7 | (stable << 7 & NOT_H) | (stable >>> 7 & NOT_A));
            if (add == 0) return stable;
            stable |= add;
            candidates &= ~add;
        }
    }
}

package org.gamecert.producer.research;

/**
 * Research throwaway (issue #40): Connect Four W×H geometry on the producer's bit layout (cell (c, r)
 * is bit c·(H+1)+r, a sentinel on top of each column), written here again so that the oracle and the
 * paper's procedure share no code with the producer's search. W ≥ 4 (the boards compared: 4×4, 5×4,
 * 6×4, 5×5, 6×5).
 */
final class C4Board {
    final int w, h, h1, cells;
    final long bottom, boardMask;
    final long[] colMask;
    /** Centre first, then left (SPEC §8): the paper's fixed tie-break and ours. */
    final int[] tb;
    final int[] tbRank;

    C4Board(int w, int h) {
        if (w < 4 || w * (h + 1) > 63) throw new IllegalArgumentException("board " + w + "x" + h);
        this.w = w; this.h = h; this.h1 = h + 1; this.cells = w * h;
        long b = 0, bm = 0;
        colMask = new long[w];
        for (int c = 0; c < w; c++) {
            b |= 1L << (c * h1);
            colMask[c] = ((1L << h) - 1) << (c * h1);
            bm |= colMask[c];
        }
        bottom = b; boardMask = bm;
        tb = new int[w]; tbRank = new int[w];
        int k = 0;
        for (int dist = 0; dist <= w; dist++)
            for (int c = 0; c < w; c++) if (Math.abs(2 * c - (w - 1)) == dist) { tbRank[c] = k; tb[k++] = c; }
    }

    /** The landing cell of every column that is not full. */
    long possible(long mask) { return (mask + bottom) & boardMask; }

    /** A unique key of (mover's discs, occupied cells): per column, a marker bit above the discs. */
    long key(long pos, long mask) { return pos + mask + bottom; }

    boolean four(long p) {
        long x = p & (p >>> 1);
        if ((x & (x >>> 2)) != 0) return true;
        x = p & (p >>> h1);
        if ((x & (x >>> (2 * h1))) != 0) return true;
        x = p & (p >>> h);
        if ((x & (x >>> (2 * h))) != 0) return true;
        x = p & (p >>> (h + 2));
        return (x & (x >>> (2 * (h + 2)))) != 0;
    }

    /** Empty cells that would complete four for {@code p}. */
    long winningCells(long p, long mask) {
        long r = (p << 1) & (p << 2) & (p << 3);
        r |= lines(p, h1) | lines(p, h) | lines(p, h + 2);
        return r & boardMask & ~mask;
    }

    private static long lines(long p, int s) {
        long r, q = (p << s) & (p << (2 * s));
        r = q & (p << (3 * s));
        r |= q & (p >>> s);
        q = (p >>> s) & (p >>> (2 * s));
        r |= q & (p << s);
        r |= q & (p >>> (3 * s));
        return r;
    }

    /** The position (mover pos, occupied mask) is over: the side that just moved made four, or the board is full. */
    boolean terminal(long pos, long mask) { return four(pos ^ mask) || mask == boardMask; }

    /** Its value to the side to move, for a terminal position. */
    int terminalValue(long pos, long mask) { return four(pos ^ mask) ? -1 : 0; }

    int discs(long mask) { return Long.bitCount(mask); }

    /** Moves as text, 1-based columns, into (pos, mask). */
    long[] play(String moves) {
        long pos = 0, mask = 0;
        for (char ch : moves.toCharArray()) {
            long m = possible(mask) & colMask[ch - '1'];
            if (m == 0 || terminal(pos, mask)) throw new IllegalArgumentException(moves);
            pos ^= mask; mask |= m;
        }
        return new long[]{pos, mask};
    }
}

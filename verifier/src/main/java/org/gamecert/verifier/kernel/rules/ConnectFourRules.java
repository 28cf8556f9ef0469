package org.gamecert.verifier.kernel.rules;

/**
 * Connect Four W×H (SPEC §7.3): cell (c, r) is bit c·(H+1) + r, rows from the bottom; bit
 * c·(H+1) + H is an always-empty sentinel, so line tests by shifting never wrap between columns.
 */
public final class ConnectFourRules extends Game {
    private final int w, h, stride;
    private final long top; // the highest playable cell of each column
    private final long bottom; // the lowest cell of each column
    private final long[] column; // the H playable cells of each column
    // The mirror as delta swaps: swap the outer halves of the columns (a middle one stays), then
    // the same within both halves at once, and so on: about log2(W) swaps.
    private final long[] mirrorMasks;
    private final int[] mirrorShifts;

    public ConnectFourRules(int width, int height) {
        super(width * height, width, -1, 1, 2, cells(width, height));
        if (width < 1 || height < 1 || width * (height + 1) > 64)
            throw new IllegalArgumentException("Connect Four " + width + "x" + height);
        w = width;
        h = height;
        stride = h + 1;
        column = new long[w];
        long t = 0, low = 0;
        for (int c = 0; c < w; c++) {
            column[c] = ((1L << h) - 1) << (c * stride);
            t |= 1L << (c * stride + h - 1);
            low |= 1L << (c * stride);
        }
        top = t;
        bottom = low;
        mirrorShifts = new int[31 - Integer.numberOfLeadingZeros(w)]; // blocks of W, W/2, ... > 1
        mirrorMasks = new long[mirrorShifts.length];
        for (int c = 0; c < w; c++) { // follow column c into ever smaller blocks [b, b + k)
            for (int i = 0, b = 0, k = w; k > 1; i++, k /= 2) {
                mirrorShifts[i] = (k - k / 2) * stride; // the low half moves up by this many cells
                if (c < b + k / 2) mirrorMasks[i] |= ((1L << stride) - 1) << (c * stride);
                else if (c >= b + k - k / 2) b += k - k / 2;
                else break; // the middle column of an odd block stays
            }
        }
    }

    private static long cells(int w, int h) { // the playable cells: H of every column of H + 1
        long m = 0;
        for (int c = 0; c < w; c++) m |= ((1L << h) - 1) << (c * (h + 1));
        return m;
    }

    /**
     * True when the discs contain four in a line: vertical, then horizontal and the two diagonals,
     * which only a board of at least 4 columns can hold. That guard is also what keeps the shifts
     * below 64: Java takes a long shift count mod 64, so on 1×63 or 2×31 a shift by 2s ≥ 64 would
     * find "four" in one disc. With W ≥ 4, W·(H+1) ≤ 64 gives H+1 ≤ 16, so 2s ≤ 34.
     */
    public boolean hasFour(long discs) {
        if (four(discs, 1)) return true;
        if (w < 4) return false; // no other line fits (the guard that keeps the shifts below 64)
        return four(discs, stride) || four(discs, stride - 1) || four(discs, stride + 1);
    }

    /**
     * Four discs at steps of s (s ≤ 17, so no shift wraps); the empty sentinels stop columns
     * wrapping.
     */
    private static boolean four(long discs, int s) {
        long m = discs & (discs >>> s);
        return (m & (m >>> (2 * s))) != 0;
    }

    @Override
    public long legalMoveCodes(long mover, long opponent) {
        long free = ~(mover | opponent) & top, moves = 0;
        for (int c = 0; c < w; c++)
            moves |= (free >>> (c * h + h - 1)) & (1L << c); // c's top to bit c
        return moves;
    }

    @Override
    public long moveDelta(long mover, long opponent, int code) {
        long occ = mover | opponent;
        return ((occ & column[code]) + (1L << (code * stride))) & column[code];
    }

    /** Game.child, knowing that only the new disc can make a four and a pass needs a full board. */
    @Override
    public int child(long mover, long opponent, int code, long[] out) {
        long m = mover | moveDelta(mover, opponent, code), occ = m | opponent;
        out[0] = opponent;
        out[1] = m;
        if (hasFour(m) || occ == boardMask) {
            out[2] = hasFour(m) ? 1 : hasFour(opponent) ? -1 : 0;
            return TERMINAL;
        }
        if ((occ & top) != top) return CHILD;
        out[0] = m;
        out[1] = opponent;
        return PASS_CHILD;
    }

    @Override
    public boolean isLegalPosition(long mover, long opponent) {
        long occ = mover | opponent;
        if ((mover & opponent) != 0 || (occ & ~boardMask) != 0) return false;
        // A column's discs col lie from the bottom up iff col & (col + 1) == 0. All columns at
        // once: col + 1 ≤ 2^H reaches at most the column's empty sentinel, so no carry crosses.
        if ((occ & (occ + bottom)) != 0) return false; // a floating disc
        int diff = Long.bitCount(opponent) - Long.bitCount(mover);
        return (diff == 0 || diff == 1) && !hasFour(mover);
    }

    @Override
    public boolean isTerminal(long mover, long opponent) {
        return hasFour(opponent) || (mover | opponent) == boardMask;
    }

    @Override
    public int terminalValue(long mover, long opponent) {
        return hasFour(opponent) ? -1 : hasFour(mover) ? 1 : 0;
    }

    @Override
    public long transform(long bits, int g) {
        long x = bits;
        for (int i = 0; g != 0 && i < mirrorMasks.length; i++) {
            long t = ((x >>> mirrorShifts[i]) ^ x) & mirrorMasks[i];
            x ^= t ^ (t << mirrorShifts[i]);
        }
        return x;
    }

    @Override
    public int mapMove(int code, int g) {
        return g == 0 ? code : w - 1 - code;
    }

    @Override
    public String moveName(int code) {
        return Integer.toString(code + 1);
    }

    @Override
    public int inverse(int g) {
        return g;
    }
}

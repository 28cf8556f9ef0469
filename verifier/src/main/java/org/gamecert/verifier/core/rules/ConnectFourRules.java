package org.gamecert.verifier.core.rules;

/**
 * Connect Four W×H (SPEC §7.3): cell (c, r) is bit c·(H+1) + r, rows from the bottom; bit
 * c·(H+1) + H is an always-empty sentinel, so line tests by shifting never wrap between columns.
 */
public final class ConnectFourRules implements Game {
    private final int w, h, stride;
    private final long mask;
    private final long[] column; // the H playable cells of each column
    private final int[] lineShifts; // vertical, horizontal and the two diagonals

    public ConnectFourRules(int width, int height) {
        if (width < 1 || height < 1 || width * (height + 1) > 64)
            throw new IllegalArgumentException("Connect Four " + width + "x" + height);
        w = width;
        h = height;
        stride = h + 1;
        column = new long[w];
        lineShifts = new int[] {1, stride, stride - 1, stride + 1};
        long m = 0;
        for (int c = 0; c < w; c++) {
            column[c] = ((1L << h) - 1) << (c * stride);
            m |= column[c];
        }
        mask = m;
    }

    public int width() {
        return w;
    }

    public int height() {
        return h;
    }

    @Override
    public int cells() {
        return w * h;
    }

    @Override
    public int moveCodes() {
        return w;
    }

    @Override
    public int uMin() {
        return -1;
    }

    @Override
    public int uMax() {
        return 1;
    }

    @Override
    public long boardMask() {
        return mask;
    }

    /** True when the discs contain four in a line. */
    public boolean hasFour(long discs) {
        for (int s : lineShifts) {
            long m = discs & (discs >>> s);
            if ((m & (m >>> (2 * s))) != 0) return true;
        }
        return false;
    }

    @Override
    public long legalMoveCodes(long mover, long opponent) {
        long occ = mover | opponent, moves = 0;
        for (int c = 0; c < w; c++) {
            if ((occ & (1L << (c * stride + h - 1))) == 0) moves |= 1L << c;
        }
        return moves;
    }

    @Override
    public long moveDelta(long mover, long opponent, int code) {
        long occ = mover | opponent;
        return ((occ & column[code]) + (1L << (code * stride))) & column[code];
    }

    @Override
    public boolean isLegalPosition(long mover, long opponent) {
        long occ = mover | opponent;
        if ((mover & opponent) != 0 || (occ & ~mask) != 0) return false;
        for (int c = 0; c < w; c++) {
            long col = (occ & column[c]) >>> (c * stride);
            if ((col & (col + 1)) != 0) return false; // a floating disc
        }
        int diff = Long.bitCount(opponent) - Long.bitCount(mover);
        return (diff == 0 || diff == 1) && !hasFour(mover);
    }

    @Override
    public boolean isTerminal(long mover, long opponent) {
        return hasFour(opponent) || (mover | opponent) == mask;
    }

    @Override
    public int terminalValue(long mover, long opponent) {
        return hasFour(opponent) ? -1 : hasFour(mover) ? 1 : 0;
    }

    @Override
    public int symmetryCount() {
        return 2;
    }

    @Override
    public long transform(long bits, int g) {
        if (g == 0) return bits;
        long x = 0;
        for (int c = 0; c < w; c++) {
            long col = (bits >>> (c * stride)) & ((1L << stride) - 1);
            x |= col << ((w - 1 - c) * stride);
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

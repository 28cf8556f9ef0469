package org.gamecert.verifier.core.rules;

/**
 * Othello N×N (SPEC §7.1) on the compact layout: square (r, c) is bit r·N + c, a1 = bit 0.
 * Directions are shifts with masks that stop runs at the board's edges.
 */
public final class OthelloRules implements Game {
    private static final int[] INVERSE = {0, 1, 2, 3, 4, 6, 5, 7};
    private static final int MIRROR_COLUMNS = 0b11001010, MIRROR_ROWS = 0b10101100;

    private final int n;
    private final long mask;
    private final long notEdge, centre;
    private final int extend; // a run of opponent discs is at most N-2 long: N-3 extension steps
    // Delta-swap tables for the three generators: column mirror, row mirror, transpose.
    private final long[] hMask, vMask, tMask;
    private final int[] hShift, vShift, tShift;

    public OthelloRules(int n) {
        if (n != 4 && n != 6 && n != 8) throw new IllegalArgumentException("Othello size " + n);
        this.n = n;
        this.mask = n == 8 ? -1L : (1L << (n * n)) - 1;
        long col0 = 0, colLast = 0;
        for (int r = 0; r < n; r++) {
            col0 |= 1L << (r * n);
            colLast |= 1L << (r * n + n - 1);
        }
        notEdge = mask & ~col0 & ~colLast;
        extend = n - 3;
        int h = n / 2;
        centre = bit(h - 1, h - 1) | bit(h - 1, h) | bit(h, h - 1) | bit(h, h);
        // Each generator is 2 or 3 delta swaps of disjoint square pairs. A mirror reverses the
        // columns in halves, then within the halves; the transpose swaps the off-diagonal blocks,
        // then transposes within the blocks. Swap i moves the squares where low(r, c) holds.
        java.util.List<long[]> hs = new java.util.ArrayList<>(), vs = new java.util.ArrayList<>(), ts = new java.util.ArrayList<>();
        int[] halves = n == 4 ? new int[] {2, 1} : n == 6 ? new int[] {3, 1} : new int[] {4, 2, 1};
        for (int half : halves) {
            int span = n == 6 && half == 1 ? 2 : half; // 6: halves of 3, then their outer columns
            java.util.function.IntPredicate low = n == 6 && half == 1 ? c -> c % 3 == 0 : c -> c % (2 * half) < half;
            hs.add(new long[] {squares((r, c) -> low.test(c)), span});
            vs.add(new long[] {squares((r, c) -> low.test(r)), (long) span * n});
            if (n != 6 || half == 3)
                ts.add(new long[] {squares((r, c) -> r % (2 * half) < half && c % (2 * half) >= half), (long) half * (n - 1)});
        }
        for (int k = 1; n == 6 && k <= 2; k++) { // within the 3x3 blocks: (a, a+k) <-> (a+k, a)
            int kk = k;
            ts.add(new long[] {squares((r, c) -> c % 3 - r % 3 == kk), (long) k * (n - 1)});
        }
        hMask = masks(hs);
        hShift = shifts(hs);
        vMask = masks(vs);
        vShift = shifts(vs);
        tMask = masks(ts);
        tShift = shifts(ts);
    }

    private static long[] masks(java.util.List<long[]> swaps) {
        long[] out = new long[swaps.size()];
        for (int i = 0; i < out.length; i++) out[i] = swaps.get(i)[0];
        return out;
    }

    private static int[] shifts(java.util.List<long[]> swaps) {
        int[] out = new int[swaps.size()];
        for (int i = 0; i < out.length; i++) out[i] = (int) swaps.get(i)[1];
        return out;
    }

    private long squares(java.util.function.BiPredicate<Integer, Integer> which) {
        long m = 0;
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++)
                if (which.test(r, c)) m |= bit(r, c);
        return m;
    }

    private long bit(int r, int c) {
        return 1L << (r * n + c);
    }

    public int size() {
        return n;
    }

    @Override
    public int cells() {
        return n * n;
    }

    @Override
    public int moveCodes() {
        return n * n;
    }

    @Override
    public int uMin() {
        return -n * n;
    }

    @Override
    public int uMax() {
        return n * n;
    }

    @Override
    public long boardMask() {
        return mask;
    }

    // Runs of opponent discs: horizontal and diagonal runs may not include an edge column, so a
    // shift by 1 or N±1 can never carry a run around the board's side.
    public long legalMoves(long mover, long opponent) {
        long empty = ~(mover | opponent) & mask, inner = opponent & notEdge;
        return (movesUp(mover, inner, empty, 1) | movesDown(mover, inner, empty, 1)
                | movesUp(mover, opponent, empty, n) | movesDown(mover, opponent, empty, n)
                | movesUp(mover, inner, empty, n + 1) | movesDown(mover, inner, empty, n + 1)
                | movesUp(mover, inner, empty, n - 1) | movesDown(mover, inner, empty, n - 1));
    }

    private long movesUp(long mover, long run, long empty, int s) {
        long x = (mover << s) & run;
        for (int i = 0; i < extend; i++) x |= (x << s) & run;
        return (x << s) & empty;
    }

    private long movesDown(long mover, long run, long empty, int s) {
        long x = (mover >>> s) & run;
        for (int i = 0; i < extend; i++) x |= (x >>> s) & run;
        return (x >>> s) & empty;
    }

    public long flips(long mover, long opponent, int square) {
        long q = 1L << square;
        if (((mover | opponent) & q) != 0 || (q & mask) == 0) return 0;
        long inner = opponent & notEdge;
        return flipsUp(q, mover, inner, 1) | flipsDown(q, mover, inner, 1)
                | flipsUp(q, mover, opponent, n) | flipsDown(q, mover, opponent, n)
                | flipsUp(q, mover, inner, n + 1) | flipsDown(q, mover, inner, n + 1)
                | flipsUp(q, mover, inner, n - 1) | flipsDown(q, mover, inner, n - 1);
    }

    private long flipsUp(long q, long mover, long run, int s) {
        long x = (q << s) & run;
        for (int i = 0; i < extend; i++) x |= (x << s) & run;
        return ((x << s) & mover) != 0 ? x : 0;
    }

    private long flipsDown(long q, long mover, long run, int s) {
        long x = (q >>> s) & run;
        for (int i = 0; i < extend; i++) x |= (x >>> s) & run;
        return ((x >>> s) & mover) != 0 ? x : 0;
    }

    /** SPEC utility 1: disc margin, empty squares to the winner, side to move's view. */
    public int terminalValue(long mover, long opponent) {
        int m = Long.bitCount(mover), o = Long.bitCount(opponent), e = n * n - m - o;
        return m > o ? m - o + e : m < o ? m - o - e : 0;
    }

    @Override
    public long legalMoveCodes(long mover, long opponent) {
        return legalMoves(mover, opponent);
    }

    @Override
    public long moveDelta(long mover, long opponent, int code) {
        return flips(mover, opponent, code) | (1L << code);
    }

    @Override
    public int child(long mover, long opponent, int code, long[] out) {
        long delta = flips(mover, opponent, code) | (1L << code);
        long m = mover | delta, o = opponent & ~delta;
        if (legalMoves(o, m) != 0) {
            out[0] = o;
            out[1] = m;
            return CHILD;
        }
        if (legalMoves(m, o) != 0) {
            out[0] = m;
            out[1] = o;
            return PASS_CHILD;
        }
        out[0] = o;
        out[1] = m;
        out[2] = terminalValue(m, o);
        return TERMINAL;
    }

    @Override
    public boolean isLegalPosition(long mover, long opponent) {
        long occ = mover | opponent;
        return (mover & opponent) == 0 && (occ & ~mask) == 0 && (occ & centre) == centre;
    }

    @Override
    public boolean storable(long mover, long opponent, long legal) {
        return legal != 0; // a mover with a move is neither passing nor at the end
    }

    @Override
    public boolean isTerminal(long mover, long opponent) {
        return legalMoves(mover, opponent) == 0 && legalMoves(opponent, mover) == 0;
    }

    @Override
    public int symmetryCount() {
        return 8;
    }

    private static long swaps(long x, long[] masks, int[] shifts) {
        for (int i = 0; i < masks.length; i++) {
            long t = ((x >>> shifts[i]) ^ x) & masks[i];
            x ^= t ^ (t << shifts[i]);
        }
        return x;
    }

    /** Symmetry g of SPEC §7.4: (r,c) to (r,c), (r,N-1-c), (N-1-r,c), (N-1-r,N-1-c), (c,r), ... */
    public long transform(long bits, int symmetry) {
        long x = bits;
        // g1..g3 mirror columns and/or rows; g4..g7 do so (g6, g5, g7) and then transpose.
        if (((MIRROR_COLUMNS >> symmetry) & 1) != 0) x = swaps(x, hMask, hShift);
        if (((MIRROR_ROWS >> symmetry) & 1) != 0) x = swaps(x, vMask, vShift);
        if (symmetry >= 4) x = swaps(x, tMask, tShift);
        return x;
    }

    @Override
    public void images(long bits, long[] out) {
        long h = swaps(bits, hMask, hShift), v = swaps(bits, vMask, vShift), hv = swaps(h, vMask, vShift);
        out[0] = bits;
        out[1] = h;
        out[2] = v;
        out[3] = hv;
        out[4] = swaps(bits, tMask, tShift);
        out[5] = swaps(v, tMask, tShift);
        out[6] = swaps(h, tMask, tShift);
        out[7] = swaps(hv, tMask, tShift);
    }

    @Override
    public int mapMove(int code, int g) {
        return Long.numberOfTrailingZeros(transform(1L << code, g));
    }

    @Override
    public String moveName(int code) {
        return "" + (char) ('a' + code % n) + (code / n + 1);
    }

    @Override
    public int inverse(int g) {
        return INVERSE[g];
    }
}

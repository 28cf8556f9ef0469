package org.gamecert.verifier.legacy.rules;

/**
 * Othello N×N (SPEC §7.1) on the compact layout: square (r, c) is bit r·N + c, a1 = bit 0.
 * Directions are shifts with masks that stop runs at the board's edges.
 */
public final class OthelloRules extends Game {
    private static final int[] INVERSE = {0, 1, 2, 3, 4, 6, 5, 7};
    private static final int MIRROR_COLUMNS = 0b11001010, MIRROR_ROWS = 0b10101100;

    public final int size;
    private final int n;
    private final long notEdge, centre;
    // rays[8q + d]: the squares from q (exclusive) to the edge in direction d; d < 4 go to higher
    // bits (east, north, north-east, north-west), d >= 4 are the opposite directions.
    private final long[] rays;
    // Delta-swap tables for the three generators: column mirror, row mirror, transpose.
    // Three swaps per generator, unrolled (an unused swap has mask 0): no loop over arrays.
    private final long h0, h1, h2, v0, v1, v2, t0, t1, t2;
    private final int hs0, hs1, hs2, vs0, vs1, vs2, ts0, ts1, ts2;

    public OthelloRules(int n) {
        super(n * n, n * n, -n * n, n * n, 8, n == 8 ? -1L : (1L << (n * n)) - 1);
        if (n != 4 && n != 6 && n != 8) throw new IllegalArgumentException("Othello size " + n);
        this.n = size = n;
        long col0 = 0, colLast = 0;
        for (int r = 0; r < n; r++) {
            col0 |= 1L << (r * n);
            colLast |= 1L << (r * n + n - 1);
        }
        notEdge = boardMask & ~col0 & ~colLast;
        rays = new long[8 * n * n];
        int[][] dirs = {{0, 1}, {1, 0}, {1, 1}, {1, -1}, {0, -1}, {-1, 0}, {-1, -1}, {-1, 1}};
        for (int q = 0; q < n * n; q++)
            for (int d = 0; d < 8; d++)
                for (int r = q / n + dirs[d][0], c = q % n + dirs[d][1]; r >= 0 && r < n && c >= 0 && c < n; r += dirs[d][0], c += dirs[d][1])
                    rays[8 * q + d] |= bit(r, c);
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
        while (hs.size() < 3) hs.add(new long[] {0, 0});
        while (vs.size() < 3) vs.add(new long[] {0, 0});
        while (ts.size() < 3) ts.add(new long[] {0, 0});
        h0 = hs.get(0)[0]; h1 = hs.get(1)[0]; h2 = hs.get(2)[0];
        hs0 = (int) hs.get(0)[1]; hs1 = (int) hs.get(1)[1]; hs2 = (int) hs.get(2)[1];
        v0 = vs.get(0)[0]; v1 = vs.get(1)[0]; v2 = vs.get(2)[0];
        vs0 = (int) vs.get(0)[1]; vs1 = (int) vs.get(1)[1]; vs2 = (int) vs.get(2)[1];
        t0 = ts.get(0)[0]; t1 = ts.get(1)[0]; t2 = ts.get(2)[0];
        ts0 = (int) ts.get(0)[1]; ts1 = (int) ts.get(1)[1]; ts2 = (int) ts.get(2)[1];
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

    // Runs of opponent discs: horizontal and diagonal runs may not include an edge column, so a
    // shift by 1 or N±1 can never carry a run around the board's side.
    public long legalMoves(long mover, long opponent) {
        long empty = ~(mover | opponent) & boardMask, inner = opponent & notEdge;
        return moves(mover, inner, empty, 1) | moves(mover, opponent, empty, n)
                | moves(mover, inner, empty, n + 1) | moves(mover, inner, empty, n - 1);
    }

    /** legalMoves(mover, opponent) != 0, stopping at the first direction with a move. */
    public boolean hasMoves(long mover, long opponent) {
        long empty = ~(mover | opponent) & boardMask, inner = opponent & notEdge;
        return moves(mover, opponent, empty, n) != 0 || moves(mover, inner, empty, 1) != 0
                || moves(mover, inner, empty, n + 1) != 0 || moves(mover, inner, empty, n - 1) != 0;
    }

    /** The moves along ±s: runs of opponent discs (at most N-2 long) from the mover's discs. */
    private long moves(long mover, long run, long empty, int s) {
        long up = (mover << s) & run, down = (mover >>> s) & run;
        up |= (up << s) & run;
        down |= (down >>> s) & run;
        // pairs: run squares whose neighbour toward the mover is a run square too
        long pairsUp = run & (run << s), pairsDown = pairsUp >>> s;
        if (n > 4) { // runs of 3 and 4
            up |= (up << 2 * s) & pairsUp;
            down |= (down >>> 2 * s) & pairsDown;
        }
        if (n > 6) { // runs of 5 and 6
            up |= (up << 2 * s) & pairsUp;
            down |= (down >>> 2 * s) & pairsDown;
        }
        return ((up << s) | (down >>> s)) & empty;
    }

    /** The discs flipped by a disc at square: on each ray, the opponent discs before a mover disc. */
    public long flips(long mover, long opponent, int square) {
        long q = 1L << square;
        if (((mover | opponent) & q) != 0 || (q & boardMask) == 0) return 0;
        long f = 0;
        for (int d = 0; d < 4; d++) {
            long ray = rays[8 * square + d], stop = ray & ~opponent;
            stop &= -stop; // the nearest square that is not the opponent's: the lowest bit
            long hit = stop & mover;
            f |= ray & (hit - 1) & ((hit | -hit) >> 63);
            ray = rays[8 * square + 4 + d];
            hit = Long.highestOneBit(ray & ~opponent) & mover; // toward lower bits: the highest one
            f |= ray & -(hit << 1); // the ray above hit (nothing when hit = 0)
        }
        return f;
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
        if (hasMoves(o, m)) {
            out[0] = o;
            out[1] = m;
            return CHILD;
        }
        if (hasMoves(m, o)) {
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
        return (mover & opponent) == 0 && (occ & ~boardMask) == 0 && (occ & centre) == centre;
    }

    @Override
    public boolean storable(long mover, long opponent, long legal) {
        return legal != 0; // a mover with a move is neither passing nor at the end
    }

    @Override
    public boolean isTerminal(long mover, long opponent) {
        return !hasMoves(mover, opponent) && !hasMoves(opponent, mover);
    }

    private static long swap(long x, long m, int s) {
        long t = ((x >>> s) ^ x) & m;
        return x ^ t ^ (t << s);
    }

    /** Swaps the squares of low with those s above, which are all the other squares. */
    private static long exchange(long x, long low, int s) {
        return ((x & low) << s) | ((x >>> s) & low);
    }

    private long mirrorColumns(long x) { // the first swap exchanges the two halves of the board
        return swap(swap(exchange(x, h0, hs0), h1, hs1), h2, hs2);
    }

    private long mirrorRows(long x) {
        if (n == 8) return Long.reverseBytes(x); // one row per byte
        return swap(swap(exchange(x, v0, vs0), v1, vs1), v2, vs2);
    }

    private long transpose(long x) {
        return swap(swap(swap(x, t0, ts0), t1, ts1), t2, ts2);
    }

    /** Symmetry g of SPEC §7.4: (r,c) to (r,c), (r,N-1-c), (N-1-r,c), (N-1-r,N-1-c), (c,r), ... */
    public long transform(long bits, int symmetry) {
        long x = bits;
        // g1..g3 mirror columns and/or rows; g4..g7 do so (g6, g5, g7) and then transpose.
        if (((MIRROR_COLUMNS >> symmetry) & 1) != 0) x = mirrorColumns(x);
        if (((MIRROR_ROWS >> symmetry) & 1) != 0) x = mirrorRows(x);
        if (symmetry >= 4) x = transpose(x);
        return x;
    }

    @Override
    public void images(long bits, long[] out) {
        // g5..g7 = transpose, then mirror (e.g. (r,c) -> (c,N-1-r) is mirrorColumns(transpose)):
        // one transposition and six mirrors, which are cheaper (a byte reversal on 8x8).
        long h = mirrorColumns(bits), t = transpose(bits), th = mirrorColumns(t);
        out[0] = bits;
        out[1] = h;
        out[2] = mirrorRows(bits);
        out[3] = mirrorRows(h);
        out[4] = t;
        out[5] = th;
        out[6] = mirrorRows(t);
        out[7] = mirrorRows(th);
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

package org.gamecert.producer.search;

import org.gamecert.producer.game.Othello;

/**
 * Exact Othello endgame solver: fail-soft PVS with integer null windows, a shared
 * transposition table and fastest-first move ordering (opponent mobility, corner/edge square
 * weights, the table's move) at nodes with many empties; a plain unordered alpha–beta over
 * the last few empties, where ordering costs more than it saves.
 */
public final class OthelloSolver implements Solver {
    private static final int SMALL = 6;     // at most this many empties: no table, no ordering
    private static final int MAX_PLY = 70;

    private final Othello g;
    private final TranspositionTable tt;
    private final int cells;
    private final int[] squareWeight;
    private final long[] shift8Mask;
    private final int[] shifts;
    private final int runs;
    private final long board;
    private long nodes;
    private final int[][] moveBuf = new int[MAX_PLY][64];
    private final int[][] scoreBuf = new int[MAX_PLY][64];

    public OthelloSolver(Othello g, TranspositionTable tt) {
        this.g = g; this.tt = tt; this.cells = g.cells;
        this.board = g.board;
        this.squareWeight = squareWeights(g.n);
        this.shifts = new int[8];
        this.shift8Mask = new long[8];
        for (int d = 0; d < 8; d++) { shifts[d] = shiftOf(g, d); shift8Mask[d] = maskOf(g, d); }
        this.runs = g.n - 3;
    }

    private static int shiftOf(Othello g, int d) {
        int n = g.n;
        int[] s = {1, -1, n, -n, n + 1, -(n + 1), n - 1, -(n - 1)};
        return s[d];
    }

    private static long maskOf(Othello g, int d) {
        int n = g.n;
        long col0 = 0, colLast = 0;
        for (int r = 0; r < n; r++) { col0 |= 1L << (r * n); colLast |= 1L << (r * n + n - 1); }
        long notCol0 = g.board & ~col0, notColLast = g.board & ~colLast;
        long[] mk = {notCol0, notColLast, g.board, g.board, notCol0, notColLast, notColLast, notCol0};
        return mk[d];
    }

    /** Static square values: corners best, squares next to an empty corner worst. */
    static int[] squareWeights(int n) {
        int[] w = new int[n * n];
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                int er = Math.min(r, n - 1 - r), ec = Math.min(c, n - 1 - c);
                int v;
                if (er == 0 && ec == 0) v = 40;                      // corner
                else if (er + ec == 1 && (er == 0 || ec == 0)) v = -8; // C square
                else if (er == 1 && ec == 1) v = -20;                  // X square
                else if (er == 0 || ec == 0) v = 6;                    // edge
                else v = 0;
                w[r * n + c] = v;
            }
        return w;
    }

    @Override public long nodes() { return nodes; }

    private static long sh(long x, int s) { return s > 0 ? x << s : x >>> -s; }

    private long moves(long m, long o) {
        long empty = board & ~(m | o), result = 0;
        for (int d = 0; d < 8; d++) {
            int s = shifts[d];
            long mo = shift8Mask[d] & o;
            long t = sh(m, s) & mo;
            for (int i = 0; i < runs; i++) t |= sh(t, s) & mo;
            result |= sh(t, s) & shift8Mask[d] & empty;
        }
        return result;
    }

    private long flips(long m, long o, long bit) {
        long flips = 0;
        for (int d = 0; d < 8; d++) {
            int s = shifts[d];
            long mk = shift8Mask[d];
            long x = sh(bit, s) & mk;
            if ((x & o) == 0) continue;
            long f = 0;
            do { f |= x; x = sh(x, s) & mk; } while ((x & o) != 0);
            if ((x & m) != 0) flips |= f;
        }
        return flips;
    }

    private int utility(long m, long o) {
        int pm = Long.bitCount(m), po = Long.bitCount(o), e = cells - pm - po;
        return pm > po ? pm - po + e : pm < po ? pm - po - e : 0;
    }

    @Override public int search(long m, long o, int alpha, int beta) {
        return pvs(m, o, alpha, beta, 0);
    }

    private int pvs(long m, long o, int alpha, int beta, int ply) {
        nodes++;
        long mv = moves(m, o);
        if (mv == 0) {
            if (moves(o, m) == 0) return utility(m, o);
            return -pvs(o, m, -beta, -alpha, ply + 1);
        }
        int empties = cells - Long.bitCount(m | o);
        if (empties <= SMALL) return small(m, o, mv, alpha, beta);

        int ttMove = TranspositionTable.NO_MOVE;
        long d = tt.probe(m, o);
        if (d != 0) {
            int lo = TranspositionTable.lo(d), hi = TranspositionTable.hi(d);
            if (lo >= beta) return lo;
            if (hi <= alpha) return hi;
            if (lo == hi) return lo;
            if (lo > alpha) alpha = lo;
            if (hi < beta) beta = hi;
            ttMove = TranspositionTable.move(d);
        }
        // Order: table move first, then fewest opponent replies, then square weight.
        int[] mvs = moveBuf[ply], sc = scoreBuf[ply];
        int k = 0;
        for (long x = mv; x != 0; x &= x - 1) {
            int sq = Long.numberOfTrailingZeros(x);
            long bit = 1L << sq;
            long f = flips(m, o, bit);
            long m2 = m | f | bit, o2 = o & ~f;
            int s;
            if (sq == ttMove) s = 1 << 20;
            else {
                long rep = moves(o2, m2);
                s = -Long.bitCount(rep) * 16 - Long.bitCount(rep & CORNERS_MASK[g.n]) * 32 + squareWeight[sq];
            }
            int i = k++;
            while (i > 0 && sc[i - 1] < s) { sc[i] = sc[i - 1]; mvs[i] = mvs[i - 1]; i--; }
            sc[i] = s; mvs[i] = sq;
        }
        int a = alpha, best = -1000, bestMove = mvs[0];
        for (int i = 0; i < k; i++) {
            int sq = mvs[i];
            long bit = 1L << sq;
            long f = flips(m, o, bit);
            long m2 = m | f | bit, o2 = o & ~f;
            int v;
            if (i == 0) v = -pvs(o2, m2, -beta, -a, ply + 1);
            else {
                v = -pvs(o2, m2, -a - 1, -a, ply + 1);
                if (v > a && v < beta) v = -pvs(o2, m2, -beta, -a, ply + 1);
            }
            if (v > best) {
                best = v; bestMove = sq;
                if (v > a) { a = v; if (a >= beta) break; }
            }
        }
        int lo = best >= beta ? best : best > alpha ? best : -1000;
        int hi = best <= alpha ? best : best < beta ? best : 1000;
        tt.store(m, o, Math.max(lo, -cells), Math.min(hi, cells), bestMove, empties);
        return best;
    }

    private static final long[] CORNERS_MASK = new long[9];
    static {
        for (int n = 4; n <= 8; n += 2) {
            CORNERS_MASK[n] = 1L | (1L << (n - 1)) | (1L << (n * (n - 1))) | (1L << (n * n - 1));
        }
    }

    /** Unordered fail-soft alpha–beta over the last few empties. */
    private int small(long m, long o, long mv, int alpha, int beta) {
        int best = -1000;
        for (long x = mv; x != 0; x &= x - 1) {
            long bit = x & -x;
            long f = flips(m, o, bit);
            int v = -smallNode(o & ~f, m | f | bit, -beta, -Math.max(alpha, best));
            if (v > best) { best = v; if (v >= beta) return v; }
        }
        return best;
    }

    private int smallNode(long m, long o, int alpha, int beta) {
        nodes++;
        long mv = moves(m, o);
        if (mv == 0) {
            long om = moves(o, m);
            if (om == 0) return utility(m, o);
            nodes++;
            return -small(o, m, om, -beta, -alpha);
        }
        return small(m, o, mv, alpha, beta);
    }
}

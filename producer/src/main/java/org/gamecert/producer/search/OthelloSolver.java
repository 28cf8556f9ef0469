package org.gamecert.producer.search;

import org.gamecert.producer.game.Othello;

/**
 * Exact Othello endgame solver: fail-soft PVS with integer null windows, a shared
 * transposition table and fastest-first move ordering (opponent mobility, corner/edge square
 * weights, the table's move) at nodes with many empties; a plain unordered alpha–beta over
 * the last few empties, where ordering costs more than it saves.
 */
public final class OthelloSolver implements Solver {
    private static final int SMALL = 6; // at most this many empties: no table, no ordering
    private static final int MAX_PLY = 70;

    private final Othello g;
    private final TranspositionTable tt;
    private final int cells;
    private final int[] squareWeight;
    private final long board, corners, inner1, inner2;
    /** The four board quadrants: in the last empties, moves in a quadrant with an odd number of empties go first (parity). */
    private final long q0, q1, q2, q3;
    private long nodes;
    private final int[][] moveBuf = new int[MAX_PLY][64];
    private final int[][] scoreBuf = new int[MAX_PLY][64];
    private final long[][] childMover = new long[MAX_PLY][64], childOpp = new long[MAX_PLY][64];

    public OthelloSolver(Othello g, TranspositionTable tt) {
        this.g = g; this.tt = tt; this.cells = g.cells;
        this.board = g.board;
        long col0 = 0, colLast = 0;
        for (int r = 0; r < g.n; r++) { col0 |= 1L << (r * g.n); colLast |= 1L << (r * g.n + g.n - 1); }
        this.inner1 = g.board & ~col0;
        this.inner2 = g.board & ~colLast;
        this.corners = 1L | (1L << (g.n - 1)) | (1L << (g.n * (g.n - 1))) | (1L << (g.n * g.n - 1));
        this.squareWeight = squareWeights(g.n);
        long[] q = new long[4];
        for (int r = 0; r < g.n; r++)
            for (int c = 0; c < g.n; c++) q[(r < g.n / 2 ? 0 : 2) + (c < g.n / 2 ? 0 : 1)] |= 1L << (r * g.n + c);
        q0 = q[0]; q1 = q[1]; q2 = q[2]; q3 = q[3];
    }

    /** The union of the quadrants holding an odd number of the given empty squares. */
    private long oddQuadrants(long empty) {
        return (-(Long.bitCount(empty & q0) & 1) & q0) | (-(Long.bitCount(empty & q1) & 1) & q1)
                | (-(Long.bitCount(empty & q2) & 1) & q2) | (-(Long.bitCount(empty & q3) & 1) & q3);
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

    private long moves(long m, long o) { return g.moves(m, o); }

    /** Weight of the quiet-move term: a move that leaves fewer of our discs next to empty squares gives fewer replies later. */
    private static final int FRONTIER_W = 16;

    /** The discs of {@code m} next to an empty square (its frontier). */
    private long frontier(long m, long o) {
        long empty = board & ~(m | o);
        long e = empty | (empty << 1 & inner1) | (empty >>> 1 & inner2);
        e |= (e << g.n) | (e >>> g.n);
        return m & e;
    }

    private long flips(long m, long o, long bit) { return g.flipsBit(m, o, bit); }

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
        long[] cms = childMover[ply], cos = childOpp[ply];
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
                s = -Long.bitCount(rep) * 16 - Long.bitCount(rep & corners) * 32 + squareWeight[sq]
                        - Long.bitCount(frontier(m2, o2)) * FRONTIER_W;
            }
            int i = k++;
            while (i > 0 && sc[i - 1] < s) { sc[i] = sc[i - 1]; mvs[i] = mvs[i - 1]; cms[i] = cms[i - 1]; cos[i] = cos[i - 1]; i--; }
            sc[i] = s; mvs[i] = sq; cms[i] = m2; cos[i] = o2;
        }
        int a = alpha, best = -1000, bestMove = mvs[0];
        for (int i = 0; i < k; i++) {
            long m2 = cms[i], o2 = cos[i];
            int v;
            if (i == 0) v = -pvs(o2, m2, -beta, -a, ply + 1);
            else {
                v = -pvs(o2, m2, -a - 1, -a, ply + 1);
                if (v > a && v < beta) v = -pvs(o2, m2, -beta, -a, ply + 1);
            }
            if (v > best) {
                best = v; bestMove = mvs[i];
                if (v > a) { a = v; if (a >= beta) break; }
            }
        }
        int lo = best >= beta ? best : best > alpha ? best : -1000;
        int hi = best <= alpha ? best : best < beta ? best : 1000;
        tt.store(m, o, Math.max(lo, -cells), Math.min(hi, cells), bestMove, empties);
        return best;
    }

    /**
     * Fail-soft alpha–beta over the last few empties without move generation: each empty square
     * is tried directly (a move is legal when it flips something), and the last empty square is
     * resolved by counting flips alone.
     */
    private int small(long m, long o, long mv, int alpha, int beta) {
        int best = -1000;
        long odd = oddQuadrants(board & ~(m | o));
        for (long x = mv & odd, y = mv & ~odd; x != 0 || y != 0; ) {
            long bit;
            if (x != 0) { bit = x & -x; x ^= bit; } else { bit = y & -y; y ^= bit; }
            long f = flips(m, o, bit);
            int v = -smallNode(o & ~f, m | f | bit, -beta, -Math.max(alpha, best));
            if (v > best) { best = v; if (v >= beta) return v; }
        }
        return best;
    }

    private int smallNode(long m, long o, int alpha, int beta) {
        nodes++;
        long empty = board & ~(m | o);
        long rest = empty & (empty - 1);
        if (rest == 0) return empty == 0 ? utility(m, o) : last1(m, o, empty);
        if ((rest & (rest - 1)) == 0) return last2(m, o, beta, empty);
        int best = -1000;
        long odd = oddQuadrants(empty);
        for (long x = empty & odd, y = empty & ~odd; x != 0 || y != 0; ) {
            long bit;
            if (x != 0) { bit = x & -x; x ^= bit; } else { bit = y & -y; y ^= bit; }
            long f = flips(m, o, bit);
            if (f == 0) continue;
            int v = -smallNode(o & ~f, m | f | bit, -beta, -Math.max(alpha, best));
            if (v > best) { best = v; if (v >= beta) return v; }
        }
        if (best != -1000) return best;
        // mover must pass, or the game is over
        for (long x = empty; x != 0; x &= x - 1) {
            long bit = x & -x;
            if (flips(o, m, bit) != 0) { nodes++; return -smallMoves(o, m, -beta, -alpha, empty); }
        }
        return utility(m, o);
    }

    /** As smallNode for a mover known to have a move (after a pass). */
    private int smallMoves(long m, long o, int alpha, int beta, long empty) {
        int best = -1000;
        for (long x = empty; x != 0; x &= x - 1) {
            long bit = x & -x;
            long f = flips(m, o, bit);
            if (f == 0) continue;
            int v = -smallNode(o & ~f, m | f | bit, -beta, -Math.max(alpha, best));
            if (v > best) { best = v; if (v >= beta) return v; }
        }
        return best;
    }

    /** Fail-soft value with two empty squares, without the loop and parity work of smallNode. */
    private int last2(long m, long o, int beta, long empty) {
        long b1 = empty & -empty, b2 = empty ^ b1;
        int best = -1000;
        long f = flips(m, o, b1);
        if (f != 0) { nodes++; best = -last1(o & ~f, m | f | b1, b2); if (best >= beta) return best; }
        f = flips(m, o, b2);
        if (f != 0) { nodes++; return Math.max(best, -last1(o & ~f, m | f | b2, b1)); }
        if (best != -1000) return best;
        // the mover passes: the opponent takes the better of its moves, if it has any
        f = flips(o, m, b1);
        long f2 = flips(o, m, b2);
        if ((f | f2) == 0) return utility(m, o);
        nodes++;
        int ob = -1000;
        if (f != 0) { nodes++; ob = -last1(m & ~f, o | f | b1, b2); }
        if (f2 != 0) { nodes++; ob = Math.max(ob, -last1(m & ~f2, o | f2 | b2, b1)); }
        return -ob;
    }

    /** Exact value with one empty square: the mover plays it if it can, else the opponent, else nobody. */
    private int last1(long m, long o, long bit) {
        long f = flips(m, o, bit);
        if (f != 0) return utility(m | f | bit, o & ~f);
        f = flips(o, m, bit);
        if (f != 0) { nodes++; return -utility(o | f | bit, m & ~f); }
        return utility(m, o);
    }
}

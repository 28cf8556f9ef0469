package org.gamecert.producer.search;

import org.gamecert.producer.game.NoGo;

/**
 * Win/loss solver for Linear NoGo: fail-soft negamax over a shared transposition table keyed by
 * the position or its mirror image, whichever is smaller (the value is the same; the stored move
 * is mapped back), an immediate-win test (a move after which the opponent cannot move), and
 * moves that leave the opponent the fewest replies first, then centre first. With values -1 and
 * +1 only, every search is exact and so is every table entry.
 */
public final class NoGoSolver implements Solver {
    private static final int MAX_PLY = 66;
    /** Near the end a table probe costs more than searching the few nodes below. */
    private static final int TT_MIN_EMPTIES = 5;
    private final NoGo g;
    private final TranspositionTable tt;
    private final int[] tbRank;
    private long nodes;
    private final int[][] moveBuf = new int[MAX_PLY][64];
    private final int[][] scoreBuf = new int[MAX_PLY][64];

    public NoGoSolver(NoGo g, TranspositionTable tt) {
        this.g = g; this.tt = tt;
        tbRank = new int[g.n];
        for (int i = 0; i < g.n; i++) tbRank[i] = g.tbRank(i);
    }

    @Override public long nodes() { return nodes; }

    /** Values are only -1 and +1, so every search is exact whatever the window. */
    @Override public int search(long m, long o, int alpha, int beta) {
        return solve(m, o, 0);
    }

    private int solve(long m, long o, int ply) {
        nodes++;
        long moves = g.moves(m, o);
        if (moves == 0) return -1;
        int[] mvs = moveBuf[ply], sc = scoreBuf[ply];
        int k = 0;
        for (long b = moves; b != 0; b &= b - 1) {
            int q = Long.numberOfTrailingZeros(b);
            int replies = Long.bitCount(g.moves(o, m | 1L << q));
            if (replies == 0) return 1; // the opponent cannot move: a win
            int s = -replies * 64 - tbRank[q];
            int i = k++;
            while (i > 0 && sc[i - 1] < s) { sc[i] = sc[i - 1]; mvs[i] = mvs[i - 1]; i--; }
            sc[i] = s; mvs[i] = q;
        }
        int empties = g.n - Long.bitCount(m | o);
        boolean useTable = empties >= TT_MIN_EMPTIES;
        long km = m, ko = o;
        boolean mirrored = false;
        if (useTable) {
            long rm = g.mirror(m), ro = g.mirror(o);
            int c = Long.compareUnsigned(rm | ro, m | o);
            if (c < 0 || (c == 0 && Long.compareUnsigned(rm, m) < 0)) { km = rm; ko = ro; mirrored = true; }
            long d = tt.probe(km, ko);
            if (d != 0) return TranspositionTable.lo(d); // always exact: lo = hi
        }
        int best = -1, bestMove = TranspositionTable.NO_MOVE;
        for (int i = 0; i < k; i++) {
            int q = mvs[i];
            if (solve(o, m | 1L << q, ply + 1) < 0) { best = 1; bestMove = mirrored ? g.n - 1 - q : q; break; }
        }
        if (useTable) tt.store(km, ko, best, best, bestMove, empties);
        return best;
    }
}

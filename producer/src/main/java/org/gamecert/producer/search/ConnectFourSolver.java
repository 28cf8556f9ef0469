package org.gamecert.producer.search;

import org.gamecert.producer.game.ConnectFour;

/**
 * Win/draw/loss Connect Four solver: fail-soft PVS with integer null windows, a shared
 * transposition table, immediate-win and forced-block detection, never playing under an
 * opponent's threat, and threat-count then centre-first move ordering.
 */
public final class ConnectFourSolver implements Solver {
    private static final int MAX_PLY = 64;
    /** Near the end a table probe (a cache miss) costs more than re-searching the few nodes below. */
    private static final int TT_MIN_EMPTIES = 8;
    private final ConnectFour g;
    private final TranspositionTable tt;  // boards whose key does not fit the compact table
    private final ConnectFourTable table; // the compact table, or null
    private final int cells;
    private final long[] colMask;
    private final int[] order; // TB (centre-first) order
    private long nodes;
    private final int[][] moveBuf = new int[MAX_PLY][16];
    private final int[][] scoreBuf = new int[MAX_PLY][16];

    public ConnectFourSolver(ConnectFour g, TranspositionTable tt) { this(g, tt, null); }

    /** With {@code table} (not null), the compact table is used and {@code tt} is not. */
    public ConnectFourSolver(ConnectFour g, TranspositionTable tt, ConnectFourTable table) {
        this.g = g; this.tt = tt; this.table = table; this.cells = g.cells;
        colMask = new long[g.w];
        for (int c = 0; c < g.w; c++) colMask[c] = g.columnMask(c);
        order = ConnectFour.centreOrder(g.w);
    }

    @Override public long nodes() { return nodes; }

    @Override public int search(long m, long o, int alpha, int beta) {
        long occ = m | o;
        if ((g.winningCells(m, occ) & g.possible(occ)) != 0) { nodes++; return 1; }
        return negamax(m, o, alpha, beta, 0);
    }

    /** A position where the mover cannot win at once (every child of a node here is one). */
    private int negamax(long m, long o, int alpha, int beta, int ply) {
        nodes++;
        long occ = m | o;
        long poss = g.possible(occ);
        int discs = Long.bitCount(occ);
        if (discs >= cells - 1) return 0; // the last move fills the board without winning
        long oppWin = g.winningCells(o, occ);
        long forced = oppWin & poss;
        if (forced != 0) {
            if ((forced & (forced - 1)) != 0) return -1; // two immediate threats
            poss = forced;
        }
        poss &= ~(oppWin >>> 1); // a disc under an opponent's winning cell loses at once
        if (poss == 0) return -1;
        if (discs == cells - 2) return 0; // we cannot win now and the opponent's last cell is not a threat (blocked or excluded above)
        int ttMove = TranspositionTable.NO_MOVE;
        boolean useTable = cells - discs >= TT_MIN_EMPTIES;
        long key = occ + m + g.bottomMask; // unique per position (Pons' key), never 0
        boolean found = false;
        int lo = -1, hi = 1;
        if (useTable && table != null) {
            int d = table.probe(key);
            if (d >= 0) {
                found = true;
                lo = ConnectFourTable.lo(d);
                hi = ConnectFourTable.hi(d);
                ttMove = ConnectFourTable.move(d) == ConnectFourTable.NO_MOVE ? TranspositionTable.NO_MOVE : ConnectFourTable.move(d);
            }
        } else if (useTable) {
            long d = tt.probe(m, o);
            if (d != 0) {
                found = true;
                lo = TranspositionTable.lo(d);
                hi = TranspositionTable.hi(d);
                ttMove = TranspositionTable.move(d);
            }
        }
        if (found) {
            if (lo >= beta) return lo;
            if (hi <= alpha) return hi;
            if (lo == hi) return lo;
            if (lo > alpha) alpha = lo;
            if (hi < beta) beta = hi;
        }
        int[] mvs = moveBuf[ply], sc = scoreBuf[ply];
        int k = 0;
        for (int j = 0; j < order.length; j++) {
            int c = order[j];
            long cell = poss & colMask[c];
            if (cell == 0) continue;
            int s = c == ttMove ? 1000 : Long.bitCount(g.winningCells(m | cell, occ | cell)) * 8 - j;
            int i = k++;
            while (i > 0 && sc[i - 1] < s) { sc[i] = sc[i - 1]; mvs[i] = mvs[i - 1]; i--; }
            sc[i] = s; mvs[i] = c;
        }
        int a = alpha, best = -1000, bestMove = mvs[0];
        for (int i = 0; i < k; i++) {
            int c = mvs[i];
            long m2 = m | (poss & colMask[c]);
            int v;
            if (i == 0) v = -negamax(o, m2, -beta, -a, ply + 1);
            else {
                v = -negamax(o, m2, -a - 1, -a, ply + 1);
                if (v > a && v < beta) v = -negamax(o, m2, -beta, -a, ply + 1);
            }
            if (v > best) {
                best = v; bestMove = c;
                if (v > a) { a = v; if (a >= beta) break; }
            }
        }
        int newLo = best >= beta ? best : best > alpha ? best : -1;
        int newHi = best <= alpha ? best : best < beta ? best : 1;
        if (useTable && table != null) table.store(key, Math.max(newLo, -1), Math.min(newHi, 1), bestMove);
        else if (useTable) tt.store(m, o, Math.max(newLo, -1), Math.min(newHi, 1), bestMove, cells - discs);
        return best;
    }
}

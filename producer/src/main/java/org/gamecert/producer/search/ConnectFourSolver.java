package org.gamecert.producer.search;

import org.gamecert.producer.game.ConnectFour;

/**
 * Win/draw/loss Connect Four solver: fail-soft PVS with integer null windows, immediate-win and
 * forced-block detection, never playing under an opponent's threat, threat-count then centre-first
 * move ordering, claim-even bounds, enhanced transposition cutoffs and two tables.
 * <p>Tables: positions with at least {@link #FAR_MIN} empty cells, and those within {@link #FAR_PLY}
 * plies of the searched root (with at least {@link #TT_MIN_EMPTIES} empty cells, the ones an
 * extraction asks about again), go to the shared table; the other positions with at least
 * {@link #NEAR_MIN} empty cells go to this solver's own small table, which stays in the core's cache
 * (a probe of the large table is a cache and TLB miss, ~200 ns here, several times a node's cost).
 * <p>Enhanced transposition cutoffs: before ordering the moves, each child is looked up in the
 * table that holds it; a child known to lose (for its mover) by enough cuts at once, a child known
 * not to reach the window is not searched. The lookups are independent loads, so their misses
 * overlap, and the child's own probe then hits the cache.
 * <p>Claim-even (after Allis), static bounds from a strategy of the player who answers: call a
 * column odd if it has an odd number of empty cells, its lowest empty cell a top. With an even
 * number of odd columns and the mover to move, the opponent can answer every move in an even column
 * on top of it and every move into an odd column in another odd column; the mover then gets at
 * most the tops and the empty cells in rows of the other parity than the tops' rows, the opponent
 * surely all the other empty cells but the tops. If the mover's discs with the cells it may get
 * hold no four, V ≤ 0; if besides the opponent's discs with the cells it surely gets hold one,
 * V = −1. With an odd number of odd columns the mover plays one top first and then answers so
 * (V ≥ 0, or V = 1). Every bound is a fact of the game.
 */
public final class ConnectFourSolver implements Solver {
    private static final int MAX_PLY = 64;
    /** Near the end a probe of the large table (a cache miss) costs more than re-searching the few nodes below. */
    static final int TT_MIN_EMPTIES = 8;
    /** Positions with at least this many empty cells use the shared table. */
    static final int FAR_MIN = 20;
    /** Positions within this many plies of the searched root use the shared table (from TT_MIN_EMPTIES). */
    static final int FAR_PLY = 6;
    /** Positions with fewer empty cells use no table; from here to FAR_MIN (beyond FAR_PLY plies), the own one. */
    static final int NEAR_MIN = 4;
    /** The own table: 2^17 one-word slots, 1 MiB. */
    static final int NEAR_LOG_SLOTS = 17;
    /** Enhanced transposition cutoffs for nodes with more empty cells than this. */
    static final int ETC_MIN = 5;
    /** Claim-even bounds from this many empty cells. */
    static final int CLAIM_MIN = 3;
    private final ConnectFour g;
    private final TranspositionTable tt;  // boards whose key does not fit the compact table
    private final ConnectFourTable table; // the compact shared table, or null
    private final ConnectFourTable near;  // this solver's own table (with the compact one), or null
    private final int cells;
    private final long bottom, boardMask;
    private final long evenParity, oddParity; // the rows r with r ≡ H (mod 2), and the others
    private final long[] colMask;
    private final int[] order; // TB (centre-first) order
    private long nodes;
    private final int[][] moveBuf = new int[MAX_PLY][16];
    private final int[][] scoreBuf = new int[MAX_PLY][16];

    public ConnectFourSolver(ConnectFour g, TranspositionTable tt) { this(g, tt, null); }

    /** With {@code table} (not null), the compact table is used and {@code tt} is not. */
    public ConnectFourSolver(ConnectFour g, TranspositionTable tt, ConnectFourTable table) {
        this.g = g; this.tt = tt; this.table = table; this.cells = g.cells;
        this.near = table != null ? ConnectFourTable.ofSlots(NEAR_LOG_SLOTS) : null;
        this.bottom = g.bottomMask; this.boardMask = g.boardMask;
        long par = 0;
        for (int r = g.h % 2; r < g.h; r += 2) par |= g.bottomMask << r;
        evenParity = par; oddParity = g.boardMask & ~par;
        colMask = new long[g.w];
        for (int c = 0; c < g.w; c++) colMask[c] = g.columnMask(c);
        order = ConnectFour.centreOrder(g.w);
    }

    @Override public long nodes() { return nodes; }

    @Override public int search(long m, long o, int alpha, int beta) {
        long occ = m | o;
        if ((g.winningCells(m, occ) & g.possible(occ)) != 0) { nodes++; return 1; }
        return table != null ? negamax(m, o, alpha, beta, 0) : negamaxGeneric(m, o, alpha, beta, 0);
    }

    private ConnectFourTable tableFor(int empties, int ply) {
        if (empties >= FAR_MIN || ply < FAR_PLY && empties >= TT_MIN_EMPTIES) return table;
        return empties >= NEAR_MIN ? near : null;
    }

    /**
     * The claim-even bound of a position whose mover cannot win at once, with at least 3 empty
     * cells: −1 or 1 (exact), 0 if it decides the window (V ≤ 0 ≤ alpha or V ≥ 0 ≥ beta), else 2.
     */
    private int claimEven(long m, long o, long occ, int alpha, int beta) {
        long tops = g.possible(occ) & oddParity; // the lowest empty cell of each column with an odd number of them
        long empty = ~occ & boardMask, even = empty & evenParity, rest = empty & oddParity & ~tops;
        if ((Long.bitCount(tops) & 1) == 0) { // the opponent answers on top, or in another odd column: the mover gets at most `even` and `tops`
            if (g.fourInLine(m | even | tops)) return 2;
            if (g.fourInLine(o | rest)) return -1;
            return alpha >= 0 ? 0 : 2;
        }
        // the mover plays x in `tops`, then answers as above: the opponent gets at most `even` and the other tops
        boolean draw = false;
        for (long t = tops; t != 0; t &= t - 1) {
            long x = t & -t;
            if (g.fourInLine(o | even | (tops ^ x))) continue;
            if (g.fourInLine(m | rest | x)) return 1;
            draw = true;
        }
        return draw && beta <= 0 ? 0 : 2;
    }

    /** A position where the mover cannot win at once (every child of a node here is one). */
    private int negamax(long m, long o, int alpha, int beta, int ply) {
        nodes++;
        long occ = m | o;
        long poss = g.possible(occ);
        int empties = cells - Long.bitCount(occ);
        if (empties <= 1) return 0; // the last move fills the board without winning
        long oppWin = g.winningCells(o, occ);
        long forced = oppWin & poss;
        if (forced != 0) {
            if ((forced & (forced - 1)) != 0) return -1; // two immediate threats
            poss = forced;
        }
        poss &= ~(oppWin >>> 1); // a disc under an opponent's winning cell loses at once
        if (poss == 0) return -1;
        if (empties == 2) return 0; // we cannot win now and the opponent's last cell is not a threat (blocked or excluded above)
        if (empties >= CLAIM_MIN) {
            int c = claimEven(m, o, occ, alpha, beta);
            if (c != 2) return c;
        }
        ConnectFourTable t = tableFor(empties, ply);
        long key = occ + m + bottom; // unique per position (Pons' key), never 0
        int ttMove = ConnectFourTable.NO_MOVE;
        if (t != null) {
            int d = t.probe(key);
            if (d >= 0) {
                int lo = ConnectFourTable.lo(d), hi = ConnectFourTable.hi(d);
                if (lo >= beta) return lo;
                if (hi <= alpha) return hi;
                if (lo == hi) return lo;
                if (lo > alpha) alpha = lo;
                if (hi < beta) beta = hi;
                ttMove = ConnectFourTable.move(d);
            }
        }
        int[] mvs = moveBuf[ply], sc = scoreBuf[ply];
        int k = 0, best = -1000;
        ConnectFourTable ct = empties > ETC_MIN ? tableFor(empties - 1, ply + 1) : null;
        for (int j = 0; j < order.length; j++) {
            int c = order[j];
            long cell = poss & colMask[c];
            if (cell == 0) continue;
            if (ct != null) { // enhanced transposition cutoff: what the table knows of the child
                int d = ct.probe((occ | cell) + o + bottom);
                if (d >= 0) {
                    int v = -ConnectFourTable.hi(d);
                    if (v >= beta) return v;
                    v = -ConnectFourTable.lo(d);
                    if (v <= alpha) { if (v > best) best = v; continue; } // this move cannot raise alpha
                }
            }
            int s = c == ttMove ? 1000 : Long.bitCount(g.winningCells(m | cell, occ | cell)) * 8 - j;
            int i = k++;
            while (i > 0 && sc[i - 1] < s) { sc[i] = sc[i - 1]; mvs[i] = mvs[i - 1]; i--; }
            sc[i] = s; mvs[i] = c;
        }
        int a = alpha, bestMove = ConnectFourTable.NO_MOVE;
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
        if (t != null) {
            int newLo = best >= beta ? best : best > alpha ? best : -1;
            int newHi = best <= alpha ? best : best < beta ? best : 1;
            t.store(key, Math.max(newLo, -1), Math.min(newHi, 1), bestMove);
        }
        return best;
    }

    /** The same search with the generic table, for boards whose position key does not fit the compact one. */
    private int negamaxGeneric(long m, long o, int alpha, int beta, int ply) {
        nodes++;
        long occ = m | o;
        long poss = g.possible(occ);
        int empties = cells - Long.bitCount(occ);
        if (empties <= 1) return 0;
        long oppWin = g.winningCells(o, occ);
        long forced = oppWin & poss;
        if (forced != 0) {
            if ((forced & (forced - 1)) != 0) return -1;
            poss = forced;
        }
        poss &= ~(oppWin >>> 1);
        if (poss == 0) return -1;
        if (empties == 2) return 0;
        if (empties >= CLAIM_MIN) {
            int c = claimEven(m, o, occ, alpha, beta);
            if (c != 2) return c;
        }
        int ttMove = TranspositionTable.NO_MOVE;
        boolean useTable = empties >= TT_MIN_EMPTIES;
        if (useTable) {
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
            if (i == 0) v = -negamaxGeneric(o, m2, -beta, -a, ply + 1);
            else {
                v = -negamaxGeneric(o, m2, -a - 1, -a, ply + 1);
                if (v > a && v < beta) v = -negamaxGeneric(o, m2, -beta, -a, ply + 1);
            }
            if (v > best) {
                best = v; bestMove = c;
                if (v > a) { a = v; if (a >= beta) break; }
            }
        }
        if (useTable) {
            int newLo = best >= beta ? best : best > alpha ? best : -1;
            int newHi = best <= alpha ? best : best < beta ? best : 1;
            tt.store(m, o, Math.max(newLo, -1), Math.min(newHi, 1), bestMove, empties);
        }
        return best;
    }
}

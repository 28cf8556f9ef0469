package org.gamecert.producer.research;

/**
 * Research throwaway (issue #40): the exact win/draw/loss value of any Connect Four position of a
 * small board, by a complete alpha–beta search of its own (no code shared with the producer's
 * solver): immediate wins, forced blocks, never under an opponent's threat, threat-count then
 * centre-first order, a lossy table of proven bounds (full keys, so never a wrong answer), and a
 * permanent memo of the exact values asked for.
 */
final class C4Oracle {
    private final C4Board b;
    private final long[] tKeys;
    private final byte[] tLo, tHi;
    private final int tMask;
    private final LongIntMap exact = new LongIntMap(16);
    long nodes;

    C4Oracle(C4Board b, int tableLog2) {
        this.b = b;
        tKeys = new long[1 << tableLog2]; tLo = new byte[1 << tableLog2]; tHi = new byte[1 << tableLog2];
        tMask = (1 << tableLog2) - 1;
    }

    /** Value to the side to move of a non-terminal position (mover's discs pos, occupied cells mask). */
    int value(long pos, long mask) {
        long k = b.key(pos, mask);
        int v = exact.get(k, Integer.MIN_VALUE);
        if (v != Integer.MIN_VALUE) return v;
        v = search(pos, mask, -1, 1);
        exact.put(k, v);
        return v;
    }

    /**
     * The value of the move into column c for the side to move of (pos, mask): +1 if it makes four,
     * 0 if it fills the board, else minus the child's value.
     */
    int moveValue(long pos, long mask, int c) {
        long m = b.possible(mask) & b.colMask[c];
        if (b.four(pos | m)) return 1;
        if ((mask | m) == b.boardMask) return 0;
        return -value(pos ^ mask, mask | m);
    }

    /** Whether the value is at least {@code lb} (null window). */
    boolean atLeast(long pos, long mask, int lb) {
        return search(pos, mask, lb - 1, lb) >= lb;
    }

    private int slot(long k) {
        long x = k * 0x9E3779B97F4A7C15L;
        return (int) (x ^ (x >>> 31)) & tMask;
    }

    /** Fail-soft alpha–beta on values −1, 0, +1; the position is not terminal. */
    int search(long pos, long mask, int alpha, int beta) {
        nodes++;
        long poss = b.possible(mask);
        if (poss == 0) return 0; // cannot happen for a non-terminal position; kept for safety
        if ((b.winningCells(pos, mask) & poss) != 0) return 1;
        long opp = pos ^ mask;
        long oppWin = b.winningCells(opp, mask);
        long forced = poss & oppWin;
        if (forced != 0) {
            if ((forced & (forced - 1)) != 0) return -1;
            poss = forced;
        }
        poss &= ~(oppWin >>> 1);
        if (poss == 0) return -1;
        long k = b.key(pos, mask);
        int s = slot(k);
        int lo = -1, hi = 1;
        if (tKeys[s] == k) {
            lo = tLo[s]; hi = tHi[s];
            if (lo >= beta) return lo;
            if (hi <= alpha) return hi;
            if (lo == hi) return lo;
            if (lo > alpha) alpha = lo;
            if (hi < beta) beta = hi;
        }
        int a0 = alpha, b0 = beta;
        // order: threats made, then centre first
        int n = 0;
        int[] cols = new int[b.w];
        int[] score = new int[b.w];
        for (int t = 0; t < b.w; t++) {
            int c = b.tb[t];
            long m = poss & b.colMask[c];
            if (m == 0) continue;
            int sc = Long.bitCount(b.winningCells(pos | m, mask | m));
            int p = n++;
            while (p > 0 && score[p - 1] < sc) { score[p] = score[p - 1]; cols[p] = cols[p - 1]; p--; }
            score[p] = sc; cols[p] = c;
        }
        int best = -2;
        for (int i = 0; i < n; i++) {
            long m = poss & b.colMask[cols[i]];
            int v;
            if ((mask | m) == b.boardMask) v = 0;
            else v = -search(opp, mask | m, -beta, -alpha);
            if (v > best) best = v;
            if (v > alpha) alpha = v;
            if (alpha >= beta) break;
        }
        int nlo = lo, nhi = hi;
        if (best <= a0) nhi = Math.min(nhi, best);
        else if (best >= b0) nlo = Math.max(nlo, best);
        else { nlo = best; nhi = best; }
        tKeys[s] = k; tLo[s] = (byte) nlo; tHi[s] = (byte) nhi;
        return best;
    }

    int memoSize() { return exact.size(); }
}

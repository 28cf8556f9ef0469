package org.gamecert.producer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reference rules for the tests, written independently of the producer's bitboard code: plain
 * loops over (row, column) cells. Positions use the SPEC §7 bit layouts so keys can be compared.
 */
public abstract class RefGame {
    public final int cells, moveCodes, uMin, uMax;
    public final int[] tb;

    RefGame(int cells, int moveCodes, int uMin, int uMax, int[] tb) {
        this.cells = cells; this.moveCodes = moveCodes; this.uMin = uMin; this.uMax = uMax; this.tb = tb;
    }

    /** Legal move codes, ascending. Empty list: no move. */
    public abstract List<Integer> moves(long m, long o);
    /** {mover', opponent'} after the move, same side still called mover. */
    public abstract long[] play(long m, long o, int move);
    /** Result of a move per SPEC §7.2: {sign, childMover, childOpponent, terminalValue}. */
    public abstract long[] child(long m, long o, int move);
    /** The canonical form (SPEC §7.4) and symmetry count. */
    public abstract long[] canonical(long m, long o);
    public abstract boolean terminal(long m, long o);
    public abstract int terminalValue(long m, long o);
    public abstract boolean countsTerminalsInCensus();

    private record Pos(long m, long o) {}
    private final Map<Pos, Integer> memo = new HashMap<>();

    /** Game-theoretic value by plain memoized negamax (positions with the mover to play; no pass positions). */
    public int value(long m, long o) {
        Pos k = new Pos(m, o);
        Integer known = memo.get(k);
        if (known != null) return known;
        int best = Integer.MIN_VALUE;
        for (int mv : moves(m, o)) best = Math.max(best, moveValue(m, o, mv));
        memo.put(k, best);
        return best;
    }

    public int moveValue(long m, long o, int move) {
        long[] c = child(m, o, move);
        if (c[0] == 0) return (int) c[3];
        return (int) c[0] * value(c[1], c[2]);
    }

    /** The earliest move in TB order among the maximizers. */
    public int canonicalMove(long m, long o) {
        int v = value(m, o);
        List<Integer> ms = moves(m, o);
        for (int t : tb) if (ms.contains(t) && moveValue(m, o, t) == v) return t;
        throw new IllegalStateException();
    }

    // ---------------------------------------------------------------- Othello
    public static final class Othello extends RefGame {
        final int n;
        public Othello(int n) {
            super(n * n, n * n, -n * n, n * n, ascending(n * n));
            this.n = n;
        }
        static int[] ascending(int k) { int[] t = new int[k]; for (int i = 0; i < k; i++) t[i] = i; return t; }
        boolean has(long b, int r, int c) { return (b >>> (r * n + c) & 1) != 0; }
        long flips(long m, long o, int r0, int c0) {
            if (has(m | o, r0, c0)) return 0;
            long f = 0;
            for (int dr = -1; dr <= 1; dr++)
                for (int dc = -1; dc <= 1; dc++) {
                    if (dr == 0 && dc == 0) continue;
                    long run = 0;
                    int r = r0 + dr, c = c0 + dc;
                    while (r >= 0 && r < n && c >= 0 && c < n && has(o, r, c)) { run |= 1L << (r * n + c); r += dr; c += dc; }
                    if (run != 0 && r >= 0 && r < n && c >= 0 && c < n && has(m, r, c)) f |= run;
                }
            return f;
        }
        @Override public List<Integer> moves(long m, long o) {
            List<Integer> l = new ArrayList<>();
            for (int q = 0; q < n * n; q++) if (flips(m, o, q / n, q % n) != 0) l.add(q);
            return l;
        }
        @Override public long[] play(long m, long o, int q) {
            long f = flips(m, o, q / n, q % n);
            return new long[]{m | f | (1L << q), o & ~f};
        }
        @Override public boolean terminal(long m, long o) { return moves(m, o).isEmpty() && moves(o, m).isEmpty(); }
        @Override public int terminalValue(long m, long o) {
            int a = Long.bitCount(m), b = Long.bitCount(o), e = n * n - a - b;
            return a > b ? a - b + e : a < b ? a - b - e : 0;
        }
        @Override public long[] child(long m, long o, int move) {
            long[] p = play(m, o, move);
            if (!moves(p[1], p[0]).isEmpty()) return new long[]{-1, p[1], p[0], 0};
            if (!moves(p[0], p[1]).isEmpty()) return new long[]{1, p[0], p[1], 0};
            return new long[]{0, p[1], p[0], terminalValue(p[0], p[1])};
        }
        long map(int g, long b) {
            long r = 0;
            for (int row = 0; row < n; row++)
                for (int col = 0; col < n; col++) {
                    if (!has(b, row, col)) continue;
                    int[][] img = {{row, col}, {row, n - 1 - col}, {n - 1 - row, col}, {n - 1 - row, n - 1 - col},
                            {col, row}, {col, n - 1 - row}, {n - 1 - col, row}, {n - 1 - col, n - 1 - row}};
                    r |= 1L << (img[g][0] * n + img[g][1]);
                }
            return r;
        }
        @Override public long[] canonical(long m, long o) {
            long[] best = null;
            for (int g = 0; g < 8; g++) {
                long tm = map(g, m), to = map(g, o);
                if (best == null || less(tm, to, best[0], best[1])) best = new long[]{tm, to};
            }
            return best;
        }
        @Override public boolean countsTerminalsInCensus() { return false; }
        public long[] start() {
            int h = n / 2;
            return new long[]{(1L << ((h - 1) * n + h)) | (1L << (h * n + h - 1)), (1L << ((h - 1) * n + h - 1)) | (1L << (h * n + h))};
        }
    }

    static boolean less(long m1, long o1, long m2, long o2) {
        int c = Long.compareUnsigned(m1 | o1, m2 | o2);
        return c < 0 || (c == 0 && Long.compareUnsigned(m1, m2) < 0);
    }

    // ---------------------------------------------------------------- Connect Four
    public static final class ConnectFour extends RefGame {
        final int w, h;
        public ConnectFour(int w, int h) {
            super(w * h, w, -1, 1, centre(w));
            this.w = w; this.h = h;
        }
        static int[] centre(int w) {
            List<Integer> l = new ArrayList<>();
            for (int c = 0; c < w; c++) l.add(c);
            l.sort((a, b) -> Math.abs(2 * a - (w - 1)) != Math.abs(2 * b - (w - 1))
                    ? Math.abs(2 * a - (w - 1)) - Math.abs(2 * b - (w - 1)) : a - b);
            int[] t = new int[w];
            for (int i = 0; i < w; i++) t[i] = l.get(i);
            return t;
        }
        boolean has(long b, int c, int r) { return (b >>> (c * (h + 1) + r) & 1) != 0; }
        public boolean four(long b) {
            int[][] dirs = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
            for (int c = 0; c < w; c++)
                for (int r = 0; r < h; r++)
                    for (int[] d : dirs) {
                        int k = 0;
                        while (k < 4) {
                            int cc = c + d[0] * k, rr = r + d[1] * k;
                            if (cc < 0 || cc >= w || rr < 0 || rr >= h || !has(b, cc, rr)) break;
                            k++;
                        }
                        if (k == 4) return true;
                    }
            return false;
        }
        @Override public List<Integer> moves(long m, long o) {
            List<Integer> l = new ArrayList<>();
            for (int c = 0; c < w; c++) if (!has(m | o, c, h - 1)) l.add(c);
            return l;
        }
        @Override public long[] play(long m, long o, int c) {
            int r = 0;
            while (has(m | o, c, r)) r++;
            return new long[]{m | (1L << (c * (h + 1) + r)), o};
        }
        boolean full(long occ) { return Long.bitCount(occ) == w * h; }
        @Override public boolean terminal(long m, long o) { return four(o) || full(m | o); }
        @Override public int terminalValue(long m, long o) { return four(o) ? -1 : 0; }
        @Override public long[] child(long m, long o, int move) {
            long[] p = play(m, o, move);
            if (four(p[0])) return new long[]{0, p[1], p[0], 1};
            if (full(p[0] | p[1])) return new long[]{0, p[1], p[0], 0};
            return new long[]{-1, p[1], p[0], 0};
        }
        @Override public long[] canonical(long m, long o) { return new long[]{m, o}; }
        @Override public boolean countsTerminalsInCensus() { return true; }
    }
}

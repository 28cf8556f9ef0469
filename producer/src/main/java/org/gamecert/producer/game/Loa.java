package org.gamecert.producer.game;

/**
 * Lines of Action N×N (N = 4, 5, 6; SPEC §7.7), the producer's own implementation (the verifier
 * has another, written separately): tables of rays and lines per square, precomputed. Square
 * (row from the top, column) is bit row·N + column; a position is (mover, opponent) bitboards.
 * Move code = 8·(place of the piece among the mover's pieces, ascending squares) + direction,
 * directions N, NE, E, SE, S, SW, W, NW = 0..7.
 */
public final class Loa {
    public static final int FAMILY = 4;
    /** Row and column steps of the 8 directions. */
    private static final int[] ROW = {-1, -1, 0, 1, 1, 1, 0, -1}, COL = {0, 1, 1, 1, 0, -1, -1, -1};

    public final int n, cells;
    public final long board;
    /** line[axis][sq]: the squares of the whole line through sq (axis = dir % 4). */
    private final long[][] line = new long[4][];
    /** target[dir][sq][k]: the square k steps away, or -1; path[dir][sq][k]: squares strictly between. */
    private final int[][][] target = new int[8][][];
    private final long[][][] path = new long[8][][];
    private final long[] around;

    public Loa(int n) {
        if (n < 4 || n > 6) throw new IllegalArgumentException("LOA is 4x4, 5x5 or 6x6");
        this.n = n;
        cells = n * n;
        board = (1L << cells) - 1;
        around = new long[cells];
        for (int a = 0; a < 4; a++) line[a] = new long[cells];
        for (int d = 0; d < 8; d++) {
            target[d] = new int[cells][n + 1];
            path[d] = new long[cells][n + 1];
        }
        for (int sq = 0; sq < cells; sq++) {
            int r = sq / n, c = sq % n;
            for (int d = 0; d < 8; d++) {
                long between = 0;
                for (int k = 0; k <= n; k++) {
                    int rr = r + k * ROW[d], cc = c + k * COL[d];
                    boolean on = rr >= 0 && rr < n && cc >= 0 && cc < n;
                    target[d][sq][k] = on ? rr * n + cc : -1;
                    path[d][sq][k] = between;
                    if (on) {
                        if (k > 0) between |= 1L << (rr * n + cc);
                        line[d % 4][sq] |= 1L << (rr * n + cc);
                        if (k == 1) around[sq] |= 1L << (rr * n + cc);
                    }
                }
            }
        }
    }

    public String name() {
        return "loa:" + n + "x" + n;
    }

    /** {black, white}: Black on the top and bottom rows, White on the left and right columns, no corners. */
    public long[] start() {
        long b = 0, w = 0;
        for (int k = 1; k <= n - 2; k++) {
            b |= 1L << k;
            b |= 1L << (cells - n + k);
            w |= 1L << (k * n);
            w |= 1L << (k * n + n - 1);
        }
        return new long[] {b, w};
    }

    /** All pieces in one 8-connected group (flood fill from the lowest). */
    public boolean connected(long pieces) {
        if (pieces == 0) return false;
        long seen = Long.lowestOneBit(pieces), frontier = seen;
        while (frontier != 0) {
            long next = 0;
            for (long f = frontier; f != 0; f &= f - 1) next |= around[Long.numberOfTrailingZeros(f)];
            next &= pieces & ~seen;
            seen |= next;
            frontier = next;
        }
        return seen == pieces;
    }

    /** Number of 8-connected groups of the pieces (move ordering). */
    public int groups(long pieces) {
        int g = 0;
        long left = pieces;
        while (left != 0) {
            long seen = Long.lowestOneBit(left), frontier = seen;
            while (frontier != 0) {
                long next = 0;
                for (long f = frontier; f != 0; f &= f - 1) next |= around[Long.numberOfTrailingZeros(f)];
                next &= left & ~seen;
                seen |= next;
                frontier = next;
            }
            left &= ~seen;
            g++;
        }
        return g;
    }

    /**
     * The legal moves of the mover: out[j] = code << 16 | from << 8 | to, j < returned count
     * (codes ascending). out needs 64 places.
     */
    public int moves(long mover, long opponent, int[] out) {
        long occ = mover | opponent;
        int count = 0, place = 0;
        for (long x = mover; x != 0; x &= x - 1, place++) {
            int from = Long.numberOfTrailingZeros(x);
            for (int d = 0; d < 8; d++) {
                int k = Long.bitCount(occ & line[d % 4][from]);
                int to = k <= n ? target[d][from][k] : -1;
                if (to < 0 || (path[d][from][k] & opponent) != 0 || (mover >>> to & 1) != 0) continue;
                out[count++] = (place * 8 + d) << 16 | from << 8 | to;
            }
        }
        return count;
    }

    /**
     * For corrupting certificates (mutations): the square the piece on {@code from} would reach in
     * direction d by the distance rule alone, ignoring what lies on the way and at the end; -1 off
     * the board. {@link #jumpsEnemy} tells whether an opponent's piece is on the way.
     */
    public int reach(long mover, long opponent, int from, int d) {
        int k = Long.bitCount((mover | opponent) & line[d % 4][from]);
        return k <= n ? target[d][from][k] : -1;
    }

    public boolean jumpsEnemy(long mover, long opponent, int from, int d) {
        int k = Long.bitCount((mover | opponent) & line[d % 4][from]);
        return k <= n && (path[d][from][k] & opponent) != 0;
    }

    public boolean hasMove(long mover, long opponent) {
        return moves(mover, opponent, new int[64]) > 0;
    }

    /** Kinds of outcome of {@link #play}. */
    public static final int CHILD = 0, PASS = 1, TERMINAL = 2;

    /**
     * Plays move (from, to) of the mover: out[0], out[1] = the next position (the opponent to move
     * for CHILD; the mover again for PASS, the opponent having no move). TERMINAL: out[2] = the
     * value for the mover (+1 only it connected, -1 only the opponent, 0 both or nobody can move).
     */
    public int play(long mover, long opponent, int from, int to, long[] out) {
        long bit = 1L << to;
        long m = (mover & ~(1L << from)) | bit, o = opponent & ~bit;
        boolean mine = connected(m), theirs = connected(o);
        if (mine || theirs) {
            out[2] = mine && theirs ? 0 : mine ? 1 : -1;
            return TERMINAL;
        }
        if (hasMove(o, m)) { out[0] = o; out[1] = m; return CHILD; }
        if (hasMove(m, o)) { out[0] = m; out[1] = o; return PASS; }
        out[2] = 0;
        return TERMINAL;
    }

    /** a1 = top-left (row number from the top), as SPEC §7.5. */
    public String square(int sq) {
        return "" + (char) ('a' + sq % n) + (sq / n + 1);
    }

    /** The same square as the 6×6 solving paper writes it: rows numbered from the bottom (a1 = bottom-left). */
    public String paperSquare(int sq) {
        return "" + (char) ('a' + sq % n) + (n - sq / n);
    }

    /** Board text: rows from the top, X = the side to move, O = the other, '-' empty, then " X". */
    public String boardText(long mover, long opponent) {
        StringBuilder sb = new StringBuilder();
        for (int sq = 0; sq < cells; sq++)
            sb.append((mover >>> sq & 1) != 0 ? 'X' : (opponent >>> sq & 1) != 0 ? 'O' : '-');
        return sb.append(" X").toString();
    }
}

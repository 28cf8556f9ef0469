package org.gamecert.producer.game;

/**
 * Lines of Action N×N (N = 4, 5, 6; SPEC §7.7), the producer's own implementation (the verifier
 * has another, written separately): tables of rays and lines per square, precomputed. Square
 * (row from the top, column) is bit row·N + column; a position is (mover, opponent) bitboards.
 * Move code = 8·(place of the piece among the mover's pieces, ascending squares) + direction,
 * directions N, NE, E, SE, S, SW, W, NW = 0..7.
 *
 * <p>It is a {@link Game} too (a certificate's reader, {@code query}, {@code release}): move codes
 * are those of SPEC §7.7, below 64, so the moves of a position fit the bitmask of
 * {@link #moves(long, long)}; there is no symmetry. Unlike the other games a move's code names
 * a piece by its place among the mover's pieces, so a code is named as a move (b1-b3) only
 * with its position: {@link #moveName(long, long, int)}.
 */
public final class Loa extends Game {
    public static final int FAMILY = FAMILY_LOA;
    /** Row and column steps of the 8 directions. */
    private static final int[] ROW = {-1, -1, 0, 1, 1, 1, 0, -1}, COL = {0, 1, 1, 1, 0, -1, -1, -1};

    public final int n;
    public final long board;
    /** line[axis][sq]: the squares of the whole line through sq (axis = dir % 4). */
    private final long[][] line = new long[4][];
    /** target[dir][sq][k]: the square k steps away, or -1; path[dir][sq][k]: squares strictly between. */
    private final int[][][] target = new int[8][][];
    private final long[][][] path = new long[8][][];
    private final long[] around;

    public Loa(int n) { this(n, Othello.identityOrder(64)); }

    /** With the tie-breaking order of a certificate's header (a permutation of the 64 codes). */
    public Loa(int n, int[] tb) {
        super(FAMILY_LOA, n, n, n * n, 64, -1, 1, 0, tb);
        if (n < 4 || n > 6) throw new IllegalArgumentException("LOA is 4x4, 5x5 or 6x6");
        this.n = n;
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

    @Override public String name() {
        return "loa:" + n + "x" + n;
    }

    /** {black, white}: Black on the top and bottom rows, White on the left and right columns, no corners. */
    @Override public long[] start() {
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
    @Override public String boardText(long mover, long opponent) {
        StringBuilder sb = new StringBuilder();
        for (int sq = 0; sq < cells; sq++)
            sb.append((mover >>> sq & 1) != 0 ? 'X' : (opponent >>> sq & 1) != 0 ? 'O' : '-');
        return sb.append(" X").toString();
    }

    // ---- as a Game (SPEC §7.7 through the interface of §7): codes, children, text ----

    /** The piece on the board that move code {@code code} moves: the (code / 8)-th piece of the mover, or -1. */
    private static int pieceOf(long mover, int code) {
        long x = mover;
        for (int i = code >>> 3; i > 0 && x != 0; i--) x &= x - 1;
        return x == 0 ? -1 : Long.numberOfTrailingZeros(x);
    }

    /** from << 8 | to of a legal move code of the mover, or -1 when the code is not a legal move. */
    public int fromTo(long mover, long opponent, int code) {
        if (code < 0 || code >= 64) return -1;
        int from = pieceOf(mover, code), d = code & 7;
        if (from < 0) return -1;
        int to = reach(mover, opponent, from, d);
        if (to < 0 || jumpsEnemy(mover, opponent, from, d) || (mover >>> to & 1) != 0) return -1;
        return from << 8 | to;
    }

    /** The legal move codes as a set (bit code), SPEC §7.7's codes 8·piece + direction. */
    @Override public long moves(long mover, long opponent) {
        int[] mv = new int[64];
        int count = moves(mover, opponent, mv);
        long set = 0;
        for (int i = 0; i < count; i++) set |= 1L << (mv[i] >>> 16);
        return set;
    }

    /** The mover's pieces after the move (a capture removes the opponent's piece: {@code opponent & ~result}). */
    @Override public long play(long mover, long opponent, int move) {
        int ft = fromTo(mover, opponent, move);
        if (ft < 0) throw new IllegalArgumentException("move code " + move + " is not legal here");
        return (mover & ~(1L << (ft >>> 8))) | 1L << (ft & 0xFF);
    }

    /** A side is connected, or neither side has a move (SPEC §7.7). */
    @Override public boolean isTerminal(long mover, long opponent) {
        return connected(mover) || connected(opponent) || (!hasMove(mover, opponent) && !hasMove(opponent, mover));
    }

    /** +1 when only the mover is connected, -1 when only the opponent is, else 0 (both, or no moves for anyone). */
    @Override public int terminalValue(long mover, long opponent) {
        boolean mine = connected(mover), theirs = connected(opponent);
        return mine == theirs ? 0 : mine ? 1 : -1;
    }

    /** R-POS-1: disjoint, on the board, each side 1 to 2(N-2) pieces. */
    @Override public boolean isLegalPosition(long mover, long opponent) {
        int max = 2 * (n - 2), a = Long.bitCount(mover), b = Long.bitCount(opponent);
        return (mover & opponent) == 0 && ((mover | opponent) & ~board) == 0 && a >= 1 && a <= max && b >= 1 && b <= max;
    }

    @Override public void child(long mover, long opponent, int move, Child out) {
        int ft = fromTo(mover, opponent, move);
        if (ft < 0) throw new IllegalArgumentException("move code " + move + " is not legal here");
        long[] r = new long[3];
        int kind = play(mover, opponent, ft >>> 8, ft & 0xFF, r);
        if (kind == TERMINAL) {
            long m2 = (mover & ~(1L << (ft >>> 8))) | 1L << (ft & 0xFF), o2 = opponent & ~m2;
            out.sign = 0;
            out.terminalValue = (int) r[2];
            out.termMover = o2;
            out.termOpponent = m2;
            return;
        }
        out.sign = kind == PASS ? 1 : -1;
        out.mover = r[0];
        out.opponent = r[1];
    }

    @Override public int symmetryCount() { return 1; }
    @Override public long transform(int g, long bits) { return bits; }
    @Override public int transformMove(int g, int move) { return move; }
    @Override public int inverse(int g) { return 0; }

    private static final String[] DIRECTIONS = {"N", "NE", "E", "SE", "S", "SW", "W", "NW"};

    /** A code alone: piece and direction (a square needs the position, {@link #moveName(long, long, int)}). */
    @Override public String moveName(int move) {
        return "piece " + (move >>> 3) + " " + DIRECTIONS[move & 7];
    }

    /** SPEC §7.5: origin-destination, e.g. b1-b3; a code that is no legal move here is named by piece and direction. */
    @Override public String moveName(long mover, long opponent, int move) {
        int ft = fromTo(mover, opponent, move);
        return ft < 0 ? moveName(move) : square(ft >>> 8) + "-" + square(ft & 0xFF);
    }

    /**
     * SPEC §7.5: moves origin-destination (b1-b3) from the start, separated by spaces or commas;
     * a player with no legal move passes implicitly before the next listed move.
     */
    @Override public long[] parseMoves(String seq) {
        long[] p = start();
        long m = p[0], o = p[1];
        String s = seq.trim().toLowerCase(java.util.Locale.ROOT);
        if (s.isEmpty()) return p;
        String[] tokens = s.split("[,\\s]+");
        for (int i = 0; i < tokens.length; i++) {
            String t = tokens[i];
            int from = squareOf(t, 0), to = t.length() == 5 && t.charAt(2) == '-' ? squareOf(t, 3) : -1;
            if (from < 0 || to < 0)
                throw new IllegalArgumentException("move " + (i + 1) + " '" + t + "' is not origin-destination on " + name() + " (e.g. b1-b3)");
            if (isTerminal(m, o)) throw new IllegalArgumentException("move " + (i + 1) + " '" + t + "': the game is already over");
            if (!hasMove(m, o)) { long x = m; m = o; o = x; } // implicit pass
            int[] mv = new int[64];
            int count = moves(m, o, mv), found = -1;
            for (int k = 0; k < count; k++) if ((mv[k] >>> 8 & 0xFF) == from && (mv[k] & 0xFF) == to) found = k;
            if (found < 0) throw new IllegalArgumentException("move " + (i + 1) + " '" + t + "' is illegal");
            long m2 = (m & ~(1L << from)) | 1L << to;
            o &= ~m2;
            m = o; o = m2;
        }
        return new long[] {m, o};
    }

    /** A square's index from two characters at {@code at} (a1 top-left), or -1. */
    private int squareOf(String t, int at) {
        if (t.length() < at + 2) return -1;
        int c = t.charAt(at) - 'a', r = t.charAt(at + 1) - '1';
        return c < 0 || c >= n || r < 0 || r >= n ? -1 : r * n + c;
    }

    /** SPEC §7.5: N² squares from a1 (X the side to move, O the other, - empty), a space, X (O: the other side moves). */
    @Override public long[] parseBoard(String text) {
        String t = text.trim();
        if (t.endsWith(";")) t = t.substring(0, t.length() - 1).trim();
        if (t.length() != cells + 2 || t.charAt(cells) != ' ')
            throw new IllegalArgumentException("board text must be " + cells + " squares (X, O, -), a space, and X (the side to move)");
        long x = 0, w = 0;
        for (int i = 0; i < cells; i++) {
            char ch = Character.toUpperCase(t.charAt(i));
            if (ch == 'X') x |= 1L << i;
            else if (ch == 'O') w |= 1L << i;
            else if (ch != '-' && ch != '.') throw new IllegalArgumentException("bad square character '" + t.charAt(i) + "' in board text");
        }
        char side = Character.toUpperCase(t.charAt(cells + 1));
        if (side != 'X' && side != 'O') throw new IllegalArgumentException("side to move must be X (or O)");
        long[] p = side == 'X' ? new long[] {x, w} : new long[] {w, x};
        if (!isLegalPosition(p[0], p[1]))
            throw new IllegalArgumentException("illegal LOA position (each side needs 1 to " + 2 * (n - 2) + " pieces)");
        return p;
    }
}

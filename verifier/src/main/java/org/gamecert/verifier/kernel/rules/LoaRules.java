package org.gamecert.verifier.kernel.rules;

/**
 * Lines of Action N×N, N = 4, 5, 6 (SPEC §7.7): square (r, c), row r from the top, is bit r·N + c.
 * A piece moves along one of 8 directions exactly as many squares as there are pieces (both
 * colours) on that whole line; it may pass over its own pieces, not over the opponent's; it may
 * land on an opponent's piece (captured) but not on its own. Move code = 8·i + dir, i the piece's
 * place among the mover's pieces in ascending square order, dir as in {@link #DR}/{@link #DC}.
 * A player whose pieces are all connected (8-neighbourhood) has won; both at once is a draw. A
 * player with no move passes (contracted, SPEC §7.2); neither able to move is a draw.
 */
public final class LoaRules extends Game {
    /** Directions 0..7: N, NE, E, SE, S, SW, W, NW (row down, column right). */
    static final int[] DR = {-1, -1, 0, 1, 1, 1, 0, -1}, DC = {0, 1, 1, 1, 0, -1, -1, -1};
    private final int n;
    /** Board bits without the first column, without the last column (for neighbour shifts). */
    private final long notFirstCol, notLastCol;

    public LoaRules(int n) {
        super(n * n, 64, -1, 1, 1, (1L << (n * n)) - 1);
        if (n < 4 || n > 6) throw new IllegalArgumentException("LOA " + n + "x" + n);
        this.n = n;
        long first = 0;
        for (int r = 0; r < n; r++) first |= 1L << (r * n);
        notFirstCol = boardMask & ~first;
        notLastCol = boardMask & ~(first << (n - 1));
    }

    /** The start: Black (the mover) on the top and bottom rows, White on the sides, no corners. */
    public long[] start() {
        long black = 0, white = 0;
        for (int i = 1; i < n - 1; i++) {
            black |= 1L << i | 1L << ((n - 1) * n + i);
            white |= 1L << (i * n) | 1L << (i * n + n - 1);
        }
        return new long[] {black, white};
    }

    /** The 8 neighbours of the bits of x, on the board. */
    private long grow(long x) {
        long side = x | ((x & notLastCol) << 1) | ((x & notFirstCol) >>> 1);
        return (side | (side << n) | (side >>> n)) & boardMask;
    }

    /** Every piece of `pieces` is in one 8-connected group (one piece is; none is not). */
    public boolean connected(long pieces) {
        if (pieces == 0) return false;
        long group = pieces & -pieces;
        while (true) {
            long next = grow(group) & pieces;
            if (next == group) return group == pieces;
            group = next;
        }
    }

    /**
     * The destination square of the piece on `from` moving in direction dir, or -1 when that
     * move is not legal for the owner of `from` (own = its pieces, other = the opponent's).
     */
    int destination(long own, long other, int from, int dir) {
        int r = from / n, c = from % n, count = 1;
        long occ = own | other;
        for (int s = 1; ; s++) { // pieces on the line, both ways
            int rr = r + s * DR[dir], cc = c + s * DC[dir];
            if (rr < 0 || rr >= n || cc < 0 || cc >= n) break;
            if ((occ >>> (rr * n + cc) & 1) != 0) count++;
        }
        for (int s = 1; ; s++) {
            int rr = r - s * DR[dir], cc = c - s * DC[dir];
            if (rr < 0 || rr >= n || cc < 0 || cc >= n) break;
            if ((occ >>> (rr * n + cc) & 1) != 0) count++;
        }
        int tr = r + count * DR[dir], tc = c + count * DC[dir];
        if (tr < 0 || tr >= n || tc < 0 || tc >= n) return -1; // off the board
        for (int s = 1; s < count; s++) { // no enemy piece jumped over
            int sq = (r + s * DR[dir]) * n + c + s * DC[dir];
            if ((other >>> sq & 1) != 0) return -1;
        }
        int to = tr * n + tc;
        return (own >>> to & 1) != 0 ? -1 : to; // not onto an own piece
    }

    /** The square of the mover's i-th piece (ascending), or -1 when it has no i-th piece. */
    static int pieceSquare(long mover, int i) {
        long x = mover;
        for (int k = 0; k < i && x != 0; k++) x &= x - 1;
        return x == 0 ? -1 : Long.numberOfTrailingZeros(x);
    }

    @Override
    public long legalMoveCodes(long mover, long opponent) {
        long codes = 0;
        int i = 0;
        for (long x = mover; x != 0 && i < 8; x &= x - 1, i++) {
            int from = Long.numberOfTrailingZeros(x);
            for (int dir = 0; dir < 8; dir++)
                if (destination(mover, opponent, from, dir) >= 0) codes |= 1L << (8 * i + dir);
        }
        return codes;
    }

    /** The destination square of a legal move code. */
    public int to(long mover, long opponent, int code) {
        return destination(mover, opponent, pieceSquare(mover, code / 8), code % 8);
    }

    /** The squares the move changes for the mover: its origin and its destination. */
    @Override
    public long moveDelta(long mover, long opponent, int code) {
        return 1L << pieceSquare(mover, code / 8) | 1L << to(mover, opponent, code);
    }

    /** Disjoint, on the board, each side 1..2(N-2) pieces (SPEC §7.7 R-POS-1). */
    @Override
    public boolean isLegalPosition(long mover, long opponent) {
        if ((mover & opponent) != 0 || ((mover | opponent) & ~boardMask) != 0) return false;
        int a = Long.bitCount(mover), b = Long.bitCount(opponent), max = 2 * (n - 2);
        return a >= 1 && b >= 1 && a <= max && b <= max;
    }

    /** Over when a side is connected, or when neither side can move. */
    @Override
    public boolean isTerminal(long mover, long opponent) {
        return connected(mover) || connected(opponent)
                || (legalMoveCodes(mover, opponent) == 0 && legalMoveCodes(opponent, mover) == 0);
    }

    /** Both connected, or neither able to move: 0; the mover connected: +1; else -1. */
    @Override
    public int terminalValue(long mover, long opponent) {
        boolean m = connected(mover), o = connected(opponent);
        if (m == o) return 0;
        return m ? 1 : -1;
    }

    /**
     * SPEC §7.2 with §7.7: the piece leaves its origin and takes its destination, capturing any
     * opponent piece there. The move is terminal when a side is then connected (both: 0; the
     * mover only: +1; the opponent only: -1) or when neither side can move (0); a pass of the
     * opponent is contracted.
     */
    @Override
    public int child(long mover, long opponent, int code, long[] out) {
        int from = pieceSquare(mover, code / 8), to = to(mover, opponent, code);
        long m = mover & ~(1L << from) | 1L << to, o = opponent & ~(1L << to);
        out[0] = o;
        out[1] = m;
        boolean mc = connected(m), oc = connected(o);
        if (mc || oc) {
            out[2] = mc == oc ? 0 : mc ? 1 : -1;
            return TERMINAL;
        }
        if (legalMoveCodes(o, m) != 0) return CHILD;
        if (legalMoveCodes(m, o) == 0) {
            out[2] = 0; // out: the terminal position with the opponent to move (Game.child)
            return TERMINAL;
        }
        out[0] = m;
        out[1] = o;
        return PASS_CHILD;
    }

    @Override
    public long transform(long bits, int g) {
        return bits;
    }

    @Override
    public int inverse(int g) {
        return g;
    }

    @Override
    public int mapMove(int code, int g) {
        return code;
    }

    /** Without the position a code names only a piece and a direction. */
    @Override
    public String moveName(int code) {
        return "piece " + code / 8 + " " + new String[] {"N", "NE", "E", "SE", "S", "SW", "W",
            "NW"}[code % 8];
    }

    /** A square as SPEC §7.5 names it: column letter, row number from the top (a1 top-left). */
    public String square(int sq) {
        return "" + (char) ('a' + sq % n) + (sq / n + 1);
    }

    /** A legal move as text: origin-destination, e.g. b1-b3. */
    public String moveText(long mover, long opponent, int code) {
        return square(pieceSquare(mover, code / 8)) + "-" + square(to(mover, opponent, code));
    }
}

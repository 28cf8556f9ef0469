package org.gamecert.producer.game;

/**
 * Linear NoGo 1×N (1 ≤ N ≤ 64), SPEC §7.6: point i (0-based from the left) is bit i. A move puts a
 * stone on an empty point and is legal when afterwards every block (maximal run of one colour) of
 * both colours has an empty neighbour; a player with no legal move has lost. Win/loss utility
 * (the win/draw/loss range, no draws). Symmetry 0 (the mirror is not used, as for Connect Four).
 *
 * <p>All legal moves at once, with carry arithmetic: adding a run's lowest stone to the stones
 * clears the run, so ((S + seeds) ^ S) & S is every run of S that holds a seed at its bottom. A
 * point q is legal for the mover unless the mover's stones next to it, joined with q, have no
 * empty end, or an opponent's run next to q has no other empty end.
 */
public final class NoGo extends Game {
    public final int n;
    public final long boardMask;

    public NoGo(int n) { this(n, ConnectFour.centreOrder(n)); }

    public NoGo(int n, int[] tb) {
        super(FAMILY_NOGO, n, 1, n, n, -1, 1, 0, tb);
        if (n < 1 || n > 64) throw new IllegalArgumentException("NoGo 1x" + n + " needs 1 <= N <= 64");
        this.n = n;
        this.boardMask = n == 64 ? -1L : (1L << n) - 1;
    }

    @Override public String name() { return "nogo:1x" + n; }

    @Override public long[] start() { return new long[]{0, 0}; }

    /** The stones of the runs of s that have an empty point just below their lowest stone. */
    static long emptyBelow(long s, long empty) {
        return ((s + (s & (empty << 1))) ^ s) & s;
    }

    /** The stones of the runs of s that have an empty point just above their highest stone. */
    static long emptyAbove(long s, long empty) {
        return Long.reverse(emptyBelow(Long.reverse(s), Long.reverse(empty)));
    }

    @Override public long moves(long m, long o) {
        long empty = boardMask & ~(m | o);
        // q may join the mover's run below it if that run has an empty end further down, or if q-1 is empty
        long lowOk = (empty | emptyBelow(m, empty)) << 1;
        long highOk = (empty | emptyAbove(m, empty)) >>> 1;
        // an opponent's run next to q whose other end is not empty would lose its last liberty
        long captureLow = (o & ~emptyBelow(o, empty)) << 1;
        long captureHigh = (o & ~emptyAbove(o, empty)) >>> 1;
        return empty & (lowOk | highOk) & ~captureLow & ~captureHigh;
    }

    @Override public long play(long m, long o, int move) { return m | 1L << move; }

    @Override public boolean isTerminal(long m, long o) { return moves(m, o) == 0; }

    @Override public int terminalValue(long m, long o) { return -1; }

    @Override public boolean isLegalPosition(long m, long o) {
        if ((m & o) != 0 || ((m | o) & ~boardMask) != 0) return false;
        int d = Long.bitCount(o) - Long.bitCount(m);
        if (d != 0 && d != 1) return false;
        long empty = boardMask & ~(m | o);
        return (emptyBelow(m, empty) | emptyAbove(m, empty)) == m
                && (emptyBelow(o, empty) | emptyAbove(o, empty)) == o;
    }

    @Override public void child(long m, long o, int move, Child out) {
        long m2 = m | 1L << move;
        if (moves(o, m2) == 0) { out.sign = 0; out.terminalValue = 1; out.termMover = o; out.termOpponent = m2; return; }
        out.sign = -1; out.mover = o; out.opponent = m2;
    }

    /** The mirror image of a bitboard (not a declared symmetry; the solver's table may use it). */
    public long mirror(long bits) { return Long.reverse(bits) >>> (64 - n); }

    @Override public int symmetryCount() { return 1; }
    @Override public long transform(int g, long bits) { return bits; }
    @Override public int transformMove(int g, int move) { return move; }
    @Override public int inverse(int g) { return 0; }

    /** SPEC §7.5: a point is its 1-based number from the left. */
    @Override public String moveName(int move) { return Integer.toString(move + 1); }

    /** SPEC §7.5: 1-based points separated by commas (or spaces), e.g. "4,2,6"; "" is the start. */
    @Override public long[] parseMoves(String seq) {
        long m = 0, o = 0;
        String s = seq.trim();
        if (s.isEmpty()) return new long[]{0, 0};
        String[] parts = s.split("[,\\s]+");
        for (int i = 0; i < parts.length; i++) {
            int p;
            try { p = Integer.parseInt(parts[i]) - 1; }
            catch (NumberFormatException e) { p = -1; }
            if (p < 0 || p >= n) throw new IllegalArgumentException("move " + (i + 1) + " '" + parts[i] + "' is not a point 1.." + n + " of " + name());
            long legal = moves(m, o);
            if (legal == 0) throw new IllegalArgumentException("move " + (i + 1) + " '" + parts[i] + "': the game is already over");
            if ((legal >>> p & 1) == 0) throw new IllegalArgumentException("move " + (i + 1) + " '" + parts[i] + "' is illegal (occupied, or a block would have no liberty)");
            long m2 = m | 1L << p;
            m = o; o = m2;
        }
        return new long[]{m, o};
    }

    /** SPEC §7.5: N points from the left (X Black, O White, - empty), a space, X or O to move. */
    @Override public long[] parseBoard(String text) {
        String t = text.trim();
        if (t.endsWith(";")) t = t.substring(0, t.length() - 1).trim();
        if (t.length() != n + 2 || t.charAt(n) != ' ')
            throw new IllegalArgumentException("board text must be " + n + " points (X, O, -) from the left, a space, and X or O to move");
        long x = 0, y = 0;
        for (int i = 0; i < n; i++) {
            char ch = Character.toUpperCase(t.charAt(i));
            if (ch == 'X') x |= 1L << i; else if (ch == 'O') y |= 1L << i;
            else if (ch != '-' && ch != '.') throw new IllegalArgumentException("bad point character '" + t.charAt(i) + "' in board text");
        }
        char side = Character.toUpperCase(t.charAt(n + 1));
        if (side != 'X' && side != 'O') throw new IllegalArgumentException("side to move must be X or O");
        long[] p = side == 'X' ? new long[]{x, y} : new long[]{y, x};
        if (!isLegalPosition(p[0], p[1]))
            throw new IllegalArgumentException("illegal NoGo position (a block without liberty, or wrong stone counts for the side to move)");
        return p;
    }

    @Override public String boardText(long m, long o) {
        boolean moverIsX = Long.bitCount(m | o) % 2 == 0;
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            long bit = 1L << i;
            sb.append((m & bit) != 0 ? (moverIsX ? 'X' : 'O') : (o & bit) != 0 ? (moverIsX ? 'O' : 'X') : '-');
        }
        return sb.append(' ').append(moverIsX ? 'X' : 'O').toString();
    }
}

package org.gamecert.producer.game;

/**
 * Connect Four W×H (W·(H+1) ≤ 64), SPEC §7.3: cell (c, r) is bit c·(H+1)+r with an always-empty
 * sentinel bit on top of each column. Symmetry 0 (no mirror quotient), as in the semi-strong
 * paper's tables. Win/draw/loss utility.
 */
public final class ConnectFour extends Game {
    public final int w, h, h1;
    public final long boardMask, bottomMask;
    private final long[] columnMask;

    public ConnectFour(int w, int h) { this(w, h, centreOrder(w)); }

    public ConnectFour(int w, int h, int[] tb) {
        super(FAMILY_CONNECT4, w, h, w * h, w, -1, 1, 0, tb);
        if (w < 1 || h < 1 || w * (h + 1L) > 64) // also for sizes read from a certificate header
            throw new IllegalArgumentException("Connect Four " + w + "x" + h + " needs W*(H+1) <= 64");
        this.w = w; this.h = h; this.h1 = h + 1;
        long bm = 0, bot = 0;
        columnMask = new long[w];
        for (int c = 0; c < w; c++) {
            bot |= 1L << (c * h1);
            for (int r = 0; r < h; r++) { bm |= 1L << (c * h1 + r); columnMask[c] |= 1L << (c * h1 + r); }
        }
        boardMask = bm; bottomMask = bot;
    }

    /** SPEC §8 standard order: |2c − (W−1)| ascending, left first on ties. */
    public static int[] centreOrder(int w) {
        int[] t = new int[w];
        int k = 0;
        for (int dist = 0; dist <= w; dist++)
            for (int c = 0; c < w; c++) if (Math.abs(2 * c - (w - 1)) == dist) t[k++] = c;
        return t;
    }

    @Override public String name() { return "connect4:" + w + "x" + h; }

    @Override public long[] start() { return new long[]{0, 0}; }

    public long columnMask(int c) { return columnMask[c]; }

    /** The cells where a disc would land, one per non-full column. */
    public long possible(long occ) { return (occ + bottomMask) & boardMask; }

    @Override public long moves(long m, long o) {
        long poss = possible(m | o), r = 0;
        for (int c = 0; c < w; c++) if ((poss & columnMask[c]) != 0) r |= 1L << c;
        return r;
    }

    @Override public long play(long m, long o, int move) {
        return m | (possible(m | o) & columnMask[move]);
    }

    /**
     * Four in a line within {@code pos} (sentinels stop wrap-around between columns). Horizontal and
     * diagonal lines need at least 4 columns, and only then are their shifts safe: a long shift
     * count is taken mod 64, so on 1×63 or 2×31 a shift by 2·(H+1) ≥ 64 would make one disc "four".
     * With W ≥ 4 and W·(H+1) ≤ 64, every shift below is at most 3·(H+2) ≤ 51.
     */
    public boolean fourInLine(long pos) {
        long x = pos & (pos >>> 1);
        if ((x & (x >>> 2)) != 0) return true; // vertical
        if (w < 4) return false;
        x = pos & (pos >>> h1);
        if ((x & (x >>> (2 * h1))) != 0) return true;
        x = pos & (pos >>> h);
        if ((x & (x >>> (2 * h))) != 0) return true;
        x = pos & (pos >>> (h + 2));
        return (x & (x >>> (2 * (h + 2)))) != 0;
    }

    /** Empty cells (anywhere on the board) that would complete four for {@code pos}. */
    public long winningCells(long pos, long occ) {
        long r = (pos << 1) & (pos << 2) & (pos << 3);
        if (w >= 4) { // as in fourInLine: only then can these lines exist, and only then are the shifts < 64
            r |= lineCells(pos, h1);
            r |= lineCells(pos, h);
            r |= lineCells(pos, h + 2);
        }
        return r & (boardMask ^ occ) & boardMask;
    }

    private static long lineCells(long pos, int s) {
        long r = 0;
        long p = (pos << s) & (pos << (2 * s));
        r |= p & (pos << (3 * s));
        r |= p & (pos >>> s);
        p = (pos >>> s) & (pos >>> (2 * s));
        r |= p & (pos << s);
        r |= p & (pos >>> (3 * s));
        return r;
    }

    @Override public boolean isTerminal(long m, long o) {
        return fourInLine(o) || (m | o) == boardMask;
    }

    @Override public int terminalValue(long m, long o) { return fourInLine(o) ? -1 : 0; }

    @Override public boolean isLegalPosition(long m, long o) {
        if ((m & o) != 0 || ((m | o) & ~boardMask) != 0) return false;
        long occ = m | o;
        for (int c = 0; c < w; c++) {
            long col = (occ & columnMask[c]) >>> (c * h1);
            if ((col & (col + 1)) != 0) return false; // not contiguous from the bottom
        }
        int d = Long.bitCount(o) - Long.bitCount(m);
        if (d != 0 && d != 1) return false;
        return !fourInLine(m);
    }

    @Override public void child(long m, long o, int move, Child out) {
        long m2 = play(m, o, move);
        if (fourInLine(m2)) { out.sign = 0; out.terminalValue = 1; out.termMover = o; out.termOpponent = m2; return; }
        if ((m2 | o) == boardMask) { out.sign = 0; out.terminalValue = 0; out.termMover = o; out.termOpponent = m2; return; }
        out.sign = -1; out.mover = o; out.opponent = m2;
    }

    @Override public int symmetryCount() { return 1; }
    @Override public long transform(int g, long bits) { return bits; }
    @Override public int transformMove(int g, int move) { return move; }
    @Override public int inverse(int g) { return 0; }

    @Override public String moveName(int move) { return Integer.toString(move + 1); }

    @Override public long[] parseMoves(String seq) {
        long m = 0, o = 0;
        String s = seq.trim();
        for (int i = 0; i < s.length(); i++) {
            int c = s.charAt(i) - '1';
            if (c < 0 || c >= w) throw new IllegalArgumentException("move " + (i + 1) + " '" + s.charAt(i) + "' is not a column of " + name());
            if (isTerminal(m, o)) throw new IllegalArgumentException("move " + (i + 1) + " '" + s.charAt(i) + "': the game is already over");
            if ((moves(m, o) >> c & 1) == 0) throw new IllegalArgumentException("move " + (i + 1) + " '" + s.charAt(i) + "': column is full");
            long m2 = play(m, o, c);
            m = o; o = m2;
        }
        return new long[]{m, o};
    }

    @Override public long[] parseBoard(String text) {
        String t = text.trim();
        if (t.endsWith(";")) t = t.substring(0, t.length() - 1).trim();
        if (t.length() != w * h + 2 || t.charAt(w * h) != ' ')
            throw new IllegalArgumentException("board text must be " + h + " rows of " + w + " cells (X, O, -) from the top, a space, and X or O to move");
        long x = 0, y = 0;
        for (int i = 0; i < w * h; i++) {
            int row = h - 1 - i / w, c = i % w;
            long bit = 1L << (c * h1 + row);
            char ch = Character.toUpperCase(t.charAt(i));
            if (ch == 'X') x |= bit; else if (ch == 'O') y |= bit;
            else if (ch != '-' && ch != '.') throw new IllegalArgumentException("bad cell character '" + t.charAt(i) + "' in board text");
        }
        char side = Character.toUpperCase(t.charAt(w * h + 1));
        if (side != 'X' && side != 'O') throw new IllegalArgumentException("side to move must be X or O");
        long[] p = side == 'X' ? new long[]{x, y} : new long[]{y, x};
        if (!isLegalPosition(p[0], p[1])) throw new IllegalArgumentException("illegal Connect Four position (floating disc, wrong disc counts for the side to move, or a finished game)");
        return p;
    }

    @Override public String boardText(long m, long o) {
        boolean moverIsX = Long.bitCount(m | o) % 2 == 0;
        StringBuilder sb = new StringBuilder();
        for (int row = h - 1; row >= 0; row--)
            for (int c = 0; c < w; c++) {
                long bit = 1L << (c * h1 + row);
                sb.append((m & bit) != 0 ? (moverIsX ? 'X' : 'O') : (o & bit) != 0 ? (moverIsX ? 'O' : 'X') : '-');
            }
        return sb.append(' ').append(moverIsX ? 'X' : 'O').toString();
    }
}

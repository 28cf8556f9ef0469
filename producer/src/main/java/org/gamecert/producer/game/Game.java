package org.gamecert.producer.game;

/**
 * A game of SPEC §7 on bitboards. A position is (mover, opponent); move codes are small ints
 * (Othello: square r·N+c; Connect Four: column; LOA: 8·piece + direction). Implementations are
 * immutable and thread-safe.
 */
public abstract class Game {
    public static final int FAMILY_OTHELLO = 1, FAMILY_CONNECT4 = 2, FAMILY_NOGO = 3, FAMILY_LOA = 4;

    /** Result of {@link #child}: the position after a move, with passes contracted (SPEC §7.2). */
    public static final class Child {
        /** -1: ordinary child; +1: contracted pass; 0: the move is terminal. */
        public int sign;
        public long mover, opponent;
        /** For a terminal move: its value from the parent's mover's view. */
        public int terminalValue;
        /** For a terminal move: the terminal position, opponent to move (for the C4 census). */
        public long termMover, termOpponent;
    }

    public final int family, width, height, cells, moveCodes, uMin, uMax, symmetry;
    /** Tie-breaking order, highest priority first; and the rank of each move code in it. */
    private final int[] tb, tbRank;

    protected Game(int family, int width, int height, int cells, int moveCodes, int uMin, int uMax,
                   int symmetry, int[] tb) {
        this.family = family; this.width = width; this.height = height; this.cells = cells;
        this.moveCodes = moveCodes; this.uMin = uMin; this.uMax = uMax; this.symmetry = symmetry;
        this.tb = tb.clone();
        this.tbRank = new int[moveCodes];
        for (int i = 0; i < moveCodes; i++) tbRank[tb[i]] = i;
    }

    /** Parses "othello:6x6", "connect4:7x6", "nogo:1x13". Throws IllegalArgumentException on anything else. */
    /** Every game family a user can name, for messages. */
    public static final String FAMILIES = "games: othello:4x4, othello:6x6, othello:8x8, connect4:WxH, nogo:1xN, loa:4x4, loa:5x5, loa:6x6";

    public static Game parse(String spec) {
        String s = spec.trim().toLowerCase(java.util.Locale.ROOT);
        int colon = s.indexOf(':'), x = s.indexOf('x', colon + 1);
        if (colon < 0 || x < 0) throw new IllegalArgumentException("unknown game '" + spec
                + "' (" + FAMILIES + ")");
        int w, h;
        try {
            w = Integer.parseInt(s.substring(colon + 1, x));
            h = Integer.parseInt(s.substring(x + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("unknown game '" + spec + "' (" + FAMILIES + ")");
        }
        switch (s.substring(0, colon)) {
            case "othello":
                if (w != h || (w != 4 && w != 6 && w != 8))
                    throw new IllegalArgumentException("unknown game '" + spec + "': Othello is 4x4, 6x6 or 8x8");
                return new Othello(w);
            case "connect4": case "connectfour": case "connect-four":
                if (w < 1 || h < 1 || w * (h + 1L) > 64) // long: h + 1 and the product may overflow an int
                    throw new IllegalArgumentException("unknown game '" + spec + "': Connect Four is WxH with W >= 1, H >= 1 and "
                            + "W*(H+1) <= 64" + (w < 1 || h < 1 ? " (a board has at least one column and one row)" : ""));
                if (w > 9) throw new IllegalArgumentException("unknown game '" + spec + "': at most 9 columns (one-digit notation)");
                return new ConnectFour(w, h);
            case "nogo":
                if (w != 1 || h < 1 || h > 64)
                    throw new IllegalArgumentException("unknown game '" + spec + "': NoGo is 1xN with 1 <= N <= 64");
                return new NoGo(h);
            case "loa":
                throw new IllegalArgumentException("Lines of Action ('" + spec + "') is solved by 'solve --game loa:NxN --mode weak-ranked'"
                        + " (N = 4, 5, 6), not here");
            default:
                throw new IllegalArgumentException("unknown game '" + spec + "' (" + FAMILIES + ")");
        }
    }

    /**
     * Game for a certificate header (family, width, height) with the header's TB order: every
     * family of SPEC §4 (Othello, Connect Four, NoGo, Lines of Action).
     */
    public static Game fromHeader(int family, int width, int height, int[] tb) {
        if (family == FAMILY_OTHELLO && width == height) return new Othello(width, tb);
        if (family == FAMILY_CONNECT4) return new ConnectFour(width, height, tb);
        if (family == FAMILY_NOGO && height == 1) return new NoGo(width, tb);
        if (family == FAMILY_LOA && width == height) return new Loa(width, tb);
        throw new IllegalArgumentException("unsupported game family " + family + " (" + width + "x" + height
                + "): SPEC 4 has othello (1), connect4 (2), nogo (3) and loa (4)");
    }

    public abstract String name();

    /**
     * Whether the census counts terminal positions (region_d and the proof-only column of SPEC
     * §10.3): Connect Four and NoGo, whose games end by a move; not Othello.
     */
    public final boolean censusCountsTerminals() { return family == FAMILY_CONNECT4 || family == FAMILY_NOGO; }

    public final int tbAt(int i) { return tb[i]; }
    public final int tbRank(int move) { return tbRank[move]; }
    public final int[] tbOrder() { return tb.clone(); }

    /** The starting position as {mover, opponent}. */
    public abstract long[] start();

    /** Legal moves as a set of move codes (bit i = code i). 0 means pass (Othello) or no move. */
    public abstract long moves(long mover, long opponent);

    /** The mover's discs after a legal move; the opponent's are {@code opponent & ~result}. */
    public abstract long play(long mover, long opponent, int move);

    /** Terminal position (game over), SPEC §7.1/§7.3. */
    public abstract boolean isTerminal(long mover, long opponent);

    /** Value of a terminal position from the mover's view. */
    public abstract int terminalValue(long mover, long opponent);

    /** R-POS-1 for the game (used for the root and user input). */
    public abstract boolean isLegalPosition(long mover, long opponent);

    /** Classifies the move (SPEC §7.2) into {@code out}. */
    public abstract void child(long mover, long opponent, int move, Child out);

    /** Number of symmetries of the declared group (1 when symmetry 0). */
    public abstract int symmetryCount();

    /** Image of a bitboard under symmetry g. */
    public abstract long transform(int g, long bits);

    /** Image of a move code under symmetry g. */
    public abstract int transformMove(int g, int move);

    /** The index of the inverse of symmetry g. */
    public abstract int inverse(int g);

    /** Parses a move sequence from the start; returns {mover, opponent}. */
    public abstract long[] parseMoves(String seq);

    /** Parses board text; returns {mover, opponent}. */
    public abstract long[] parseBoard(String text);

    /** Move code to text (a1 / column digit). */
    public abstract String moveName(int move);

    /**
     * Move code of the mover of (mover, opponent) to text: the same as {@link #moveName(int)}
     * except in games whose codes depend on the position (LOA: b1-b3).
     */
    public String moveName(long mover, long opponent, int move) { return moveName(move); }

    /** Board text for a position (SPEC §7.5), with "X" assumed to move when moverIsX. */
    public abstract String boardText(long mover, long opponent);

    public final int discs(long mover, long opponent) { return Long.bitCount(mover | opponent); }

    /** Unsigned key order of SPEC §6: by occ, then by mover. */
    public static int compareKeys(long m1, long o1, long m2, long o2) {
        int c = Long.compareUnsigned(m1 | o1, m2 | o2);
        return c != 0 ? c : Long.compareUnsigned(m1, m2);
    }

    /** Canonical form (SPEC §7.4) into out[0..1]; returns the first g mapping p to it. */
    public int canonical(long mover, long opponent, long[] out) {
        long bm = mover, bo = opponent, bocc = mover | opponent;
        int bg = 0;
        int n = symmetryCount();
        for (int g = 1; g < n; g++) {
            long tm = transform(g, mover), to = transform(g, opponent), tocc = tm | to;
            int c = Long.compareUnsigned(tocc, bocc);
            if (c < 0 || (c == 0 && Long.compareUnsigned(tm, bm) < 0)) {
                bm = tm; bo = to; bocc = tocc; bg = g;
            }
        }
        out[0] = bm; out[1] = bo;
        return bg;
    }
}

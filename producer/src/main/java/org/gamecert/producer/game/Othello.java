package org.gamecert.producer.game;

/**
 * Othello N×N (N = 4, 6, 8) in the compact layout of SPEC §7.1: square (r, c) is bit r·N+c,
 * a1 = bit 0 top-left. Moves and flips use shift-and-mask runs in the 8 directions.
 */
public final class Othello extends Game {
    public final int n;
    public final long board;
    /** Direction shifts (positive = left shift) and the masks that stop wrap-around. */
    /** Squares off the first and last column: opponent runs with a horizontal part stay inside. */
    final long inner;
    /** For each square, the squares adjacent to it (8-neighbourhood). */
    private final long[] neighbours;
    /**
     * Per-square rays (the squares beyond it in one direction, on the board), split by whether
     * bit indices grow along the ray (E, S, SE, SW) or shrink (W, N, NW, NE): a flip run ends at
     * the nearest non-opponent square, the lowest resp. highest set bit of ray & ~o.
     */
    private final long[] rayE, rayS, raySE, raySW, rayW, rayN, rayNW, rayNE;
    /** Square permutations of the 8 symmetries, and byte lookup tables for fast transforms. */
    private final int[][] perm = new int[8][];
    private final long[][][] table;
    private final int chunks;
    private final int[] inverse = new int[8];

    public Othello(int n) { this(n, identityOrder(n * n)); }

    public Othello(int n, int[] tb) {
        super(FAMILY_OTHELLO, n, n, n * n, n * n, -n * n, n * n, 1, tb);
        if (n != 4 && n != 6 && n != 8) throw new IllegalArgumentException("Othello " + n + "x" + n + " is not 4x4, 6x6 or 8x8");
        this.n = n;
        this.board = n == 8 ? -1L : (1L << (n * n)) - 1;
        long col0 = 0, colLast = 0;
        for (int r = 0; r < n; r++) { col0 |= 1L << (r * n); colLast |= 1L << (r * n + n - 1); }
        inner = board & ~col0 & ~colLast;
        neighbours = new long[n * n];
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++)
                for (int dr = -1; dr <= 1; dr++)
                    for (int dc = -1; dc <= 1; dc++) {
                        int rr = r + dr, cc = c + dc;
                        if ((dr != 0 || dc != 0) && rr >= 0 && rr < n && cc >= 0 && cc < n) neighbours[r * n + c] |= 1L << (rr * n + cc);
                    }
        rayE = rays(n, 0, 1); rayS = rays(n, 1, 0); raySE = rays(n, 1, 1); raySW = rays(n, 1, -1);
        rayW = rays(n, 0, -1); rayN = rays(n, -1, 0); rayNW = rays(n, -1, -1); rayNE = rays(n, -1, 1);
        for (int g = 0; g < 8; g++) {
            perm[g] = new int[n * n];
            for (int r = 0; r < n; r++)
                for (int c = 0; c < n; c++) {
                    int rr, cc;
                    switch (g) {
                        case 0: rr = r; cc = c; break;
                        case 1: rr = r; cc = n - 1 - c; break;
                        case 2: rr = n - 1 - r; cc = c; break;
                        case 3: rr = n - 1 - r; cc = n - 1 - c; break;
                        case 4: rr = c; cc = r; break;
                        case 5: rr = c; cc = n - 1 - r; break;
                        case 6: rr = n - 1 - c; cc = r; break;
                        default: rr = n - 1 - c; cc = n - 1 - r; break;
                    }
                    perm[g][r * n + c] = rr * n + cc;
                }
        }
        for (int g = 0; g < 8; g++)
            for (int h = 0; h < 8; h++) {
                boolean id = true;
                for (int q = 0; q < n * n; q++) if (perm[h][perm[g][q]] != q) { id = false; break; }
                if (id) { inverse[g] = h; break; }
            }
        chunks = (n * n + 7) / 8;
        table = new long[8][chunks][256];
        for (int g = 0; g < 8; g++)
            for (int k = 0; k < chunks; k++)
                for (int b = 0; b < 256; b++) {
                    long img = 0;
                    for (int i = 0; i < 8; i++) {
                        int q = k * 8 + i;
                        if ((b >> i & 1) != 0 && q < n * n) img |= 1L << perm[g][q];
                    }
                    table[g][k][b] = img;
                }
    }

    private static long[] rays(int n, int dr, int dc) {
        long[] r = new long[n * n];
        for (int sq = 0; sq < n * n; sq++)
            for (int rr = sq / n + dr, cc = sq % n + dc; rr >= 0 && rr < n && cc >= 0 && cc < n; rr += dr, cc += dc)
                r[sq] |= 1L << (rr * n + cc);
        return r;
    }

    static int[] identityOrder(int m) {
        int[] t = new int[m];
        for (int i = 0; i < m; i++) t[i] = i;
        return t;
    }

    @Override public String name() { return "othello:" + n + "x" + n; }

    @Override public long[] start() {
        int h = n / 2;
        long white = (1L << ((h - 1) * n + h - 1)) | (1L << (h * n + h));
        long black = (1L << ((h - 1) * n + h)) | (1L << (h * n + h - 1));
        return new long[]{black, white};
    }

    /**
     * Legal moves: for each direction, the runs of opponent discs next to a mover disc, grown
     * by parallel prefix (runs up to 6), then the empty square after them. Opponent discs are
     * masked to the inner columns for directions with a horizontal part, so shifts never wrap.
     */
    @Override public long moves(long m, long o) {
        return n == 8 ? Board8.moves(m, o) : genericMoves(m, o); // the same set, constant shifts
    }

    /** {@link #moves} for any N (on 8×8 the tests compare {@link Board8}'s with it). */
    public long genericMoves(long m, long o) {
        long empty = board & ~(m | o);
        long oi = o & inner;
        return (dirMovesLeft(m, oi, 1) | dirMovesRight(m, oi, 1)
                | dirMovesLeft(m, o, n) | dirMovesRight(m, o, n)
                | dirMovesLeft(m, oi, n + 1) | dirMovesRight(m, oi, n + 1)
                | dirMovesLeft(m, oi, n - 1) | dirMovesRight(m, oi, n - 1)) & empty;
    }

    /**
     * The squares just past a run of {@code o} discs that starts next to an {@code m} disc, in the
     * direction of a left shift by {@code s}; the caller keeps the empty ones. The search's 8×8
     * move generator calls it with constant shifts, which the JIT folds.
     */
    public static long dirMovesLeft(long m, long o, int s) {
        long t = o & (m << s);
        t |= o & (t << s);
        long pre = o & (o << s);
        t |= pre & (t << (2 * s));
        t |= pre & (t << (2 * s));
        return t << s;
    }

    /** {@link #dirMovesLeft} shifting right. */
    public static long dirMovesRight(long m, long o, int s) {
        long t = o & (m >>> s);
        t |= o & (t >>> s);
        long pre = o & (o >>> s);
        t |= pre & (t >>> (2 * s));
        t |= pre & (t >>> (2 * s));
        return t >>> s;
    }

    /** Discs flipped by a move on square sq (0 if the move flips nothing, i.e. is illegal). */
    public long flips(long m, long o, int sq) {
        return n == 8 ? Board8.flips(m, o, sq) : genericFlips(m, o, sq); // one cache line of rays
    }

    /** {@link #flips} for any N (on 8×8 the tests compare {@link Board8}'s with it). */
    public long genericFlips(long m, long o, int sq) {
        if ((neighbours[sq] & o) == 0) return 0; // no adjacent opponent disc
        long no = ~o;
        return up(m, no, rayE[sq]) | up(m, no, rayS[sq]) | up(m, no, raySE[sq]) | up(m, no, raySW[sq])
                | down(m, no, rayW[sq]) | down(m, no, rayN[sq]) | down(m, no, rayNW[sq]) | down(m, no, rayNE[sq]);
    }

    /** Discs flipped by a move on the single-bit square {@code x}. */
    public long flipsBit(long m, long o, long x) {
        return flips(m, o, Long.numberOfTrailingZeros(x));
    }

    /** A ray of growing indices: the run up to the first non-opponent square flips if that square is ours. */
    private static long up(long m, long notO, long ray) {
        long t = ray & notO;
        long first = t & -t;
        long k = first & m; // the square ending the run: ours (flip the run) or not
        return (first - 1) & ray & ((k | -k) >> 63);
    }

    /** A ray of shrinking indices: the same with the highest non-opponent square. */
    private static long down(long m, long notO, long ray) {
        long first = Long.highestOneBit(ray & notO);
        long k = first & m;
        return ray & -(first << 1) & ((k | -k) >> 63);
    }

    @Override public long play(long m, long o, int move) {
        return m | flipsBit(m, o, 1L << move) | (1L << move);
    }

    @Override public boolean isTerminal(long m, long o) {
        return moves(m, o) == 0 && moves(o, m) == 0;
    }

    @Override public int terminalValue(long m, long o) { return utility(m, o); }

    /** Disc margin with the empties to the winner (SPEC §7.1). */
    public int utility(long m, long o) {
        int pm = Long.bitCount(m), po = Long.bitCount(o), e = n * n - pm - po;
        return pm > po ? pm - po + e : pm < po ? pm - po - e : 0;
    }

    @Override public boolean isLegalPosition(long m, long o) {
        if ((m & o) != 0 || ((m | o) & ~board) != 0) return false;
        int h = n / 2;
        long centre = (1L << ((h - 1) * n + h - 1)) | (1L << ((h - 1) * n + h))
                | (1L << (h * n + h - 1)) | (1L << (h * n + h));
        return ((m | o) & centre) == centre;
    }

    @Override public void child(long m, long o, int move, Child out) {
        long m2 = play(m, o, move), o2 = o & ~m2;
        if (moves(o2, m2) != 0) { out.sign = -1; out.mover = o2; out.opponent = m2; return; }
        if (moves(m2, o2) != 0) { out.sign = 1; out.mover = m2; out.opponent = o2; return; }
        out.sign = 0; out.terminalValue = utility(m2, o2);
        out.termMover = o2; out.termOpponent = m2;
    }

    @Override public int symmetryCount() { return 8; }

    @Override public long transform(int g, long bits) {
        if (g == 0) return bits;
        if (n == 8) return transform8(g, bits);
        long[][] t = table[g];
        long r = 0;
        for (int k = 0; k < chunks; k++) r |= t[k][(int) (bits >>> (8 * k)) & 0xFF];
        return r;
    }

    /**
     * On 8×8 the same result as the generic loop (the least transformed occupancy, then mover,
     * unsigned; the first symmetry that gives it), with the occupancy's eight images made from
     * three bit tricks and the mover transformed only where the occupancy ties for the least.
     */
    @Override public int canonical(long mover, long opponent, long[] out) {
        if (n != 8) return super.canonical(mover, opponent, out);
        long occ = mover | opponent;
        long mi = mirror8(occ), tr = transpose8(occ), mt = mirror8(tr);
        long bo = occ;
        int bg = 0, ties = 1; // ties: bit g set when symmetry g gives the least occupancy so far
        long c;
        c = mi; if (Long.compareUnsigned(c, bo) < 0) { bo = c; bg = 1; ties = 1 << 1; } else if (c == bo) ties |= 1 << 1;
        c = Long.reverseBytes(occ); if (Long.compareUnsigned(c, bo) < 0) { bo = c; bg = 2; ties = 1 << 2; } else if (c == bo) ties |= 1 << 2;
        c = Long.reverseBytes(mi); if (Long.compareUnsigned(c, bo) < 0) { bo = c; bg = 3; ties = 1 << 3; } else if (c == bo) ties |= 1 << 3;
        c = tr; if (Long.compareUnsigned(c, bo) < 0) { bo = c; bg = 4; ties = 1 << 4; } else if (c == bo) ties |= 1 << 4;
        c = mt; if (Long.compareUnsigned(c, bo) < 0) { bo = c; bg = 5; ties = 1 << 5; } else if (c == bo) ties |= 1 << 5;
        c = Long.reverseBytes(tr); if (Long.compareUnsigned(c, bo) < 0) { bo = c; bg = 6; ties = 1 << 6; } else if (c == bo) ties |= 1 << 6;
        c = Long.reverseBytes(mt); if (Long.compareUnsigned(c, bo) < 0) { bo = c; bg = 7; ties = 1 << 7; } else if (c == bo) ties |= 1 << 7;
        long bm = bg == 0 ? mover : transform8(bg, mover);
        for (int t = ties & ~(1 << bg); t != 0; t &= t - 1) { // the others with the same occupancy, in order
            int g = Integer.numberOfTrailingZeros(t);
            long tm = transform8(g, mover);
            if (Long.compareUnsigned(tm, bm) < 0 || (tm == bm && g < bg)) { bm = tm; bg = g; }
        }
        out[0] = bm; out[1] = bo & ~bm;
        return bg;
    }

    /** The symmetries of the 8×8 board by bit tricks (g numbered as in SPEC §7.4). */
    static long transform8(int g, long x) {
        switch (g) {
            case 1: return mirror8(x);
            case 2: return Long.reverseBytes(x);
            case 3: return Long.reverseBytes(mirror8(x));
            case 4: return transpose8(x);
            case 5: return mirror8(transpose8(x));
            case 6: return Long.reverseBytes(transpose8(x));
            default: return Long.reverseBytes(mirror8(transpose8(x)));
        }
    }

    /** (r, c) → (r, 7−c): reverse the bits of every byte. */
    static long mirror8(long x) {
        x = ((x >>> 1) & 0x5555555555555555L) | ((x & 0x5555555555555555L) << 1);
        x = ((x >>> 2) & 0x3333333333333333L) | ((x & 0x3333333333333333L) << 2);
        return ((x >>> 4) & 0x0F0F0F0F0F0F0F0FL) | ((x & 0x0F0F0F0F0F0F0F0FL) << 4);
    }

    /** (r, c) → (c, r). */
    static long transpose8(long x) {
        long t;
        t = 0x0F0F0F0F00000000L & (x ^ (x << 28)); x ^= t ^ (t >>> 28);
        t = 0x3333000033330000L & (x ^ (x << 14)); x ^= t ^ (t >>> 14);
        t = 0x5500550055005500L & (x ^ (x << 7)); x ^= t ^ (t >>> 7);
        return x;
    }

    /** The table-driven transform, for any N (tests compare it with the 8×8 bit tricks). */
    long transformByTable(int g, long bits) {
        long[][] t = table[g];
        long r = 0;
        for (int k = 0; k < chunks; k++) r |= t[k][(int) (bits >>> (8 * k)) & 0xFF];
        return r;
    }

    @Override public int transformMove(int g, int move) { return perm[g][move]; }

    @Override public int inverse(int g) { return inverse[g]; }

    @Override public String moveName(int move) {
        return "" + (char) ('a' + move % n) + (move / n + 1);
    }

    @Override public long[] parseMoves(String seq) {
        long[] p = start();
        long m = p[0], o = p[1];
        String s = seq.trim().toLowerCase(java.util.Locale.ROOT);
        if (s.length() % 2 != 0) throw new IllegalArgumentException("move sequence '" + seq + "' has odd length");
        for (int i = 0; i < s.length(); i += 2) {
            int c = s.charAt(i) - 'a', r = s.charAt(i + 1) - '1';
            String sq = s.substring(i, i + 2);
            if (c < 0 || c >= n || r < 0 || r >= n)
                throw new IllegalArgumentException("move " + (i / 2 + 1) + " '" + sq + "' is not a square of " + name());
            if (moves(m, o) == 0) {
                if (moves(o, m) == 0) throw new IllegalArgumentException("move " + (i / 2 + 1) + " '" + sq + "': the game is already over");
                long t = m; m = o; o = t; // implicit pass
            }
            int move = r * n + c;
            if ((moves(m, o) >> move & 1) == 0)
                throw new IllegalArgumentException("move " + (i / 2 + 1) + " '" + sq + "' is illegal");
            long m2 = play(m, o, move);
            o = o & ~m2;
            m = o; o = m2;
            // now (m, o) = (old opponent after flips, old mover after move)
        }
        return new long[]{m, o};
    }

    @Override public long[] parseBoard(String text) {
        String t = text.trim();
        if (t.endsWith(";")) t = t.substring(0, t.length() - 1).trim();
        int sp = t.lastIndexOf(' ');
        if (sp != n * n || t.length() != n * n + 2)
            throw new IllegalArgumentException("board text must be " + n * n + " squares (X, O, -), a space, and X or O to move");
        long x = 0, w = 0;
        for (int i = 0; i < n * n; i++) {
            char ch = Character.toUpperCase(t.charAt(i));
            if (ch == 'X' || ch == '*') x |= 1L << i;
            else if (ch == 'O') w |= 1L << i;
            else if (ch != '-' && ch != '.') throw new IllegalArgumentException("bad square character '" + t.charAt(i) + "' in board text");
        }
        char side = Character.toUpperCase(t.charAt(n * n + 1));
        if (side != 'X' && side != 'O') throw new IllegalArgumentException("side to move must be X or O");
        long[] p = side == 'X' ? new long[]{x, w} : new long[]{w, x};
        if (!isLegalPosition(p[0], p[1])) throw new IllegalArgumentException("illegal position: the centre squares must be occupied");
        return p;
    }

    @Override public String boardText(long m, long o) {
        // Colour names are not stored; Black is assumed to move when discs have even parity with the start.
        boolean moverIsX = Long.bitCount(m | o) % 2 == 0;
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n * n; i++) {
            long b = 1L << i;
            sb.append((m & b) != 0 ? (moverIsX ? 'X' : 'O') : (o & b) != 0 ? (moverIsX ? 'O' : 'X') : '-');
        }
        return sb.append(' ').append(moverIsX ? 'X' : 'O').toString();
    }
}

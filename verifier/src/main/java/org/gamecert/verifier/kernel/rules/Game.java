package org.gamecert.verifier.kernel.rules;

/**
 * The rules of one game of SPEC §7, on bitboards. A position is (mover, opponent); move codes are
 * numbered 0..moveCodes-1 as in SPEC §7.1/§7.3. Implementations are immutable and thread-safe.
 */
public abstract class Game {
    /** Child kinds returned by {@link #child}. */
    public static final int CHILD = 0, PASS_CHILD = 1, TERMINAL = 2;

    /** Cells of the board, move codes, the utility range, the symmetries of the group (SPEC §7). */
    public final int cells, moveCodes, uMin, uMax, symmetryCount;
    /** The board's squares as bits. */
    public final long boardMask;

    Game(int cells, int moveCodes, int uMin, int uMax, int symmetryCount, long boardMask) {
        this.cells = cells;
        this.moveCodes = moveCodes;
        this.uMin = uMin;
        this.uMax = uMax;
        this.symmetryCount = symmetryCount;
        this.boardMask = boardMask;
    }

    /** Bit k set when move code k is legal for the mover. */
    public abstract long legalMoveCodes(long mover, long opponent);

    /** The discs that become the mover's when it plays code (placed disc and flips). */
    public abstract long moveDelta(long mover, long opponent, int code);

    /** SPEC R-POS-1 (disjointness included). */
    public abstract boolean isLegalPosition(long mover, long opponent);

    /** True when the game is over at this position. */
    public abstract boolean isTerminal(long mover, long opponent);

    /** R-POS-2 holds: not terminal and the mover has a move (legal = legalMoveCodes). */
    public boolean storable(long mover, long opponent, long legal) {
        return legal != 0 && !isTerminal(mover, opponent);
    }

    /** The utility of a terminal position from its mover's point of view. */
    public abstract int terminalValue(long mover, long opponent);

    /** Image of a bitboard under symmetry g, numbered as listed in SPEC §7.4. */
    public abstract long transform(long bits, int g);

    /** All images of a bitboard, out[g] = transform(bits, g) for every g of the full group. */
    public void images(long bits, long[] out) {
        for (int g = 0; g < symmetryCount; g++) out[g] = transform(bits, g);
    }

    /**
     * The canonical form (SPEC §7.4) among the images under the first `group` symmetries (1: none):
     * the least occupancy, then the least mover. Returns its occupancy; out[8] = its mover;
     * out[0..7]: scratch. The mover is transformed only under the symmetries of least occupancy.
     */
    public long canonical(long mover, long opp, int group, long[] out) {
        long occ = mover | opp, bo = occ, bm = mover;
        if (group > 1) {
            images(occ, out);
            int best = 0;
            boolean tie = false;
            for (int g = 1; g < group; g++) {
                int cmp = Long.compareUnsigned(out[g], bo);
                if (cmp < 0) {
                    bo = out[g];
                    best = g;
                    tie = false;
                } else if (cmp == 0) {
                    tie = true;
                }
            }
            bm = best == 0 ? mover : transform(mover, best);
            for (int g = best + 1; tie && g < group; g++)
                if (out[g] == bo && Long.compareUnsigned(transform(mover, g), bm) < 0)
                    bm = transform(mover, g);
        }
        out[8] = bm;
        return bo;
    }

    /** The symmetry g^-1. */
    public abstract int inverse(int g);

    /** The code of move `code` after applying symmetry g to the board. */
    public abstract int mapMove(int code, int g);

    /**
     * A move of the canonical key (keyOcc, keyMover) of the position (mover, opponent), stated in
     * that position's own orientation (SPEC §7.4): through the first symmetry of the group that
     * maps the position to the key, inverted. The root's move as a report gives it.
     */
    public int moveAsGiven(int code, long mover, long opponent, long keyOcc, long keyMover,
            int group) {
        int g = 0;
        for (; g < group; g++)
            if (transform(mover | opponent, g) == keyOcc && transform(mover, g) == keyMover) break;
        return mapMove(code, inverse(g));
    }

    /** SPEC §7.5 name of a move code: an Othello square (a1) or a 1-based Connect Four column. */
    public abstract String moveName(int code);

    /**
     * The successor of a legal move (SPEC §7.2): returns CHILD (out = child, sign -1), PASS_CHILD
     * (out = child after the opponent's pass, sign +1) or TERMINAL (out = the terminal position
     * with the opponent to move, out[2] = the move's value from the mover's point of view).
     */
    public int child(long mover, long opponent, int code, long[] out) {
        long delta = moveDelta(mover, opponent, code);
        long m = mover | delta, o = opponent & ~delta;
        out[0] = o;
        out[1] = m;
        if (isTerminal(o, m)) {
            out[2] = -terminalValue(o, m);
            return TERMINAL;
        }
        if (legalMoveCodes(o, m) != 0) return CHILD;
        out[0] = m;
        out[1] = o;
        return PASS_CHILD;
    }
}

package org.gamecert.verifier.kernel;

import org.gamecert.verifier.kernel.format.Header;
import org.gamecert.verifier.kernel.rules.Game;
import org.gamecert.verifier.kernel.rules.OthelloRules;

/**
 * The one search the verifier does (SPEC §9.1, mode 3): whether a leaf, a position with at most
 * leaf_empties ≤ 6 empty cells, is worth at least b, by fail-soft alpha–beta with a null window to
 * the end of the game, under the rules of §7 alone. Every move fills an empty cell (passes fill
 * none and never come twice in a row), so the recursion is at most 6 moves deep and visits at
 * most 6! = 720 move sequences. One instance per checker (its scratch is per depth).
 */
final class LeafSearch {
    private final Game game;
    /** The game when it is Othello, whose leaves are searched by {@link #othello}; else null. */
    private final OthelloRules othelloRules;
    private final long[][] out = new long[Header.MAX_LEAF_EMPTIES + 1][3];

    LeafSearch(Game game) {
        this.game = game;
        othelloRules = game instanceof OthelloRules o ? o : null;
    }

    /** V(mover, opp) ≥ b, for a non-terminal position whose mover has a move. */
    boolean atLeast(long mover, long opp, int b) {
        if (b <= game.uMin) return true;
        if (b > game.uMax) return false;
        int v = othelloRules != null ? othello(mover, opp, b - 1, b, false)
                : value(mover, opp, b - 1, b, 0);
        return v >= b;
    }

    /** The value if it lies in (alpha, beta); else a bound on the side it fell (fail-soft). */
    private int value(long mover, long opp, int alpha, int beta, int depth) {
        long[] child = out[depth];
        int best = Integer.MIN_VALUE;
        for (long moves = game.legalMoveCodes(mover, opp); moves != 0; moves &= moves - 1) {
            int type = game.child(mover, opp, Long.numberOfTrailingZeros(moves), child);
            int floor = Math.max(alpha, best);
            int v;
            if (type == Game.TERMINAL) v = (int) child[2];
            else if (type == Game.CHILD) v = -value(child[0], child[1], -beta, -floor, depth + 1);
            else v = value(child[0], child[1], floor, beta, depth + 1); // the opponent passed
            if (v > best) {
                best = v;
                if (best >= beta) break;
            }
        }
        // Game.child never yields a non-terminal position without a move; fail safe if it did.
        if (best == Integer.MIN_VALUE)
            throw new IllegalStateException("a leaf position without moves");
        return best;
    }

    /**
     * The same value for Othello, about twice as fast: a move is an empty cell whose disc flips
     * (§7.1), so the search walks the few empty cells with OthelloRules.flips instead of making
     * each node's moves and each child's (Game.child asks whether the child can move); it takes
     * the passes itself (passed: the opponent just passed; a second pass ends the game), and the
     * last empty cell is played out at once.
     */
    private int othello(long mover, long opp, int alpha, int beta, boolean passed) {
        long empty = ~(mover | opp) & othelloRules.boardMask;
        if (empty == 0) return othelloRules.terminalValue(mover, opp);
        if ((empty & (empty - 1)) == 0) return lastCell(mover, opp, empty);
        int best = Integer.MIN_VALUE;
        for (long cells = empty; cells != 0; cells &= cells - 1) {
            int square = Long.numberOfTrailingZeros(cells);
            long flips = othelloRules.flips(mover, opp, square);
            if (flips == 0) continue; // not a move
            long m = mover | flips | 1L << square, o = opp & ~flips;
            int v = -othello(o, m, -beta, -Math.max(alpha, best), false);
            if (v > best) {
                best = v;
                if (best >= beta) return best;
            }
        }
        if (best != Integer.MIN_VALUE) return best;
        if (passed) return othelloRules.terminalValue(mover, opp); // neither side can move
        return -othello(opp, mover, -beta, -alpha, true);
    }

    /** One empty cell, cell: the mover plays it, else the opponent, else neither can. */
    private int lastCell(long mover, long opp, long cell) {
        int square = Long.numberOfTrailingZeros(cell);
        long flips = othelloRules.flips(mover, opp, square);
        if (flips != 0) return othelloRules.terminalValue(mover | flips | cell, opp & ~flips);
        flips = othelloRules.flips(opp, mover, square);
        if (flips != 0) return -othelloRules.terminalValue(opp | flips | cell, mover & ~flips);
        return othelloRules.terminalValue(mover, opp);
    }
}

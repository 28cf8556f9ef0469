package org.gamecert.verifier.kernel;

import org.gamecert.verifier.kernel.format.Header;
import org.gamecert.verifier.kernel.rules.Game;

/**
 * The one search the verifier does (SPEC §9.1, mode 3): whether a leaf, a position with at most
 * leaf_empties ≤ 6 empty cells, is worth at least b, by fail-soft alpha–beta with a null window to
 * the end of the game, under the rules of §7 alone. Every move fills an empty cell (passes are
 * contracted by Game.child and fill none), so the recursion is at most 6 deep and visits at most
 * 6! = 720 move sequences. One instance per checker (its scratch is per depth).
 */
final class LeafSearch {
    private final Game game;
    private final long[][] out = new long[Header.MAX_LEAF_EMPTIES + 1][3];

    LeafSearch(Game game) {
        this.game = game;
    }

    /** V(mover, opp) ≥ b, for a non-terminal position whose mover has a move. */
    boolean atLeast(long mover, long opp, int b) {
        if (b <= game.uMin) return true;
        if (b > game.uMax) return false;
        return value(mover, opp, b - 1, b, 0) >= b;
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
}

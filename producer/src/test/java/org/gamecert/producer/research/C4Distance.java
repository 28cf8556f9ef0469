package org.gamecert.producer.research;

/**
 * Research throwaway (issue #40): plies to the end of the game under best play for a won or lost
 * position (the winner as fast as it can, the loser as slowly), memoized, from the exact oracle.
 */
final class C4Distance {
    private final C4Board b;
    private final C4Oracle oracle;
    private final LongIntMap memo = new LongIntMap(16);

    C4Distance(C4Board b, C4Oracle oracle) { this.b = b; this.oracle = oracle; }

    /** Plies to the win after the winning move into column c, that move included. */
    int winMovePlies(long pos, long mask, int c) {
        long m = b.possible(mask) & b.colMask[c];
        if (b.four(pos | m)) return 1;
        return 1 + plies(pos ^ mask, mask | m);
    }

    /** For a non-terminal position won or lost for its mover: plies to the end (win fast, lose slowly). */
    int plies(long pos, long mask) {
        long k = b.key(pos, mask);
        int d = memo.get(k, -1);
        if (d >= 0) return d;
        int v = oracle.value(pos, mask);
        if (v == 0) throw new IllegalArgumentException("drawn");
        long poss = b.possible(mask);
        int best = v > 0 ? Integer.MAX_VALUE : -1;
        for (int c = 0; c < b.w; c++) {
            long m = poss & b.colMask[c];
            if (m == 0) continue;
            int mv = oracle.moveValue(pos, mask, c);
            if (v > 0) {
                if (mv != 1) continue;
                best = Math.min(best, winMovePlies(pos, mask, c));
            } else {
                // every move loses (no immediate win or draw exists in a lost position)
                best = Math.max(best, 1 + plies(pos ^ mask, mask | m));
            }
        }
        memo.put(k, best);
        return best;
    }
}

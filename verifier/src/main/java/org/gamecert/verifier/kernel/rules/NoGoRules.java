package org.gamecert.verifier.kernel.rules;

/**
 * Linear NoGo 1×N, 1 ≤ N ≤ 64 (SPEC §7.6): point i, 0-based from the left, is bit i. A move puts
 * a stone of the mover's colour on an empty point; it is legal when afterwards every block (a
 * maximal run of stones of one colour) of either colour has a liberty (an empty neighbour): no
 * suicide, no capture. No passes: a player with no legal move has lost (value -1).
 */
public final class NoGoRules extends Game {
    private final int n;

    public NoGoRules(int n) {
        super(n, n, -1, 1, 2, n == 64 ? -1L : (1L << n) - 1);
        if (n < 1 || n > 64) throw new IllegalArgumentException("NoGo 1x" + n);
        this.n = n;
    }

    /**
     * The stones of `stones` whose block has a liberty: those next to an empty point, grown along
     * their blocks one point at a time until nothing changes.
     */
    static long breathing(long stones, long empty) {
        long alive = stones & ((empty << 1) | (empty >>> 1));
        while (true) {
            long next = alive | (stones & ((alive << 1) | (alive >>> 1)));
            if (next == alive) return alive;
            alive = next;
        }
    }

    /** Every block of both colours has a liberty. */
    private boolean allBreathe(long a, long b) {
        long empty = ~(a | b) & boardMask;
        return breathing(a, empty) == a && breathing(b, empty) == b;
    }

    @Override
    public long legalMoveCodes(long mover, long opponent) {
        long moves = 0;
        for (long free = ~(mover | opponent) & boardMask; free != 0; free &= free - 1) {
            long point = free & -free;
            if (allBreathe(mover | point, opponent)) moves |= point;
        }
        return moves;
    }

    @Override
    public long moveDelta(long mover, long opponent, int code) {
        return 1L << code;
    }

    /** Disjoint, on the board, Black (first) to move on equal counts, every block breathes. */
    @Override
    public boolean isLegalPosition(long mover, long opponent) {
        if ((mover & opponent) != 0 || ((mover | opponent) & ~boardMask) != 0) return false;
        int diff = Long.bitCount(opponent) - Long.bitCount(mover);
        return (diff == 0 || diff == 1) && allBreathe(mover, opponent);
    }

    /** The game is over when the mover has no legal move. */
    @Override
    public boolean isTerminal(long mover, long opponent) {
        return legalMoveCodes(mover, opponent) == 0;
    }

    @Override
    public boolean storable(long mover, long opponent, long legal) {
        return legal != 0;
    }

    /** The mover of a terminal position cannot move: it has lost. */
    @Override
    public int terminalValue(long mover, long opponent) {
        return -1;
    }

    /** A move is terminal, with value +1, when the opponent then has no legal move. */
    @Override
    public int child(long mover, long opponent, int code, long[] out) {
        long m = mover | moveDelta(mover, opponent, code);
        out[0] = opponent;
        out[1] = m;
        if (legalMoveCodes(opponent, m) != 0) return CHILD;
        out[2] = 1;
        return TERMINAL;
    }

    /** g0: the identity; g1: the mirror i -> N-1-i. */
    @Override
    public long transform(long bits, int g) {
        return g == 0 ? bits : Long.reverse(bits) >>> (64 - n);
    }

    @Override
    public int mapMove(int code, int g) {
        return g == 0 ? code : n - 1 - code;
    }

    @Override
    public String moveName(int code) {
        return Integer.toString(code + 1);
    }

    @Override
    public int inverse(int g) {
        return g;
    }
}

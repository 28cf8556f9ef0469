package org.gamecert.producer.search.pn;

import org.gamecert.producer.game.Loa;

/**
 * The moves of Lines of Action (SPEC §7.7) for the proof-number search's inner loop: the same
 * moves, in the same order and format as {@link Loa#moves(long, long, int[])} (the tests compare
 * them), from flat tables (one popcount per axis and piece, the two directions of an axis share
 * it), and a count without the list.
 */
final class LoaMoves {
    private final int n, cells, stride;
    /** LINE[axis * cells + sq]: the whole line through sq. */
    private final long[] line;
    /** TARGET / PATH[((d * cells) + sq) * stride + k]: the square k steps away (-1 off the board), the squares strictly between. */
    private final int[] target;
    private final long[] path;

    LoaMoves(int n) {
        this.n = n;
        cells = n * n;
        stride = n + 1;
        line = new long[4 * cells];
        target = new int[8 * cells * stride];
        path = new long[8 * cells * stride];
        int[] dr = {-1, -1, 0, 1, 1, 1, 0, -1}, dc = {0, 1, 1, 1, 0, -1, -1, -1};
        for (int sq = 0; sq < cells; sq++) {
            int r = sq / n, c = sq % n;
            for (int d = 0; d < 8; d++) {
                long between = 0;
                for (int k = 0; k <= n; k++) {
                    int rr = r + k * dr[d], cc = c + k * dc[d];
                    boolean on = rr >= 0 && rr < n && cc >= 0 && cc < n;
                    int at = (d * cells + sq) * stride + k;
                    target[at] = on ? rr * n + cc : -1;
                    path[at] = between;
                    if (on) {
                        if (k > 0) between |= 1L << (rr * n + cc);
                        line[(d & 3) * cells + sq] |= 1L << (rr * n + cc);
                    }
                }
            }
        }
    }

    /** As {@link Loa#moves(long, long, int[])}: out[j] = code << 16 | from << 8 | to, codes ascending. */
    int moves(long mover, long opponent, int[] out) {
        long occ = mover | opponent;
        int count = 0, place = 0;
        for (long x = mover; x != 0; x &= x - 1, place++) {
            int from = Long.numberOfTrailingZeros(x);
            for (int d = 0; d < 8; d++) {
                int k = Long.bitCount(occ & line[(d & 3) * cells + from]);
                if (k > n) continue;
                int at = (d * cells + from) * stride + k, to = target[at];
                if (to < 0 || (path[at] & opponent) != 0 || (mover >>> to & 1) != 0) continue;
                out[count++] = (place * 8 + d) << 16 | from << 8 | to;
            }
        }
        return count;
    }

    /** The number of legal moves of the mover. */
    int count(long mover, long opponent) {
        long occ = mover | opponent;
        int count = 0;
        for (long x = mover; x != 0; x &= x - 1) {
            int from = Long.numberOfTrailingZeros(x);
            for (int a = 0; a < 4; a++) {
                int k = Long.bitCount(occ & line[a * cells + from]);
                if (k > n) continue;
                int at = (a * cells + from) * stride + k, to = target[at];
                if (to >= 0 && (path[at] & opponent) == 0 && (mover >>> to & 1) == 0) count++;
                at = ((a + 4) * cells + from) * stride + k;
                to = target[at];
                if (to >= 0 && (path[at] & opponent) == 0 && (mover >>> to & 1) == 0) count++;
            }
        }
        return count;
    }
}

package org.gamecert.producer.search;

/**
 * The number of discs flipped by a move on the last empty square of an 8×8 board, from the
 * mover's discs alone (every other square is the opponent's): the four lines through the square
 * are gathered into bytes (a row as is, a column or a diagonal by a multiplication) and a table
 * gives each line's count, with no flip masks built.
 */
final class LastFlip {
    private LastFlip() {}

    /** COUNT[pos << 8 | line]: discs flipped on an 8-square line by playing at pos, own discs = line bits, the rest the opponent's. */
    private static final byte[] COUNT = new byte[8 * 256];
    /** Per square: its two diagonals (a1-h8 direction and h1-a8 direction) without the square itself. */
    private static final long[] DIAG9 = new long[64], DIAG7 = new long[64];

    static {
        for (int pos = 0; pos < 8; pos++)
            for (int line = 0; line < 256; line++) {
                int n = 0;
                for (int d = -1; d <= 1; d += 2) {
                    int run = 0, y = pos + d;
                    while (y >= 0 && y < 8 && (line >>> y & 1) == 0) { run++; y += d; }
                    if (y >= 0 && y < 8) n += run;
                }
                COUNT[pos << 8 | line] = (byte) n;
            }
        for (int sq = 0; sq < 64; sq++) {
            int r = sq >>> 3, c = sq & 7;
            for (int k = -7; k <= 7; k++) {
                if (k == 0) continue;
                int r9 = r + k, c9 = c + k, c7 = c - k;
                if (r9 >= 0 && r9 < 8 && c9 >= 0 && c9 < 8) DIAG9[sq] |= 1L << (r9 * 8 + c9);
                if (r9 >= 0 && r9 < 8 && c7 >= 0 && c7 < 8) DIAG7[sq] |= 1L << (r9 * 8 + c7);
            }
        }
    }

    /** Discs flipped by playing the single empty square sq when the mover holds p and the opponent every other square. */
    static int count(int sq, long p) {
        int r = sq >>> 3, c = sq & 7;
        int row = (int) (p >>> (r << 3)) & 0xFF;
        int col = (int) ((((p >>> c) & 0x0101010101010101L) * 0x0102040810204080L) >>> 56);
        int d9 = (int) (((p & DIAG9[sq]) * 0x0101010101010101L) >>> 56);
        int d7 = (int) (((p & DIAG7[sq]) * 0x0101010101010101L) >>> 56);
        return COUNT[c << 8 | row] + COUNT[r << 8 | col] + COUNT[c << 8 | d9] + COUNT[c << 8 | d7];
    }
}

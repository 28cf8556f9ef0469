package org.gamecert.verifier.kernel.rules;

/** A deliberately plain Othello: an int array board, direction walks, no bit tricks. */
final class NaiveOthello {
    final int n;

    NaiveOthello(int n) {
        this.n = n;
    }

    /** board[r][c]: 1 = mover, 2 = opponent, 0 = empty. */
    int[][] board(long mover, long opponent) {
        int[][] b = new int[n][n];
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                int i = r * n + c;
                if (((mover >>> i) & 1) != 0) b[r][c] = 1;
                else if (((opponent >>> i) & 1) != 0) b[r][c] = 2;
            }
        return b;
    }

    static final int[][] DIRS = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

    boolean on(int r, int c) {
        return r >= 0 && r < n && c >= 0 && c < n;
    }

    /** Squares (r*n+c) flipped when the player `who` plays at (r, c); empty list if none. */
    java.util.List<Integer> flips(int[][] b, int who, int r, int c) {
        java.util.List<Integer> all = new java.util.ArrayList<>();
        if (b[r][c] != 0) return all;
        int other = 3 - who;
        for (int[] d : DIRS) {
            java.util.List<Integer> run = new java.util.ArrayList<>();
            int rr = r + d[0], cc = c + d[1];
            while (on(rr, cc) && b[rr][cc] == other) {
                run.add(rr * n + cc);
                rr += d[0];
                cc += d[1];
            }
            if (!run.isEmpty() && on(rr, cc) && b[rr][cc] == who) all.addAll(run);
        }
        return all;
    }

    boolean[] legal(int[][] b, int who) {
        boolean[] legal = new boolean[n * n];
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) legal[r * n + c] = !flips(b, who, r, c).isEmpty();
        return legal;
    }

    int value(int[][] b) {
        int m = 0, o = 0;
        for (int[] row : b)
            for (int v : row) {
                if (v == 1) m++;
                if (v == 2) o++;
            }
        int e = n * n - m - o;
        if (m > o) return m - o + e;
        if (m < o) return m - o - e;
        return 0;
    }

    /** Where square (r, c) goes under symmetry g, as listed in SPEC §7.4. */
    int[] image(int r, int c, int g) {
        int m = n - 1;
        switch (g) {
            case 0: return new int[] {r, c};
            case 1: return new int[] {r, m - c};
            case 2: return new int[] {m - r, c};
            case 3: return new int[] {m - r, m - c};
            case 4: return new int[] {c, r};
            case 5: return new int[] {c, m - r};
            case 6: return new int[] {m - c, r};
            default: return new int[] {m - c, m - r};
        }
    }

    long transform(long bits, int g) {
        long out = 0;
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++)
                if (((bits >>> (r * n + c)) & 1) != 0) {
                    int[] t = image(r, c, g);
                    out |= 1L << (t[0] * n + t[1]);
                }
        return out;
    }
}

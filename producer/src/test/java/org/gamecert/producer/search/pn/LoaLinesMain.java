package org.gamecert.producer.search.pn;

import org.gamecert.producer.game.Loa;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A research tool (docs/research/loa.md, "growth on 6×6"): a realistic line of Lines of Action
 * from given first moves, both sides choosing by a 3-ply alpha-beta on a classic evaluation
 * (pieces' concentration about their centre of mass, then the number of groups), deterministic.
 * Prints one row per position of the line: plies from the start, plies to the end of the line,
 * pieces on the board, the side to move's pieces, and the {@code --moves} that reach it.
 *
 * <pre>java -cp producer/target/classes:producer/target/test-classes \
 *   org.gamecert.producer.search.pn.LoaLinesMain 6 "b1-b3"</pre>
 */
public final class LoaLinesMain {
    private LoaLinesMain() {}

    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        String first = args.length > 1 ? args[1] : "";
        int depth = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        Loa loa = new Loa(n);
        List<String> line = line(loa, first, depth);
        System.out.println("ply\tto_end\tpieces\tmover_pieces\tmoves");
        long[] p = loa.parseMoves("");
        for (int i = 0; i <= line.size(); i++) {
            String moves = String.join(" ", line.subList(0, i));
            p = loa.parseMoves(moves);
            System.out.printf(Locale.ROOT, "%d\t%d\t%d\t%d\t%s%n", i, line.size() - i, Long.bitCount(p[0] | p[1]), Long.bitCount(p[0]), moves);
        }
    }

    /** The moves of the line (origin-destination), the first ones given, until the game ends. */
    static List<String> line(Loa loa, String first, int depth) {
        List<String> moves = new ArrayList<>();
        if (!first.isBlank()) for (String t : first.trim().split("\\s+")) moves.add(t);
        long[] p = loa.parseMoves(String.join(" ", moves));
        long m = p[0], o = p[1];
        int[] mv = new int[64];
        long[] out = new long[3];
        for (int ply = 0; ply < 300 && !loa.isTerminal(m, o); ply++) {
            if (!loa.hasMove(m, o)) { long x = m; m = o; o = x; }
            int count = loa.moves(m, o, mv), best = -1;
            int bestScore = Integer.MIN_VALUE;
            for (int i = 0; i < count; i++) {
                int s = -negamax(loa, m, o, mv[i], depth - 1);
                if (s > bestScore) { bestScore = s; best = mv[i]; }
            }
            int from = best >>> 8 & 0xFF, to = best & 0xFF;
            moves.add(loa.square(from) + "-" + loa.square(to));
            int t = loa.play(m, o, from, to, out);
            if (t == Loa.TERMINAL) break;
            m = out[0];
            o = out[1];
            if (t == Loa.PASS) { long x = m; m = o; o = x; } // parseMoves passes implicitly
        }
        return moves;
    }

    /** The value, for the side that replies, of the move mv of m. */
    private static int negamax(Loa loa, long m, long o, int mv, int depth) {
        long[] out = new long[3];
        int t = loa.play(m, o, mv >>> 8 & 0xFF, mv & 0xFF, out);
        if (t == Loa.TERMINAL) return (int) -out[2] * 100000;
        long cm = out[0], co = out[1];
        int sign = t == Loa.PASS ? -1 : 1; // after a pass the mover moves again
        if (depth == 0) return sign * eval(loa, cm, co);
        int[] buf = new int[64];
        int count = loa.moves(cm, co, buf), best = Integer.MIN_VALUE;
        for (int i = 0; i < count; i++) best = Math.max(best, -negamax(loa, cm, co, buf[i], depth - 1));
        return sign * best;
    }

    /** For the side to move: the opponent's spread minus its own, groups weighing more. */
    static int eval(Loa loa, long m, long o) {
        return spread(loa, o) - spread(loa, m) + 4 * (loa.groups(o) - loa.groups(m));
    }

    private static int spread(Loa loa, long pieces) {
        int n = loa.n, c = Long.bitCount(pieces), sr = 0, sc = 0;
        for (long x = pieces; x != 0; x &= x - 1) { int sq = Long.numberOfTrailingZeros(x); sr += sq / n; sc += sq % n; }
        int cr = Math.round((float) sr / c), cc = Math.round((float) sc / c), sum = 0;
        for (long x = pieces; x != 0; x &= x - 1) {
            int sq = Long.numberOfTrailingZeros(x);
            sum += Math.max(Math.abs(sq / n - cr), Math.abs(sq % n - cc));
        }
        return sum;
    }
}

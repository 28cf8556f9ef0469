package org.gamecert.verifier.kernel.rules;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Microbenchmark of the game rules' hot operations (not a test; run by scripts/bench-rules):
 * legalMoveCodes, child() (move delta + pass/terminal detection) and images() (all symmetry
 * images), on positions of random playouts with a fixed seed. Prints the best ns/op of several
 * rounds after a warm-up; every result feeds a checksum so that no call can be optimised away.
 */
public final class RulesBench {
    private static long sink;

    /** Positions (mover, opponent) with a legal move each, from random playouts. */
    private static final class Stream {
        final long[] mover, opp;
        final int[] code;

        Stream(List<long[]> ps) {
            mover = new long[ps.size()];
            opp = new long[ps.size()];
            code = new int[ps.size()];
            for (int i = 0; i < ps.size(); i++) {
                mover[i] = ps.get(i)[0];
                opp[i] = ps.get(i)[1];
                code[i] = (int) ps.get(i)[2];
            }
        }
    }

    static Stream playouts(Game game, long mover0, long opp0, int count, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<long[]> ps = new ArrayList<>();
        long[] out = new long[3];
        while (ps.size() < count) {
            long mover = mover0, opp = opp0;
            while (ps.size() < count) {
                long legal = game.legalMoveCodes(mover, opp);
                if (legal == 0) break;
                int pick = rnd.nextInt(Long.bitCount(legal));
                long m = legal;
                for (; pick > 0; pick--) m &= m - 1;
                int code = Long.numberOfTrailingZeros(m);
                ps.add(new long[] {mover, opp, code});
                int kind = game.child(mover, opp, code, out);
                if (kind == Game.TERMINAL) break;
                mover = out[0];
                opp = out[1];
            }
        }
        return new Stream(ps);
    }

    interface Op {
        long run(Game game, Stream s);
    }

    static long legal(Game game, Stream s) {
        long x = 0;
        for (int i = 0; i < s.mover.length; i++) x += game.legalMoveCodes(s.mover[i], s.opp[i]);
        return x;
    }

    static long child(Game game, Stream s) {
        long x = 0;
        long[] out = new long[3];
        for (int i = 0; i < s.mover.length; i++) x += game.child(s.mover[i], s.opp[i], s.code[i], out) + out[0] + out[1];
        return x;
    }

    static long images(Game game, Stream s) {
        long x = 0;
        long[] out = new long[8];
        for (int i = 0; i < s.mover.length; i++) {
            game.images(s.mover[i] | s.opp[i], out);
            for (int g = 0; g < game.symmetryCount; g++) x += out[g] * (g + 1);
        }
        return x;
    }

    static double measure(Game game, Stream s, Op op, int rounds) {
        double best = Double.MAX_VALUE;
        for (int r = 0; r < rounds; r++) {
            long t = System.nanoTime();
            sink += op.run(game, s);
            best = Math.min(best, (double) (System.nanoTime() - t) / s.mover.length);
        }
        return best;
    }

    static long othelloStart(int n, boolean black) {
        int h = n / 2;
        return black ? (1L << ((h - 1) * n + h)) | (1L << (h * n + h - 1))
                : (1L << ((h - 1) * n + h - 1)) | (1L << (h * n + h));
    }

    public static void main(String[] args) {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        Game[] games = {new OthelloRules(6), new OthelloRules(8), new ConnectFourRules(7, 6)};
        String[] names = {"othello 6x6", "othello 8x8", "connect4 7x6"};
        Stream[] streams = new Stream[games.length];
        for (int i = 0; i < games.length; i++) {
            Game g = games[i];
            streams[i] = g instanceof OthelloRules
                    ? playouts(g, othelloStart(((OthelloRules) g).size, true), othelloStart(((OthelloRules) g).size, false), count, 42)
                    : playouts(g, 0, 0, count, 42);
        }
        String[] opNames = {"legalMoveCodes", "child", "images"};
        Op[] ops = {RulesBench::legal, RulesBench::child, RulesBench::images};
        // warm-up: every op on every game, so that the JIT sees all receiver types up front
        for (int w = 0; w < 3; w++)
            for (int i = 0; i < games.length; i++)
                for (Op op : ops) sink += op.run(games[i], streams[i]);
        System.out.printf("%-14s %15s %15s %15s%n", "ns/op (best)", opNames[0], opNames[1], opNames[2]);
        for (int i = 0; i < games.length; i++) {
            System.out.printf("%-14s", names[i]);
            for (Op op : ops) System.out.printf(" %15.1f", measure(games[i], streams[i], op, rounds));
            System.out.println();
        }
        System.out.println("(" + count + " positions per game from random playouts, seed 42; best of " + rounds
                + " rounds; checksum " + Long.toHexString(sink) + ")");
    }
}

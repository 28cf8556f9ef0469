package org.gamecert.producer.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.gamecert.producer.game.Game;
import org.gamecert.producer.search.Oracle;

/**
 * Plain search (no certificate) of a file of positions on one thread.
 * <p>Connect Four (default), as Pascal Pons' `c4solver -w` runs them: one table for the whole
 * file, kept warm from line to line. Each line is `MOVES [SCORE]`; a line's win/draw/loss value
 * is checked against the sign of SCORE when given. Prints one line: positions, nodes, thread CPU
 * seconds, wall seconds, mismatches.
 * <p>Othello ({@code --game othello:8x8}), as Edax's {@code -solve} runs an .obf file: each line
 * `BOARD SIDE; MOVE:SCORE; ...` is solved exactly with a fresh table (the first listed score is
 * the expected value). Before timing, the JVM is warmed up on the positions of {@code --warmup
 * FILE} (not timed). Prints one line per position: its index, empties, value, nodes, thread CPU
 * seconds and wall seconds, then a total line as for Connect Four.
 * Usage: SearchBench FILE [--lines N] [--tt-mb MB] [--game G] [--warmup FILE]
 */
public final class SearchBench {
    private SearchBench() {}

    public static void main(String[] args) throws Exception {
        Path file = null, warmup = null;
        int limit = Integer.MAX_VALUE;
        long ttMb = 64;
        String game = "connect4:7x6";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--lines": limit = Integer.parseInt(args[++i]); break;
                case "--tt-mb": ttMb = Long.parseLong(args[++i]); break;
                case "--game": game = args[++i]; break;
                case "--warmup": warmup = Path.of(args[++i]); break;
                default: file = Path.of(args[i]);
            }
        }
        if (file == null) {
            System.err.println("usage: SearchBench FILE [--lines N] [--tt-mb MB] [--game connect4:7x6|othello:8x8] [--warmup FILE]");
            System.exit(2);
        }
        Game g = Game.parse(game);
        if (game.startsWith("othello")) { othello(g, file, warmup, limit, ttMb); return; }
        Oracle oracle = new Oracle(g, ttMb);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        List<String> lines = Files.readAllLines(file);
        int n = 0, wrong = 0;
        long c0 = mx.getCurrentThreadCpuTime(), w0 = System.nanoTime();
        for (String line : lines) {
            if (n == limit) break;
            String[] f = line.trim().split("\\s+");
            if (f[0].isEmpty()) continue;
            long[] p = g.parseMoves(f[0]);
            int v = oracle.value(p[0], p[1]);
            if (f.length > 1 && Integer.signum(Integer.parseInt(f[1])) != v) wrong++;
            n++;
        }
        double cpu = (mx.getCurrentThreadCpuTime() - c0) / 1e9, wall = (System.nanoTime() - w0) / 1e9;
        System.out.printf(Locale.ROOT, "positions %d nodes %d cpu %.3f wall %.3f mismatches %d%n", n, oracle.nodes(), cpu, wall, wrong);
        if (wrong > 0) System.exit(1);
    }

    private static void othello(Game g, Path file, Path warmup, int limit, long ttMb) throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        if (warmup != null)
            for (String line : Files.readAllLines(warmup)) {
                if (line.isBlank()) continue;
                long[] p = g.parseBoard(line.split(";")[0] + ";");
                if (g.cells - Long.bitCount(p[0] | p[1]) <= 18) new Oracle(g, ttMb).value(p[0], p[1]);
            }
        int n = 0, wrong = 0;
        long nodes = 0, cpu = 0, wall = 0;
        for (String line : Files.readAllLines(file)) {
            if (n == limit) break;
            if (line.isBlank()) continue;
            String[] parts = line.split(";");
            long[] p = g.parseBoard(parts[0] + ";");
            Integer expected = null;
            if (parts.length > 1 && parts[1].contains(":")) expected = Integer.parseInt(parts[1].trim().split(":")[1].replace("+", ""));
            Oracle oracle = new Oracle(g, ttMb);
            long c0 = mx.getCurrentThreadCpuTime(), w0 = System.nanoTime();
            int v = oracle.value(p[0], p[1]);
            long c = mx.getCurrentThreadCpuTime() - c0, w = System.nanoTime() - w0;
            if (expected != null && expected != v) wrong++;
            System.out.printf(Locale.ROOT, "line %d empties %d value %d nodes %d cpu %.3f wall %.3f%s%n", n + 1,
                    g.cells - Long.bitCount(p[0] | p[1]), v, oracle.nodes(), c / 1e9, w / 1e9,
                    expected != null && expected != v ? " MISMATCH expected " + expected : "");
            nodes += oracle.nodes(); cpu += c; wall += w;
            n++;
        }
        System.out.printf(Locale.ROOT, "positions %d nodes %d cpu %.3f wall %.3f mismatches %d%n", n, nodes, cpu / 1e9, wall / 1e9, wrong);
        if (wrong > 0) System.exit(1);
    }
}

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
 * Plain search (no certificate) of a file of Connect Four positions on one thread, as Pascal Pons'
 * `c4solver -w` runs them: one table for the whole file, kept warm from line to line. Each line is
 * `MOVES [SCORE]`; a line's win/draw/loss value is checked against the sign of SCORE when given.
 * Prints one line: positions, nodes, thread CPU seconds, wall seconds, mismatches.
 * Usage: SearchBench FILE [--lines N] [--tt-mb MB] [--game connect4:7x6]
 */
public final class SearchBench {
    private SearchBench() {}

    public static void main(String[] args) throws Exception {
        Path file = null;
        int limit = Integer.MAX_VALUE;
        long ttMb = 64;
        String game = "connect4:7x6";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--lines": limit = Integer.parseInt(args[++i]); break;
                case "--tt-mb": ttMb = Long.parseLong(args[++i]); break;
                case "--game": game = args[++i]; break;
                default: file = Path.of(args[i]);
            }
        }
        if (file == null) {
            System.err.println("usage: SearchBench FILE [--lines N] [--tt-mb MB] [--game connect4:7x6]");
            System.exit(2);
        }
        Game g = Game.parse(game);
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
}

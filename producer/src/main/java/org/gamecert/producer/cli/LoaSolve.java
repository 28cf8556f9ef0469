package org.gamecert.producer.cli;

import org.gamecert.producer.cert.CertificateWriter;
import org.gamecert.producer.cert.RankedCertificate;
import org.gamecert.producer.command.CommandSupport;
import org.gamecert.producer.game.Loa;
import org.gamecert.producer.search.LoaSolver;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * {@code solve --game loa:NxN --mode weak-ranked}: a ranked win proof of Lines of Action from the
 * start (SPEC §7.7, §9.2), written as a weak-ranked certificate. With {@code --time-limit} the
 * search stops there and reports how far it got (no certificate, exit 3).
 */
final class LoaSolve {
    private LoaSolve() {}

    static int run(String gameName, String mode, Path out, boolean force, Integer timeLimitSeconds, long ttMb, boolean quiet,
                   PrintStream stdout, PrintStream stderr) throws IOException {
        String s = gameName.trim().toLowerCase(Locale.ROOT);
        int n;
        try {
            String[] wh = s.substring(4).split("x");
            n = Integer.parseInt(wh[0]);
            if (wh.length != 2 || Integer.parseInt(wh[1]) != n || n < 4 || n > 6) throw new NumberFormatException();
        } catch (RuntimeException e) {
            throw new CommandSupport.UserError("unknown game '" + gameName + "': LOA is loa:4x4, loa:5x5 or loa:6x6");
        }
        if (!mode.equalsIgnoreCase("weak-ranked"))
            throw new CommandSupport.UserError("LOA certificates are weak-ranked: give --mode weak-ranked (SPEC 9.2)");
        Path outAbs = out.toAbsolutePath();
        Path dir = outAbs.getParent();
        CommandSupport.requireWritable("--out", out);
        if (Files.exists(outAbs) && !force)
            throw new CommandSupport.UserError("--out " + out + " exists: give --force to overwrite it, or another --out");
        Loa loa = new Loa(n);
        long[] root = loa.start();
        long t0 = System.nanoTime();
        long deadline = Long.MAX_VALUE; // nanoTime compared with it: a limit past the end of long is none
        if (timeLimitSeconds != null && t0 < Long.MAX_VALUE - timeLimitSeconds * 1_000_000_000L) deadline = t0 + timeLimitSeconds * 1_000_000_000L;
        long maxEntries = Math.max(1 << 16, ttMb * (1L << 20) / 64); // about 64 bytes a position, table growth included
        LoaSolver solver = new LoaSolver(loa, deadline, maxEntries);
        int value;
        try {
            value = solver.solve(root[0], root[1], 200, quiet ? null : d -> stderr.printf(Locale.ROOT,
                    "[%6.1fs] no win or loss of rank <= %d: %d nodes, %d positions in the table%n",
                    (System.nanoTime() - t0) / 1e9, d, solver.nodes, solver.tableSize()));
        } catch (LoaSolver.OutOfBudget e) {
            double secs = (System.nanoTime() - t0) / 1e9;
            stdout.printf(Locale.ROOT, "game          %s (weak-ranked)%n", loa.name());
            stdout.printf(Locale.ROOT, "not solved    %s after %.1f s: no win or loss of rank <= %d from the start; %d nodes, %d positions in the table%n",
                    e.getMessage(), secs, solver.depthDone, solver.nodes, solver.tableSize());
            return CommandSupport.EXIT_NOT_SOLVED;
        }
        double solveSecs = (System.nanoTime() - t0) / 1e9;
        if (value == 0) {
            stdout.printf(Locale.ROOT, "not solved    no win or loss of rank <= 200 (%d nodes)%n", solver.nodes);
            return CommandSupport.EXIT_NOT_SOLVED;
        }
        List<RankedCertificate.Node> nodes = RankedCertificate.extract(loa, solver, root[0], root[1], value > 0);
        String info = org.gamecert.producer.cert.CertificateWriter.INFO_PRODUCER + "; " + loa.name() + "; weak-ranked";
        byte[] header = RankedCertificate.header(loa, root[0], root[1], value, info);
        CertificateWriter.Written w = RankedCertificate.write(outAbs, header, nodes);
        double total = (System.nanoTime() - t0) / 1e9;
        RankedCertificate.Node r = nodes.get(0);
        int[] mv = new int[64];
        int count = loa.moves(r.mover, r.opponent, mv);
        String first = "-", paper = "-";
        for (int i = 0; i < count && value > 0; i++)
            if ((mv[i] >>> 16) == r.code) {
                int from = mv[i] >>> 8 & 0xFF, to = mv[i] & 0xFF;
                first = loa.square(from) + "-" + loa.square(to);
                paper = loa.paperSquare(from) + "-" + loa.paperSquare(to);
            }
        long wins = nodes.stream().filter(x -> x.win).count();
        stdout.printf(Locale.ROOT, "game          %s (weak-ranked)%n", loa.name());
        stdout.printf(Locale.ROOT, "root          %s (the start, Black to move)%n", loa.boardText(root[0], root[1]));
        stdout.printf(Locale.ROOT, "root value    %+d (side to move: Black %s)%n", value, value > 0 ? "wins" : "loses");
        if (value > 0) stdout.printf(Locale.ROOT, "winning move  %s (a1 top-left, SPEC 7.5); %s as the LOA papers write it (a1 bottom-left)%n", first, paper);
        stdout.printf(Locale.ROOT, "proof         rank %d at the root; %d entries (%d wins, %d losses), ranks 1..%d%n",
                r.rank, nodes.size(), wins, nodes.size() - wins, r.rank);
        stdout.println("commitment    " + w.commitmentId);
        stdout.printf(Locale.ROOT, "file          %s, %d bytes, %s%n", out, w.fileBytes, Units.count(w.blocks, "block"));
        stdout.printf(Locale.ROOT, "search        %d nodes, solve %.2f s, total %.2f s, %d positions in the table, 1 thread%n",
                solver.nodes, solveSecs, total, solver.tableSize());
        return 0;
    }
}

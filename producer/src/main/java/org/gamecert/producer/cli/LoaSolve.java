package org.gamecert.producer.cli;

import org.gamecert.producer.cert.CertificateWriter;
import org.gamecert.producer.cert.RankedCertificate;
import org.gamecert.producer.command.CommandSupport;
import org.gamecert.producer.game.Loa;
import org.gamecert.producer.search.LoaSolver;
import org.gamecert.producer.search.RankedProof;
import org.gamecert.producer.search.pn.LoaPn;
import org.gamecert.producer.search.pn.PnState;
import org.gamecert.producer.search.pn.PnTable;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * {@code solve --game loa:NxN --mode weak-ranked}: a ranked win (or loss) proof of Lines of Action
 * (SPEC §7.7, §9.2) from the start or from {@code --moves}/{@code --board}, written as a
 * weak-ranked certificate. Two searches: {@code --search pn} (default), the proof-number search
 * {@link LoaPn} in a table bounded by {@code --max-memory}, resumable with {@code --state}; and
 * {@code --search id}, the iterative deepening of {@link LoaSolver}. With {@code --time-limit} the
 * search stops there and reports how far it got (no certificate, exit 3).
 */
final class LoaSolve {
    private LoaSolve() {}

    /** Everything the command line gives a LOA solve. */
    static final class Args {
        String game, mode, moves, board, search, maxMemory;
        Path out, state;
        Integer timeLimit;
        long ttMb;
        boolean quiet;
    }

    static int run(Args a, PrintStream stdout, PrintStream stderr) throws IOException {
        String s = a.game.trim().toLowerCase(Locale.ROOT);
        int n;
        try {
            String[] wh = s.substring(4).split("x");
            n = Integer.parseInt(wh[0]);
            if (wh.length != 2 || Integer.parseInt(wh[1]) != n || n < 4 || n > 6) throw new NumberFormatException();
        } catch (RuntimeException e) {
            throw new CommandSupport.UserError("unknown game '" + a.game + "': LOA is loa:4x4, loa:5x5 or loa:6x6");
        }
        if (!a.mode.equalsIgnoreCase("weak-ranked"))
            throw new CommandSupport.UserError("LOA certificates are weak-ranked: give --mode weak-ranked (SPEC 9.2)");
        String search = a.search == null ? "pn" : a.search.toLowerCase(Locale.ROOT);
        if (!search.equals("pn") && !search.equals("id"))
            throw new CommandSupport.UserError("unknown --search '" + a.search + "' (pn or id)");
        if (search.equals("id") && a.state != null)
            throw new CommandSupport.UserError("--state is for --search pn (the iterative deepening keeps no checkpoint)");
        Path outAbs = a.out.toAbsolutePath();
        Path dir = outAbs.getParent();
        if (dir == null || !Files.isDirectory(dir) || !Files.isWritable(dir))
            throw new CommandSupport.UserError("cannot write --out " + a.out + ": directory " + dir + " does not exist or is not writable");
        Loa loa = new Loa(n);
        long[] root = Positions.parse(loa, a.moves, a.board);
        boolean fromStart = a.moves == null && a.board == null || java.util.Arrays.equals(root, loa.start());
        if (loa.isTerminal(root[0], root[1])) throw new CommandSupport.UserError("the root position is terminal (game over): nothing to solve");
        if (!loa.hasMove(root[0], root[1]))
            throw new CommandSupport.UserError("the side to move must pass in the root position; give the position after the pass");
        long t0 = System.nanoTime();
        long deadline = a.timeLimit == null ? Long.MAX_VALUE : t0 + a.timeLimit * 1_000_000_000L;
        String rootText = loa.boardText(root[0], root[1]) + (fromStart ? " (the start, Black to move)" : " (X to move)");
        return search.equals("id") ? runId(a, loa, root, outAbs, rootText, t0, deadline, stdout, stderr)
                : runPn(a, loa, root, outAbs, rootText, t0, deadline, stdout, stderr);
    }

    private static int runId(Args a, Loa loa, long[] root, Path outAbs, String rootText, long t0, long deadline,
                             PrintStream stdout, PrintStream stderr) throws IOException {
        long maxEntries = Math.max(1 << 16, a.ttMb * (1L << 20) / 64); // about 64 bytes a position, table growth included
        LoaSolver solver = new LoaSolver(loa, deadline, maxEntries);
        int value;
        try {
            value = solver.solve(root[0], root[1], 200, a.quiet ? null : d -> stderr.printf(Locale.ROOT,
                    "[%6.1fs] no win or loss of rank <= %d: %d nodes, %d positions in the table%n",
                    (System.nanoTime() - t0) / 1e9, d, solver.nodes, solver.tableSize()));
        } catch (LoaSolver.OutOfBudget e) {
            double secs = (System.nanoTime() - t0) / 1e9;
            stdout.printf(Locale.ROOT, "game          %s (weak-ranked)%n", loa.name());
            stdout.printf(Locale.ROOT, "not solved    %s after %.1f s: no win or loss of rank <= %d from the root; %d nodes, %d positions in the table%n",
                    e.getMessage(), secs, solver.depthDone, solver.nodes, solver.tableSize());
            return 3;
        }
        double solveSecs = (System.nanoTime() - t0) / 1e9;
        if (value == 0) {
            stdout.printf(Locale.ROOT, "not solved    no win or loss of rank <= 200 (%d nodes)%n", solver.nodes);
            return 3;
        }
        String searchLine = String.format(Locale.ROOT, "%d nodes, solve %.2f s, total %%.2f s, %d positions in the table, 1 thread "
                + "(iterative deepening, --search id)", solver.nodes, solveSecs, solver.tableSize());
        return write(loa, solver, root, value, outAbs, a.out, "weak-ranked", rootText, searchLine, t0, stdout);
    }

    private static int runPn(Args a, Loa loa, long[] root, Path outAbs, String rootText, long t0, long deadline,
                             PrintStream stdout, PrintStream stderr) throws IOException {
        long tableBytes;
        if (a.maxMemory != null) {
            tableBytes = SolveCommand.parseSize(a.maxMemory);
            if (tableBytes <= 0) throw new CommandSupport.UserError("--max-memory: cannot read size '" + a.maxMemory + "' (e.g. 512m, 4g)");
        } else tableBytes = Runtime.getRuntime().maxMemory() / 2;
        if (tableBytes > Runtime.getRuntime().maxMemory() - (64L << 20))
            throw new CommandSupport.UserError(String.format(Locale.ROOT, "--max-memory %s is more than this JVM's heap (%d MiB) can "
                    + "give: lower it or raise -Xmx (GAMECERT_JAVA_OPTS)", a.maxMemory, Runtime.getRuntime().maxMemory() >> 20));
        String info = CertificateWriter.INFO_PRODUCER + "; " + loa.name() + "; weak-ranked; df-pn";
        byte[] determining = (new String(RankedCertificate.header(loa, root[0], root[1], 0, info), StandardCharsets.ISO_8859_1)
                + "\n" + LoaPn.RULES).getBytes(StandardCharsets.ISO_8859_1);
        PnState state = a.state == null ? null : new PnState(a.state, determining);
        PnState.Saved saved;
        try { saved = state == null ? null : state.load(loa); }
        catch (PnState.Mismatch e) { throw new CommandSupport.UserError(e.getMessage()); }
        if (saved != null && !a.quiet)
            stderr.printf(Locale.ROOT, "resuming from %s: search %d of 2, %d nodes, %d positions in the table of %d%n",
                    a.state, saved.phase, saved.search.nodes, saved.search.table().size(), saved.search.table().capacity());
        int phase = saved == null ? 1 : saved.phase;
        LoaPn pn = saved != null ? saved.search : new LoaPn(loa, new PnTable(tableBytes));
        long[] lastLine = {System.nanoTime()}, lastSave = {System.nanoTime()};
        long nodesBefore = 0; // the first search's nodes, when the second runs
        if (saved != null) nodesBefore = saved.nodesBefore;
        int value = 0;
        try {
            while (value == 0) {
                boolean attackerMoves = phase == 1;
                String goal = attackerMoves ? "the side to move wins" : "the side to move loses";
                pn.deadline(deadline);
                final int ph = phase;
                final long before = nodesBefore;
                final LoaPn cur = pn;
                int r = pn.prove(root[0], root[1], attackerMoves, (x, p, d) -> {
                    long now = System.nanoTime();
                    if (!a.quiet && now - lastLine[0] >= 10_000_000_000L) {
                        lastLine[0] = now;
                        stderr.printf(Locale.ROOT, "[%7.1fs] %s? root pn %d dn %d: %,d nodes, %,d positions in the table "
                                        + "(%,d proven, capacity %,d), %d collections%n", (now - t0) / 1e9, goal, p, d,
                                before + x.nodes, x.table().size(), x.table().provenCount(), x.table().capacity(), x.table().collections);
                    }
                    if (state != null && now - lastSave[0] >= PnState.INTERVAL_NANOS) {
                        state.save(ph, before, cur);
                        lastSave[0] = System.nanoTime();
                    }
                });
                if (r > 0) value = attackerMoves ? 1 : -1;
                else if (phase == 1) {
                    if (!a.quiet) stderr.printf(Locale.ROOT, "[%7.1fs] the side to move has no win (%,d nodes): now proving it loses%n",
                            (System.nanoTime() - t0) / 1e9, pn.nodes);
                    phase = 2;
                    nodesBefore = pn.nodes;
                    long bytes = (long) pn.table().capacity() * PnTable.BYTES_PER_SLOT;
                    pn = null; // the first search's table goes before the second's is made
                    pn = new LoaPn(loa, new PnTable(bytes));
                } else break;
            }
        } catch (LoaPn.OutOfTime e) {
            int[] nums = pn.numbers(root[0], root[1], phase == 1);
            stdout.printf(Locale.ROOT, "game          %s (weak-ranked)%n", loa.name());
            stdout.printf(Locale.ROOT, "not solved    time limit after %.1f s: %s? root pn %d dn %d; %d nodes, %d positions in the table%s%n",
                    (System.nanoTime() - t0) / 1e9, phase == 1 ? "the side to move wins" : "the side to move loses", nums[0], nums[1],
                    nodesBefore + pn.nodes, pn.table().size(), state == null ? "" : "; --state keeps the last checkpoint");
            return 3;
        } catch (PnTable.Full e) {
            stdout.printf(Locale.ROOT, "game          %s (weak-ranked)%n", loa.name());
            stdout.printf(Locale.ROOT, "not solved    %s (after %.1f s, %d nodes)%n", e.getMessage(), (System.nanoTime() - t0) / 1e9,
                    nodesBefore + pn.nodes);
            return 3;
        }
        double solveSecs = (System.nanoTime() - t0) / 1e9;
        if (value == 0) {
            stdout.printf(Locale.ROOT, "game          %s (weak-ranked)%n", loa.name());
            stdout.printf(Locale.ROOT, "not solved    neither side has a repetition-free win: the root is a draw under the rules "
                    + "(third repetition), which a weak-ranked certificate cannot prove; %d nodes%n", nodesBefore + pn.nodes);
            if (state != null) state.clear();
            return 3;
        }
        PnTable t = pn.table();
        String searchLine = String.format(Locale.ROOT, "%d nodes (MID calls%s), %d positions made, solve %.2f s, total %%.2f s, "
                        + "%d positions in the table (%d proven) of %d, %d collections, 1 thread (df-pn, --search pn)",
                nodesBefore + pn.nodes, nodesBefore > 0 ? ", both searches" : "", t.made, solveSecs, t.size(), t.provenCount(),
                t.capacity(), t.collections);
        int rc = write(loa, pn, root, value, outAbs, a.out, "weak-ranked; df-pn", rootText, searchLine, t0, stdout);
        if (state != null) state.clear();
        return rc;
    }

    private static int write(Loa loa, RankedProof proof, long[] root, int value, Path outAbs, Path out, String infoTail,
                             String rootText, String searchLine, long t0, PrintStream stdout) throws IOException {
        List<RankedCertificate.Node> nodes = RankedCertificate.extract(loa, proof, root[0], root[1], value > 0);
        String info = CertificateWriter.INFO_PRODUCER + "; " + loa.name() + "; " + infoTail;
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
        long wins = 0;
        for (RankedCertificate.Node x : nodes) if (x.win) wins++;
        stdout.printf(Locale.ROOT, "game          %s (weak-ranked)%n", loa.name());
        stdout.printf(Locale.ROOT, "root          %s%n", rootText);
        stdout.printf(Locale.ROOT, "root value    %+d (the side to move %s)%n", value, value > 0 ? "wins" : "loses");
        if (value > 0) stdout.printf(Locale.ROOT, "winning move  %s (a1 top-left, SPEC 7.5); %s as the LOA papers write it (a1 bottom-left)%n", first, paper);
        stdout.printf(Locale.ROOT, "proof         rank %d at the root; %d entries (%d wins, %d losses), ranks 1..%d%n",
                r.rank, nodes.size(), wins, nodes.size() - wins, r.rank);
        stdout.println("commitment    " + w.commitmentId);
        stdout.printf(Locale.ROOT, "file          %s, %d bytes, %d blocks%n", out, w.fileBytes, w.blocks);
        stdout.printf(Locale.ROOT, "search        " + searchLine + "%n", total);
        return 0;
    }
}

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
        String game, mode, moves, board, search, maxMemory, claim;
        Path out, state;
        Integer timeLimit;
        long ttMb;
        boolean quiet, force;
        int checkpointSeconds = 60;
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
        if (a.checkpointSeconds < 0) throw new CommandSupport.UserError("--checkpoint-interval must be 0 or more seconds");
        if (search.equals("id") && a.claim != null)
            throw new CommandSupport.UserError("--claim is for --search pn");
        if (search.equals("id") && a.state != null)
            throw new CommandSupport.UserError("--state is for --search pn (the iterative deepening keeps no checkpoint)");
        Path outAbs = a.out.toAbsolutePath();
        Path dir = outAbs.getParent();
        CommandSupport.requireWritable("--out", a.out);
        if (Files.exists(outAbs) && !a.force)
            throw new CommandSupport.UserError("--out " + a.out + " exists: give --force to overwrite it, or another --out");
        Loa loa = new Loa(n);
        long[] root = Positions.parse(loa, a.moves, a.board);
        boolean fromStart = a.moves == null && a.board == null || java.util.Arrays.equals(root, loa.start());
        if (loa.isTerminal(root[0], root[1])) throw new CommandSupport.UserError("the root position is terminal (game over): nothing to solve");
        if (!loa.hasMove(root[0], root[1]))
            throw new CommandSupport.UserError("the side to move must pass in the root position; give the position after the pass");
        long t0 = System.nanoTime();
        // nanoTime compared with it: a limit past the end of long is none
        long deadline = a.timeLimit != null && t0 < Long.MAX_VALUE - a.timeLimit * 1_000_000_000L
                ? t0 + a.timeLimit * 1_000_000_000L : Long.MAX_VALUE;
        String rootText = loa.boardText(root[0], root[1]) + (fromStart ? " (the start, Black to move)" : " (X to move)");
        if (search.equals("id")) return runId(a, loa, root, outAbs, rootText, t0, deadline, stdout, stderr);
        // df-pn recurses as deep as its path (up to LoaPn's 4,000 plies): a thread with a stack for that
        int[] rc = new int[1];
        Throwable[] failed = new Throwable[1];
        Thread t = new Thread(null, () -> {
            try { rc[0] = runPn(a, loa, root, outAbs, rootText, t0, deadline, stdout, stderr); }
            catch (Throwable e) { failed[0] = e; }
        }, "loa-pn", 1L << 30);
        t.start();
        try { t.join(); }
        catch (InterruptedException e) { Thread.currentThread().interrupt(); throw new IOException("interrupted", e); }
        if (failed[0] instanceof IOException e) throw e;
        if (failed[0] instanceof RuntimeException e) throw e;
        if (failed[0] instanceof Error e) throw e;
        return rc[0];
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
            return CommandSupport.EXIT_NOT_SOLVED;
        }
        double solveSecs = (System.nanoTime() - t0) / 1e9;
        if (value == 0) {
            stdout.printf(Locale.ROOT, "not solved    no win or loss of rank <= 200 (%d nodes)%n", solver.nodes);
            return CommandSupport.EXIT_NOT_SOLVED;
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
                + "\n" + LoaPn.RULES + "\nclaim " + (a.claim == null ? "either" : a.claim.toLowerCase(Locale.ROOT)))
                .getBytes(StandardCharsets.ISO_8859_1);
        PnState state = a.state == null ? null : new PnState(a.state, determining);
        PnState.Saved saved;
        try { saved = state == null ? null : state.load(loa); }
        catch (PnState.Mismatch e) { throw new CommandSupport.UserError(e.getMessage()); }
        String claim = a.claim == null ? "either" : a.claim.toLowerCase(Locale.ROOT);
        if (!claim.equals("either") && !claim.equals("win") && !claim.equals("loss"))
            throw new CommandSupport.UserError("unknown --claim '" + a.claim + "' (win, loss or either)");
        // the two searches take their slices in turn, each in half the memory; when one is disproven
        // the other may use it all (at that same point of every run: the file stays deterministic)
        boolean both = claim.equals("either");
        LoaPn win, loss;
        long gone;
        if (saved != null) {
            win = saved.win;
            loss = saved.loss;
            gone = saved.nodesGone;
            if (!a.quiet) stderr.printf(Locale.ROOT, "resuming from %s: %,d nodes so far%n", a.state,
                    gone + (win == null ? 0 : win.nodes) + (loss == null ? 0 : loss.nodes));
        } else {
            long each = both ? tableBytes / 2 : tableBytes;
            win = claim.equals("loss") ? null : new LoaPn(loa, new PnTable(each));
            loss = claim.equals("win") ? null : new LoaPn(loa, new PnTable(each));
            gone = 0;
        }
        long lastLine = System.nanoTime(), lastSave = System.nanoTime();
        int value = 0;
        boolean stuck = false;
        LoaPn proof = null;
        try {
            while (value == 0 && (win != null || loss != null)) {
                if (win != null) {
                    win.deadline(deadline);
                    int r = win.result(root[0], root[1], true);
                    if (r == 0) r = win.slice(root[0], root[1], true);
                    if (r > 0) { value = 1; proof = win; break; }
                    if (r < 0 || win.stuck()) {
                        if (win.stuck()) stuck = true;
                        if (!a.quiet) stderr.printf(Locale.ROOT, "[%7.1fs] %s (%,d nodes)%n", (System.nanoTime() - t0) / 1e9,
                                r < 0 ? "the side to move has no win" : "the search for a win goes round a cycle of the graph: given up",
                                win.nodes);
                        gone += win.nodes;
                        win = null;
                        if (loss != null && both) loss.table().widen();
                    }
                }
                if (loss != null) {
                    loss.deadline(deadline);
                    int r = loss.result(root[0], root[1], false);
                    if (r == 0) r = loss.slice(root[0], root[1], false);
                    if (r > 0) { value = -1; proof = loss; break; }
                    if (r < 0 || loss.stuck()) {
                        if (loss.stuck()) stuck = true;
                        if (!a.quiet) stderr.printf(Locale.ROOT, "[%7.1fs] %s (%,d nodes)%n", (System.nanoTime() - t0) / 1e9,
                                r < 0 ? "the side to move does not lose" : "the search for a loss goes round a cycle of the graph: given up",
                                loss.nodes);
                        gone += loss.nodes;
                        loss = null;
                        if (win != null && both) win.table().widen();
                    }
                }
                long now = System.nanoTime();
                if (!a.quiet && now - lastLine >= 10_000_000_000L) {
                    lastLine = now;
                    stderr.printf(Locale.ROOT, "[%7.1fs] %,d nodes%s%s%n", (now - t0) / 1e9,
                            gone + (win == null ? 0 : win.nodes) + (loss == null ? 0 : loss.nodes),
                            progress("wins?", win, root, true), progress("loses?", loss, root, false));
                }
                if (state != null && now - lastSave >= a.checkpointSeconds * 1_000_000_000L) {
                    state.save(win, loss, gone);
                    lastSave = System.nanoTime();
                }
            }
        } catch (LoaPn.OutOfTime e) {
            stdout.printf(Locale.ROOT, "game          %s (weak-ranked)%n", loa.name());
            stdout.printf(Locale.ROOT, "not solved    time limit after %.1f s: %,d nodes;%s%s%s%n", (System.nanoTime() - t0) / 1e9,
                    gone + (win == null ? 0 : win.nodes) + (loss == null ? 0 : loss.nodes),
                    progress("the side to move wins?", win, root, true), progress("it loses?", loss, root, false),
                    state == null ? "" : "; --state keeps the last checkpoint");
            return 3;
        } catch (PnTable.Full e) {
            stdout.printf(Locale.ROOT, "game          %s (weak-ranked)%n", loa.name());
            stdout.printf(Locale.ROOT, "not solved    %s (after %.1f s, %,d nodes)%n", e.getMessage(), (System.nanoTime() - t0) / 1e9,
                    gone + (win == null ? 0 : win.nodes) + (loss == null ? 0 : loss.nodes));
            return 3;
        }
        double solveSecs = (System.nanoTime() - t0) / 1e9;
        long allNodes = gone + (win == null ? 0 : win.nodes) + (loss == null ? 0 : loss.nodes);
        if (value == 0) {
            stdout.printf(Locale.ROOT, "game          %s (weak-ranked)%n", loa.name());
            stdout.printf(Locale.ROOT, "not solved    %s; %,d nodes%n", stuck ? "a search went round a cycle of the graph without "
                    + "progress and gave up (df-pn on a graph with repetitions), the other found nothing"
                    : both ? "neither side has a repetition-free win: the root is a draw "
                    + "under the rules (third repetition), which a weak-ranked certificate cannot prove"
                    : "the claim does not hold (--claim " + claim + ")", allNodes);
            if (state != null) state.clear();
            return 3;
        }
        LoaPn pn = proof;
        PnTable t = pn.table();
        String searchLine = String.format(Locale.ROOT, "%d nodes (MID calls, %s), %d nodes for the proof, %d positions made for it, "
                        + "solve %.2f s, total %%.2f s, %d positions in its table (%d proven; capacity %d, at most %d), %d collections, "
                        + "1 thread (df-pn, --search pn)", allNodes, both ? "both searches" : "--claim " + claim, pn.nodes, t.made,
                solveSecs, t.size(), t.provenCount(), t.capacity(), t.maxCapacity(), t.collections);
        int rc = write(loa, pn, root, value, outAbs, a.out, "weak-ranked; df-pn", rootText, searchLine, t0, stdout);
        if (state != null) state.clear();
        return rc;
    }

    private static String progress(String what, LoaPn p, long[] root, boolean attackerMoves) {
        if (p == null) return "";
        int[] x = p.numbers(root[0], root[1], attackerMoves);
        PnTable t = p.table();
        return String.format(Locale.ROOT, "; %s pn %d dn %d (%,d positions, %,d proven, %d collections)", what, x[0], x[1], t.size(),
                t.provenCount(), t.collections);
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
        stdout.printf(Locale.ROOT, "file          %s, %d bytes, %s%n", out, w.fileBytes, Units.count(w.blocks, "block"));
        stdout.printf(Locale.ROOT, "search        " + searchLine + "%n", total);
        return 0;
    }
}

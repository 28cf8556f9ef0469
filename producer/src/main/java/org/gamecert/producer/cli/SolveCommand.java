package org.gamecert.producer.cli;

import org.gamecert.producer.command.CommandSupport;

import org.gamecert.producer.cert.CertificateWriter;
import org.gamecert.producer.cert.Extractor;
import org.gamecert.producer.cert.SearchProof;
import org.gamecert.producer.cert.LayerEntries;
import org.gamecert.producer.cert.LayerStore;
import org.gamecert.producer.game.Game;
import org.gamecert.producer.search.Oracle;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

@Command(exitCodeListHeading = org.gamecert.producer.command.CommandSupport.EXIT_HEADING, exitCodeList = {org.gamecert.producer.command.CommandSupport.EXIT_0, org.gamecert.producer.command.CommandSupport.EXIT_1, org.gamecert.producer.command.CommandSupport.EXIT_2, org.gamecert.producer.command.CommandSupport.EXIT_3},
        name = "solve", mixinStandardHelpOptions = true,
        description = {"Solve a position and write its certificate (SPEC v1).",
                "Semi-strong mode certifies the exact value and canonical move of every position reachable when "
                        + "one side plays the canonical move and the other plays anything (both choices of the side); "
                        + "weak mode certifies the root value only. The output is byte-identical whatever --threads and --tt-mb."},
        sortOptions = false)
public final class SolveCommand implements Callable<Integer>, CommandSupport.Streams {
    @Option(names = "--game", defaultValue = "othello:4x4",
            description = "Game: othello:4x4, othello:6x6, othello:8x8, connect4:WxH with W*(H+1) <= 64, nogo:1xN with N <= 64, loa:4x4, loa:5x5, loa:6x6 (default: ${DEFAULT-VALUE}).")
    String gameName;
    @Option(names = "--moves", description = "Root as a move sequence from the start (Othello f5d6..., Connect Four 4453..., NoGo 1-based points with commas: 4,2,6, LOA 'b1-b3 a2-c2').")
    String moves;
    @Option(names = "--board", description = "Root as board text (SPEC 7.5), e.g. '----...XO-- X'.")
    String board;
    @Option(names = "--mode", defaultValue = "semi-strong", description = "semi-strong (default) or weak; weak-ranked for LOA (SPEC 9.2). "
            + "semi-strong-optimal (format mode 5, SPEC 9): the same region and exact values as semi-strong, a smaller proof "
            + "(Connect Four 7x6: several times fewer auxiliary entries), but where the optimal side is to move the certificate "
            + "proves an optimal move, not the canonical (earliest) one; not for LOA, no --split-at. "
            + "Weak 8x8 Othello is by default the fast weak proof: --leaf-empties 6 --proof search (see both).")
    String mode;
    @Option(names = "--leaf-empties", paramLabel = "L", description = "Weak mode only: positions with at "
            + "most L (1..6) empty cells get no entry; the verifier decides them by its own search (SPEC 9.1, format 1.1 mode 3). "
            + "Several times smaller and faster on 8x8 endgames. Default: 6 for weak 8x8 Othello from a root of at least 8 empty "
            + "cells (with --proof search, the fast weak proof), else 0. 0: no leaves (format 1.0 mode 2, the one a 1.0 verifier "
            + "reads).")
    Integer leafEmptiesOption;
    /** --leaf-empties as given, else its default for the game, mode and root (set in call()). */
    int leafEmpties;
    @Option(names = "--threads", description = "Worker threads (default: available processors). Does not change the output.")
    Integer threads;
    @Option(names = "--tt-mb", paramLabel = "<ttMb>", description = "Transposition table size in MiB (default: 256; 16 on boards of at most "
            + SMALL_BOARD + " cells, ample for them). Does not change the output.")
    Long ttMbOption;
    /** --tt-mb as given, else its default for the board (set in call()). */
    long ttMb;

    /**
     * Boards this small (4x4 Othello, Connect Four or NoGo of at most 16 cells) get a 16 MiB table
     * by default: zeroing the 256 MiB one cost about 0.5 CPU-s on such a solve, several times its search.
     */
    static final int SMALL_BOARD = 16;
    static final long DEFAULT_TT_MB = 256, SMALL_BOARD_TT_MB = 16;
    @Option(names = "--out", required = true, description = "Certificate file to write (written atomically); with "
            + "--split-at, the composite's directory (created if missing).")
    Path out;
    @Option(names = "--split-at", paramLabel = "DISCS", description = "Compositional certificate (SPEC 15): stop at the "
            + "positions with DISCS discs (stones); they become open entries of a root part written to the directory --out "
            + "as <commitment>.gsc, with one task per open entry in --out/tasks.tsv. Then make the parts with "
            + "'solve-part DIR --parts all' and the manifest with 'compose DIR'.")
    Integer splitAt;
    @Option(names = "--census-json", description = "Also write the census as JSON to this file.")
    Path censusJson;
    @Option(names = "--tmp", paramLabel = "DIR", description = "Where finished layers wait, in their final encoding, until the "
            + "certificate is written deepest layer first (default: the directory of --out). Needs about the certificate's size; "
            + "with --proof search also its proof log beyond what --max-memory holds of it (a few bytes a search node: FFO #49 1.4 GB).")
    Path tmp;
    @Option(names = "--state", paramLabel = "DIR", description = "Checkpoint after every finished layer in DIR (created if "
            + "missing; finished layers are kept there too). If DIR holds a checkpoint of the same game, root and mode, the "
            + "solve continues from it; the certificate is byte-identical to an uninterrupted run. Removed on success. With "
            + "--proof search, the first checkpoint comes once the root's search is done (its whole proof log written to DIR): "
            + "a run killed during that search starts it again.")
    Path state;
    @Option(names = "--max-memory", paramLabel = "SIZE", description = "Memory for the needs of the layer being processed "
            + "and of the next, e.g. 2g (default: half of what the JVM may use beyond the search table). Beyond it they are "
            + "spilled to --tmp as sorted runs and merged. With --proof search: during the search its proof log's pages beyond half "
            + "of it go to --tmp (or --state DIR); then the log keeps in memory only what the needs of the layers read from it "
            + "leave of it, and a layer's needs beyond a quarter of its half go there as sorted runs, merged in key order. "
            + "Does not change the output.")
    String maxMemory;
    @Option(names = "--proof", paramLabel = "HOW", description = "Weak Othello with --leaf-empties 6: "
            + "'search' makes the certificate from the proof the root's search keeps (one search, no second one; a table fixed "
            + "by the root (" + SearchProof.SMALL_TABLE_MB + " MiB up to " + SearchProof.SMALL_TABLE_MAX_EMPTIES + " empty cells, "
            + SearchProof.LARGE_TABLE_MB + " MiB beyond) and one thread, so --tt-mb and --threads do not change it; zstd level "
            + SearchProof.ZSTD_LEVEL + "; its proof log, about a byte a node or less, goes to the working directory beyond half of "
            + "--max-memory, and beyond what the needs of its layers leave of it once they are read). The default for weak 8x8 Othello with 6-empty leaves, without --split-at. "
            + "'canonical' chooses every cut by the producer's rules and proves it after the search: more time (FFO #40-#49: "
            + "1.4-2.0x the plain search, against 1.1-1.6x), a file often smaller (from 7%% larger to 60%% smaller), whose cuts "
            + "follow the producer's documented rules rather than its search; and --split-at. The default elsewhere.")
    String proof;
    @Option(names = {"-q", "--quiet"}, description = "No progress on stderr (with --proof search, none of its search's lines "
            + "either: every 10 s on a terminal, a minute in a log).")
    boolean quiet;
    @Option(names = "--force", description = "Overwrite --out if it exists (without it, an existing --out is refused).")
    boolean force;

    private PrintStream stdout = System.out, stderr = System.err;

    @Override public void streams(PrintStream out, PrintStream err) { stdout = out; stderr = err; }

    /** Parses 123, 64k, 512m, 4g (binary units); -1 if unreadable. */
    static long parseSize(String s) {
        String t = s.trim().toLowerCase(Locale.ROOT);
        int shift = 0;
        if (t.endsWith("k")) shift = 10;
        else if (t.endsWith("m")) shift = 20;
        else if (t.endsWith("g")) shift = 30;
        if (shift > 0) t = t.substring(0, t.length() - 1);
        try {
            long v = Long.parseLong(t);
            return v <= 0 || v > (Long.MAX_VALUE >> shift) ? -1 : v << shift;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static byte[] sha256(byte[] b) {
        try { return java.security.MessageDigest.getInstance("SHA-256").digest(b); }
        catch (java.security.NoSuchAlgorithmException e) { throw new IllegalStateException(e); }
    }

    @Option(names = "--time-limit", paramLabel = "SECONDS", description = "LOA only: stop the search after this long and "
            + "report how far it got (no certificate, exit 3).")
    Integer timeLimit;
    @Option(names = "--search", paramLabel = "HOW", description = "LOA only: 'pn' (default), a depth-first proof-number search "
            + "(df-pn) in one table of at most --max-memory (default: half the heap; when it is 3/4 full, the unproven entries "
            + "of least work are removed down to 1/2, proven ones never), resumable with --state (a checkpoint a minute), "
            + "one thread; 'id', the iterative deepening of the earlier releases (--tt-mb). The file depends on neither "
            + "--threads nor, unless the table had to be collected (the summary says), --max-memory.")
    String search;
    @Option(names = "--checkpoint-interval", paramLabel = "SECONDS", defaultValue = "60", description = "LOA --search pn with "
            + "--state: at most one checkpoint this often, between two slices of the search (default: ${DEFAULT-VALUE}). Does not "
            + "change the output.")
    int checkpointInterval;
    @Option(names = "--claim", paramLabel = "WHAT", description = "LOA --search pn: 'either' (default) runs the search for a win "
            + "of the side to move and the one for its loss in turn, slice by slice, each in half of --max-memory; 'win' or "
            + "'loss' runs only that one (exit 3 if it fails).")
    String claim;

    /** The digest of what determines the certificate (a checkpoint's parameters): set by call(). */
    private String params;
    /** --proof search: set by call() once the options are checked. */
    private boolean searchProof;

    @Override public Integer call() throws IOException {
        boolean loa = gameName.trim().toLowerCase(Locale.ROOT).startsWith("loa:");
        if (timeLimit != null && timeLimit < 1) throw new CommandSupport.UserError(CommandSupport.outOfRange("--time-limit", "" + timeLimit));
        if (timeLimit != null && !loa)
            throw new CommandSupport.UserError("--time-limit is for Lines of Action (--game loa:NxN); other games are solved to the end");
        ttMb = ttMbOption != null ? ttMbOption : DEFAULT_TT_MB;
        if (loa) {
            if (ttMb < 1 || ttMb > 65536) throw new CommandSupport.UserError(CommandSupport.outOfRange("--tt-mb", "" + ttMb));
            LoaSolve.Args a = new LoaSolve.Args();
            a.game = gameName; a.mode = mode; a.moves = moves; a.board = board; a.search = search; a.maxMemory = maxMemory;
            a.out = out; a.force = force; a.state = state; a.timeLimit = timeLimit; a.ttMb = ttMb; a.quiet = quiet;
            a.checkpointSeconds = checkpointInterval; a.claim = claim;
            return LoaSolve.run(a, stdout, stderr);
        }
        if (search != null) throw new CommandSupport.UserError("--search is for Lines of Action (loa:NxN)");
        Game game;
        try { game = Game.parse(gameName); }
        catch (IllegalArgumentException e) { throw new CommandSupport.UserError(e.getMessage()); }
        Extractor.Mode m;
        switch (mode.toLowerCase(Locale.ROOT)) {
            case "semi-strong": case "semistrong": m = Extractor.Mode.SEMI_STRONG; break;
            case "semi-strong-optimal": case "semistrong-optimal": m = Extractor.Mode.SEMI_STRONG_OPTIMAL; break;
            case "weak": m = Extractor.Mode.WEAK; break;
            case "weak-ranked": throw new CommandSupport.UserError("--mode weak-ranked is for Lines of Action (--game loa:NxN, SPEC 9.2); "
                    + game.name() + " takes semi-strong or weak");
            default: throw new CommandSupport.UserError("unknown --mode '" + mode
                    + "' (semi-strong, semi-strong-optimal, weak, or weak-ranked for loa:NxN)");
        }
        if (m == Extractor.Mode.SEMI_STRONG_OPTIMAL && splitAt != null)
            throw new CommandSupport.UserError("--mode semi-strong-optimal makes no parts (SPEC 4: mode 5 is never a part): no --split-at");
        long[] root = Positions.parse(game, moves, board);
        // The fast weak proof is the default where it applies: 8x8 Othello (where it was measured,
        // FFO #40-#49), a root of at least 8 empty cells (the search's records start there).
        boolean fastWeak = m == Extractor.Mode.WEAK && game instanceof org.gamecert.producer.game.Othello && game.cells == 64
                && SearchProof.applies(game, root[0], root[1]);
        leafEmpties = leafEmptiesOption != null ? leafEmptiesOption : fastWeak ? SearchProof.LEAF_EMPTIES : 0;
        if (leafEmpties < 0 || leafEmpties > 6) throw new CommandSupport.UserError(CommandSupport.outOfRange("--leaf-empties", "" + leafEmpties));
        if (leafEmpties > 0 && m != Extractor.Mode.WEAK)
            throw new CommandSupport.UserError("--leaf-empties is for weak certificates (--mode weak): a semi-strong region has no leaves");
        if (leafEmpties > 0 && game.cells - game.discs(root[0], root[1]) <= leafEmpties)
            throw new CommandSupport.UserError("the root has at most --leaf-empties " + leafEmpties + " empty cells: lower it");
        if (game.isTerminal(root[0], root[1])) throw new CommandSupport.UserError("the root position is terminal (game over): nothing to solve");
        if (game.moves(root[0], root[1]) == 0)
            throw new CommandSupport.UserError("the side to move must pass in the root position; give the position after the pass");
        boolean searchProof;
        String proof = this.proof != null ? this.proof
                : fastWeak && leafEmpties == SearchProof.LEAF_EMPTIES && splitAt == null ? "search" : "canonical";
        switch (proof.toLowerCase(Locale.ROOT)) {
            case "canonical": searchProof = false; break;
            case "search": searchProof = true; break;
            default: throw new CommandSupport.UserError("unknown --proof '" + proof + "' (canonical or search)");
        }
        if (searchProof) {
            if (m != Extractor.Mode.WEAK || leafEmpties != SearchProof.LEAF_EMPTIES || !(game instanceof org.gamecert.producer.game.Othello))
                throw new CommandSupport.UserError("--proof search is for Othello with --mode weak --leaf-empties " + SearchProof.LEAF_EMPTIES);
            if (!SearchProof.applies(game, root[0], root[1]))
                throw new CommandSupport.UserError("--proof search needs a root with at least " + (SearchProof.LEAF_EMPTIES + 2)
                        + " empty cells (the search keeps records from there)");
            if (splitAt != null)
                throw new CommandSupport.UserError("--proof search makes the certificate in one part: no --split-at (use --proof canonical)");
        }
        this.searchProof = searchProof;
        if (ttMbOption == null && game.cells <= SMALL_BOARD) ttMb = SMALL_BOARD_TT_MB;
        int nThreads = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
        if (nThreads < 1 || nThreads > 1024) throw new CommandSupport.UserError(CommandSupport.outOfRange("--threads", "" + nThreads));
        if (ttMb < 1 || ttMb > 65536) throw new CommandSupport.UserError(CommandSupport.outOfRange("--tt-mb", "" + ttMb));
        Path outAbs = out.toAbsolutePath();
        if (splitAt != null) {
            int rootDiscs = game.discs(root[0], root[1]);
            if (splitAt <= rootDiscs || splitAt >= game.cells - leafEmpties)
                throw new CommandSupport.UserError("--split-at must be more than the root's " + rootDiscs + " discs and less than "
                        + (game.cells - leafEmpties) + (leafEmpties > 0 ? " (the leaves start there)" : " (the board's cells)"));
            try { Files.createDirectories(outAbs); }
            catch (IOException e) { throw new CommandSupport.UserError("cannot make the directory --out " + out + ": " + e.getMessage()); }
            if (Files.exists(outAbs.resolve(org.gamecert.producer.compose.SplitDir.TASKS)))
                throw new CommandSupport.UserError(out + " already holds a split (" + org.gamecert.producer.compose.SplitDir.TASKS
                        + "): use another directory");
            outAbs = outAbs.resolve("root-part.gsc");
        }
        Path dir = outAbs.getParent();
        CommandSupport.requireWritable("--out", splitAt == null ? out : outAbs);
        if (censusJson != null) CommandSupport.requireWritable("--census-json", censusJson);
        if (splitAt == null && Files.exists(outAbs) && !force)
            throw new CommandSupport.UserError("--out " + out + " exists: give --force to overwrite it, or another --out");

        String info = CertificateWriter.INFO_PRODUCER + "; " + game.name() + "; " + m.text()
                + (searchProof ? "; the search's proof" : "");
        // Everything that determines the certificate (the header without the root value, which the
        // solve finds, and the extraction's choice rules): a checkpoint made for anything else is refused.
        byte[] headerBytes = header(game, m, root, 0, info);
        byte[] rules = ((searchProof ? SearchProof.RULES : Extractor.CHOICE_RULES) + (splitAt != null ? "; open entries at " + splitAt + " discs" : ""))
                .getBytes(StandardCharsets.UTF_8);
        byte[] determining = java.util.Arrays.copyOf(headerBytes, headerBytes.length + rules.length);
        System.arraycopy(rules, 0, determining, headerBytes.length, rules.length);
        String params = CertificateWriter.hex(sha256(determining));
        this.params = params;
        long proofTableMb = SearchProof.tableMb(game.cells - game.discs(root[0], root[1]));
        long heapLeft = Runtime.getRuntime().maxMemory() - ((searchProof ? proofTableMb : ttMb) << 20);
        if (heapLeft <= 0 && searchProof)
            throw new CommandSupport.UserError(String.format(Locale.ROOT, "--proof search needs its %d MiB table and its proof log, "
                    + "more than this JVM's heap (%d MiB): raise -Xmx (GAMECERT_JAVA_OPTS)", proofTableMb,
                    Runtime.getRuntime().maxMemory() >> 20));
        if (heapLeft <= 0)
            throw new CommandSupport.UserError(String.format(Locale.ROOT, "--tt-mb %d is more than this JVM's heap (%d MiB): lower it "
                    + "or raise -Xmx (GAMECERT_JAVA_OPTS)", ttMb, Runtime.getRuntime().maxMemory() >> 20));
        long needBudget;
        if (maxMemory == null) needBudget = heapLeft / 2;
        else {
            needBudget = parseSize(maxMemory);
            if (needBudget <= 0) throw new CommandSupport.UserError("--max-memory: cannot read size '" + maxMemory + "' (e.g. 512m, 4g)");
            if (needBudget > heapLeft)
                throw new CommandSupport.UserError(String.format(Locale.ROOT, "--max-memory %s is more than this JVM can give beyond "
                        + "the %d MiB table (%d MiB): lower it or raise -Xmx (GAMECERT_JAVA_OPTS)", maxMemory,
                        searchProof ? proofTableMb : ttMb, heapLeft >> 20));
        }
        Path work;
        boolean ownWork = state == null;
        try {
            if (state != null) work = Files.createDirectories(state);
            else {
                Path base = tmp != null ? tmp : dir;
                if (Files.exists(base) && !Files.isDirectory(base)) throw new CommandSupport.UserError("--tmp " + base + " is not a directory");
                Files.createDirectories(base); // --tmp DIR is made when missing, like --state DIR
                workLock = WorkDirs.create(base, quiet ? null : stderr);
                work = workLock.dir();
            }
        } catch (IOException e) {
            throw new CommandSupport.UserError("cannot make the working directory"
                    + (tmp != null ? " in --tmp " + tmp : "") + ": " + e.getMessage());
        }
        LayerStore store = new LayerStore(work, params, state != null, nThreads);
        if (searchProof) store.zstdLevel(SearchProof.ZSTD_LEVEL);
        try {
            return solveAndWrite(game, m, root, nThreads, outAbs, dir, info, work, store, needBudget);
        } finally {
            if (ownWork) { // a run without --state leaves nothing behind, whatever happened
                try { store.clean(); workLock.close(); Files.deleteIfExists(work); } catch (IOException e) { /* best effort */ }
            }
        }
    }

    /** --proof search: the proof log's pages beyond its share of --max-memory, in the working directory. */
    static final String PROOF_LOG_FILE = "proof-log.bin";

    /** --proof search: seconds between two lines on the search's progress, on a terminal and in a log. */
    static final long SEARCH_PROGRESS_TERMINAL = 10, SEARCH_PROGRESS_LOG = 60;

    /**
     * --proof search: a line on the root's search every {@link #SEARCH_PROGRESS_TERMINAL} s on a
     * terminal, {@link #SEARCH_PROGRESS_LOG} s in a log, from a thread of its own that reads the
     * search's counters (the search itself checks no clock), until it is done.
     */
    private ScheduledExecutorService searchProgress(SearchProof sp, long t0) {
        ScheduledExecutorService ex = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "search-progress");
            t.setDaemon(true);
            return t;
        });
        long every = Terminal.stderrIsTerminal() ? SEARCH_PROGRESS_TERMINAL : SEARCH_PROGRESS_LOG;
        ex.scheduleAtFixedRate(() -> {
            SearchProof.Progress p = sp.searchProgress();
            if (p != null) stderr.println(searchLine(p, (System.nanoTime() - t0) / 1e9));
        }, every, every, TimeUnit.SECONDS);
        return ex;
    }

    /**
     * A progress line of the search keeping its proof. No ETA: MTD(f) runs tests "V >= b?" until
     * the bounds meet, how many is not known before, and the root's moves take times that nothing
     * before their search tells (the first of a test most of it), so the fraction done is given as
     * it is, and the time left as unknown.
     */
    static String searchLine(SearchProof.Progress p, double seconds) {
        return String.format(Locale.ROOT, "[%6.1fs] the root's search, keeping its proof: %,d nodes, %s; proof log %s (%s in memory,"
                        + " %s compressed on disk); MTD(f) test %d, V >= %d? (the value in [%d, %d]), %d of its %s done; ETA unknown",
                seconds, p.nodes, Units.rate(p.nodes / Math.max(p.seconds, 1e-9), "nodes"), Units.bytes(p.logBytes),
                Units.bytes(p.logHeldBytes), Units.bytes(p.logSpilledBytes), p.tests + 1, p.b, p.lo, p.hi, p.movesDone,
                Units.count(p.moves, "root move"));
    }

    /** The canonical extraction: the layer this run resumed at from --state's checkpoint (-1: none). */
    private int resumedAtLayer = -1;

    /** The hidden working directory of a run without --state, locked while the run lives (null with --state). */
    private WorkDirs.Locked workLock;

    /** The header: a root part's when --split-at is given (its claim: the root's value, SPEC §15.1). */
    private byte[] header(Game game, Extractor.Mode m, long[] root, int rootValue, String info) {
        if (splitAt == null) return CertificateWriter.header(game, m, leafEmpties, root[0], root[1], rootValue, info);
        org.gamecert.producer.cert.Claim claim = m == Extractor.Mode.SEMI_STRONG
                ? new org.gamecert.producer.cert.Claim(org.gamecert.producer.cert.Kinds.P, rootValue, rootValue)
                : new org.gamecert.producer.cert.Claim(org.gamecert.producer.cert.Kinds.C | org.gamecert.producer.cert.Kinds.A,
                        rootValue, rootValue);
        return CertificateWriter.header(game, m, leafEmpties, root[0], root[1], claim, rootValue, info);
    }

    private Integer solveAndWrite(Game game, Extractor.Mode m, long[] root, int nThreads, Path outAbs, Path dir, String info,
                                  Path work, LayerStore store, long needBudget) {
        long t0 = System.nanoTime();
        if (searchProof) {
            // The log in half of the budget during the search (beyond it, in the working directory), a chunk's
            // records in an eighth; then the log's pages in memory and the layers' needs in the whole budget.
            SearchProof sp = new SearchProof((org.gamecert.producer.game.Othello) game, quiet ? null : stderr)
                    .spill(work.resolve(PROOF_LOG_FILE), needBudget / 2, needBudget / 8, needBudget);
            if (state != null) sp.checkpoints(work, params, store);
            Extractor.State res;
            ScheduledExecutorService searchProgress = quiet ? null : searchProgress(sp, t0);
            try {
                res = sp.run(root[0], root[1], store);
            } catch (OutOfMemoryError e) {
                // the log yields its memory to the layers' needs, which go to sorted runs beyond their share; a layer's
                // entries are still held whole
                throw new CommandSupport.UserError(String.format(Locale.ROOT, "--proof search: the proof's layers "
                        + "outgrew this JVM's heap (%d MiB): lower --max-memory (its proof log then leaves memory sooner, and the "
                        + "layers' needs go to sorted runs sooner), raise -Xmx (GAMECERT_JAVA_OPTS), or use --proof canonical",
                        Runtime.getRuntime().maxMemory() >> 20), CommandSupport.EXIT_FAILURE);
            } catch (java.io.UncheckedIOException e) {
                throw new CommandSupport.UserError("cannot keep the search's proof log in " + work + ": "
                        + e.getCause().getMessage(), CommandSupport.EXIT_FAILURE);
            } catch (IOException e) {
                throw new CommandSupport.UserError("cannot keep the solve's layers in " + work + ": " + e.getMessage()
                        + (Files.exists(work) ? "" : " (the directory is gone)"), CommandSupport.EXIT_FAILURE);
            } finally {
                if (searchProgress != null) searchProgress.shutdownNow();
                try { store.abandon(); } catch (IOException e) { /* the failure above is what the user sees */ }
            }
            Figures f = new Figures();
            f.tSolved = System.nanoTime();
            f.searchProof = sp;
            f.resumedAt = sp.resumedAt;
            // this run's nodes: on a resume the search was a previous run's
            f.nodes = sp.resumedAt >= 0 ? sp.leafNodesThisRun : sp.searchNodes + sp.leafNodes;
            f.rootSearchNodes = sp.searchNodes;
            f.rootSearchSeconds = sp.searchSeconds;
            f.proofTableMb = SearchProof.tableMb(game.cells - game.discs(root[0], root[1]));
            f.proofLogBytes = sp.logLongs * 8;
            f.proofLogSpilledBytes = sp.logSpilledLongs * 8;
            f.proofLogFileBytes = sp.logFileBytes;
            f.proofLogFileReads = sp.logFileReads;
            f.runsSpilled = sp.runsSpilled;
            return writeAndReport(game, m, root, 1, outAbs, dir, info, store, res, f, java.util.List.of(), null, t0);
        }
        Oracle oracle = new Oracle(game, ttMb);
        Extractor ex = new Extractor(oracle, nThreads);
        ex.limitNeeds(work, needBudget, 1 << 18);
        ex.endgameLeaves(leafEmpties);
        java.util.List<LayerEntries> openEntries = new java.util.ArrayList<>();
        if (splitAt != null) ex.splitAt(splitAt);
        ScheduledExecutorService progress = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "progress");
            t.setDaemon(true);
            return t;
        });
        // On a terminal: a status line every 2 s; in a log, one a minute (and one per finished layer).
        // Overall: layers out of the most there can be, and every position done so far. No overall
        // ETA: a layer's size is known only when it starts (the needs of the layer before).
        int firstLayer = game.discs(root[0], root[1]);
        int maxLayers = (splitAt != null ? splitAt : game.cells - leafEmpties) - firstLayer + 1;
        long[] layerStart = {t0}, layerNodes = {0}, positionsBefore = {0};
        int[] layersDone = {0};
        long every = Terminal.stderrIsTerminal() ? 2 : 60;
        if (!quiet) progress.scheduleAtFixedRate(() -> {
            long now = System.nanoTime();
            double s = (now - t0) / 1e9, inLayer = (now - layerStart[0]) / 1e9;
            long nodes = oracle.nodes(), done = ex.positionsDone.get(), size = ex.currentLayerSize;
            String eta = done > 0 && size > done ? ", layer ETA " + Units.duration(inLayer * (size - done) / done) : "";
            stderr.printf(Locale.ROOT, "[%6.1fs] layer %d (%d of at most %d): %,d/%,d positions (%.0f%%)%s; in all %,d positions, "
                            + "%,d entries, %,d nodes, %s%n",
                    s, ex.currentLayer, layersDone[0] + 1, maxLayers, done, size, size > 0 ? 100.0 * done / size : 0.0, eta,
                    positionsBefore[0] + done, ex.entriesDone.get(), nodes, Units.rate(nodes / s, "nodes"));
        }, every, every, TimeUnit.SECONDS);
        Extractor.State res;
        try {
            Extractor.State saved = store.load();
            /** Passes everything to the store, and prints one line per finished layer. */
            class Reporting implements Extractor.Store {
                int lastLayer = -1;
                long lastSize;

                @Override public void beforeLayer(Extractor.State s) throws IOException {
                    finished();
                    if (lastLayer >= 0) { layersDone[0]++; positionsBefore[0] += lastSize; }
                    store.beforeLayer(s);
                    lastLayer = s.layer;
                    lastSize = s.needs.size();
                    layerStart[0] = System.nanoTime();
                    layerNodes[0] = oracle.nodes();
                }

                @Override public void entries(LayerEntries part) throws IOException {
                    store.entries(part);
                    if (splitAt != null && part.layer == splitAt) openEntries.add(part); // the tasks
                }

                @Override public void layerEnd(int layer) throws IOException { store.layerEnd(layer); }

                void finished() {
                    if (quiet || lastLayer < 0) return;
                    long now = System.nanoTime();
                    stderr.printf(Locale.ROOT, "[%6.1fs] layer %d done (%d of at most %d): %,d positions in %.1f s, %,d nodes searched;"
                                    + " in all %,d positions, %,d entries%n",
                            (now - t0) / 1e9, lastLayer, layersDone[0] + 1, maxLayers, lastSize, (now - layerStart[0]) / 1e9,
                            oracle.nodes() - layerNodes[0], positionsBefore[0] + lastSize, ex.entriesDone.get());
                }
            }
            Reporting reporting = new Reporting();
            if (saved != null) {
                if (!quiet) stderr.printf(Locale.ROOT, "resuming from the checkpoint in %s: layer %d, %d finished layers%n",
                        work, saved.layer, store.layers().size());
                ex.entriesDone.set(saved.entries);
                resumedAtLayer = saved.layer;
                res = ex.resume(saved, reporting);
            } else {
                res = ex.run(root[0], root[1], m, reporting);
            }
            reporting.finished();
        } catch (IOException e) {
            progress.shutdownNow();
            throw new CommandSupport.UserError("cannot keep the solve's layers in " + work + ": " + e.getMessage()
                    + (Files.exists(work) ? "" : " (the directory is gone)"), CommandSupport.EXIT_FAILURE);
        } finally {
            ex.shutdown();
            try { store.abandon(); } catch (IOException e) { /* the failure above is what the user sees */ }
        }
        Figures f = new Figures();
        f.tSolved = System.nanoTime();
        f.resumedAt = resumedAtLayer;
        f.nodes = oracle.nodes();
        f.rootSearchNodes = ex.rootSearchNodes;
        f.rootSearchSeconds = ex.rootSearchSeconds;
        f.runsSpilled = ex.runsSpilled();
        f.cutCountsInFile = ex.cutCountsInFile();
        f.cutCountsFilePeakBytes = ex.cutCountsFilePeakBytes();
        return writeAndReport(game, m, root, nThreads, outAbs, dir, info, store, res, f, openEntries, progress, t0);
    }

    /**
     * After success, --state DIR is removed as --help says: it held only this solve's files, which
     * store.clean() removed. Anything else a user put there is kept, and so is DIR (with a note).
     */
    private void removeStateDir() {
        try {
            Files.delete(state);
        } catch (java.nio.file.DirectoryNotEmptyException e) {
            if (!quiet) stderr.println("note: --state " + state + " kept: it holds files that are not this solve's");
        } catch (IOException e) {
            if (!quiet) stderr.println("note: --state " + state + " could not be removed: " + e.getMessage());
        }
    }

    /** What a solve measured, for its summary. */
    private static final class Figures {
        long tSolved, nodes, rootSearchNodes, cutCountsFilePeakBytes, proofLogBytes = -1, proofLogSpilledBytes, proofLogFileBytes, proofLogFileReads;
        double rootSearchSeconds;
        int runsSpilled, cutCountsInFile;
        /** --proof search: its table's MiB (SearchProof.tableMb of the root). */
        int proofTableMb;
        /** The layer this run resumed at from a checkpoint (-1: it started from the root). */
        int resumedAt = -1;
        /** --proof search: its figures. */
        SearchProof searchProof;
    }

    /** Writes the certificate from the store's layers and prints the summary. */
    private Integer writeAndReport(Game game, Extractor.Mode m, long[] root, int nThreads, Path outAbs, Path dir, String info,
                                   LayerStore store, Extractor.State res, Figures fig, java.util.List<LayerEntries> openEntries,
                                   ScheduledExecutorService progress, long t0) {
        long tSolved = fig.tSolved;
        byte[] header = header(game, m, root, res.rootValue, info);
        CertificateWriter.Written w;
        try {
            w = CertificateWriter.writeFromFiles(outAbs, header, store.layers(), res.region, res.aux, res.rootLayer);
            store.clean();
            if (state != null) removeStateDir();
            if (splitAt != null) { // the root part is named by its commitment, and its tasks listed
                String hex = org.gamecert.producer.compose.SplitDir.hexOf(w.commitmentId);
                Files.move(outAbs, dir.resolve(hex + ".gsc"), java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                org.gamecert.producer.compose.SplitDir.writeTasks(dir, game, leafEmpties, splitAt, hex, openEntries);
            }
        } catch (IOException e) {
            if (progress != null) progress.shutdownNow();
            throw new CommandSupport.UserError("cannot write --out " + out + ": " + e.getMessage());
        }
        if (progress != null) progress.shutdownNow();
        double secs = (System.nanoTime() - t0) / 1e9, solveSecs = (tSolved - t0) / 1e9;
        long nodes = fig.nodes;
        long regionTotal = 0, auxTotal = 0;
        for (long r : res.region) regionTotal += r;
        for (long a : res.aux) auxTotal += a;

        PrintStream o = stdout;
        o.println("game          " + game.name() + " (" + m.text() + ")");
        o.println("root          " + game.boardText(root[0], root[1]));
        o.println("root value    " + res.rootValue + " (side to move)");
        if (m.semiStrong() && res.rootMoveCanonical >= 0) { // the root is P, R-TB-1 in mode 5 too
            long[] c = new long[2];
            int g = game.canonical(root[0], root[1], c);
            o.println("canonical move " + game.moveName(game.transformMove(game.inverse(g), res.rootMoveCanonical)));
        }
        boolean c4 = game.censusCountsTerminals(); // Connect Four and NoGo
        long proofTerminalTotal = 0;
        for (long t : res.proofTerminals) proofTerminalTotal += t;
        // Connect Four: the terminal positions only the proof reaches, so that region + auxiliary +
        // these compare with the semi-strong paper's tables (SPEC §10.3).
        o.println("census        disc  region  auxiliary" + (c4 ? "  proof-terminals" : ""));
        for (int r = 0; r < res.region.length; r++)
            if (res.region[r] != 0 || res.aux[r] != 0 || res.proofTerminals[r] != 0)
                o.printf(Locale.ROOT, "              %4d %7d %10d%s%n", res.rootLayer + r, res.region[r], res.aux[r],
                        c4 ? String.format(Locale.ROOT, " %16d", res.proofTerminals[r]) : "");
        o.printf(Locale.ROOT, "              total %d region positions, %d auxiliary entries, %d entries%n", regionTotal, auxTotal, w.entries);
        if (c4) o.printf(Locale.ROOT, "              %d terminal positions outside the region reached by the proof%n", proofTerminalTotal);
        o.println("commitment    " + w.commitmentId);
        o.printf(Locale.ROOT, "file          %s, %d bytes, %.3f bytes/entry, %s%n",
                splitAt == null ? out : out.resolve(org.gamecert.producer.compose.SplitDir.hexOf(w.commitmentId) + ".gsc"),
                w.fileBytes, w.entries == 0 ? 0.0 : (double) w.fileBytes / w.entries, Units.count(w.blocks, "block"));
        if (splitAt != null) {
            long open = 0;
            for (LayerEntries e : openEntries) open += e.count;
            o.printf(Locale.ROOT, "split         root part with %d open entries at %d discs; tasks in %s%n", open, splitAt,
                    out.resolve(org.gamecert.producer.compose.SplitDir.TASKS));
            o.println("next          scripts/produce solve-part " + out + " --parts all; scripts/produce compose " + out);
        }
        // this run's figures only: a resumed run's time starts with it, and so do its nodes
        o.printf(Locale.ROOT, "search        %d nodes, %s, solve %.2f s, total %.2f s, %s%s%n", nodes,
                Units.rate(nodes / Math.max(solveSecs, 1e-9), "nodes"), solveSecs, secs, Units.count(nThreads, "thread"),
                fig.resumedAt >= 0 ? " (this run, resumed at layer " + fig.resumedAt + ")" : "");
        SearchProof sp = fig.searchProof;
        String released = sp == null ? "" : String.format(Locale.ROOT, "; the layers' needs took up to %d bytes%s", sp.peakLayerBytes,
                sp.logReleasedBytes > 0 ? String.format(Locale.ROOT, ", and %d bytes of the log's pages left memory for them",
                        sp.logReleasedBytes) : "");
        if (sp != null && fig.resumedAt >= 0) {
            o.printf(Locale.ROOT, "resumed       from the checkpoint in %s at layer %d: the root's value (a search keeping its proof, one "
                            + "thread, a %d MiB table) was a previous run's, %d nodes in %.2f s there, its proof log %d bytes; that run's "
                            + "reading before layer %d: %d nodes of 7-empty cut searches%s%n", state, fig.resumedAt, fig.proofTableMb,
                    fig.rootSearchNodes, fig.rootSearchSeconds, fig.proofLogBytes, fig.resumedAt, sp.leafNodes - sp.leafNodesThisRun,
                    sp.readSecondsBefore >= 0 ? String.format(Locale.ROOT, " in %.2f s", sp.readSecondsBefore)
                            : " (its time not recorded by the checkpoint)");
            o.printf(Locale.ROOT, "              this run read the certificate from layer %d on in %.2f s (%d nodes of 7-empty cut "
                    + "searches)%s%n", fig.resumedAt, sp.readSecondsThisRun, sp.leafNodesThisRun, released);
        } else if (fig.proofLogBytes >= 0)
            o.printf(Locale.ROOT, "              of which the root's value (a search keeping its proof, one thread, a %d MiB table) %d nodes"
                    + " in %.2f s, its proof log %d bytes (%d of them spilled to disk)%s%s; the certificate read from it in %.2f s (%d nodes"
                    + " of 7-empty cut searches; %.1fx the search's time in all)%n", fig.proofTableMb, fig.rootSearchNodes,
                    fig.rootSearchSeconds, fig.proofLogBytes, fig.proofLogSpilledBytes, released,
                    fig.proofLogFileBytes == 0 ? "" : String.format(Locale.ROOT, "; its file %d bytes compressed, %d frames read",
                            fig.proofLogFileBytes, fig.proofLogFileReads), sp.readSecondsThisRun,
                    nodes - fig.rootSearchNodes, secs / Math.max(fig.rootSearchSeconds, 1e-9));
        else if (fig.resumedAt >= 0)
            o.printf(Locale.ROOT, "resumed       from the checkpoint in %s at layer %d: the figures above are this run's; the root's search"
                    + " and the layers before it were a previous run's%n", state, fig.resumedAt);
        else if (fig.rootSearchNodes > 0)
            o.printf(Locale.ROOT, "              of which the root's value (a plain search) %d nodes in %.2f s; the certificate's"
                    + " extraction %d nodes in %.2f s (%.1fx the plain search's time in all)%n", fig.rootSearchNodes,
                    fig.rootSearchSeconds, nodes - fig.rootSearchNodes, solveSecs - fig.rootSearchSeconds,
                    secs / Math.max(fig.rootSearchSeconds, 1e-9));
        o.printf(Locale.ROOT, "temp disk     peak %d bytes (finished layers and needs in %s); %d sorted runs of needs spilled;"
                        + " %d layers' cut-child counts read from a file (the largest %d bytes)%n",
                store.peakDiskBytes(), state != null ? state : (tmp != null ? tmp : dir), fig.runsSpilled, fig.cutCountsInFile,
                fig.cutCountsFilePeakBytes);
        if (censusJson != null) {
            StringBuilder sb = new StringBuilder();
            sb.append("{\"game\":\"").append(game.name()).append("\",\"mode\":\"")
                    .append(m.text()).append("\",\"root_value\":").append(res.rootValue)
                    .append(",\"commitment\":\"").append(w.commitmentId).append("\",\"rows\":[");
            for (int r = 0; r < res.region.length; r++) {
                if (r > 0) sb.append(',');
                sb.append("{\"discs\":").append(res.rootLayer + r).append(",\"region\":").append(res.region[r])
                        .append(",\"aux\":").append(res.aux[r]);
                if (c4) sb.append(",\"proof_terminals\":").append(res.proofTerminals[r]);
                sb.append('}');
            }
            sb.append("],\"region_total\":").append(regionTotal).append(",\"aux_total\":").append(auxTotal)
                    .append(",\"entries\":").append(w.entries);
            if (c4) sb.append(",\"proof_terminals_total\":").append(proofTerminalTotal);
            sb.append("}\n");
            try { Files.write(censusJson, sb.toString().getBytes(StandardCharsets.UTF_8)); }
            catch (IOException e) { throw new CommandSupport.UserError("cannot write --census-json " + censusJson + ": " + e.getMessage()); }
        }
        return CommandSupport.EXIT_OK;
    }
}

package org.gamecert.verifier.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.gamecert.verifier.core.check.Options;
import org.gamecert.verifier.core.check.Result;
import org.gamecert.verifier.core.check.Verifier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The verifier's command line: thin main, testable {@link #run}. */
@Command(name = "verify", mixinStandardHelpOptions = true, version = "gamecert verifier 0.1.0 (SPEC v1)",
        sortOptions = false,
        description = {
            "Checks a gamecert certificate (SPEC v1) and prints the verdict.",
            "PATH may also be a release bundle (a BagIt directory, .tar, .tar.zst or its split parts, made by"
                + " `produce release`): the bag is checked, then every certificate in it; or the published 6x6 Othello"
                + " tablebase in its own format (a directory of optimal_reopening_ab_table_all_{n}.txt, a .csv, a .tar,"
                + " a .tar.zst or its split parts, with SHA256SUMS checked first when present). The kind of input is"
                + " found from its content; --format overrides.",
            "",
            "Exit codes: 0 verified; 1 rejected (the first violated rule is named); 2 unreadable input,"
                + " not a certificate, bad usage, memory limit or internal error; 3 incomplete.",
            "Only a fully checked certificate gets 0, and only then is its commitment id printed."
        })
public final class VerifyMain implements Callable<Integer> {
    public static final int VERIFIED = 0, REJECTED = 1, ERROR = 2, INCOMPLETE = 3;

    @Parameters(index = "0", paramLabel = "PATH", description = "A certificate (.gsc), a release bundle, or peer 6x6 tables.")
    Path path;

    @Option(names = "--format", paramLabel = "KIND", description = "certificate, bundle or peer (default: detected).")
    String format;

    @Option(names = "--json", description = "Print one JSON object on stdout instead of the human report.")
    boolean json;

    @Option(names = "--threads", paramLabel = "N", description = "Threads for decompressing, hashing and checking (default: ${DEFAULT-VALUE}; with --all the entry checks stay on one thread). The verdict and the reported violation do not depend on N.")
    int threads = Runtime.getRuntime().availableProcessors();

    @Option(names = "--max-memory", paramLabel = "SIZE", description = "Bound on the verifier's tables, e.g. 512m, 4g (default: 2g). A layer too big for it is loaded in key-range segments, each checked against a re-read of the layer above it (slower, same verdict); error only if not even 1 byte per entry of a layer fits.")
    String maxMemory = "2g";

    @Option(names = "--strict", description = "Reject unreached entries (R-REACH-1) instead of only counting them.")
    boolean strict;

    @Option(names = "--all", description = "Keep going after a violation and report violations per rule (capped at 10 listed per rule).")
    boolean all;

    @Option(names = "--pubkey", paramLabel = "FILE", description = "Bundles: the authors' Ed25519 public key; the bundle's signature must verify with it.")
    Path pubkey;

    @Option(names = "--root", paramLabel = "TEXT", description = "Peer tables: the root position (otherwise the initial position, or the lowest table's records).")
    String root;

    @Option(names = "--tmp", paramLabel = "DIR", description = "Peer tables: directory for temporary files (pass state, spooled tables).")
    Path tmp;

    @Option(names = "--state", paramLabel = "DIR", description = "Peer tables: remember verified tables here; a restart with the same DIR skips them.")
    Path state;

    @Option(names = {"-q", "--quiet"}, description = "No progress on stderr.")
    boolean quiet;

    private PrintStream out, err;

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the command; returns the exit code. Never throws. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        VerifyMain cmd = new VerifyMain();
        cmd.out = out;
        cmd.err = err;
        CommandLine cl = new CommandLine(cmd);
        cl.setOut(new java.io.PrintWriter(out, true));
        cl.setErr(new java.io.PrintWriter(err, true));
        cl.setParameterExceptionHandler((ex, a) -> {
            err.println("error: " + ex.getMessage() + " (see --help)");
            return ERROR;
        });
        cl.setExecutionExceptionHandler((ex, c, p) -> {
            err.println("error: internal error: " + ex);
            return ERROR;
        });
        try {
            return cl.execute(args);
        } catch (Throwable t) {
            err.println("error: internal error: " + t);
            return ERROR;
        }
    }

    @Override
    public Integer call() {
        long limit = parseSize(maxMemory);
        if (limit <= 0) {
            err.println("error: --max-memory: cannot read size '" + maxMemory + "' (e.g. 512m, 4g)");
            return ERROR;
        }
        if (threads < 1 || threads > 256) {
            err.println("error: --threads must be between 1 and 256");
            return ERROR;
        }
        InputKind kind;
        if (format == null) kind = InputKind.detect(path);
        else {
            try { kind = InputKind.valueOf(format.trim().toUpperCase(Locale.ROOT)); }
            catch (IllegalArgumentException e) {
                err.println("error: --format must be certificate, bundle or peer");
                return ERROR;
            }
        }
        Options o = new Options();
        o.maxMemory = limit;
        o.threads = threads;
        o.strict = strict;
        o.all = all;
        o.maxViolationsPerRule = all ? 10 : 1;
        if (kind == InputKind.PEER) return verifyPeer();
        Progress progress = new Progress(quiet ? null : err);
        o.progress = progress;
        if (kind == InputKind.BUNDLE) {
            org.gamecert.verifier.bundle.BundleOptions bo = new org.gamecert.verifier.bundle.BundleOptions();
            bo.pubkey = pubkey;
            bo.json = json;
            bo.certificate = o;
            int rc = org.gamecert.verifier.bundle.BundleVerifier.verify(path, bo, out, quiet ? new PrintStream(java.io.OutputStream.nullOutputStream()) : err);
            progress.done();
            return rc;
        }
        Result r = Verifier.verify(path, o);
        progress.done();
        if (json) out.println(Report.json(r));
        else Report.human(r, path.toString(), threads, out);
        out.flush();
        switch (r.verdict) {
            case VERIFIED: return VERIFIED;
            case REJECTED: return REJECTED;
            case INCOMPLETE: return INCOMPLETE;
            default: return ERROR;
        }
    }

    /** The published 6x6 tablebase's own format: handed to its reader with the options that apply. */
    private int verifyPeer() {
        java.util.List<String> a = new java.util.ArrayList<>(java.util.List.of(path.toString(), "--max-memory", maxMemory,
                "--threads", Integer.toString(threads)));
        if (root != null) { a.add("--root"); a.add(root); }
        if (tmp != null) { a.add("--tmp"); a.add(tmp.toString()); }
        if (state != null) { a.add("--state"); a.add(state.toString()); }
        if (json) a.add("--json");
        if (quiet) a.add("--quiet");
        return org.gamecert.verifier.peer.PeerMain.run(a.toArray(new String[0]), out, err);
    }

    /** Parses 123, 64k, 512m, 4g (binary units); -1 if unreadable. */
    static long parseSize(String s) {
        if (s == null || s.isBlank()) return -1;
        try {
            return org.gamecert.verifier.peer.PeerMain.parseSize(s);
        } catch (IllegalArgumentException e) {
            return -1;
        }
    }

    /** Progress on stderr, only for runs over two seconds, at most once a second. */
    static final class Progress implements Options.Progress {
        private final PrintStream err;
        private final long start = System.nanoTime();
        private long last, passStart = start;
        private int pass = 1;
        private boolean printed;

        Progress(PrintStream err) {
            this.err = err;
            this.last = start;
        }

        @Override
        public void update(long entries, int layers, long bytesRead, long fileSize, int pass) {
            if (err == null) return;
            long now = System.nanoTime();
            if (pass != this.pass) { // rates and ETA per pass
                this.pass = pass;
                passStart = now;
            }
            if (now - start < 2_000_000_000L || now - last < 1_000_000_000L) return;
            last = now;
            double s = Math.max(1e-3, (now - passStart) / 1e9);
            String eta = "";
            if (fileSize > 0 && bytesRead > 0) { // pass 1: file offsets; pass 2: entries
                double frac = Math.min(1, (double) bytesRead / fileSize);
                eta = String.format(", %.0f%% done, ETA pass %d %.0f s", 100 * frac, pass, s / frac - s);
            }
            err.printf("\rpass %d: %,d entries, %d layers done, %,.0f entries/s%s   ", pass, entries, layers, entries / s, eta);
            printed = true;
        }

        void done() {
            if (printed) err.println();
        }
    }
}

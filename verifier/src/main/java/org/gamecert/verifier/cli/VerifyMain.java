package org.gamecert.verifier.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.gamecert.verifier.engine.CompositeVerifier;
import org.gamecert.verifier.engine.Figures;
import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.engine.Verifier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The verifier's command line: thin main, testable {@link #run}. */
@Command(name = "verify", mixinStandardHelpOptions = true, versionProvider = VerifyMain.Version.class,
        sortOptions = false,
        description = {
            "Checks a gamecert certificate (SPEC v1) and prints the verdict.",
            "PATH may be a composite (SPEC §15): a directory holding composite.gscm, or a .gscm manifest; its parts are read as"
                + " <64 hex digits of their commitment>.gsc beside it, checked up to --threads at a time, then composed.",
            "PATH may also be a release bundle (a BagIt directory, .tar, .tar.zst or its split parts, made by"
                + " `produce release`): the bag is checked, then every certificate in it; or the published 6x6 Othello"
                + " tablebase in its own format (a directory of optimal_reopening_ab_table_all_{n}.txt, a .csv, a .tar,"
                + " a .tar.zst or its split parts, with SHA256SUMS checked first when present). The kind of input is"
                + " found from its content; --format overrides.",
            "",
            "Exit codes: 0 verified; 1 rejected (the first violated rule is named); 2 unreadable input,"
                + " not a certificate or manifest, bad usage, memory limit or internal error; 3 incomplete (a part with open"
                + " entries checked on its own, a composite with parts not given).",
            "Only a fully checked certificate or composite gets 0, and only then is its commitment id (composite id) printed.",
            "With --json, stdout holds one JSON object whatever happens, usage errors included; every input kind's object"
                + " starts with input, kind, verdict and exit_code (absent numbers are null).",
            "A report names a broken rule by its id and one-line statement; --explain RULE prints the rule, --explain all every one."
        })
public final class VerifyMain implements Callable<Integer> {
    public static final int VERIFIED = 0, REJECTED = 1, ERROR = 2, INCOMPLETE = 3;

    /** --version: "gamecert verifier 0.6.0 (commit 29b3…, clean), SPEC v1"; the commit is the one the jar was built from. */
    public static String versionLine() {
        return "gamecert verifier " + BuildInfo.verifier().describe() + ", SPEC v1";
    }

    public static final class Version implements CommandLine.IVersionProvider {
        @Override public String[] getVersion() { return new String[] {versionLine()}; }
    }

    @Parameters(index = "0", arity = "0..1", paramLabel = "PATH", description = "A certificate (.gsc), a composite (directory or .gscm), a release bundle, or peer 6x6 tables.")
    Path path;

    @Option(names = "--explain", paramLabel = "RULE", description = "Print what rule RULE (e.g. R-TB-1, PEER-PV-2) requires and where it is defined, then exit; 'all' lists every rule. No PATH needed.")
    String explain;

    @Option(names = "--format", paramLabel = "KIND", description = "certificate, composite, bundle or peer (default: detected).")
    String format;

    @Option(names = "--json", description = "Print one JSON object on stdout instead of the human report.")
    boolean json;

    @Option(names = "--threads", paramLabel = "N", description = "Threads for decompressing, hashing and checking (default: ${DEFAULT-VALUE}; with --all the entry checks stay on one thread). The verdict and the reported violation do not depend on N.")
    int threads = Runtime.getRuntime().availableProcessors();

    @Option(names = "--max-memory", paramLabel = "SIZE", description = "Bound on the verifier's tables, e.g. 512m, 4g (default: 2g, or less when the JVM heap cannot hold that; a SIZE the heap cannot hold is refused). A layer too big for it is held in runs of its entries, the slices of the layer above checked in waves against each run, re-read for each wave (slower, same verdict); error only if not even one entry of a layer fits.")
    String maxMemory; // null: the default, fitted to the heap

    @Option(names = "--strict", description = "Reject unreached entries (R-REACH-1) instead of only counting them.")
    boolean strict;

    @Option(names = "--all", description = "Keep going after a violation and report violations per rule (capped at 10 listed per rule).")
    boolean all;

    @Option(names = "--pubkey", paramLabel = "FILE", description = "Bundles only: the authors' Ed25519 public key; the bundle's signature must verify with it. Refused (exit 2) for inputs that carry no signature, and when FILE cannot be read.")
    Path pubkey;

    @Option(names = "--parts", paramLabel = "DIR", description = "Bundles only: the folder holding the parts (files <64 hex>.gsc) of a composite "
            + "released by reference (produce release --parts-by-reference); without it such a bundle is incomplete (exit 3).")
    java.nio.file.Path partsDir;

    @Option(names = "--root", paramLabel = "TEXT", description = "Peer tables only: the root position (otherwise the initial position, or the lowest table's records).")
    String root;

    @Option(names = "--tmp", paramLabel = "DIR", description = "Peer tables only: directory for temporary files (pass state, spooled tables).")
    Path tmp;

    @Option(names = "--state", paramLabel = "DIR", description = "Peer tables only: remember verified tables here; a restart with the same DIR skips them.")
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
        // --json: a usage error too is one JSON object on stdout (the input named when it was given)
        boolean json = java.util.Arrays.stream(args).takeWhile(a -> !a.equals("--")).anyMatch("--json"::equals);
        return CommandRunner.execute(new CommandLine(cmd), args, out, err, ERROR,
                json ? message -> out.println(JsonHead.error(cmd.path == null ? null : cmd.path.toString(), message)) : null, RANGES);
    }

    /** The allowed values of numeric options, for the message when a number does not even fit (--threads 99999999999). */
    static final java.util.Map<String, String> RANGES = java.util.Map.of("--threads", "between 1 and 256");

    /** A usage error or an input that cannot be checked: one line on stderr, and with --json one JSON object on stdout. */
    private int fail(String message) {
        err.println("error: " + message);
        if (json) out.println(JsonHead.error(path == null ? null : path.toString(), message));
        out.flush();
        return ERROR;
    }

    @Override
    public Integer call() {
        if (explain != null) return explain();
        if (path == null) return fail("missing PATH: a certificate, composite, bundle or peer tables (see --help)");
        return check();
    }

    /** --explain RULE: the rule's statement and where it is defined. */
    private int explain() {
        if (explain.trim().equalsIgnoreCase("all")) {
            for (Rules.Rule r : Rules.all().values()) out.printf("%-14s %s  [%s]%n", r.id(), r.statement().replace("`", ""), r.where());
            out.flush();
            return VERIFIED;
        }
        Rules.Rule r = Rules.get(explain);
        if (r == null) return fail("no rule " + explain + ": rule ids look like R-TB-1 or PEER-PV-2 (--explain all lists them)");
        out.println(Rules.explain(r));
        out.flush();
        return VERIFIED;
    }

    private int check() {
        long room = tableHeapRoom(), limit = maxMemory == null ? Math.min(Options.DEFAULT_MAX_MEMORY, room) : parseSize(maxMemory);
        if (maxMemory == null && limit < 1) {
            return fail("the JVM's " + mib(Runtime.getRuntime().maxMemory()) + " maximum heap leaves no room for the tables: raise it (e.g. GAMECERT_JAVA_OPTS=-Xmx2g)");
        }
        if (limit <= 0) {
            return fail("--max-memory: cannot read size '" + maxMemory + "' (e.g. 512m, 4g)");
        }
        if (limit > room) { // refused up front rather than an out-of-memory error once the tables grow
            return fail(String.format("--max-memory %s is more than this JVM's heap can hold for the tables: at most %s of its %s maximum heap."
                    + " Lower --max-memory or raise the heap (e.g. GAMECERT_JAVA_OPTS=-Xmx8g)", maxMemory, mib(room), mib(Runtime.getRuntime().maxMemory())));
        }
        if (maxMemory == null && limit < Options.DEFAULT_MAX_MEMORY && !quiet)
            err.println("note: --max-memory fitted to the JVM heap: " + mib(limit) + " (of " + mib(Runtime.getRuntime().maxMemory()) + " maximum heap)");
        if (threads < 1 || threads > 256) return fail("--threads must be " + RANGES.get("--threads") + ", not " + threads);
        InputKind kind;
        InputKind.Detection seen = null;
        if (!java.nio.file.Files.exists(path)) return fail("no such file or directory: " + path);
        if (format == null) {
            seen = InputKind.describe(path);
            if (seen.refusal() != null) return fail(seen.refusal()); // nothing a reader could check: say what it is and what to do
            kind = seen.kind();
        } else {
            try { kind = InputKind.valueOf(format.trim().toUpperCase(Locale.ROOT)); }
            catch (IllegalArgumentException e) {
                return fail("--format must be certificate, composite, bundle or peer");
            }
        }
        // An option for another kind of input would be ignored: the user would get less checked than asked for.
        if (pubkey != null && kind != InputKind.BUNDLE) {
            return fail("--pubkey checks a release bundle's signature, but " + path + " is read as " + kindName(kind)
                    + ", with no signature: nothing would be checked against the key (drop --pubkey, or give the bundle)");
        }
        if (partsDir != null && kind != InputKind.BUNDLE) {
            return fail("--parts gives the parts of a composite released by reference in a bundle, but " + path + " is read as "
                    + kindName(kind) + (kind == InputKind.COMPOSITE ? " (its parts are read beside its manifest)" : ""));
        }
        if (partsDir != null && !java.nio.file.Files.isDirectory(partsDir)) {
            return fail("--parts: no such directory " + partsDir);
        }
        if (pubkey != null && !(java.nio.file.Files.isRegularFile(pubkey) && java.nio.file.Files.isReadable(pubkey))) {
            return fail("--pubkey: cannot read the key file " + pubkey);
        }
        if (kind != InputKind.PEER && (root != null || tmp != null || state != null)) {
            return fail((root != null ? "--root" : tmp != null ? "--tmp" : "--state") + " applies to peer tables only, but " + path
                    + " is read as " + kindName(kind) + (root != null ? " (a certificate's root is its header's)" : ""));
        }
        Options o = new Options();
        o.maxMemory = limit;
        o.threads = threads;
        o.strict = strict;
        o.all = all;
        o.maxViolationsPerRule = all ? 10 : 1;
        if (kind == InputKind.PEER) return verifyPeer(limit);
        if (kind == InputKind.COMPOSITE) return verifyComposite(o);
        Progress progress = new Progress(quiet ? null : err);
        o.progress = progress;
        if (kind == InputKind.BUNDLE) {
            org.gamecert.verifier.bundle.BundleOptions bo = new org.gamecert.verifier.bundle.BundleOptions();
            bo.pubkey = pubkey;
            bo.partsDir = partsDir;
            bo.json = json;
            bo.certificate = o;
            int rc = org.gamecert.verifier.bundle.BundleVerifier.verify(path, bo, out, quiet ? new PrintStream(java.io.OutputStream.nullOutputStream()) : err);
            progress.done();
            return rc;
        }
        Figures f = new Figures();
        Result r = Verifier.verify(path, o, f);
        progress.done();
        if (json) out.println(Report.json(r, f, path.toString()));
        else Report.human(r, f, path.toString(), threads, out);
        out.flush();
        // Not even a certificate's frames: say what the input looked like, so a mislabelled bundle
        // or table is recognised for what it is (and --format can say otherwise).
        if (r.verdict == Result.Verdict.ERROR && r.entries == 0 && seen != null && !seen.what().startsWith("a gamecert"))
            err.println("note: " + path + " was read as a certificate; its content looks like " + seen.what()
                    + " (--format certificate|bundle|peer chooses the reader)");
        switch (r.verdict) {
            case VERIFIED: return VERIFIED;
            case REJECTED: return REJECTED;
            case INCOMPLETE: return INCOMPLETE;
            default: return ERROR;
        }
    }

    /** A composite (SPEC §15): its parts checked by the engine, composed by the kernel. */
    private int verifyComposite(Options o) {
        CompositeVerifier.Outcome c = CompositeVerifier.verify(path, o, quiet ? null : err);
        if (json) out.println(CompositeReport.json(c, path.toString()));
        else CompositeReport.human(c, path.toString(), out);
        out.flush();
        return exitCode(c.verdict());
    }

    static int exitCode(Result.Verdict v) {
        switch (v) {
            case VERIFIED: return VERIFIED;
            case REJECTED: return REJECTED;
            case INCOMPLETE: return INCOMPLETE;
            default: return ERROR;
        }
    }

    /** The published 6x6 tablebase's own format: handed to its reader with the options that apply. */
    private int verifyPeer(long limit) {
        java.util.List<String> a = new java.util.ArrayList<>(java.util.List.of(path.toString(), "--max-memory", Long.toString(limit),
                "--threads", Integer.toString(threads)));
        if (root != null) { a.add("--root"); a.add(root); }
        if (tmp != null) { a.add("--tmp"); a.add(tmp.toString()); }
        if (state != null) { a.add("--state"); a.add(state.toString()); }
        if (json) a.add("--json");
        if (quiet) a.add("--quiet");
        return org.gamecert.verifier.peer.PeerMain.run(a.toArray(new String[0]), out, err);
    }

    static String kindName(InputKind k) {
        return k == InputKind.CERTIFICATE ? "a certificate" : k == InputKind.BUNDLE ? "a release bundle"
                : k == InputKind.COMPOSITE ? "a composite" : "peer tables";
    }

    static String mib(long bytes) {
        return (bytes >> 20) + " MiB";
    }

    /**
     * The bytes of heap the tables may be given: the largest heap pool's maximum, less an eighth
     * (at least 32 MiB) for everything else. The largest pool is where big arrays live (the old
     * generation of the serial and parallel collectors, about 2/3 of -Xmx; the whole heap with
     * G1): an array bigger than it fails however much of the heap is free.
     */
    static long tableHeapRoom() {
        long heap = Runtime.getRuntime().maxMemory(), pool = 0;
        for (java.lang.management.MemoryPoolMXBean p : java.lang.management.ManagementFactory.getMemoryPoolMXBeans())
            if (p.getType() == java.lang.management.MemoryType.HEAP && p.getUsage() != null) pool = Math.max(pool, p.getUsage().getMax());
        if (pool <= 0 || pool > heap) pool = heap;
        return pool - Math.max(32L << 20, pool / 8);
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

    /**
     * Whether stderr is a terminal. Java cannot ask about stderr itself: scripts/verify tells it
     * ({@code -Dgamecert.stderr.tty=true|false}, from {@code [ -t 2 ]}); without that, a console on
     * stdin and stdout is taken as a terminal.
     */
    static boolean stderrIsTerminal() {
        String p = System.getProperty("gamecert.stderr.tty");
        return p != null ? Boolean.parseBoolean(p) : System.console() != null;
    }

    /**
     * Progress on stderr, only for runs over two seconds. On a terminal one line redrawn in place
     * (\r) at most once a second; in a log (stderr not a terminal) a whole line every 30 s, so
     * that a log holds no \r and stays short. The layers are checked in one pass, shallowest first:
     * the percentage is of the file's entries, the ETA the whole check's. (An engine that reads
     * the file more than once numbers its passes: each has its own rate and ETA.)
     */
    static final class Progress implements Options.Progress {
        private final PrintStream err;
        private final boolean terminal;
        private final long start, every;
        private long last, passStart;
        private int pass = 1;
        private boolean printed;

        Progress(PrintStream err) { this(err, stderrIsTerminal()); }

        Progress(PrintStream err, boolean terminal) { this(err, terminal, System.nanoTime()); }

        /** As if started at {@code start} (System.nanoTime()): tests. */
        Progress(PrintStream err, boolean terminal, long start) {
            this.err = err;
            this.terminal = terminal;
            this.start = start;
            this.passStart = start;
            this.every = terminal ? 1_000_000_000L : 30_000_000_000L;
            this.last = start;
        }

        @Override
        public void update(long entries, int layers, long bytesRead, long fileSize, int pass) {
            if (err == null) return;
            long now = System.nanoTime();
            boolean newPass = pass != this.pass;
            if (newPass) { // rates and ETA per pass; a new pass is shown at once
                this.pass = pass;
                passStart = now;
            }
            if (now - start < 2_000_000_000L || (now - last < every && !newPass)) return;
            last = now;
            err.print(terminal ? "\r" + line(entries, layers, bytesRead, fileSize, pass, now) + "   "
                    : line(entries, layers, bytesRead, fileSize, pass, now) + System.lineSeparator());
            err.flush();
            printed = terminal;
        }

        String line(long entries, int layers, long bytesRead, long fileSize, int pass, long now) {
            double s = Math.max(1e-3, (now - passStart) / 1e9);
            String eta = "";
            if (fileSize > 0 && bytesRead > 0) { // pass 1: file offsets; pass 2: entries
                double frac = Math.min(1, (double) bytesRead / fileSize);
                eta = String.format(Locale.ROOT, ", %.0f%%, ETA %s", 100 * frac, duration(s / frac - s));
            }
            return String.format(Locale.ROOT, "[%s] %s%,d entries, %d layer%s done, %,.0f entries/s%s",
                    duration((now - start) / 1e9), pass > 1 ? "pass " + pass + ": " : "", entries, layers,
                    layers == 1 ? "" : "s", entries / s, eta);
        }

        void done() {
            if (printed) err.println();
        }
    }

    /** "45 s", "12 min 5 s", "3 h 20 min". */
    static String duration(double seconds) {
        long s = Math.round(Math.max(0, seconds));
        if (s < 60) return s + " s";
        if (s < 3600) return s / 60 + " min " + s % 60 + " s";
        return s / 3600 + " h " + s % 3600 / 60 + " min";
    }
}

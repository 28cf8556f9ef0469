package org.gamecert.verifier.peer;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Command line for the peer format; the verifier CLI can mount {@link #run} as a subcommand. */
@Command(name = "verify-peer", mixinStandardHelpOptions = true,
        description = {
            "Verifies the published 6x6 Othello semi-strong tablebase (Zenodo 18843225) in its own format: every record is checked with the sound PV/ALL'/PV'/CUT/ALL rules against the next table, in bounded memory.",
            "",
            "INPUT is a directory of optimal_reopening_ab_table_all_{n}.txt, a .csv (the peer's intermediate form), a .tar, a .tar.zst, or any part of a split .tar.zst (NAME.00, NAME.000, NAME.part00, NAME.aa). A SHA256SUMS file next to it is checked first.",
            "",
            "Exit codes: 0 verified, 1 rejected, 2 error, 3 incomplete (children in tables not given).",
            ""})
public final class PeerMain implements Callable<Integer> {
    public static final int EXIT_VERIFIED = 0, EXIT_REJECTED = 1, EXIT_ERROR = 2, EXIT_INCOMPLETE = 3;

    @Parameters(index = "0", paramLabel = "INPUT", description = "the tables (see above)")
    Path input;

    @Option(names = "--root", paramLabel = "TEXT", description = "root position: 64-char obf (X to move) or 36-char 6x6 board text and side, e.g. '---...XO... X'")
    String root;

    @Option(names = "--max-memory", paramLabel = "SIZE", description = "heap for a child key range (e.g. 1g, 512m); default 60%% of -Xmx")
    String maxMemory;

    @Option(names = "--range-records", paramLabel = "N", hidden = true, description = "cap child ranges at N records (tests, benchmarks)")
    long rangeRecords;

    @Option(names = "--tmp", paramLabel = "DIR", description = "temporary files (pass state, spooled tables of a streamed archive)")
    Path tmp;

    @Option(names = "--state", paramLabel = "DIR", description = "remember verified tables here; a restart with the same DIR skips them")
    Path state;

    @Option(names = "--threads", paramLabel = "N", description = "worker threads (default: all processors)")
    int threads;

    @Option(names = "--json", description = "print one JSON object on stdout")
    boolean json;

    @Option(names = "--quiet", description = "no progress on stderr")
    boolean quiet;

    @Option(names = "--no-sums", description = "do not check SHA256SUMS")
    boolean noSums;

    private PrintStream out, err;

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        PeerMain m = new PeerMain();
        m.out = out;
        m.err = err;
        CommandLine cl = new CommandLine(m);
        cl.setOut(new java.io.PrintWriter(out, true));
        cl.setErr(new java.io.PrintWriter(err, true));
        cl.setParameterExceptionHandler((ex, a) -> {
            err.println("error: " + ex.getMessage());
            return EXIT_ERROR;
        });
        cl.setExecutionExceptionHandler((ex, c, p) -> {
            err.println("error: " + ex.getMessage());
            return EXIT_ERROR;
        });
        return cl.execute(args);
    }

    @Override
    public Integer call() {
        PeerOptions o = new PeerOptions();
        o.input = input;
        o.root = root;
        try {
            o.maxMemory = maxMemory == null ? 0 : parseSize(maxMemory);
        } catch (IllegalArgumentException e) {
            err.println("error: --max-memory: " + e.getMessage());
            return EXIT_ERROR;
        }
        o.rangeRecords = rangeRecords;
        o.tmp = tmp;
        o.state = state;
        o.threads = threads;
        o.checkSums = !noSums;
        o.progress = quiet ? null : err;
        PeerResult r = PeerVerifier.verify(o);
        if (json) out.println(PeerReport.json(r));
        else PeerReport.printText(r, out);
        if (r.error != null && !json) err.println("error: " + r.error);
        return r.exitCode();
    }

    /** "1g", "512m", "65536k", "123" (bytes). */
    public static long parseSize(String s) {
        String t = s.trim().toLowerCase(java.util.Locale.ROOT);
        long mul = 1;
        if (t.endsWith("b")) t = t.substring(0, t.length() - 1);
        if (t.endsWith("k")) mul = 1L << 10;
        else if (t.endsWith("m")) mul = 1L << 20;
        else if (t.endsWith("g")) mul = 1L << 30;
        else if (t.endsWith("t")) mul = 1L << 40;
        if (mul > 1) t = t.substring(0, t.length() - 1);
        try {
            long v = Long.parseLong(t);
            if (v <= 0 || v > Long.MAX_VALUE / mul) throw new NumberFormatException();
            return v * mul;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a size: '" + s + "' (use e.g. 1g, 512m)");
        }
    }
}

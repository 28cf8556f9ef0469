package org.gamecert.spark;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.apache.spark.api.java.JavaSparkContext;
import org.gamecert.spark.verify.SparkPeer;
import org.gamecert.spark.verify.SparkVerifier;
import org.gamecert.verifier.peer.PeerOptions;
import org.gamecert.verifier.peer.PeerReport;
import org.gamecert.verifier.peer.PeerResult;
import org.gamecert.verifier.cli.Reports;
import org.gamecert.verifier.engine.CompositeVerifier;
import org.gamecert.verifier.engine.Figures;
import org.gamecert.verifier.kernel.Result;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** spark-verify: the same report, JSON and exit codes as scripts/verify, the kernel run in Spark tasks. */
@Command(name = "verify", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Checks a certificate, a composite or peer 6x6 tables on Spark (local[*] unless --master is given) and prints what"
                + " scripts/verify prints.",
            "A certificate: the driver reads its map (header, block records, trailer), then its layers from the root's down,"
                + " each cut into slices of blocks checked by the sequential kernel in the executors, the children they consult"
                + " joined by key against the layer below, marks and terminal positions counted by key across them; the driver"
                + " combines the slices' reports (--whole-file: one task for the whole file). A composite's parts are Spark"
                + " tasks, composed by the kernel in the driver. On a cluster, PATH (and a composite's parts) must be on a path"
                + " every executor can read.",
            "Peer tables (a directory, .csv, .tar, .tar.zst or split .tar.zst parts): one Spark task per slice of a table n"
                + " (--slice-records records of it) against table n+1, each with its own peer kernel; a .tar.zst is read once"
                + " by the driver into slice files in --tmp, which every executor must then read.",
            "Exit codes: 0 verified; 1 rejected; 2 unreadable input, bad usage, Spark failure or internal error; 3 incomplete."})
public final class VerifyCommand implements Callable<Integer>, SparkMain.Streams {
    @Parameters(index = "0", paramLabel = "PATH", description = "A certificate (.gsc) or a composite (directory or .gscm).")
    Path path;

    @Option(names = "--master", paramLabel = "URL", description = "Spark master, e.g. spark://host:7077, yarn, k8s://...; default local[*] (or spark-submit's).")
    String master;

    @Option(names = "--partitions", paramLabel = "N", description = "Spark partitions for a composite's parts (default: one per part).")
    int partitions;

    @Option(names = "--slice-entries", paramLabel = "N", description = "A certificate's layers are checked in slices of about N"
            + " entries across the executors (default " + org.gamecert.spark.verify.SparkSliced.DEFAULT_SLICE_ENTRIES + ").")
    long sliceEntries;

    @Option(names = "--terminal-partitions", paramLabel = "N", description = "A certificate in slices: the terminal positions"
            + " of a layer are counted by kernels in N partitions of their keys (default: one per 1,048,576 entries of the file,"
            + " at least Spark's default parallelism).")
    int terminalPartitions;

    @Option(names = "--whole-file", description = "Check a certificate as one Spark task (the kernel over the whole file in one"
            + " executor) instead of in slices.")
    boolean wholeFile;

    @Option(names = "--json", description = "Print one JSON object on stdout instead of the human report.")
    boolean json;

    @Option(names = "--max-memory", paramLabel = "SIZE", description = "Table budget per task, e.g. 512m, 4g (default: fitted to the executor's heap).")
    String maxMemory;

    @Option(names = "--strict", description = "Reject unreached entries (R-REACH-1) instead of only counting them.")
    boolean strict;

    @Option(names = "--all", description = "Keep going after a violation and report violations per rule (capped at 10 listed per rule).")
    boolean all;

    @Option(names = "--root", paramLabel = "TEXT", description = "Peer tables only: the root position (as scripts/verify).")
    String root;

    @Option(names = "--tmp", paramLabel = "DIR", description = "Peer tables only: temporary files of the slice tasks, and the slice spool of a .tar.zst (a path every executor can read and write).")
    Path tmp;

    @Option(names = "--slice-records", paramLabel = "N", description = "Peer tables only: records of a table per Spark task (default:"
            + " all records over the cores, at most half the biggest table, at least 1M; a .tar.zst: 4M). Each task reads all of"
            + " table n+1: fewer, bigger slices read less.")
    long sliceRecords;

    @Option(names = "--metrics", description = "Print the Spark jobs' costs on stderr (tasks, run and CPU time, result and shuffle bytes, peak memory).")
    boolean metrics;

    @Option(names = {"-q", "--quiet"}, description = "No progress on stderr.")
    boolean quiet;

    private PrintStream out = System.out, err = System.err;

    @Override
    public void streams(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        SparkVerifier.Settings s = new SparkVerifier.Settings();
        s.strict = strict;
        s.all = all;
        if (partitions < 0) {
            err.println("error: --partitions must be at least 1");
            return SparkMain.ERROR;
        }
        s.partitions = partitions;
        if (sliceEntries < 0) {
            err.println("error: --slice-entries must be at least 1");
            return SparkMain.ERROR;
        }
        s.sliceEntries = sliceEntries;
        if (terminalPartitions < 0 || terminalPartitions > org.gamecert.verifier.kernel.TerminalCount.MAX_PARTITIONS) {
            err.println("error: --terminal-partitions must be from 1 to " + org.gamecert.verifier.kernel.TerminalCount.MAX_PARTITIONS);
            return SparkMain.ERROR;
        }
        s.terminalPartitions = terminalPartitions;
        s.wholeFile = wholeFile;
        s.progress = quiet || json ? null : err;
        if (maxMemory != null) {
            s.maxMemory = parseSize(maxMemory);
            if (s.maxMemory <= 0) {
                err.println("error: --max-memory: cannot read size '" + maxMemory + "' (e.g. 512m, 4g)");
                return SparkMain.ERROR;
            }
        }
        if (!Files.exists(path)) { // as scripts/verify: one line, before any work (no Spark started)
            String message = "no such file or directory: " + path;
            err.println("error: " + message);
            if (json) out.println(org.gamecert.verifier.cli.JsonHead.error(path.toString(), message));
            out.flush();
            return SparkMain.ERROR;
        }
        String kind = Reports.kindOf(path);
        if (kind.equals("bundle")) {
            err.println("error: " + path + " is read as a release bundle: spark-verify checks certificates, composites and"
                    + " peer tables (a directory, .csv or .tar); use scripts/verify for it");
            return SparkMain.ERROR;
        }
        if (!kind.equals("peer") && (root != null || tmp != null)) { // as scripts/verify: nothing silently ignored
            err.println("error: " + (root != null ? "--root" : "--tmp") + " applies to peer tables only, but " + path + " is read as a " + kind);
            return SparkMain.ERROR;
        }
        if (!kind.equals("peer") && sliceRecords != 0) {
            err.println("error: --slice-records applies to peer tables only, but " + path + " is read as a " + kind);
            return SparkMain.ERROR;
        }
        if (!kind.equals("certificate") && (sliceEntries != 0 || wholeFile || terminalPartitions != 0)) {
            err.println("error: " + (wholeFile ? "--whole-file" : sliceEntries != 0 ? "--slice-entries" : "--terminal-partitions") + " applies to a certificate only, but "
                    + path + " is read as a " + kind);
            return SparkMain.ERROR;
        }
        if (sliceRecords < 0) {
            err.println("error: --slice-records must be at least 1");
            return SparkMain.ERROR;
        }
        try (JavaSparkContext sc = SparkSessions.open(master, "gamecert verify " + path.getFileName())) {
            SparkMetrics m = metrics ? SparkMetrics.attach(sc) : null;
            try {
                return verify(sc, kind, s);
            } finally {
                if (m != null) err.println(m.line(sc));
            }
        }
    }

    private int verify(JavaSparkContext sc, String kind, SparkVerifier.Settings s) {
        if (kind.equals("peer")) {
            PeerOptions o = new PeerOptions();
            o.input = path;
            o.root = root;
            o.tmp = tmp;
            o.maxMemory = s.maxMemory;
            o.sliceRecords = sliceRecords;
            o.progress = quiet ? null : err;
            PeerResult r = SparkPeer.verify(sc, o, partitions);
            if (json) out.println(PeerReport.json(r));
            else PeerReport.printText(r, out);
            if (r.error != null && !json) err.println("error: " + r.error);
            out.flush();
            return r.exitCode();
        }
        if (kind.equals("composite")) {
            CompositeVerifier.Outcome c = SparkVerifier.composite(sc, path, s, quiet ? null : err);
            if (json) out.println(Reports.json(c, path.toString()));
            else Reports.human(c, path.toString(), out);
            out.flush();
            return Reports.exitCode(c.verdict());
        }
        Figures f = new Figures(); // the wall time of the Spark job: the report's time
        long t0 = System.nanoTime();
        Result r = wholeFile ? SparkVerifier.certificate(sc, path, s) : SparkVerifier.sliced(sc, path, s);
        f.nanos = System.nanoTime() - t0;
        print(r, f, sc.defaultParallelism()); // the tasks at once: its "threads"
        if (r.verdict == Result.Verdict.ERROR && r.entries == 0 && !Reports.looksLike(path).startsWith("a gamecert"))
            err.println("note: " + path + " was read as a certificate; its content looks like " + Reports.looksLike(path));
        return Reports.exitCode(r.verdict);
    }

    private void print(Result r, Figures f, int parallelism) {
        if (json) out.println(Reports.json(r, f, path.toString()));
        else Reports.human(r, f, path.toString(), parallelism, out);
        out.flush();
    }

    static long parseSize(String s) {
        try {
            return org.gamecert.verifier.peer.PeerMain.parseSize(s);
        } catch (IllegalArgumentException e) {
            return -1;
        }
    }
}

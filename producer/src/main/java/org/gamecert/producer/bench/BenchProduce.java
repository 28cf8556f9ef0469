package org.gamecert.producer.bench;

import org.gamecert.producer.cert.CertificateWriter;
import org.gamecert.producer.cert.Extractor;
import org.gamecert.producer.cert.LayerEntries;
import org.gamecert.producer.cert.SearchProof;
import org.gamecert.producer.game.Game;
import org.gamecert.producer.game.Othello;
import org.gamecert.producer.search.Oracle;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Benchmark of the producer (run by scripts/bench-produce): the raw speed of the search on
 * fixed endgames (one thread, its thread CPU in a warm JVM: solves only; scripts/bench-peers
 * compares with Edax and Pons' solver, as whole processes and as solves only), and full
 * certificate production on fixed positions (wall time, nodes, entries, region/auxiliary counts,
 * bytes per entry on disk, peak heap).
 */
public final class BenchProduce {
    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

    /** Weak productions are also run with endgame leaves of at most this many empty cells (0: not). */
    static int leafEmpties = 6;
    /** --proof search: the weak certificates of the overhead section are the search's own proof ({@link SearchProof}). */
    static boolean searchProof;

    public static void main(String[] args) throws Exception {
        boolean quick = false, searchOnly = false;
        Path data = Path.of("testdata/known-answers");
        int threads = 1, ffoFirst = 40, ffoLast = 44, ttMb = 64;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick": quick = true; break;
                case "--search-only": searchOnly = true; break;
                case "--proof": {
                    String how = args[++i];
                    if (!how.equals("search") && !how.equals("canonical")) { usage(); return; }
                    searchProof = how.equals("search");
                    break;
                }
                case "--data": data = Path.of(args[++i]); break;
                case "--threads": threads = Integer.parseInt(args[++i]); break;
                case "--leaf-empties": leafEmpties = Integer.parseInt(args[++i]); break;
                case "--ffo": {
                    java.util.regex.Matcher r = java.util.regex.Pattern.compile("(\\d{2})(?:-(\\d{2}))?").matcher(i + 1 < args.length ? args[++i] : "");
                    if (!r.matches()) usage();
                    ffoFirst = Integer.parseInt(r.group(1));
                    ffoLast = r.group(2) == null ? ffoFirst : Integer.parseInt(r.group(2));
                    if (ffoFirst < 40 || ffoLast > 59 || ffoFirst > ffoLast) usage();
                    break;
                }
                case "--tt-mb": {
                    ttMb = i + 1 < args.length && args[i + 1].matches("\\d{1,6}") ? Integer.parseInt(args[++i]) : 0;
                    if (ttMb < 1) usage();
                    break;
                }
                default: usage();
            }
        }
        System.out.println("== search speed (one thread, in this JVM: the first set's solves warm up the JIT; a fresh 64 MB table per position) ==");
        System.out.println("(cpu s: the searching thread's CPU around each solve, JVM thread CPU: the JIT compilers' and the collector's threads"
                + " not counted, the table allocated and zeroed before; wall s: around each solve; Mn/s: nodes over each)");
        System.out.printf(Locale.ROOT, "%-42s %6s %14s %9s %9s %10s %10s%n", "set", "count", "nodes", "cpu s", "wall s", "Mn/s cpu", "Mn/s wall");
        List<long[]> ffo = new ArrayList<>();
        List<String> ffoNames = new ArrayList<>();
        Game o8 = Game.parse("othello:8x8");
        List<String> lines = Files.readAllLines(data.resolve("othello8-ffo/fforum-40-59.obf"));
        for (int i = 0; i < lines.size(); i++) {
            long[] p = o8.parseBoard(lines.get(i).split(";")[0] + ";");
            if (64 - Long.bitCount(p[0] | p[1]) <= 22) { ffo.add(p); ffoNames.add("FFO #" + (40 + i)); }
        }
        speed("othello:8x8 FFO #40-#49, <= 22 empties", o8, ffo);
        // warm now: time-to-solve of the first five, one by one
        for (int i = 0; i < ffo.size() && i < 5; i++) speed("othello:8x8 " + ffoNames.get(i), o8, List.of(ffo.get(i)));
        Game c4 = Game.parse("connect4:7x6");
        int n = quick ? 100 : 1000;
        speed("connect4:7x6 Test_L1_R2 (first " + n + ")", c4, pons(c4, data.resolve("connect4-pons/Test_L1_R2"), n));
        speed("connect4:7x6 Test_L2_R2 (first " + n + ")", c4, pons(c4, data.resolve("connect4-pons/Test_L2_R2"), n));
        if (searchOnly) { wholeProcess(); return; }

        weakOverhead(o8, lines, ffoFirst, quick ? ffoFirst : ffoLast, ttMb);

        System.out.println();
        System.out.println("== certificate production (" + threads + " thread" + (threads > 1 ? "s" : "") + ") ==");
        System.out.println("(wall s; cpu s: the process's CPU during the production, user + sys of all the JVM's threads: the extraction's,"
                + " the JIT compilers', the collector's; search s: the wall of the plain search of the same root, its exact value only,"
                + " one thread, fresh table; overhead: wall s / search s)");
        System.out.printf(Locale.ROOT, "%-44s %-11s %4s %8s %8s %12s %8s %11s %11s %11s %7s %9s %9s %8s %8s%n", "position", "mode", "empt", "wall s", "cpu s",
                "nodes", "Mn/s cpu", "entries", "region", "aux", "B/entry", "entries/s", "peak MiB", "search s", "overhead");
        Game o6 = Game.parse("othello:6x6");
        Path dir = Files.createTempDirectory("bench-produce");
        try {
            production(dir, "6x6 e4c5b4e3d6a4e2f2a3b6c2e1c6b2c1a5f3a1d1e6", o6, o6.parseMoves("e4c5b4e3d6a4e2f2a3b6c2e1c6b2c1a5f3a1d1e6"), Extractor.Mode.SEMI_STRONG, threads);
            production(dir, "6x6 e4c5b4e3d6a4e2f2a3b6c2e1c6b2c1a5", o6, o6.parseMoves("e4c5b4e3d6a4e2f2a3b6c2e1c6b2c1a5"), Extractor.Mode.SEMI_STRONG, threads);
            if (!quick) production(dir, "6x6 e4c5b4e3d6a4e2f2a3b6c2e1", o6, o6.parseMoves("e4c5b4e3d6a4e2f2a3b6c2e1"), Extractor.Mode.SEMI_STRONG, threads);
            for (int i = 0; i < ffo.size() && i < (quick ? 1 : 3); i++)
                weak(dir, "8x8 " + ffoNames.get(i), o8, ffo.get(i), threads);
            List<long[]> l1 = pons(c4, data.resolve("connect4-pons/Test_L1_R2"), 3);
            for (int i = 0; i < l1.size(); i++) {
                weak(dir, "7x6 Test_L1_R2 line " + (i + 1), c4, l1.get(i), threads);
                production(dir, "7x6 Test_L1_R2 line " + (i + 1), c4, l1.get(i), Extractor.Mode.SEMI_STRONG, threads);
            }
        } finally {
            try (var s = Files.list(dir)) { s.forEach(p -> p.toFile().delete()); }
            Files.deleteIfExists(dir);
        }
        wholeProcess();
    }

    /**
     * The whole process so far, to set beside the per-solve figures: its CPU (user + sys of every
     * thread of this JVM since it started: its start, class loading, the JIT compilers, the
     * collector, every table's allocation) and the wall since the JVM started.
     */
    static void wholeProcess() {
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        System.out.println();
        System.out.printf(Locale.ROOT, "whole process so far: %.2f CPU-s (user + sys of all the JVM's threads since it started), %.2f s wall since the JVM started%n",
                os.getProcessCpuTime() / 1e9, ManagementFactory.getRuntimeMXBean().getUptime() / 1e3);
    }

    static void usage() {
        System.err.println("usage: bench-produce [--quick] [--search-only] [--threads N] [--data DIR] [--leaf-empties L] [--ffo FIRST-LAST] [--tt-mb N] [--proof search|canonical]");
        System.err.println("  --proof search: the overhead section's weak certificates read from the proof the root's search keeps"
                + " (produce solve --proof search; its own table, " + SearchProof.SMALL_TABLE_MB + " MiB up to "
                + SearchProof.SMALL_TABLE_MAX_EMPTIES + " empties, " + SearchProof.LARGE_TABLE_MB + " MiB beyond), not extracted by the producer's choice rules");
        System.err.println("  --leaf-empties L: each weak production also with endgame leaves of at most L empty cells"
                + " (SPEC 1.1 mode 3; default 6, 0: none)");
        System.err.println("  --ffo FIRST-LAST: the weak certificates' overhead measured on FFO #FIRST..#LAST (40..59; default 40-44,"
                + " --quick: the first only); 40-49 for issue 16's whole set (about 10 minutes); with --leaf-empties L"
                + " (6 when 0)");
        System.err.println("  --tt-mb N: the table of the overhead section's searches and productions (default 64, as bench-peers)");
        System.err.println("CPU counted: search speed and weak overhead, the searching thread's (JVM thread CPU: the JIT compilers' and the"
                + " collector's threads not counted); certificate production, the process's (user + sys of all the JVM's threads);"
                + " last, the whole process's since the JVM started. One JVM for everything: the search is warm after the first set.");
        System.exit(2);
    }

    /**
     * The weak certificate's overhead (issue 16's target: at most 1.5x): for each FFO position, the
     * plain search of the root (its value only) and then the weak certificate with endgame leaves,
     * each with a fresh table of the same size, one thread, in this thread, so that both are
     * measured by this thread's CPU time (JIT compilation and the collector excluded), table
     * allocation included for both; ratio of the two, and their geometric mean. Both search the
     * position as given, so the production's root search is the plain search's tree (its nodes are
     * printed too: the same count; with --proof search nearly the same, its logging search taking
     * no stability cutoff from 8 empties, in a table of its own). The search-speed section warms the search, and one untimed
     * weak production of the first position the extraction and the writer.
     */
    static void weakOverhead(Game o8, List<String> lines, int first, int last, int ttMb) throws Exception {
        int leaves = leafEmpties > 0 ? leafEmpties : 6;
        System.out.println();
        if (searchProof) leaves = SearchProof.LEAF_EMPTIES;
        System.out.println("== weak certificate overhead (FFO #" + first + "-#" + last + ", one thread, --leaf-empties " + leaves
                + ", a fresh " + ttMb + " MB table each" + (searchProof ? "; the certificate: --proof search, its own "
                + SearchProof.SMALL_TABLE_MB + " or " + SearchProof.LARGE_TABLE_MB + " MiB table by the root's empties" : "") + "; this thread's CPU seconds: JVM thread CPU,"
                + " each table's allocation in it, the JIT compilers' and the collector's threads not counted) ==");
        System.out.printf(Locale.ROOT, "%-8s %5s %6s %10s %12s %10s %12s %12s %11s %12s %8s%n", "FFO", "empt", "value", "plain s", "plain nodes",
                "weak s", "weak nodes", "(its root)", "entries", "bytes", "ratio");
        Path dir = Files.createTempDirectory("bench-overhead");
        double logSum = 0;
        int count = 0;
        try {
            // untimed: it compiles the extraction's and the writer's code before the first figure
            weakCertificate(o8, o8.parseBoard(lines.get(first - 40).split(";")[0] + ";"), leaves, ttMb, dir.resolve("warm.gsc"));
            for (int k = first; k <= last; k++) {
                long[] p = o8.parseBoard(lines.get(k - 40).split(";")[0] + ";");
                System.gc();
                long c0 = MX.getCurrentThreadCpuTime();
                Oracle plain = new Oracle(o8, ttMb);
                int value = plain.value(p[0], p[1]);
                double plainSecs = (MX.getCurrentThreadCpuTime() - c0) / 1e9;
                long plainNodes = plain.nodes();
                plain = null; // its table is garbage before the production's is made
                System.gc();
                c0 = MX.getCurrentThreadCpuTime();
                Weak weak = weakCertificate(o8, p, leaves, ttMb, dir.resolve("ffo" + k + ".gsc"));
                double weakSecs = (MX.getCurrentThreadCpuTime() - c0) / 1e9;
                if (weak.rootValue != value) throw new IllegalStateException("FFO #" + k + ": the certificate's value differs from the search's");
                double ratio = weakSecs / plainSecs;
                logSum += Math.log(ratio);
                count++;
                System.out.printf(Locale.ROOT, "%-8s %5d %+6d %10.2f %12d %10.2f %12d %12d %11d %12d %7.2fx%n", "#" + k,
                        64 - Long.bitCount(p[0] | p[1]), value, plainSecs, plainNodes, weakSecs, weak.nodes, weak.rootSearchNodes,
                        weak.written.entries, weak.written.fileBytes, ratio);
            }
        } finally {
            try (var s = Files.list(dir)) { s.forEach(f -> f.toFile().delete()); }
            Files.deleteIfExists(dir);
        }
        System.out.printf(Locale.ROOT, "geomean of the ratios over %d position%s: %.2fx (issue 16's target: at most 1.5x)%n", count,
                count == 1 ? "" : "s", Math.exp(logSum / count));
    }

    /** What a weak production made: its root value, its nodes (its root's search among them) and its file. */
    record Weak(int rootValue, long nodes, long rootSearchNodes, CertificateWriter.Written written) {}

    /** A weak certificate with endgame leaves, one thread, a fresh table, in this thread; its file deleted. */
    private static Weak weakCertificate(Game g, long[] p, int leaves, int ttMb, Path out) throws Exception {
        if (searchProof) {
            // the certificate read from the proof the root's search keeps (its own fixed table)
            SearchProof sp = new SearchProof((Othello) g, null);
            List<LayerEntries> layers = new ArrayList<>(), parts = new ArrayList<>();
            Extractor.State s = sp.run(p[0], p[1], new Extractor.Store() {
                @Override public void entries(LayerEntries part) { parts.add(part); }
                @Override public void layerEnd(int layer) { // a layer comes in parts: one array of it for the writer
                    if (!parts.isEmpty()) layers.add(LayerEntries.concat(layer, parts));
                    parts.clear();
                }
            });
            CertificateWriter.Written w = CertificateWriter.write(out,
                    CertificateWriter.header(g, Extractor.Mode.WEAK, SearchProof.LEAF_EMPTIES, p[0], p[1], s.rootValue, "bench"),
                    layers, s.region, s.aux, s.rootLayer, 1, SearchProof.ZSTD_LEVEL);
            Files.delete(out);
            return new Weak(s.rootValue, sp.searchNodes + sp.leafNodes, sp.searchNodes, w);
        }
        Oracle oracle = new Oracle(g, ttMb);
        Extractor ex = new Extractor(oracle, 1);
        ex.endgameLeaves(leaves);
        Extractor.Result res;
        try { res = ex.run(p[0], p[1], Extractor.Mode.WEAK); } finally { ex.shutdown(); }
        CertificateWriter.Written w = CertificateWriter.write(out,
                CertificateWriter.header(g, Extractor.Mode.WEAK, leaves, p[0], p[1], res.rootValue, "bench"),
                res.layers, res.region, res.aux, res.rootLayer, 1);
        Files.delete(out);
        return new Weak(res.rootValue, oracle.nodes(), ex.rootSearchNodes, w);
    }

    static List<long[]> pons(Game g, Path file, int n) throws Exception {
        List<long[]> r = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (r.size() == n) break;
            r.add(g.parseMoves(line.trim().split("\\s+")[0]));
        }
        return r;
    }

    static void speed(String name, Game g, List<long[]> positions) {
        long nodes = 0, cpu = 0, wall = 0;
        for (long[] p : positions) {
            Oracle o = new Oracle(g, 64); // a fresh table per position, as the reference solvers are run
            long c0 = MX.getCurrentThreadCpuTime(), w0 = System.nanoTime();
            o.value(p[0], p[1]);
            cpu += MX.getCurrentThreadCpuTime() - c0;
            wall += System.nanoTime() - w0;
            nodes += o.nodes();
        }
        System.out.printf(Locale.ROOT, "%-42s %6d %14d %9.2f %9.2f %10.2f %10.2f%n", name, positions.size(), nodes, cpu / 1e9, wall / 1e9,
                nodes / (cpu / 1e3), nodes / (wall / 1e3));
    }

    /** A weak production, then the same with endgame leaves. */
    static void weak(Path dir, String name, Game g, long[] root, int threads) throws Exception {
        production(dir, name, g, root, Extractor.Mode.WEAK, threads, 0);
        if (leafEmpties > 0 && g.cells - Long.bitCount(root[0] | root[1]) > leafEmpties)
            production(dir, name, g, root, Extractor.Mode.WEAK, threads, leafEmpties);
    }

    static void production(Path dir, String name, Game g, long[] root, Extractor.Mode mode, int threads) throws Exception {
        production(dir, name, g, root, mode, threads, 0);
    }

    static void production(Path dir, String name, Game g, long[] root, Extractor.Mode mode, int threads, int leaves) throws Exception {
        double search = 0;
        if (!g.isTerminal(root[0], root[1])) {
            Oracle plain = new Oracle(g, 256);
            long s0 = System.nanoTime();
            plain.value(root[0], root[1]);
            search = (System.nanoTime() - s0) / 1e9;
        }
        System.gc();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) pool.resetPeakUsage();
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long c0 = os.getProcessCpuTime();
        long w0 = System.nanoTime();
        Oracle oracle = new Oracle(g, 256);
        Extractor ex = new Extractor(oracle, threads);
        ex.endgameLeaves(leaves);
        Extractor.Result res;
        try { res = ex.run(root[0], root[1], mode); } finally { ex.shutdown(); }
        byte[] header = CertificateWriter.header(g, mode, leaves, root[0], root[1], res.rootValue, "bench");
        Path out = dir.resolve("bench.gsc");
        CertificateWriter.Written w = CertificateWriter.write(out, header, res.layers, res.region, res.aux, res.rootLayer, threads);
        double secs = (System.nanoTime() - w0) / 1e9, cpu = (os.getProcessCpuTime() - c0) / 1e9;
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans())
            if (pool.getType() == MemoryType.HEAP) peak += pool.getPeakUsage().getUsed();
        long region = 0, aux = 0;
        for (long r : res.region) region += r;
        for (long a : res.aux) aux += a;
        System.out.printf(Locale.ROOT, "%-44s %-11s %4d %8.2f %8.2f %12d %8.2f %11d %11d %11d %7.3f %9.0f %9d %8.2f %7.1fx%n", name,
                mode == Extractor.Mode.WEAK ? (leaves > 0 ? "weak L" + leaves : "weak") : "semi-strong", g.cells - Long.bitCount(root[0] | root[1]), secs, cpu,
                oracle.nodes(), oracle.nodes() / cpu / 1e6, w.entries, region, aux, (double) w.fileBytes / w.entries,
                w.entries / secs, peak >> 20, search, search > 0 ? secs / search : 0);
        Files.delete(out);
    }
}

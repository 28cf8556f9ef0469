package org.gamecert.producer.mutate;

import org.gamecert.producer.cli.ProduceMain;
import org.gamecert.producer.export.PeerTables;
import org.gamecert.producer.game.Game;
import org.gamecert.producer.mutate.peer.PeerMutationClass;
import org.gamecert.producer.mutate.peer.PeerMutations;
import org.gamecert.producer.mutate.peer.PeerTableSet;
import org.gamecert.producer.search.Oracle;
import org.gamecert.verifier.peer.PeerOptions;
import org.gamecert.verifier.peer.PeerResult;
import org.gamecert.verifier.peer.PeerVerifier;
import org.gamecert.verifier.peer.PeerViolation;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The audit campaign for the peer 6×6 tablebase format (run by `scripts/audit` after
 * {@link AuditMain}): exports small 6×6 solves as peer tables, corrupts them with every
 * {@code peer-*} class, verifies each mutant with {@link PeerVerifier} in-process, and prints per
 * class: mutants, rejected, with an expected rule id, equivalent, missed, slowest verdict, rule ids
 * fired. An accepted mutant counts as equivalent only when a brute force (an exact solve of every
 * record's position, plus the format's framing, order and canonical-key checks) shows every claim
 * in it true. Exit 0 when nothing was missed, 1 otherwise, 2 on bad usage.
 */
public final class PeerAuditMain {
    record Input(String name, String board, String mode) {}

    /** Per-class counts: the same as the main campaign's. */
    private static final class Tally extends AuditMain.Tally {}

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out, System.err));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        int mutants = 200, threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        long seed = 1;
        Path work = Paths.get("target/audit-peer");
        String only = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--mutants": mutants = Integer.parseInt(args[++i]); break;
                case "--seed": seed = Long.parseLong(args[++i]); break;
                case "--work": work = Paths.get(args[++i]); break;
                case "--threads": threads = Integer.parseInt(args[++i]); break;
                case "--class": only = args[++i]; break;
                case "--help": case "-h":
                    out.println("usage: peer-audit [--mutants N per class (default 200)] [--seed S] [--threads T] [--class NAME] [--work DIR]");
                    return 0;
                default:
                    err.println("error: unknown option " + args[i] + " (see --help)");
                    return 2;
            }
        }
        Files.createDirectories(work);
        List<Input> inputs = inputs(seed);
        List<PeerTableSet> sets = new ArrayList<>();
        for (Input in : inputs) {
            Path dir = exportInput(in, work, err);
            if (dir == null) return 2;
            PeerResult base = verify(dir, work);
            if (base.verdict() != PeerResult.Verdict.VERIFIED) {
                err.println("error: the valid input " + dir + " is not verified: " + base.violation + " " + base.error);
                return 2;
            }
            PeerTableSet s = PeerTableSet.load(dir);
            sets.add(s);
            long bytes = 0;
            for (byte[] t : s.tables.values()) bytes += t.length;
            err.printf(Locale.ROOT, "peer-audit: input %-26s %7d records in %2d tables, %8d bytes%n", in.name, base.entries(), s.tables.size(), bytes);
        }
        List<PeerMutationClass> classes = new ArrayList<>();
        for (PeerMutationClass m : PeerMutations.ALL_CLASSES) if (only == null || m.name.equals(only)) classes.add(m);
        if (classes.isEmpty()) { err.println("error: unknown peer class " + only); return 2; }

        Oracle oracle = PeerMutations.oracle();
        List<ClaimTruth> truths = new ArrayList<>();
        for (int k = 0; k < sets.size(); k++) truths.add(new ClaimTruth(oracle));
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        Map<String, Tally> tallies = new TreeMap<>();
        Progress progress = new Progress("peer-audit", (long) classes.size() * mutants, err);
        long t0 = System.nanoTime();
        final int n = mutants;
        final long s0 = seed;
        final Path dir = work;
        List<Future<?>> futures = new ArrayList<>();
        for (PeerMutationClass m : classes) {
            Tally t = new Tally();
            tallies.put(m.name, t);
            AtomicLong classDone = new AtomicLong();
            int chunks = threads;
            for (int part = 0; part < chunks; part++) {
                final int p = part;
                futures.add(pool.submit(() -> {
                    Path tmp = Files.createTempDirectory(dir, "mutant-");
                    try {
                        for (int i = p; i < n; i += chunks) {
                            runOne(m, i, s0, sets, truths, inputs, tmp, oracle, t, progress);
                            progress.doing(null);
                            progress.step();
                            if (classDone.incrementAndGet() == n) progress.classDone(AuditMain.done(m.name, t));
                        }
                    } finally {
                        deleteTree(tmp);
                    }
                    return null;
                }));
            }
        }
        try {
            for (Future<?> f : futures) f.get();
        } finally {
            pool.shutdownNow();
            progress.close();
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        return report(tallies, classes, inputs, secs, out);
    }

    /** Campaign inputs: 6×6 Othello midgame roots with 10–12 empties (semi-strong and weak). */
    static List<Input> inputs(long seed) {
        Game o6 = Game.parse("othello:6x6");
        List<Input> l = new ArrayList<>();
        l.add(new Input("othello6-12empties", board(o6, AuditMain.playout(o6, 24, new Random(seed + 11))), "semi-strong"));
        l.add(new Input("othello6-11empties", board(o6, AuditMain.playout(o6, 25, new Random(seed + 12))), "semi-strong"));
        l.add(new Input("othello6-12empties-weak", board(o6, AuditMain.playout(o6, 24, new Random(seed + 13))), "weak"));
        return l;
    }

    private static String board(Game g, long[] p) { return g.boardText(p[0], p[1]); }

    /** Solves the input and exports it as peer tables under work/NAME.peer (reused when present). */
    static Path exportInput(Input in, Path work, PrintStream err) throws IOException {
        Path cert = work.resolve(in.name + ".gsc"), dir = work.resolve(in.name + ".peer");
        if (Files.isDirectory(dir)) return dir;
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        if (!Files.exists(cert)) {
            err.println("peer-audit: solving " + in.name + " (othello:6x6, " + in.mode + ") ...");
            int rc = ProduceMain.run(new String[]{"solve", "--game", "othello:6x6", "--board", in.board, "--mode", in.mode,
                    "--threads", "1", "--tt-mb", "64", "-q", "--out", cert.toString()}, new PrintStream(sink), err);
            if (rc != 0) { err.println("error: could not solve " + in.name); return null; }
        }
        Path part = work.resolve(in.name + ".peer.tmp");
        deleteTree(part);
        int rc = ProduceMain.run(new String[]{"export", "--format", "peer-6x6", "--in", cert.toString(), "--out", part.toString()},
                new PrintStream(sink), err);
        if (rc != 0) { err.println("error: could not export " + in.name); return null; }
        Files.move(part, dir);
        return dir;
    }

    static PeerResult verify(Path dir, Path work) {
        PeerOptions o = new PeerOptions();
        o.input = dir;
        o.threads = 1;
        o.tmp = work.resolve("tmp");
        return PeerVerifier.verify(o);
    }

    private static void runOne(PeerMutationClass m, int i, long seed, List<PeerTableSet> sets, List<ClaimTruth> truths,
                               List<Input> inputs, Path tmp, Oracle oracle, Tally t, Progress progress) throws IOException {
        for (int k = 0; k < sets.size(); k++) {
            int which = (i + k) % sets.size();
            PeerMutationClass.Result mu;
            try {
                mu = m.apply(sets.get(which), seed * 1_000_003L + i, oracle);
            } catch (RuntimeException e) {
                synchronized (t) { t.mutants++; if (t.misses.size() < 5) t.misses.add(inputs.get(which).name + " seed " + i + ": mutation failed: " + e); }
                return;
            }
            if (mu == null) { synchronized (t) { t.notApplicable++; } continue; }
            mu.tables.write(tmp);
            String what = m.name + " on " + inputs.get(which).name + " seed " + i;
            progress.doing(what + ": verifying the mutant");
            long s = System.nanoTime();
            PeerResult r = verify(tmp, tmp.resolveSibling(tmp.getFileName() + "-tmp"));
            long nanos = System.nanoTime() - s;
            String label = inputs.get(which).name + " seed " + i + ": " + mu.detail;
            if (r.verdict() == PeerResult.Verdict.VERIFIED) progress.doing(what + ": verified, so the brute force checks its claims");
            String falseClaim = r.verdict() == PeerResult.Verdict.VERIFIED ? truths.get(which).firstFalseClaim(mu.tables) : null;
            synchronized (t) {
                t.mutants++;
                t.slowestNanos = Math.max(t.slowestNanos, nanos);
                if (r.verdict() == PeerResult.Verdict.REJECTED) {
                    t.rejected++;
                    PeerViolation v = r.violation;
                    String rule = v == null ? "?" : v.rule;
                    t.rules.merge(rule, 1L, Long::sum);
                    if (m.expectedRules.contains(rule)) t.expectedRule++;
                    else if (t.unexpected.size() < 5) t.unexpected.add(label + " -> " + v);
                } else if (r.verdict() == PeerResult.Verdict.VERIFIED && falseClaim == null) {
                    t.equivalent++;
                } else if (t.misses.size() < 5) {
                    t.misses.add(label + " -> " + r.verdict().text() + (falseClaim != null ? " although " + falseClaim : "")
                            + (r.error != null ? " (" + r.error + ")" : ""));
                }
            }
            return;
        }
    }

    /**
     * The brute force behind "equivalent": every record well formed, in order, under its canonical
     * key, and its bounds true by an exact solve (cached per position: mutants share most records).
     */
    static final class ClaimTruth {
        final Oracle oracle;
        final Map<Long, Integer> cache = new ConcurrentHashMap<>();

        ClaimTruth(Oracle oracle) { this.oracle = oracle; }

        String firstFalseClaim(PeerTableSet s) {
            Game g = oracle.game();
            long[] can = new long[2];
            for (Map.Entry<Integer, byte[]> e : s.tables.entrySet()) {
                byte[] t = e.getValue();
                if (t.length % PeerTableSet.RECORD != 0) return "table " + e.getKey() + " is not whole records";
                long prev = 0;
                for (int r = 0; r < PeerTableSet.records(t); r++) {
                    for (int c = 0; c < 12; c++)
                        if (PeerTableSet.symbol(t[r * PeerTableSet.RECORD + c]) < 0) return "record " + r + " of table " + e.getKey() + " has a bad character";
                    int kind = PeerTableSet.kind(t, r), lb = PeerTableSet.lower(t, r), ub = PeerTableSet.upper(t, r);
                    if (kind < 1 || kind > 31 || lb < -36 || ub > 36 || lb > ub) return "record " + r + " of table " + e.getKey() + " is malformed";
                    long[] p = PeerTableSet.position(t, r);
                    PeerTables.peerCanonical(g, p[0], p[1], can);
                    if (can[0] != p[0] || can[1] != p[1]) return "record " + r + " of table " + e.getKey() + " is not canonical";
                    long key = PeerTables.encodeBb(p[0], p[1]);
                    if (r > 0 && Long.compareUnsigned(key, prev) <= 0) return "record " + r + " of table " + e.getKey() + " is out of order";
                    prev = key;
                    if (Long.bitCount(p[0] | p[1]) != e.getKey()) return "record " + r + " of table " + e.getKey() + " has another disc count";
                    int v = cache.computeIfAbsent(key ^ (p[0] * 0x9E3779B97F4A7C15L), x -> oracle.value(p[0], p[1]));
                    if (v < lb || v > ub) return "record " + r + " of table " + e.getKey() + " claims [" + lb + ", " + ub + "] but the value is " + v;
                }
            }
            return null;
        }
    }

    private static int report(Map<String, Tally> tallies, List<PeerMutationClass> classes, List<Input> inputs, double secs, PrintStream out) {
        out.printf(Locale.ROOT, "%-34s %8s %8s %8s %6s %6s %9s  %s%n", "peer class", "mutants", "rejected", "expected", "equiv", "missed", "slowest", "rule ids fired");
        long total = 0, rejected = 0, expected = 0, equiv = 0, missed = 0;
        boolean ok = true;
        for (PeerMutationClass m : classes) {
            Tally t = tallies.get(m.name);
            long miss = t.mutants - t.rejected - t.equivalent;
            StringBuilder rules = new StringBuilder();
            t.rules.forEach((k, v) -> rules.append(rules.length() == 0 ? "" : " ").append(k).append('=').append(v));
            out.printf(Locale.ROOT, "%-34s %8d %8d %8d %6d %6d %7.1fms  %s%n", m.name, t.mutants, t.rejected, t.expectedRule,
                    t.equivalent, miss, t.slowestNanos / 1e6, rules);
            total += t.mutants; rejected += t.rejected; expected += t.expectedRule; equiv += t.equivalent; missed += miss;
            if (miss > 0 || t.expectedRule != t.rejected || t.mutants == 0) ok = false;
        }
        out.printf(Locale.ROOT, "%-34s %8d %8d %8d %6d %6d%n", "TOTAL (peer)", total, rejected, expected, equiv, missed);
        out.printf(Locale.ROOT, "%d peer classes, %d inputs, %.1f s, %.0f mutants/s%n", classes.size(), inputs.size(), secs, total / secs);
        for (PeerMutationClass m : classes) {
            Tally t = tallies.get(m.name);
            for (String s : t.misses) out.println("MISSED     " + m.name + ": " + s);
            for (String s : t.unexpected) out.println("UNEXPECTED " + m.name + ": " + s);
        }
        out.println(ok ? "RESULT (peer): every non-equivalent mutant rejected with an expected rule id" : "RESULT (peer): FAILURES (see above)");
        return ok ? 0 : 1;
    }

    static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) return;
        try (Stream<Path> w = Files.walk(p)) {
            for (Path q : w.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(q);
        }
    }
}

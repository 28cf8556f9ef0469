package org.gamecert.producer.mutate;

import org.gamecert.producer.cli.ProduceMain;
import org.gamecert.producer.game.Game;
import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.engine.Verifier;
import org.gamecert.verifier.kernel.Violation;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The audit campaign (`scripts/audit`): makes valid certificates of several games and sizes with
 * the producer, corrupts each with every mutation class, verifies every mutant in-process with the
 * verifier's Java API, and prints per class: mutants, rejected, rules fired, slowest verdict.
 * An accepted mutant counts as equivalent (not a miss) only when the brute force of
 * {@link ClaimCheck} shows every claim in it true. Exit 0 when nothing was missed and every
 * rejection named an expected rule, 1 otherwise, 2 on bad usage.
 */
public final class AuditMain {
    /** A campaign input: a game and a root, solved in a mode. */
    /** A valid input: solved at its board in its mode; leafEmpties > 0 makes a mode-3 file (SPEC §9.1). */
    record Input(String name, String game, String board, String mode, int leafEmpties) {
        Input(String name, String game, String board, String mode) { this(name, game, board, mode, 0); }
    }

    static class Tally {
        long mutants, rejected, expectedRule, equivalent, notApplicable, slowestNanos;
        final Map<String, Long> rules = new TreeMap<>();
        final List<String> misses = new ArrayList<>();
        final List<String> unexpected = new ArrayList<>();
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out, System.err));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        int mutants = 1000, threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        long seed = 1;
        Path work = Paths.get("target/audit");
        String only = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--mutants": mutants = Integer.parseInt(args[++i]); break;
                case "--seed": seed = Long.parseLong(args[++i]); break;
                case "--work": work = Paths.get(args[++i]); break;
                case "--threads": threads = Integer.parseInt(args[++i]); break;
                case "--class": only = args[++i]; break;
                case "--help": case "-h":
                    out.println("usage: audit [--mutants N per class (default 1000)] [--seed S] [--threads T] [--class NAME] [--work DIR]");
                    return 0;
                default:
                    err.println("error: unknown option " + args[i] + " (see --help)");
                    return 2;
            }
        }
        Files.createDirectories(work);
        List<Input> inputs = inputs(seed);
        List<Ctx> ctxs = new ArrayList<>();
        List<ClaimCheck> brute = new ArrayList<>();
        for (Input in : inputs) {
            Path cert = work.resolve(in.name + ".gsc");
            if (!Files.exists(cert)) {
                err.println("audit: solving " + in.name + " (" + in.game + ", " + in.mode + ") ...");
                ByteArrayOutputStream sink = new ByteArrayOutputStream();
                int rc = ProduceMain.run(new String[]{"solve", "--game", in.game, "--board", in.board, "--mode", in.mode,
                        "--leaf-empties", Integer.toString(in.leafEmpties), "--threads", "1", "--tt-mb", "64", "-q",
                        "--out", cert.toString()}, new PrintStream(sink), err);
                if (rc != 0) { err.println("error: could not solve " + in.name); return 2; }
            }
            Result base = Verifier.verify(cert, new Options());
            if (base.verdict != Result.Verdict.VERIFIED) {
                err.println("error: the valid input " + cert + " is not verified: " + base.firstViolation());
                return 2;
            }
            Ctx ctx = Ctx.load(Files.readAllBytes(cert), null);
            ctxs.add(ctx);
            brute.add(new ClaimCheck(ctx.game));
            err.printf(Locale.ROOT, "audit: input %-22s %7d entries, %7d bytes%n", in.name, base.entries, Files.size(cert));
        }
        List<MutationClass> classes = new ArrayList<>();
        for (MutationClass m : Mutations.ALL) if (only == null || m.name.equals(only)) classes.add(m);
        if (classes.isEmpty()) { err.println("error: unknown class " + only); return 2; }

        ExecutorService pool = Executors.newFixedThreadPool(threads);
        Map<String, Tally> tallies = new TreeMap<>();
        Progress progress = new Progress("audit", (long) classes.size() * mutants, err);
        long t0 = System.nanoTime();
        final int n = mutants;
        final long s0 = seed;
        final Path dir = work;
        List<Future<?>> futures = new ArrayList<>();
        for (MutationClass m : classes) {
            Tally t = new Tally();
            tallies.put(m.name, t);
            AtomicLong classDone = new AtomicLong();
            int chunks = threads * 2;
            for (int part = 0; part < chunks; part++) {
                final int p = part;
                futures.add(pool.submit(() -> {
                    Path tmp = Files.createTempFile(dir, "mutant-", ".gsc");
                    try {
                        for (int i = p; i < n; i += chunks) {
                            runOne(m, i, s0, ctxs, brute, inputs, tmp, t, progress);
                            progress.doing(null);
                            progress.step();
                            if (classDone.incrementAndGet() == n) progress.classDone(done(m.name, t));
                        }
                    } finally {
                        Files.deleteIfExists(tmp);
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

    /** "class NAME done: M mutants, R rejected, E equivalent" (a progress line). */
    static String done(String name, Tally t) {
        synchronized (t) {
            return "class " + name + " done: " + t.mutants + " mutants, " + t.rejected + " rejected, " + t.equivalent + " equivalent";
        }
    }

    private static void runOne(MutationClass m, int i, long seed, List<Ctx> ctxs, List<ClaimCheck> brute,
                               List<Input> inputs, Path tmp, Tally t, Progress progress) throws IOException {
        // Round-robin over the inputs; a class that does not apply to one tries the next.
        for (int k = 0; k < ctxs.size(); k++) {
            int which = (i + k) % ctxs.size();
            Mutant mu;
            try {
                mu = m.apply(ctxs.get(which), seed * 1_000_003L + i);
            } catch (RuntimeException e) { // a bug of the mutation tool: counted as a miss, shown
                synchronized (t) { t.mutants++; if (t.misses.size() < 5) t.misses.add(inputs.get(which).name + " seed " + i + ": mutation failed: " + e); }
                return;
            }
            if (mu == null) { synchronized (t) { t.notApplicable++; } continue; }
            Files.write(tmp, mu.bytes);
            String what = m.name + " on " + inputs.get(which).name + " seed " + i;
            progress.doing(what + ": verifying the mutant");
            long s = System.nanoTime();
            Result r = Verifier.verify(tmp, new Options());
            long nanos = System.nanoTime() - s;
            String label = inputs.get(which).name + " seed " + i + ": " + mu.detail;
            if (r.verdict == Result.Verdict.VERIFIED) progress.doing(what + ": verified, so the brute force checks its claims (ClaimCheck)");
            String falseClaim = r.verdict == Result.Verdict.VERIFIED ? brute.get(which).firstFalseClaim(mu.bytes) : null;
            synchronized (t) {
                t.mutants++;
                t.slowestNanos = Math.max(t.slowestNanos, nanos);
                if (r.verdict == Result.Verdict.REJECTED) {
                    t.rejected++;
                    Violation v = r.firstViolation();
                    String rule = v == null ? "?" : v.rule();
                    t.rules.merge(rule, 1L, Long::sum);
                    if (mu.expectedRules.contains(rule)) t.expectedRule++;
                    else if (t.unexpected.size() < 5) t.unexpected.add(label + " -> " + v);
                } else if (r.verdict == Result.Verdict.VERIFIED && falseClaim == null) {
                    t.equivalent++;
                } else if (t.misses.size() < 5) {
                    t.misses.add(label + " -> " + r.verdict + (falseClaim != null ? " although " + falseClaim : "")
                            + (r.errorMessage != null ? " (" + r.errorMessage + ")" : ""));
                }
            }
            return;
        }
    }

    private static int report(Map<String, Tally> tallies, List<MutationClass> classes, List<Input> inputs, double secs, PrintStream out) {
        out.printf(Locale.ROOT, "%-24s %8s %8s %8s %6s %6s %9s  %s%n", "class", "mutants", "rejected", "expected", "equiv", "missed", "slowest", "rule ids fired");
        long total = 0, rejected = 0, expected = 0, equiv = 0, missed = 0;
        boolean ok = true;
        for (MutationClass m : classes) {
            Tally t = tallies.get(m.name);
            long miss = t.mutants - t.rejected - t.equivalent;
            StringBuilder rules = new StringBuilder();
            t.rules.forEach((k, v) -> rules.append(rules.length() == 0 ? "" : " ").append(k).append('=').append(v));
            out.printf(Locale.ROOT, "%-24s %8d %8d %8d %6d %6d %7.1fms  %s%n", m.name, t.mutants, t.rejected, t.expectedRule,
                    t.equivalent, miss, t.slowestNanos / 1e6, rules);
            total += t.mutants; rejected += t.rejected; expected += t.expectedRule; equiv += t.equivalent; missed += miss;
            if (miss > 0 || t.expectedRule != t.rejected || t.mutants == 0) ok = false;
        }
        out.printf(Locale.ROOT, "%-24s %8d %8d %8d %6d %6d%n", "TOTAL", total, rejected, expected, equiv, missed);
        out.printf(Locale.ROOT, "%d classes, %d inputs, %.1f s, %.0f mutants/s%n", classes.size(), inputs.size(), secs, total / secs);
        for (MutationClass m : classes) {
            Tally t = tallies.get(m.name);
            for (String s : t.misses) if (s != null) out.println("MISSED     " + m.name + ": " + s);
            for (String s : t.unexpected) out.println("UNEXPECTED " + m.name + ": " + s);
        }
        out.println(ok ? "RESULT: every non-equivalent mutant rejected with an expected rule id" : "RESULT: FAILURES (see above)");
        return ok ? 0 : 1;
    }

    /** Campaign inputs: small games from the start and from random midgame positions. */
    static List<Input> inputs(long seed) {
        List<Input> l = new ArrayList<>();
        Game o4 = Game.parse("othello:4x4"), o6 = Game.parse("othello:6x6");
        Game c44 = Game.parse("connect4:4x4"), c54 = Game.parse("connect4:5x4"), c65 = Game.parse("connect4:6x5");
        l.add(new Input("othello4-start", "othello:4x4", board(o4, o4.start()), "semi-strong"));
        l.add(new Input("othello4-start-weak", "othello:4x4", board(o4, o4.start()), "weak"));
        l.add(new Input("othello4-mid", "othello:4x4", board(o4, playout(o4, 6, new Random(seed))), "semi-strong"));
        l.add(new Input("othello6-10empties", "othello:6x6", board(o6, playout(o6, 26, new Random(seed + 1))), "semi-strong"));
        l.add(new Input("othello6-11empties-weak", "othello:6x6", board(o6, playout(o6, 25, new Random(seed + 2))), "weak"));
        l.add(new Input("connect4-4x4-mid", "connect4:4x4", board(c44, playout(c44, 4, new Random(seed + 4))), "semi-strong"));
        l.add(new Input("connect4-5x4-mid-weak", "connect4:5x4", board(c54, playout(c54, 6, new Random(seed + 5))), "weak"));
        l.add(new Input("connect4-6x5-mid", "connect4:6x5", board(c65, playout(c65, 14, new Random(seed + 3))), "semi-strong"));
        // Weak with endgame leaves (mode 3): the inputs of the leaf-entry and leaf-empties-changed classes.
        l.add(new Input("othello6-10empties-leaves4", "othello:6x6", board(o6, playout(o6, 22, new Random(seed + 6))), "weak", 4));
        l.add(new Input("connect4-5x4-mid-leaves3", "connect4:5x4", board(c54, playout(c54, 9, new Random(seed + 7))), "weak", 3));
        return l;
    }

    private static String board(Game g, long[] p) { return g.boardText(p[0], p[1]); }

    /** A random legal line to a position with {@code discs} discs, not terminal, mover not passing. */
    static long[] playout(Game g, int discs, Random rnd) {
        for (int attempt = 0; ; attempt++) {
            long[] p = g.start();
            long m = p[0], o = p[1];
            while (Long.bitCount(m | o) < discs && !g.isTerminal(m, o)) {
                long mv = g.moves(m, o);
                if (mv == 0) { long t = m; m = o; o = t; continue; }
                int k = rnd.nextInt(Long.bitCount(mv));
                for (int j = 0; j < k; j++) mv &= mv - 1;
                long m2 = g.play(m, o, Long.numberOfTrailingZeros(mv));
                long o2 = o & ~m2;
                m = o2; o = m2;
            }
            if (Long.bitCount(m | o) == discs && !g.isTerminal(m, o) && g.moves(m, o) != 0) return new long[]{m, o};
        }
    }
}

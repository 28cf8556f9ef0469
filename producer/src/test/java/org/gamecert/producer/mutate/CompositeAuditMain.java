package org.gamecert.producer.mutate;

import org.gamecert.producer.cli.ProduceMain;
import org.gamecert.producer.mutate.composite.CompositeMutations;
import org.gamecert.producer.mutate.composite.CompositeSet;
import org.gamecert.verifier.engine.CompositeVerifier;
import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.kernel.Result;

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
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The composite part of the audit campaign (`scripts/audit`, SPEC §15): composites of several
 * games made by the producer (solve --split-at, solve-part, compose), corrupted by every comp-*
 * class, each mutant checked by the verifier in-process. Prints per class: mutants, verdicts as
 * expected (the rule id, or incomplete), rules fired. Exit 0 when every mutant got its verdict.
 */
public final class CompositeAuditMain {
    /** An input: a game, a root, a mode and the disc count of the split. */
    record Input(String name, String game, String moves, String mode, int split) {}

    static final List<Input> INPUTS = List.of(
            new Input("othello6-semi-strong", "othello:6x6", "e4e3b2c5e2f2f3a1f1b4b6d6a4a3b3e5b5f4", "semi-strong", 25),
            new Input("othello6-weak", "othello:6x6", "e4e3b2c5e2f2f3a1f1b4b6d6a4a3b3e5b5f4", "weak", 26),
            new Input("connect4-5x4-semi-strong", "connect4:5x4", "", "semi-strong", 6),
            new Input("nogo-1x13-weak", "nogo:1x13", "", "weak", 3));

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out, System.err));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        int mutants = 10, threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        long seed = 1;
        Path work = Paths.get("target/audit-composite");
        String only = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--mutants": mutants = Integer.parseInt(args[++i]); break;
                case "--seed": seed = Long.parseLong(args[++i]); break;
                case "--work": work = Paths.get(args[++i]); break;
                case "--threads": threads = Integer.parseInt(args[++i]); break;
                case "--class": only = args[++i]; break;
                case "--help": case "-h":
                    out.println("usage: composite audit [--mutants N per class and input (default 10)] [--seed S] [--threads T] "
                            + "[--class NAME] [--work DIR]");
                    return 0;
                default:
                    err.println("error: unknown option " + args[i] + " (see --help)");
                    return 2;
            }
        }
        Files.createDirectories(work);
        Options opt = new Options();
        opt.threads = threads;
        List<CompositeSet> sets = new ArrayList<>();
        for (Input in : INPUTS) {
            Path d = work.resolve(in.name);
            if (!Files.isRegularFile(d.resolve("composite.gscm"))) {
                deleteTree(d);
                err.println("composite-audit: making " + in.name + " ...");
                List<String> a = new ArrayList<>(List.of("solve", "--game", in.game, "--mode", in.mode, "--split-at", "" + in.split,
                        "--out", d.toString(), "-q", "--tt-mb", "64"));
                if (!in.moves.isEmpty()) { a.add("--moves"); a.add(in.moves); }
                if (quiet(a.toArray(new String[0]), err) != 0
                        || quiet(new String[] {"solve-part", d.toString(), "--parts", "all", "-q", "--jobs", "" + threads}, err) != 0
                        || quiet(new String[] {"compose", d.toString()}, err) != 0) return 2;
            }
            CompositeVerifier.Outcome base = CompositeVerifier.verify(d, opt, null);
            if (base.verdict() != Result.Verdict.VERIFIED) {
                err.println("error: the valid input " + d + " is not verified: " + base.error);
                return 2;
            }
            sets.add(CompositeSet.load(d));
        }
        Map<String, long[]> tally = new TreeMap<>(); // mutants, as expected, not applicable
        Map<String, Map<String, Long>> fired = new TreeMap<>();
        List<String> misses = new ArrayList<>();
        long t0 = System.nanoTime();
        final String one = only;
        long kinds = CompositeMutations.ALL.stream().filter(k -> one == null || one.equals(k.name)).count();
        Progress progress = new Progress("composite-audit", kinds * sets.size() * mutants, err);
        for (CompositeMutations.Kind k : CompositeMutations.ALL) {
            if (only != null && !only.equals(k.name)) continue;
            long[] t = tally.computeIfAbsent(k.name, x -> new long[3]);
            Map<String, Long> rules = fired.computeIfAbsent(k.name, x -> new TreeMap<>());
            for (int s = 0; s < sets.size(); s++)
                for (int i = 0; i < mutants; i++) {
                    progress.step();
                    CompositeMutations.Result m = k.apply(sets.get(s), seed + i);
                    if (m == null) { t[2]++; continue; }
                    Path d = work.resolve("mutant");
                    deleteTree(d);
                    m.composite.write(d);
                    progress.doing(k.name + " on " + INPUTS.get(s).name + " seed " + (seed + i) + ": verifying the mutant");
                    CompositeVerifier.Outcome c = CompositeVerifier.verify(d, opt, null);
                    progress.doing(null);
                    t[0]++;
                    String got = c.verdict() == Result.Verdict.INCOMPLETE ? CompositeMutations.INCOMPLETE
                            : c.verdict() == Result.Verdict.REJECTED ? c.composition.violation.rule() : c.verdict().toString();
                    rules.merge(got, 1L, Long::sum);
                    if (k.expectedRules.contains(got)) t[1]++;
                    else misses.add(k.name + " on " + INPUTS.get(s).name + " seed " + (seed + i) + ": " + got + " (" + m.detail + ")");
                }
            progress.classDone("class " + k.name + " done: " + t[0] + " mutants, " + t[1] + " as expected");
        }
        progress.close();
        out.printf(Locale.ROOT, "%-26s %8s %12s %8s  %s%n", "composite class", "mutants", "as expected", "n/a", "verdicts");
        for (Map.Entry<String, long[]> e : tally.entrySet())
            out.printf(Locale.ROOT, "%-26s %8d %12d %8d  %s%n", e.getKey(), e.getValue()[0], e.getValue()[1], e.getValue()[2],
                    fired.get(e.getKey()));
        out.printf(Locale.ROOT, "composite audit: %d inputs, %.1f s%n", sets.size(), (System.nanoTime() - t0) / 1e9);
        for (String miss : misses) out.println("MISS " + miss);
        return misses.isEmpty() ? 0 : 1;
    }

    private static int quiet(String[] args, PrintStream err) {
        return ProduceMain.run(args, new PrintStream(new ByteArrayOutputStream()), err);
    }

    static void deleteTree(Path d) throws IOException {
        if (!Files.exists(d)) return;
        try (Stream<Path> w = Files.walk(d)) {
            for (Path p : (Iterable<Path>) w.sorted(Comparator.reverseOrder())::iterator) Files.delete(p);
        }
    }
}

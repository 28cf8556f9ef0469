package org.gamecert.producer.mutate;

import org.gamecert.producer.cli.ProduceMain;
import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.engine.Verifier;
import org.gamecert.verifier.kernel.Result;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The loa-* classes of the audit campaign (scripts/audit): weak-ranked LOA certificates of 4×4 and
 * 5×5 from the start, made by the producer, each corrupted by every loa-* class with N seeds; every
 * mutant must be rejected with one of its class's rule ids. Prints one line per class; exit 1 on a miss.
 */
public final class LoaAuditMain {
    private LoaAuditMain() {}

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out, System.err));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        int mutants = 20;
        long seed = 1;
        Path work = Paths.get("target/audit-loa");
        String only = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--mutants": mutants = Integer.parseInt(args[++i]); break;
                case "--seed": seed = Long.parseLong(args[++i]); break;
                case "--work": work = Paths.get(args[++i]); break;
                case "--threads": i++; break; // one thread: the inputs are small
                case "--class": only = args[++i]; break;
                default: err.println("error: unknown option " + args[i]); return 2;
            }
        }
        long t0 = System.nanoTime();
        Files.createDirectories(work);
        List<Path> inputs = new ArrayList<>();
        for (String game : new String[] {"loa:4x4", "loa:5x5"}) {
            Path cert = work.resolve(game.replace(':', '-') + ".gsc");
            err.println("loa-audit: making " + game + " ...");
            int rc = ProduceMain.run(new String[] {"solve", "--game", game, "--mode", "weak-ranked", "-q", "--out", cert.toString()},
                    new PrintStream(new ByteArrayOutputStream()), err);
            if (rc != 0 || Verifier.verify(cert, new Options()).verdict != Result.Verdict.VERIFIED) {
                err.println("error: the valid input " + game + " was not made or not verified");
                return 2;
            }
            inputs.add(cert);
        }
        Map<String, int[]> tally = new LinkedHashMap<>();
        Map<String, TreeMap<String, Integer>> fired = new LinkedHashMap<>();
        List<String> misses = new ArrayList<>();
        Path tmp = work.resolve("mutant.gsc");
        final String one = only;
        long kinds = LoaMutations.ALL.stream().filter(k -> one == null || one.equals(k.name)).count();
        Progress progress = new Progress("loa-audit", kinds * inputs.size() * mutants, err);
        for (LoaMutations.Kind k : LoaMutations.ALL) {
            if (only != null && !only.equals(k.name)) continue;
            int[] t = tally.computeIfAbsent(k.name, x -> new int[3]);
            TreeMap<String, Integer> rules = fired.computeIfAbsent(k.name, x -> new TreeMap<>());
            for (Path in : inputs) {
                byte[] original = Files.readAllBytes(in);
                for (long s = seed; s < seed + mutants; s++) {
                    progress.step();
                    byte[][] bytes = new byte[1][];
                    String[] detail = k.apply(original, s, bytes);
                    if (detail == null) { t[2]++; continue; }
                    t[0]++;
                    Files.write(tmp, bytes[0]);
                    progress.doing(k.name + " on " + in.getFileName() + " seed " + s + ": verifying the mutant");
                    Result r = Verifier.verify(tmp, new Options());
                    progress.doing(null);
                    String rule = r.firstViolation() == null ? r.verdict.toString() : r.firstViolation().rule();
                    rules.merge(rule, 1, Integer::sum);
                    if (r.verdict == Result.Verdict.REJECTED && k.expectedRules.contains(rule)) t[1]++;
                    else misses.add(k.name + " " + in.getFileName() + " seed " + s + " (" + detail[0] + "): " + r.verdict + " " + r.firstViolation());
                }
            }
            progress.classDone("class " + k.name + " done: " + t[0] + " mutants, " + t[1] + " as expected");
        }
        progress.close();
        out.printf(Locale.ROOT, "%-26s %8s %12s %8s  %s%n", "loa class", "mutants", "as expected", "n/a", "rule ids fired");
        for (Map.Entry<String, int[]> e : tally.entrySet())
            out.printf(Locale.ROOT, "%-26s %8d %12d %8d  %s%n", e.getKey(), e.getValue()[0], e.getValue()[1], e.getValue()[2],
                    fired.get(e.getKey()));
        out.printf(Locale.ROOT, "loa audit: %d inputs (loa:4x4, loa:5x5), %.1f s%n", inputs.size(), (System.nanoTime() - t0) / 1e9);
        for (String miss : misses) out.println("MISS " + miss);
        return misses.isEmpty() ? 0 : 1;
    }
}

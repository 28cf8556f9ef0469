package org.gamecert.spark.verify;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaSparkContext;
import org.gamecert.verifier.engine.CompositeVerifier;
import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.kernel.Result;
import scala.Tuple2;

/**
 * The Spark engine for our certificates. A feeder like the single-machine engine (SPEC §11.1),
 * at the granularity the kernel's API makes independent: one Spark task per certificate file,
 * the kernel running in the executor over the whole file (hash chain, counts, commitment, every
 * layer against the layer below, census). A composite's parts (SPEC §15) are so many tasks; the
 * driver hands their kernel results to CompositeVerifier, whose composition is the kernel's
 * (Composition.decide), exactly as scripts/verify does.
 *
 * Why no false VERIFIED can come from here: this class builds no Result and no conclusion; a
 * part counts for the composite only with a kernel-made conclusion whose commitment is the one
 * the manifest names; a task that fails or returns nothing leaves its part "not given", so the
 * composite is at best incomplete; a certificate whose task fails is an error (exit 2).
 */
public final class SparkVerifier {
    private SparkVerifier() {}

    /** Settings of a Spark verification. */
    public static final class Settings {
        /** Spark partitions (tasks at once per stage) for a composite's parts; 0: one per part. */
        public int partitions;
        /** Table budget per task in bytes; 0: fitted to the executor's heap. */
        public long maxMemory;
        public boolean strict, all;
        /** A certificate as one task (the kernel over the whole file) rather than in slices. */
        public boolean wholeFile;
        /** Entries per slice of a layer (0: SparkSliced.DEFAULT_SLICE_ENTRIES). */
        public long sliceEntries;
        /** Partitions a layer's terminal keys are counted in (0: Spark's default parallelism). */
        public int terminalPartitions;
        /** Progress of a sliced check (a line a layer), or null. */
        public java.io.PrintStream progress;
    }

    /**
     * A certificate in slices (SparkSliced): the sequential kernel's slices in the executors, the
     * driver's Combiner taking their reports layer by layer. A file that is not a certificate of
     * modes 1-3 (mode 4 is RankedKernel's, not sliced; an unreadable file) is checked as one
     * task (certificate), which gives scripts/verify's report for it.
     */
    public static Result sliced(JavaSparkContext sc, Path file, Settings s) {
        Options o = new Options();
        o.strict = s.strict;
        o.all = s.all;
        o.maxViolationsPerRule = s.all ? 10 : 1;
        if (!sliceable(file)) return certificate(sc, file, s);
        return new SparkSliced(sc, s.sliceEntries, s.terminalPartitions, s.progress).verify(file, o);
    }

    /** A certificate whose header does not say mode 4 (a header that breaks a rule: sliced). */
    static boolean sliceable(Path file) {
        try (org.gamecert.verifier.kernel.format.Container ct = new org.gamecert.verifier.kernel.format.Container(file)) {
            if (!org.gamecert.verifier.engine.Verifier.isCertificate(ct)) return false;
            try {
                return org.gamecert.verifier.kernel.format.Header.parse(ct.readHeaderContent()).mode
                        != org.gamecert.verifier.kernel.format.Header.WEAK_RANKED;
            } catch (org.gamecert.verifier.kernel.format.FormatException e) {
                return true;
            }
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }

    /** A certificate: one task; the kernel in the executor uses the executor's cores. */
    public static Result certificate(JavaSparkContext sc, Path file, Settings s) {
        int threads = Math.max(1, Math.min(sc.defaultParallelism(), Runtime.getRuntime().availableProcessors()));
        PartTask task = new PartTask(-1, file.toAbsolutePath().toString(), false, s.maxMemory, threads, s.strict, s.all, 0);
        Result r;
        try {
            List<Result> got = sc.parallelize(List.of(task), 1).map(PartTask::run).collect();
            r = got.size() == 1 && got.get(0) != null ? got.get(0) : engineError("the Spark task returned no result");
        } catch (RuntimeException e) {
            r = engineError("the Spark job failed: " + e);
        }
        return r;
    }

    private static Result engineError(String message) {
        Result res = new Result();
        res.errorMessage = message;
        return Result.withVerdict(res, Result.Verdict.ERROR);
    }

    /** A composite: its parts as Spark tasks, composed by the kernel in the driver. */
    public static CompositeVerifier.Outcome composite(JavaSparkContext sc, Path input, Settings s, PrintStream progress) {
        Options o = new Options();
        o.threads = 1;
        o.strict = s.strict;
        o.all = s.all;
        o.maxViolationsPerRule = s.all ? 10 : 1;
        return CompositeVerifier.verify(input, o, progress, null, (present, manifest, manifestPath, each, prog) -> {
            if (present.isEmpty()) return;
            int slices = s.partitions > 0 ? s.partitions : present.size();
            long cap = CompositeVerifier.UNION_CAP / present.size();
            List<PartTask> tasks = new ArrayList<>();
            for (CompositeVerifier.PartReport p : present)
                tasks.add(new PartTask(p.index, p.file.toAbsolutePath().toString(), true, s.maxMemory, 1, s.strict, s.all, cap));
            if (prog != null)
                prog.printf("composite: %d parts (%d present), checked as %d Spark tasks in %d partitions%n", each.composite.partCount(),
                        present.size(), tasks.size(), Math.min(slices, tasks.size()));
            List<Tuple2<Integer, Tuple2<Result, Long>>> got = sc.parallelize(tasks, Math.min(slices, tasks.size()))
                    .mapToPair(t -> new Tuple2<>(t.index, t.timed())).collect();
            Map<Integer, Tuple2<Result, Long>> byIndex = new HashMap<>();
            for (Tuple2<Integer, Tuple2<Result, Long>> t : got) byIndex.put(t._1(), t._2());
            for (CompositeVerifier.PartReport p : present) {
                Tuple2<Result, Long> done = byIndex.get(p.index);
                if (done == null) continue;
                p.result = done._1();
                p.nanos = done._2();
                if (prog != null && p.result != null)
                    prog.printf("part %d: %s %s, %.2f s%n", p.index, p.file.getFileName(), describe(p.result), p.nanos / 1e9);
            }
        });
    }

    private static String describe(Result r) {
        if (r.verdict == Result.Verdict.INCOMPLETE && r.conclusion != null)
            return "every rule held, " + r.conclusion.openCount() + " open entries";
        if (r.verdict == Result.Verdict.REJECTED && r.firstViolation() != null) return "rejected, " + r.firstViolation().rule();
        if (r.verdict == Result.Verdict.ERROR) return "error: " + r.errorMessage;
        return r.verdict.name().toLowerCase(java.util.Locale.ROOT);
    }
}

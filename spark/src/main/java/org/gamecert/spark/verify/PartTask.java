package org.gamecert.spark.verify;

import java.io.Serializable;
import java.nio.file.Path;
import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.engine.Verifier;
import org.gamecert.verifier.kernel.Result;

/**
 * One Spark task of verification: a certificate file checked in an executor by the verifier's
 * kernel, through its single-machine feeder (Verifier.verify). What comes back is the kernel's
 * Result, moved to the driver by Java serialization and never altered: the Spark code makes no
 * result of its own but errors. A composite's part is checked on its own (the kernel keeps all
 * its open entries, at most 2^24 by R-OPEN-2): the kernel's keeping of only the open entries a
 * manifest's links name (the Combiner's partOf) holds for that manifest object in that JVM alone, which a
 * conclusion moved to the driver does not serve (PartConclusion.openEntriesFor).
 */
public final class PartTask implements Serializable {
    private static final long serialVersionUID = 1L;

    public final int index;
    public final String file;
    public final boolean inComposite; // a composite's part: its region keys kept for the union census
    public final long maxMemory;
    public final int threads;
    public final boolean strict, all;
    public final long unionCap; // region keys this part may keep for the union census (0: none)

    public PartTask(int index, String file, boolean inComposite, long maxMemory, int threads, boolean strict, boolean all,
            long unionCap) {
        this.index = index;
        this.file = file;
        this.inComposite = inComposite;
        this.maxMemory = maxMemory;
        this.threads = threads;
        this.strict = strict;
        this.all = all;
        this.unionCap = unionCap;
    }

    /** Runs in an executor. Never throws: Verifier.verify ends every failure in a verdict. */
    public Result run() {
        Options o = new Options();
        o.maxMemory = maxMemory > 0 ? maxMemory : executorMemory(threads);
        o.threads = Math.max(1, threads);
        o.strict = strict;
        o.all = all;
        o.maxViolationsPerRule = all ? 10 : 1;
        o.forComposition = inComposite; // the driver composes with the kernel's conclusion
        if (inComposite && unionCap > 0) o.regionKeys = new Allowance(unionCap);
        return Verifier.verify(Path.of(file), o);
    }

    /** As run(), with how long the check took in the executor (its Figures' time). */
    public scala.Tuple2<Result, Long> timed() {
        long t0 = System.nanoTime();
        Result r = run();
        return new scala.Tuple2<>(r, System.nanoTime() - t0);
    }

    /** Default table budget in an executor: 2 GiB, or 5/8 of the heap shared by the cores that run tasks. */
    static long executorMemory(int threads) {
        int slots = Math.max(1, Runtime.getRuntime().availableProcessors() / Math.max(1, threads));
        return Math.min(Options.DEFAULT_MAX_MEMORY, Runtime.getRuntime().maxMemory() / 8 * 5 / slots);
    }

    /** A part's own allowance for region keys (no sharing across executors). */
    static final class Allowance implements Options.Allowance {
        private final long cap;
        private long granted;

        Allowance(long cap) {
            this.cap = cap;
        }

        @Override
        public boolean grant(int n) {
            granted += n;
            return granted <= cap;
        }
    }
}

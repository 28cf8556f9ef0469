package org.gamecert.spark.verify;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;
import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.engine.Slices;
import org.gamecert.verifier.kernel.JoinedLayer;
import org.gamecert.verifier.kernel.Kernel;
import org.gamecert.verifier.kernel.SliceResult;
import scala.Tuple2;

/**
 * Pass 2 of one certificate across Spark executors (SPEC §11.1, Slices): layer by layer from the
 * root's down, each layer cut into slices of blocks; per layer three stages joined by slice id:
 * the slices' child requests are sent (shuffled) to the slices of the layer below whose key
 * ranges hold them, answered there from their own records, and the answers shuffled back; each
 * slice is then checked by a kernel of its own in an executor, with the marks (flags) the layer
 * above sent it, and sends its marks on to the layer below's slices. The driver's kernel, which
 * read the file (pass 1: chain, counts, order), takes the slices' results (JoinedLayer) and
 * concludes. Nothing here is trusted: SlicedVerifier does the same in one JVM, and the kernel
 * refuses any result, answer or mark that is not the honest one (an engine fault).
 */
public final class SparkSliced implements Options.SlicedPass2 {
    /** Entries per slice by default: a slice's answers and marks take ~0.3-1 KB per entry. */
    public static final long DEFAULT_SLICE_ENTRIES = 1L << 18;

    private final JavaSparkContext sc;
    private final long sliceEntries;
    private final PrintStream progress;

    public SparkSliced(JavaSparkContext sc, long sliceEntries, PrintStream progress) {
        this.sc = sc;
        this.sliceEntries = sliceEntries > 0 ? sliceEntries : DEFAULT_SLICE_ENTRIES;
        this.progress = progress;
    }

    @Override
    public void run(Kernel kernel, Slices.Job job, long[] firstOcc, long[] firstMover)
            throws IOException {
        JavaPairRDD<Integer, Slices.MarkBatch> marksIn = null;
        JavaRDD<Slices.Checked> previous = null;
        long done = 0, total = 0;
        for (int li = 0; li < kernel.layers(); li++) total += kernel.size(li);
        try {
            for (int li = kernel.layers() - 1; li >= 0; li--) {
                long t0 = System.nanoTime();
                int below = kernel.below(li);
                Slices.Slice[] slices = Slices.plan(kernel, li, sliceEntries, firstOcc, firstMover);
                Slices.Slice[] under = below < 0 ? new Slices.Slice[0]
                        : Slices.plan(kernel, below, sliceEntries, firstOcc, firstMover);
                long sizeBelow = below < 0 ? 0 : kernel.size(below);
                HashPartitioner byParent = new HashPartitioner(partitions(slices.length));
                JavaPairRDD<Integer, Slices.Answers> answers;
                if (under.length == 0) {
                    answers = JavaPairRDD.fromJavaRDD(sc.<Tuple2<Integer, Slices.Answers>>emptyRDD());
                } else {
                    answers = sc.parallelize(Arrays.asList(slices), partitions(slices.length))
                            .flatMapToPair(s -> {
                                List<Tuple2<Integer, Slices.Requests>> out = new ArrayList<>();
                                for (Slices.Requests r : Slices.requests(job, s, under))
                                    out.add(new Tuple2<>(r.child, r));
                                return out.iterator();
                            })
                            .groupByKey(new HashPartitioner(partitions(under.length)))
                            .flatMapToPair(t -> {
                                List<Tuple2<Integer, Slices.Answers>> out = new ArrayList<>();
                                for (Slices.Answers a : Slices.answer(job, under[t._1()], t._2()))
                                    out.add(new Tuple2<>(a.parent, a));
                                return out.iterator();
                            });
                }
                List<Tuple2<Integer, Integer>> ids = new ArrayList<>();
                for (Slices.Slice s : slices) ids.add(new Tuple2<>(s.id(), s.id()));
                JavaPairRDD<Integer, Integer> parents = sc.parallelizePairs(ids, partitions(slices.length));
                JavaPairRDD<Integer, Slices.MarkBatch> in = marksIn != null ? marksIn
                        : JavaPairRDD.fromJavaRDD(sc.<Tuple2<Integer, Slices.MarkBatch>>emptyRDD());
                JavaRDD<Slices.Checked> checked = parents.cogroup(answers, in, byParent)
                        .filter(t -> t._2()._1().iterator().hasNext()) // marks for no slice: left out
                        .map(t -> Slices.check(job, slices[t._1()], sizeBelow, under, t._2()._2(),
                                t._2()._3()));
                checked.persist(StorageLevel.MEMORY_AND_DISK_SER());
                JoinedLayer joined = kernel.beginJoinedLayer(li);
                for (SliceResult r : checked.map(c -> c.result).collect()) joined.add(r);
                joined.finish();
                marksIn = checked.flatMapToPair(c -> {
                    List<Tuple2<Integer, Slices.MarkBatch>> out = new ArrayList<>();
                    for (Slices.MarkBatch m : c.marks) out.add(new Tuple2<>(m.child, m));
                    return out.iterator();
                });
                if (previous != null) previous.unpersist(false);
                previous = checked;
                done += kernel.size(li);
                if (progress != null)
                    progress.printf("pass 2: layer %d (%d entries, %d slices) in %.1f s; %.1f%% of"
                            + " the entries%n", kernel.discs(li), kernel.size(li), slices.length,
                            (System.nanoTime() - t0) / 1e9, 100.0 * done / Math.max(1, total));
            }
        } catch (Kernel.EngineFault | Kernel.Stop e) {
            throw e; // the driver's kernel's own
        } catch (Exception e) { // a task failed (SparkException, thrown unchecked by Scala)
            throw new IOException("the Spark job failed: " + rootMessage(e), e);
        } finally {
            if (previous != null) previous.unpersist(false);
        }
    }

    private int partitions(int slices) {
        return Math.max(1, Math.min(slices, 4 * sc.defaultParallelism()));
    }

    /** The innermost cause's message (a kernel's engine fault in an executor names itself). */
    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) t = t.getCause();
        String m = t.getMessage();
        return m != null ? m : t.toString();
    }
}

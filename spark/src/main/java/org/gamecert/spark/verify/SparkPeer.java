package org.gamecert.spark.verify;

import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.gamecert.verifier.peer.PeerOptions;
import org.gamecert.verifier.peer.PeerResult;
import org.gamecert.verifier.peer.PeerVerifier;
import org.gamecert.verifier.peer.SliceRun;
import org.gamecert.verifier.peer.kernel.Slice;

/**
 * The published 6×6 tables on Spark: one Spark task per slice of a table (a key range of table
 * n's records, as the driver's peer kernel asks for them), each with a peer kernel of its own in
 * the executor (PeerVerifier.checkSlice: the same sound rules as scripts/verify, CUT/ALL
 * included, its slice against all of table n+1, in key ranges within the task as memory
 * requires). The driver's PeerVerifier hands each table's slices back to its kernel
 * (TableSlices: they must tile the table, PEER-SLICE-1..3), in ascending table order, stops at
 * the first violation as scripts/verify does, scans the root and lets the kernel conclude.
 * Inputs: a directory of tables, a .csv or a .tar on a path every executor reads; a .tar.zst or
 * its split parts are read once by the driver into a spool of slice files in --tmp (SliceSpool),
 * which must then be a path every executor reads.
 */
public final class SparkPeer {
    private SparkPeer() {}

    /** What a task needs to rebuild its PeerOptions (no streams, no paths objects). */
    static final class Spec implements Serializable {
        private static final long serialVersionUID = 2L;
        final String input, root, tmp;
        final long maxMemory, rangeRecords;
        final int threads, slots;

        Spec(PeerOptions o, Path input, int threads, int slots) {
            this.slots = Math.max(1, slots);
            this.input = input.toAbsolutePath().toString();
            root = o.root;
            tmp = o.tmp == null ? null : o.tmp.toAbsolutePath().toString();
            maxMemory = o.maxMemory;
            rangeRecords = o.rangeRecords;
            this.threads = threads;
        }

        PeerOptions options() {
            PeerOptions o = new PeerOptions();
            o.input = Path.of(input);
            o.root = root;
            o.tmp = tmp == null ? null : Path.of(tmp);
            // default: 60 % of the executor's heap, shared by the tasks it runs at once
            o.maxMemory = maxMemory > 0 ? maxMemory : (long) (Runtime.getRuntime().maxMemory() * 0.6 / slots);
            o.rangeRecords = rangeRecords;
            o.threads = threads;
            o.checkSums = false; // the driver checked SHA256SUMS
            return o;
        }
    }

    /** Bytes of table n in a directory of tables (0 when not a directory: the order then stays). */
    static long tableBytes(Path input, int n) {
        Path f = input.resolve("optimal_reopening_ab_table_all_" + n + ".txt");
        try {
            return Files.isDirectory(input) && Files.isRegularFile(f) ? Files.size(f) : 0;
        } catch (java.io.IOException e) {
            return 0; // the task reports what cannot be read
        }
    }

    /** Verifies peer tables with their slices as Spark tasks (partitions: 0 = one per slice). */
    public static PeerResult verify(JavaSparkContext sc, PeerOptions o, int partitions) {
        boolean local = sc.master().startsWith("local");
        int slots = local ? sc.defaultParallelism() : sc.getConf().getInt("spark.executor.cores", 1);
        o.runner = new PeerVerifier.SliceRunner() {
            @Override
            public List<SliceRun> check(PeerOptions opt, Path input, List<Slice> slices) {
                Spec spec = new Spec(opt, input, 1, slots);
                List<Slice> order = new ArrayList<>(slices);
                // a task reads all of table n+1: those with the biggest child table first (Spark
                // starts partitions in order), so that the longest do not come last
                order.sort(Comparator.comparingLong((Slice s) -> -tableBytes(input, s.table() + 1)));
                int n = Math.max(1, Math.min(order.size(), partitions > 0 ? partitions : order.size()));
                return sc.parallelize(order, n).map(s -> PeerVerifier.checkSlice(spec.options(), Path.of(spec.input), s)).collect();
            }

            @Override
            public int parallelism() {
                return Math.max(1, sc.defaultParallelism());
            }
        };
        return PeerVerifier.verify(o);
    }
}

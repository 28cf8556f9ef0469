package org.gamecert.spark.verify;

import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaSparkContext;
import org.gamecert.verifier.peer.PeerOptions;
import org.gamecert.verifier.peer.PeerResult;
import org.gamecert.verifier.peer.PeerVerifier;
import org.gamecert.verifier.peer.TableResult;
import scala.Tuple2;

/**
 * The published 6×6 tables on Spark: one Spark task per table pair (table n against n+1), each
 * with a peer kernel of its own in the executor (PeerVerifier.checkTable: the same sound rules
 * as scripts/verify, CUT/ALL included, table n+1 in key ranges within the task as memory
 * requires). The driver's PeerVerifier takes the tables in ascending order through the peer
 * kernel's restart path (PeerKernel.prior), stops at the first violation as scripts/verify does,
 * requires each table n+1 to be the one pair n loaded, scans the root and lets the kernel
 * conclude. Inputs: a directory of tables, a .csv or a .tar on a path every executor reads.
 */
public final class SparkPeer {
    private SparkPeer() {}

    /** What a task needs to rebuild its PeerOptions (no streams, no paths objects). */
    static final class Spec implements Serializable {
        private static final long serialVersionUID = 1L;
        final String input, root, tmp;
        final long maxMemory, rangeRecords;
        final int threads, slots;

        Spec(PeerOptions o, int threads, int slots) {
            this.slots = Math.max(1, slots);
            input = o.input.toAbsolutePath().toString();
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

    /** Bytes of tables n and n+1 in a directory of tables (0 when not a directory: the order then stays). */
    static long pairBytes(Path input, int n) {
        long b = 0;
        for (int t = n; t <= n + 1; t++) {
            Path f = input.resolve("optimal_reopening_ab_table_all_" + t + ".txt");
            try {
                if (java.nio.file.Files.isDirectory(input) && java.nio.file.Files.isRegularFile(f)) b += java.nio.file.Files.size(f);
            } catch (java.io.IOException e) {
                // the task reports what cannot be read
            }
        }
        return b;
    }

    /** Verifies peer tables with their pairs as Spark tasks (partitions: 0 = one per pair). */
    public static PeerResult verify(JavaSparkContext sc, PeerOptions o, int partitions) {
        o.runner = (opt, tables, childGiven) -> {
            int slices = Math.max(1, Math.min(tables.length, partitions > 0 ? partitions : tables.length));
            boolean local = sc.master().startsWith("local");
            int slots = local ? sc.defaultParallelism() : sc.getConf().getInt("spark.executor.cores", 1);
            Spec spec = new Spec(opt, 1, slots);
            List<Tuple2<Integer, Boolean>> pairs = new ArrayList<>();
            for (int i = 0; i < tables.length; i++) pairs.add(new Tuple2<>(tables[i], childGiven[i]));
            // biggest pairs first (Spark starts partitions in order): the longest tasks do not
            // come last on a few cores; the order of the results does not depend on it
            pairs.sort(java.util.Comparator.comparingLong((Tuple2<Integer, Boolean> p) -> -pairBytes(opt.input, p._1())));
            List<Tuple2<Integer, TableResult>> got = sc.parallelize(pairs, slices)
                    .mapToPair(p -> new Tuple2<>(p._1(), PeerVerifier.checkTable(spec.options(), p._1(), p._2()))).collect();
            Map<Integer, TableResult> by = new HashMap<>();
            for (Tuple2<Integer, TableResult> t : got) by.put(t._1(), t._2());
            List<TableResult> out = new ArrayList<>();
            for (int n : tables) out.add(by.get(n));
            return out;
        };
        return PeerVerifier.verify(o);
    }
}

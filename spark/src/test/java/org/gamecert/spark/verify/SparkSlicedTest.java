package org.gamecert.spark.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Serializable;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;
import org.gamecert.spark.SparkTestContext;
import org.gamecert.spark.verify.SparkSliced.Terminals;
import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.engine.SliceEngine;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.TerminalCount;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

/**
 * SparkSliced, the sequential kernel's slices in Spark executors (local[2]), against the
 * one-machine SliceEngine: the same report (verdict, first violation, census, commitment, open
 * entries) on certificates of three games, verified, rejected (by an entry's rule, the hash
 * chain, the census), a part, and with terminal positions counted in partitions; and an engine
 * that routes terminal keys or counts wrongly never ends in VERIFIED.
 */
class SparkSlicedTest {
    static final Path ROOT = Paths.get("..").toAbsolutePath().normalize();
    static final Path CONNECT4 = ROOT.resolve("testdata/valid/connect4-4x4-8discs.gsc");
    static JavaSparkContext sc;

    @BeforeAll
    static void start() {
        sc = SparkTestContext.open(2);
    }

    @AfterAll
    static void stop() {
        if (sc != null) sc.stop();
    }

    static final String[] FILES = {
        "testdata/valid/connect4-4x4-8discs.gsc", // terminal positions
        "testdata/valid/connect4-5x4-11discs-weak.gsc",
        "format-spec/vectors/edge-valid-nogo-1x9.gsc",
        "format-spec/vectors/edge-valid-connect4-mirror.gsc",
        "testdata/valid/othello4x4-10discs.gsc",
        "testdata/valid/othello4x4-8discs-weak.gsc",
        "testdata/crafted/c4-1x63-empty-claimed-win.gsc", // rejected, R-SERVE-1, terminals
        "format-spec/vectors/gap-rejected-pos-3-connect4-mirror.gsc",
        "testdata/mutants/exact-value-shift.gsc",
        "testdata/mutants/entry-duplicated.gsc",
        "testdata/mutants/frame-bit-flip.gsc",
        "testdata/mutants/census-altered.gsc",
        "testdata/mutants/header-game-changed.gsc",
        // a part, incomplete alone (open entries)
        "format-spec/vectors/a0513ce6eefe488499ab67aec35d3780a7ffe7da5c4481c68e9e2f9729a42b86.gsc",
    };

    @Test
    void aCheckTaskHoldsAboutOneDefaultSliceOfEntriesOnALargeLayer() {
        long perTask = SparkSliced.CHECK_ENTRIES_PER_PARTITION;
        for (int n : new int[] {1, 7, 8, 9, 100, 275}) {
            SparkSliced.Slice[] slices = new SparkSliced.Slice[n];
            for (int q = 0; q < n; q++)
                slices[q] = new SparkSliced.Slice(q, 0, q, q + 1, q * perTask, (int) perTask);
            int parts = SparkSliced.slicePartitions(slices, 2);
            assertTrue(parts >= 1 && parts <= n, n + " slices in " + parts + " partitions");
            // the slices of a task (HashPartitioner by slice id) hold at most one slice's entries
            assertEquals(1, (n + parts - 1) / parts, n + " slices in " + parts + " partitions");
        }
        // small slices keep few tasks: at most 4 a core, 50 slices of 40 entries in 8
        SparkSliced.Slice[] small = new SparkSliced.Slice[50];
        for (int q = 0; q < 50; q++) small[q] = new SparkSliced.Slice(q, 0, q, q + 1, 40L * q, 40);
        assertEquals(8, SparkSliced.slicePartitions(small, 2));
    }

    @Test
    void aTaskOutOfMemoryFailsTheJobAndLeavesTheProcessRunning() {
        // Thrown on as it is, Spark's executor ends the whole JVM (this test's) with exit 52.
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
                () -> sc.parallelize(List.of(1, 2), 2).map(x -> SparkSliced.inMemory(() -> {
                    if (x == 2) throw new OutOfMemoryError("Java heap space");
                    return x;
                })).collect());
        assertTrue(SparkSliced.rootMessage(e).startsWith("a task ran out of memory"),
                SparkSliced.rootMessage(e));
        // and the context still runs jobs
        assertEquals(List.of(1, 2), sc.parallelize(List.of(1, 2), 2).collect());
    }

    static Result oneMachine(Path file, Options o) throws Exception {
        return new SliceEngine(2, 40).verify(file, o);
    }

    static Options options(boolean strict, boolean all) {
        Options o = new Options();
        o.strict = strict;
        o.all = all;
        o.maxViolationsPerRule = all ? 10 : 1;
        return o;
    }

    static void same(Path file, Result one, Result spark) {
        String at = file.getFileName() + ": " + spark.errorMessage + " " + spark.firstViolation();
        assertEquals(one.verdict, spark.verdict, at);
        assertEquals(String.valueOf(one.firstViolation()), String.valueOf(spark.firstViolation()), at);
        assertEquals(String.valueOf(one.violations), String.valueOf(spark.violations), at);
        assertEquals(one.violationCounts, spark.violationCounts, at);
        assertEquals(one.commitment, spark.commitment, at);
        assertEquals(one.errorMessage, spark.errorMessage, at);
        assertEquals(one.entries, spark.entries, at);
        assertEquals(one.region, spark.region, at);
        assertEquals(one.unreached, spark.unreached, at);
        assertEquals(one.census.size(), spark.census.size(), at);
        for (int i = 0; i < one.census.size(); i++)
            assertEquals(Arrays.toString(one.census.get(i)), Arrays.toString(spark.census.get(i)), at);
        assertEquals(one.conclusion == null, spark.conclusion == null, at);
        if (one.conclusion != null) {
            assertEquals(one.conclusion.commitmentId(), spark.conclusion.commitmentId(), at);
            assertEquals(one.conclusion.openCount(), spark.conclusion.openCount(), at);
        }
    }

    /**
     * One file of each kind in FILES: verified with terminal positions (Connect Four), NoGo, weak
     * Othello, rejected by an entry's rule, by the hash chain and by the census, and a part.
     */
    static final String[] ONE_OF_EACH_KIND = {
        "testdata/valid/connect4-4x4-8discs.gsc",
        "format-spec/vectors/edge-valid-nogo-1x9.gsc",
        "testdata/valid/othello4x4-8discs-weak.gsc",
        "testdata/crafted/c4-1x63-empty-claimed-win.gsc",
        "testdata/mutants/frame-bit-flip.gsc",
        "testdata/mutants/census-altered.gsc",
        "format-spec/vectors/a0513ce6eefe488499ab67aec35d3780a7ffe7da5c4481c68e9e2f9729a42b86.gsc",
    };

    /** One slicing (slices of a few blocks, three partitions), one file of each kind. */
    @Test
    void sparkSlicesGiveTheOneMachineEnginesReportOnOneFileOfEachKind() throws Exception {
        for (String f : ONE_OF_EACH_KIND) {
            Path file = ROOT.resolve(f);
            Options o = options(true, false);
            same(file, oneMachine(file, o), new SparkSliced(sc, 40, 3, null).verify(file, o));
        }
    }

    /** Every file, with and without --all, slices of a few blocks and of a whole layer. */
    @Test
    @Tag("slow")
    void sparkSlicesGiveTheOneMachineEnginesReportOnEveryFileInEverySlicing() throws Exception {
        for (String f : FILES) {
            Path file = ROOT.resolve(f);
            for (boolean all : new boolean[] {false, true}) {
                Options o = options(!all, all);
                Result one = oneMachine(file, o);
                // slices of one block or a few, terminal keys in 1 and 3 partitions
                same(file, one, new SparkSliced(sc, 40, 3, null).verify(file, o));
                if (!all) same(file, one, new SparkSliced(sc, 1 << 20, 1, null).verify(file, o));
            }
        }
        Result c4 = new SparkSliced(sc, 40, 3, null).verify(CONNECT4, options(false, false));
        assertEquals(Result.Verdict.VERIFIED, c4.verdict, c4.errorMessage);
        assertTrue(c4.census.size() > 2);
    }

    @Test
    void modesOneToThreeAreSlicedAndModeFourIsOneTask() {
        SparkVerifier.Settings s = new SparkVerifier.Settings();
        s.sliceEntries = 40;
        assertTrue(SparkVerifier.sliceable(CONNECT4));
        Path loa = ROOT.resolve("format-spec/vectors/edge-valid-weak-ranked-loa-4x4.gsc");
        assertTrue(!SparkVerifier.sliceable(loa));
        assertEquals(Result.Verdict.VERIFIED, SparkVerifier.sliced(sc, loa, s).verdict);
        assertEquals(Result.Verdict.VERIFIED, SparkVerifier.sliced(sc, CONNECT4, s).verdict);
    }

    // ------------------------------------------------------------ a faulty engine

    /** Terminal keys of every layer changed by fault (an RDD function: serializable). */
    static final class KeyFault implements SparkSliced.Faults {
        final Function<JavaPairRDD<Integer, Terminals>, JavaPairRDD<Integer, Terminals>> fault;

        KeyFault(Function<JavaPairRDD<Integer, Terminals>, JavaPairRDD<Integer, Terminals>> fault) {
            this.fault = fault;
        }

        @Override
        public JavaPairRDD<Integer, Terminals> terminalKeys(int li,
                JavaPairRDD<Integer, Terminals> honest) {
            try {
                return fault.call(honest);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    static Result faulty(SparkSliced.Faults f) {
        return new SparkSliced(sc, 40, 3, null, f).verify(CONNECT4, options(false, false));
    }

    static void notVerified(String what, Result r) {
        assertNotEquals(Result.Verdict.VERIFIED, r.verdict, what);
        assertTrue(r.verdict == Result.Verdict.ERROR && r.errorMessage.contains("engine fault")
                || r.verdict == Result.Verdict.REJECTED, what + ": " + r.verdict + " " + r.errorMessage);
    }

    /** What a faulty engine sends instead of key {occ, mover, route} routed to partition p. */
    interface KeyEdit extends Serializable {
        List<Tuple2<Integer, long[]>> edit(int p, long[] key);
    }

    /**
     * The keys with the first one of each layer (the first key of the first block in the RDD's
     * order; no block is empty) replaced by what edit makes of it, each in a block of its own.
     */
    static JavaPairRDD<Integer, Terminals> firstKey(JavaPairRDD<Integer, Terminals> keys,
            KeyEdit edit) {
        return JavaPairRDD.fromJavaRDD(keys.zipWithIndex().flatMap(t -> {
            Tuple2<Integer, Terminals> b = t._1();
            if (t._2() != 0) return List.of(b).iterator();
            Terminals k = b._2();
            int m = k.size();
            assertTrue(m > 0, "an empty block of terminal keys");
            List<Tuple2<Integer, Terminals>> out = new ArrayList<>();
            if (m > 1)
                out.add(new Tuple2<>(b._1(), new Terminals(Arrays.copyOfRange(k.occ, 1, m),
                        Arrays.copyOfRange(k.mover, 1, m), Arrays.copyOfRange(k.route, 1, m))));
            long[] first = {k.occ[0], k.mover[0], k.route[0]};
            for (Tuple2<Integer, long[]> e : edit.edit(b._1(), first))
                out.add(new Tuple2<>(e._1(), new Terminals(new long[] {e._2()[0]},
                        new long[] {e._2()[1]}, new long[] {e._2()[2]})));
            return out.iterator();
        }));
    }

    @Test
    void terminalKeyDroppedRepeatedOrMovedBetweenPartitionsIsNeverVerified() {
        Result honest = faulty(new KeyFault(k -> k));
        assertEquals(Result.Verdict.VERIFIED, honest.verdict, honest.errorMessage);
        // the edit that changes nothing: the same verdict (the faults below are the edits')
        Result same = faulty(new KeyFault(k -> firstKey(k, (p, v) -> List.of(new Tuple2<>(p, v)))));
        assertEquals(Result.Verdict.VERIFIED, same.verdict, same.errorMessage);
        notVerified("a key dropped", faulty(new KeyFault(k -> firstKey(k, (p, v) -> List.of()))));
        notVerified("every key dropped", faulty(new KeyFault(k -> k.filter(t -> false))));
        notVerified("a key repeated", faulty(new KeyFault(k -> firstKey(k,
                (p, v) -> List.of(new Tuple2<>(p, v), new Tuple2<>(p, v))))));
        // moved: to the next partition as it is (its route names the old one), or with its
        // route rewritten for the new one
        notVerified("a key moved", faulty(new KeyFault(k -> firstKey(k,
                (p, v) -> List.of(new Tuple2<>(p + 1, v))))));
        notVerified("a key moved and rerouted", faulty(new KeyFault(k -> firstKey(k, (p, v) -> {
            long[] w = v.clone();
            int q = (TerminalCount.partitionOf(w[2]) + 1) % 3;
            w[2] = (long) q << 1 | (w[2] & 1);
            return List.of(new Tuple2<>(q, w));
        }))));
        notVerified("a key's set changed", faulty(new KeyFault(k -> firstKey(k, (p, v) -> {
            long[] w = v.clone();
            w[2] ^= 1;
            return List.of(new Tuple2<>(p, w));
        }))));
        notVerified("a key altered", faulty(new KeyFault(k -> firstKey(k, (p, v) -> {
            long[] w = v.clone();
            w[1] ^= w[0] & -w[0];
            return List.of(new Tuple2<>(p, w));
        }))));
    }

    @Test
    void partitionCountDroppedOrRepeatedIsNeverVerified() {
        notVerified("a partition's count dropped", faulty(new SparkSliced.Faults() {
            @Override
            public List<TerminalCount.Report> counts(int li, List<TerminalCount.Report> honest) {
                return honest.subList(1, honest.size());
            }
        }));
        notVerified("a partition's count given twice", faulty(new SparkSliced.Faults() {
            @Override
            public List<TerminalCount.Report> counts(int li, List<TerminalCount.Report> honest) {
                List<TerminalCount.Report> out = new ArrayList<>(honest);
                out.set(1, out.get(0));
                return out;
            }
        }));
    }

    @Test
    void marksDroppedOrRepeatedAreNeverVerified() {
        notVerified("a slice's counts dropped", faulty(new SparkSliced.Faults() {
            @Override
            public JavaPairRDD<Integer, SparkSliced.Counts> marks(int li,
                    JavaPairRDD<Integer, SparkSliced.Counts> honest) {
                return honest.filter(t -> t._1() != 0);
            }
        }));
        notVerified("a slice's counts doubled", faulty(new SparkSliced.Faults() {
            @Override
            public JavaPairRDD<Integer, SparkSliced.Counts> marks(int li,
                    JavaPairRDD<Integer, SparkSliced.Counts> honest) {
                return honest.mapValues(c -> SparkSliced.Counts.dense(c.size).add(c).add(c));
            }
        }));
    }
}

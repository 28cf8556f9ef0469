package org.gamecert.spark.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.gamecert.spark.SparkTestContext;
import org.gamecert.verifier.engine.CompositeVerifier;
import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.peer.PeerOptions;
import org.gamecert.verifier.peer.PeerResult;
import org.gamecert.verifier.peer.PeerVerifier;
import org.gamecert.verifier.peer.SliceRun;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Spark engine that gets its tasks' results wrong cannot make a composite or peer tables
 * VERIFIED: results handed to the wrong parts or missing; a peer table's slices with a result
 * missing or given back for another slice (PeerSliceFaultTest has every fault class). (The kernel's own EngineFaultTest and PeerFaultyEngineTest cover the
 * feeding inside a task.)
 */
class SparkFaultyEngineTest {
    static final Path ROOT = Paths.get("..").toAbsolutePath().normalize();
    static final Path COMPOSITE = ROOT.resolve("format-spec/vectors/composite-valid-othello4x4.gscm");
    static final Path PEER = ROOT.resolve("testdata/peer/valid/othello6-10empties");
    static JavaSparkContext sc;

    @BeforeAll
    static void start() {
        sc = SparkTestContext.open(2);
    }

    @AfterAll
    static void stop() {
        if (sc != null) sc.stop();
    }

    /** Runs the parts as Spark tasks, then hands result i to part (i + shift) mod n; drop: none for the last. */
    static CompositeVerifier.PartChecker faulty(int shift, boolean drop) {
        return (present, manifest, manifestPath, each, progress) -> {
            List<PartTask> tasks = new ArrayList<>();
            for (CompositeVerifier.PartReport p : present)
                tasks.add(new PartTask(p.index, p.file.toString(), true, 0, 1, false, false, 0));
            List<Result> got = sc.parallelize(tasks, 2).map(PartTask::run).collect();
            int n = present.size();
            for (int i = 0; i < n; i++) present.get((i + shift) % n).result = drop && i == n - 1 ? null : got.get(i);
        };
    }

    @Test
    void compositeWithResultsMisplacedOrMissingIsNotVerified() {
        CompositeVerifier.Outcome good = CompositeVerifier.verify(COMPOSITE, new Options(), null, null, faulty(0, false));
        assertEquals(Result.Verdict.VERIFIED, good.verdict(), () -> String.valueOf(good.error));
        assertTrue(good.parts.size() >= 2);
        CompositeVerifier.Outcome swapped = CompositeVerifier.verify(COMPOSITE, new Options(), null, null, faulty(1, false));
        assertNotEquals(Result.Verdict.VERIFIED, swapped.verdict());
        CompositeVerifier.Outcome missing = CompositeVerifier.verify(COMPOSITE, new Options(), null, null, faulty(0, true));
        assertEquals(Result.Verdict.INCOMPLETE, missing.verdict());
    }

    static PeerOptions peer(PeerVerifier.SliceRunner runner) {
        PeerOptions o = new PeerOptions();
        o.input = PEER;
        o.threads = 1;
        o.sliceRecords = 300; // several slices per table
        o.runner = runner;
        return o;
    }

    /** The slices as Spark tasks, then passed through fault before the driver's kernel takes them. */
    static PeerVerifier.SliceRunner spark(java.util.function.UnaryOperator<List<SliceRun>> fault) {
        return (opt, input, slices) -> {
            String at = input.toString();
            List<SliceRun> got = sc.parallelize(slices, 4).map(s -> {
                PeerOptions task = new PeerOptions();
                task.threads = 1;
                return PeerVerifier.checkSlice(task, Path.of(at), s);
            }).collect();
            return fault.apply(new ArrayList<>(got));
        };
    }

    @Test
    void peerSlicesDroppedRepeatedOrMisplacedAreNotVerified() {
        PeerResult good = PeerVerifier.verify(peer(spark(l -> l)));
        assertEquals(PeerResult.Verdict.VERIFIED, good.verdict(), () -> good.error + " " + good.violation);
        assertTrue(good.tables.stream().anyMatch(t -> t.slices >= 3), "several slices per table");
        // a slice's result missing
        PeerResult lost = PeerVerifier.verify(peer(spark(l -> {
            l.remove(l.size() - 1);
            return l;
        })));
        assertEquals(PeerResult.Verdict.ERROR, lost.verdict(), lost.error);
        assertTrue(lost.error.contains("PEER-SLICE-1") && lost.error.contains("never given back"), lost.error);
        // every result given back for the slice after it (within its table), the last one twice
        PeerResult shifted = PeerVerifier.verify(peer(spark(l -> {
            List<SliceRun> out = new ArrayList<>();
            for (SliceRun r : l) {
                SliceRun moved = new SliceRun(r.slice);
                moved.result = r.result;
                for (SliceRun o : l)
                    if (o.slice.table() == r.slice.table() && o.slice.serial() == r.slice.serial() - 1) moved.result = o.result;
                out.add(moved);
            }
            return out;
        })));
        assertEquals(PeerResult.Verdict.ERROR, shifted.verdict(), shifted.error);
        assertTrue(shifted.error.contains("PEER-SLICE-1") && shifted.error.contains("given back as the result of"), shifted.error);
        // results in another order: taken by the slice they are for, so the same verdict
        PeerResult reversed = PeerVerifier.verify(peer(spark(l -> {
            java.util.Collections.reverse(l);
            return l;
        })));
        assertEquals(PeerResult.Verdict.VERIFIED, reversed.verdict(), reversed.error);
    }
}

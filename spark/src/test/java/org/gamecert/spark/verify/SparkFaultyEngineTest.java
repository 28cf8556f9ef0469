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
import org.gamecert.verifier.peer.TableResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Spark engine that gets its tasks' results wrong cannot make a composite or peer tables
 * VERIFIED: results handed to the wrong parts, missing, or a table's tally that is not the table
 * its neighbour loaded. (The kernel's own FaultyEngineTest and PeerFaultyEngineTest cover the
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

    static PeerOptions peer(PeerVerifier.TableRunner runner) {
        PeerOptions o = new PeerOptions();
        o.input = PEER;
        o.threads = 1;
        o.runner = runner;
        return o;
    }

    @Test
    void peerTablesWithTalliesNotTheirsAreNotVerified() {
        PeerVerifier.TableRunner honest = (opt, tables, childGiven) -> {
            List<TableResult> out = new ArrayList<>();
            for (int i = 0; i < tables.length; i++) out.add(PeerVerifier.checkTable(opt, tables[i], childGiven[i]));
            return out;
        };
        assertEquals(PeerResult.Verdict.VERIFIED, PeerVerifier.verify(peer(honest)).verdict());
        // a table's count not the one its parent table's check loaded
        PeerResult altered = PeerVerifier.verify(peer((opt, tables, childGiven) -> {
            List<TableResult> out = honest.check(opt, tables, childGiven);
            out.get(out.size() - 1).records++;
            return out;
        }));
        assertEquals(PeerResult.Verdict.ERROR, altered.verdict(), altered.error);
        // a table left out
        PeerResult lost = PeerVerifier.verify(peer((opt, tables, childGiven) -> {
            List<TableResult> out = honest.check(opt, tables, childGiven);
            out.set(1, null);
            return out;
        }));
        assertEquals(PeerResult.Verdict.ERROR, lost.verdict(), lost.error);
        // results in another order
        PeerResult shuffled = PeerVerifier.verify(peer((opt, tables, childGiven) -> {
            List<TableResult> out = honest.check(opt, tables, childGiven);
            java.util.Collections.reverse(out);
            return out;
        }));
        assertEquals(PeerResult.Verdict.ERROR, shuffled.verdict(), shuffled.error);
    }
}

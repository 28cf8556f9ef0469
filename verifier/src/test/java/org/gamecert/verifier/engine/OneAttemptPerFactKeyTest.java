package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import org.gamecert.verifier.kernel.EngineFault;
import org.gamecert.verifier.kernel.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC §11.1: against an adversarial engine in one JVM, "a mismatch is an engine fault that ends
 * the check, so it has one attempt per check, each with a fresh K". The key K belongs to the
 * FileMap, not to a check: after a Combiner faulted on a fact-sum mismatch, the engine makes a
 * new Combiner and new slices on the same map (same K) and goes on to a verdict. Each attempt
 * tells it whether its guess at the sums held, under the same K, as often as it likes.
 */
class OneAttemptPerFactKeyTest {
    @TempDir
    Path dir;

    @Test
    void aFactSumMismatchEndsEveryCheckUnderThatKey() throws Exception {
        Path f = dir.resolve("valid.gsc");
        Files.write(f, AttackCerts.othello(1).write());
        KernelDriver d = new KernelDriver(f) {
            boolean lie = true;

            @Override
            void counts(int li, int first, int[] facts, int[][] bits) {
                if (lie && li + 1 < map.layers() && facts.length > 0) facts[0]++; // a guess
            }

            @Override
            Result run() throws java.io.IOException {
                assertThrows(EngineFault.class, this::runOrThrow, "first attempt: a mismatch");
                lie = false;
                return super.run(); // same map, same key: a second attempt
            }
        };
        Result r = d.run();
        assertNotEquals(Result.Verdict.VERIFIED, r.verdict, "after a fact-sum mismatch under"
                + " this map's key, a second check under the same key ended " + KernelDriver.show(r));
    }
}

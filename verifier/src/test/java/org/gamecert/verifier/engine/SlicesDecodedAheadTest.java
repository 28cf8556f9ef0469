package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.gamecert.verifier.kernel.Combiner;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.SliceCheck;
import org.gamecert.verifier.kernel.SliceReport;
import org.gamecert.verifier.kernel.TerminalCount;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A layer's slices all made (each with the key before it) and given their blocks before any is
 * checked: such an engine concludes as the honest engine; one that gives a slice another key
 * before it gets an engine fault or a rejection, never VERIFIED.
 */
class SlicesDecodedAheadTest {
    @TempDir
    Path dir;

    Path valid() throws IOException {
        return AttackCerts.validOthello(dir);
    }

    Path bad() throws IOException {
        return AttackCerts.rejectedOthello(dir);
    }

    /**
     * An engine that makes a layer's slices with their keys before them (from its own decoding
     * of the layer, or altered) and gives them every block, then each its counts, and answers
     * from the layer below.
     */
    static class DecodesAhead extends KernelDriver {
        /** Slice q (of the layer) gets the key of the entry before it shifted by one. */
        int shiftKeyOf = -1;

        DecodesAhead(Path p) throws IOException {
            super(p);
            sliceEntries = 7;
        }

        @Override
        Result runOrThrow() throws IOException {
            Combiner combiner = combiner();
            Map<Integer, int[]> factsTo = new HashMap<>();
            Map<Integer, int[][]> bitsTo = new HashMap<>();
            for (int li : layerOrder()) {
                Slice[] slices = plan(li);
                int below = map.below(li);
                Table under = table(below);
                Table own = table(li);
                SliceCheck[] checks = new SliceCheck[slices.length];
                for (int q = 0; q < slices.length; q++) {
                    Slice s = slices[q];
                    boolean has = s.base() > 0;
                    long[] prev = has ? own.keys.get((int) s.base() - 1).clone() : new long[2];
                    if (q == shiftKeyOf) prev[1] ^= 1;
                    checks[q] = combiner.slice(li, s.first(), s.end(),
                            new SliceCheck.Setup(has, prev[0], prev[1], 0));
                    for (int b = s.first(); b < s.end(); b++) checks[q].decode(b, honestFrame(b));
                }
                int[] facts = factsTo.getOrDefault(li, new int[(int) map.size(li)]);
                int[][] bits = bitsTo.getOrDefault(li, new int[4][(int) map.size(li)]);
                List<SliceReport> reports = new ArrayList<>();
                for (int q = 0; q < slices.length; q++) {
                    Slice s = slices[q];
                    SliceCheck check = checks[q];
                    int[] f = KernelDriver.factsOf(facts, s);
                    int[][] bs = KernelDriver.bitsOf(bits, s);
                    check.takeCounts(SliceEngine.interleaved(f, bs), 0);
                    long[][] req = SliceEngine.requests(check);
                    Answers a = under.answer(req);
                    reports.add(SliceEngine.check(check, a.index, a.kind, a.lo, a.hi));
                    if (below >= 0) KernelDriver.sendMarks(check, map, below, factsTo, bitsTo);
                }
                combiner.layer(li, reports.toArray(new SliceReport[0]), new TerminalCount.Report[0]);
            }
            return combiner.conclude();
        }
    }

    @Test
    void slicesDecodedBeforeAnyIsCheckedConcludeAsTheHonestEngine() throws Exception {
        for (Path p : new Path[] {valid(), bad()}) {
            Result honest = AttackCerts.verdict(p);
            Result r = new DecodesAhead(p).run();
            assertEquals(honest.verdict, r.verdict, AttackCerts.show(r));
            assertEquals(AttackCerts.rule(honest), AttackCerts.rule(r));
            assertEquals(honest.commitment, r.commitment);
        }
    }

    @Test
    void anotherKeyBeforeASliceIsAnEngineFaultOrARejection() throws Exception {
        for (Path p : new Path[] {valid(), bad()})
            for (int q = 1; q < 4; q++) {
                DecodesAhead d = new DecodesAhead(p);
                d.shiftKeyOf = q;
                Result r = d.run();
                assertTrue(r.verdict != Result.Verdict.VERIFIED, AttackCerts.show(r));
            }
    }
}

package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.gamecert.verifier.kernel.Combiner;
import org.gamecert.verifier.kernel.EngineFault;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.SliceCheck;
import org.gamecert.verifier.kernel.SliceReport;
import org.gamecert.verifier.kernel.TerminalCount;
import org.gamecert.verifier.kernel.format.Payload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The slices made without the key before them (SliceCheck(map, li, first, end, all, max)), given
 * it later by previous(), and the entries a slice hands the engine (decodedEntries): an engine
 * that decodes a layer first, then gives each slice its key and counts, concludes as the honest
 * engine; one that gives no key, a key after the requests, another key, or that writes into the
 * entries it was handed, gets an engine fault or the same conclusion, never VERIFIED for a file
 * that is rejected.
 */
class KeyBeforeSliceGivenLaterTest {
    @TempDir
    Path dir;

    Path valid() throws IOException {
        return AttackCerts.write(dir, "valid.gsc", AttackCerts.othello(7));
    }

    Path bad() throws IOException {
        return AttackCerts.write(dir, "bad.gsc", AttackCerts.wrongValue(AttackCerts.othello(7), 8));
    }

    /**
     * An engine that makes a layer's slices without their previous keys, decodes every block, keeps
     * the decoded entries (writing into them when told), then gives the keys (from its own copy,
     * or altered), the counts after the blocks, and answers from the layer below's entries.
     */
    static class LateKeys extends KernelDriver {
        boolean scribble, noKey, keyAfterRequests;
        /** Slice q (of the layer) gets the key of the entry before it shifted by one. */
        int shiftKeyOf = -1;

        LateKeys(Path p) throws IOException {
            super(p);
            sliceEntries = 7;
        }

        @Override
        Result runOrThrow() throws IOException {
            Combiner combiner = combiner();
            Map<Integer, int[]> factsTo = new HashMap<>();
            Map<Integer, int[][]> bitsTo = new HashMap<>();
            Map<Integer, Table> decoded = new HashMap<>();
            for (int li : layerOrder()) {
                Slice[] slices = plan(li);
                int below = map.below(li);
                Table under = below < 0 ? new Table() : decoded.get(below);
                if (under == null) under = table(below);
                SliceCheck[] checks = new SliceCheck[slices.length];
                Table own = new Table();
                own.kind = new byte[(int) map.size(li)];
                own.lo = new byte[own.kind.length];
                own.hi = new byte[own.kind.length];
                for (int q = 0; q < slices.length; q++) {
                    Slice s = slices[q];
                    checks[q] = new SliceCheck(map, li, s.first(), s.end(), all, maxPerRule);
                    for (int b = s.first(); b < s.end(); b++) checks[q].decode(b, honestFrame(b));
                    Payload p = checks[q].decodedEntries();
                    for (int i = 0; i < p.count; i++) {
                        own.keys.add(new long[] {p.occ[i], p.mover[i]});
                        own.at.put(List.of(p.occ[i], p.mover[i]), own.n);
                        own.kind[own.n] = p.kind[i];
                        own.lo[own.n] = p.lo[i];
                        own.hi[own.n++] = p.hi[i];
                    }
                    if (scribble) { // the engine's copy, written into: nothing the kernel reads
                        java.util.Arrays.fill(p.occ, 0);
                        java.util.Arrays.fill(p.kind, (byte) 0);
                        java.util.Arrays.fill(p.lo, (byte) 64);
                    }
                }
                decoded.put(li, own);
                int[] facts = factsTo.getOrDefault(li, new int[(int) map.size(li)]);
                int[][] bits = bitsTo.getOrDefault(li, new int[4][(int) map.size(li)]);
                List<SliceReport> reports = new ArrayList<>();
                for (int q = 0; q < slices.length; q++) {
                    Slice s = slices[q];
                    SliceCheck check = checks[q];
                    boolean has = s.base() > 0;
                    long[] prev = has ? own.keys.get((int) s.base() - 1).clone() : new long[2];
                    if (q == shiftKeyOf) prev[1] ^= 1;
                    if (!noKey && !keyAfterRequests) check.previous(has, prev[0], prev[1]);
                    int[] f = KernelDriver.factsOf(facts, s);
                    int[][] bs = KernelDriver.bitsOf(bits, s);
                    check.takeCounts(f, bs);
                    long[][] req = check.requests();
                    if (keyAfterRequests) check.previous(has, prev[0], prev[1]);
                    Answers a = under.answer(req);
                    reports.add(check.check(a.index, a.kind, a.lo, a.hi));
                    if (below >= 0) KernelDriver.sendMarks(check, map, below, factsTo, bitsTo);
                }
                combiner.layer(li, reports.toArray(new SliceReport[0]), new TerminalCount.Report[0]);
            }
            return combiner.conclude();
        }
    }

    @Test
    void slicesGivenTheirKeysAfterTheirBlocksConcludeAsTheHonestEngine() throws Exception {
        for (Path p : new Path[] {valid(), bad()}) {
            Result honest = AttackCerts.verdict(p);
            for (boolean scribble : new boolean[] {false, true}) {
                LateKeys d = new LateKeys(p);
                d.scribble = scribble;
                Result r = d.run();
                assertEquals(honest.verdict, r.verdict, AttackCerts.show(r));
                assertEquals(AttackCerts.rule(honest), AttackCerts.rule(r));
                assertEquals(honest.commitment, r.commitment);
            }
        }
    }

    @Test
    void aSliceNeverGivenTheKeyBeforeItIsAnEngineFault() throws Exception {
        LateKeys d = new LateKeys(valid());
        d.noKey = true;
        SliceProtocolTest.fault(d.run(), "no key before the slice");
    }

    @Test
    void theKeyBeforeASliceWithheldUntilAfterItsRequestsIsAnEngineFault() throws Exception {
        LateKeys d = new LateKeys(valid());
        d.keyAfterRequests = true;
        SliceProtocolTest.fault(d.run(), "the key before the slice after its requests");
    }

    @Test
    void anotherKeyBeforeASliceGivenLaterIsAnEngineFaultOrARejection() throws Exception {
        for (Path p : new Path[] {valid(), bad()})
            for (int q = 1; q < 4; q++) {
                LateKeys d = new LateKeys(p);
                d.shiftKeyOf = q;
                Result r = d.run();
                assertTrue(r.verdict != Result.Verdict.VERIFIED, AttackCerts.show(r));
            }
    }

    @Test
    void theEntriesOfASliceAskedBeforeItsBlocksAreAnEngineFault() throws Exception {
        KernelDriver d = new KernelDriver(valid());
        int li = d.map.layers() - 2;
        int first = d.map.firstBlock(li);
        SliceCheck c = new SliceCheck(d.map, li, first, d.map.endBlock(li), false, 1);
        assertThrows(EngineFault.class, c::decodedEntries);
        assertThrows(EngineFault.class, () -> c.decode(first, d.honestFrame(first)));
        if (d.map.endBlock(li) - first > 1) {
            SliceCheck c2 = new SliceCheck(d.map, li, first, d.map.endBlock(li), false, 1);
            c2.decode(first, d.honestFrame(first));
            assertThrows(EngineFault.class, c2::decodedEntries); // one block of two
        }
        d.ct.close();
    }
}

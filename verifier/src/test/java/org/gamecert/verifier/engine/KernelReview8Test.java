package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.gamecert.verifier.kernel.ChildLookup;
import org.gamecert.verifier.kernel.EntryChecker;
import org.gamecert.verifier.kernel.Kernel;
import org.gamecert.verifier.kernel.KeyRange;
import org.gamecert.verifier.kernel.LayerCheck;
import org.gamecert.verifier.kernel.LayerPass;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.format.BlockRecord;
import org.gamecert.verifier.kernel.format.Container;
import org.gamecert.verifier.kernel.format.Payload;
import org.gamecert.verifier.kernel.rules.Game;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review 8 of the kernel (a reader who had not seen the code, 2026-11-28): what an engine can
 * reach through objects the kernel shares with it or calls back. Each test stages one of the
 * holes the review found through the public API and asserts the correct behaviour, so it failed
 * while the hole was open:
 * <ul>
 * <li>R-CENSUS-1 compared the trailer with rows in the engine's Result (a list it owns);</li>
 * <li>the tie-breaking order was the Header's array, which the engine holds (which moves exist);</li>
 * <li>the union census's allowance, engine code, ran inside LayerPass.block before the block
 * was open, and could hand over the next block from there;</li>
 * <li>pass 1 read the engine's payload, not a copy of its own;</li>
 * <li>the stored chain values were arrays the engine holds (and admitBlockRecord handed out the
 * kernel's own);</li>
 * <li>a throwing checkReadSoFar lost the violation being reported.</li>
 * </ul>
 */
@Tag("slow")
class KernelReview8Test {
    @TempDir
    Path dir;

    Path write(TestCert t, String name) throws Exception {
        Path p = dir.resolve(name);
        Files.write(p, t.write());
        return p;
    }

    /** What a (faulty) engine does besides the honest steps; each hook defaults to nothing. */
    static final class Engine {
        Consumer<Kernel> afterHeader = k -> { };
        BiConsumer<BlockRecord, byte[]> afterAdmit = (rec, before) -> { };
        Consumer<Payload> afterStart = p -> { };
        Runnable checkReadSoFar = () -> { };
        /** Goes on after acceptBlock threw (an engine that ignores its own callback's failure). */
        boolean carryOn;
    }

    /** A single-threaded engine: blocks in order, the layer below held whole, honest answers. */
    static Result run(Path path, Result res, Engine e) throws Exception {
        try (Container ct = new Container(path)) {
            Kernel kernel = new Kernel(res, false, false, 10, e.checkReadSoFar);
            try {
                kernel.header(ct);
                e.afterHeader.accept(kernel);
                EntryChecker c = kernel.newChecker(false);
                BlockRecord rec;
                while ((rec = ct.nextBlockRecord()) != null) {
                    byte[] before = kernel.admitBlockRecord(rec);
                    e.afterAdmit.accept(rec, before);
                    Payload p = kernel.decode(rec, ct.readDataFrame(rec), before, null);
                    kernel.startBlock(rec, p);
                    e.afterStart.accept(p);
                    try {
                        kernel.acceptBlock(rec, p);
                    } catch (Kernel.Stop | Kernel.EngineFault stop) {
                        throw stop;
                    } catch (RuntimeException thrown) {
                        if (!e.carryOn) throw thrown;
                    }
                }
                kernel.endPass1();
                kernel.endStreaming();
                kernel.beginPass2();
                for (int li = kernel.layers() - 1; li >= 0; li--) {
                    int below = kernel.below(li);
                    Map<Long, long[]> table = KernelReview7Test.table(kernel, ct, below);
                    ChildLookup lookup = (occ, mover, a) -> KernelReview7Test.answer(table, occ,
                            mover, a);
                    LayerCheck lc = kernel.beginLayer(li);
                    LayerPass pass = lc.pass(KeyRange.whole(below >= 0 ? kernel.size(below) : 0),
                            lookup);
                    for (int b = kernel.firstBlock(li); b < kernel.endBlock(li); b++) {
                        int m = pass.block(b, kernel.reload(ct, b, null));
                        if (m < 0) break;
                        pass.check(c, 0, m);
                        pass.endBlock(c);
                    }
                    pass.end();
                    lc.finish();
                }
                return KernelReview7Test.end(kernel, ct, res);
            } catch (Kernel.Stop | Kernel.EngineFault stopped) {
                return KernelReview7Test.verdictOf(res, stopped);
            }
        }
    }

    static TestCert valid4x4() {
        TinySolver s = new TinySolver(1, 4, 4, 0, null);
        long[] start = s.othelloStart();
        return s.build(start[0], start[1], 1);
    }

    // ------------------------------------------------------------------ H1: the census

    /**
     * Attack (a false census VERIFIED): the kernel appended its rows to the engine's
     * Result.census and compared the trailer with res.census.get(r), so an engine whose list
     * already held the trailer's (false) rows passed R-CENSUS-1 whatever the kernel counted.
     */
    @Test
    void theCensusIsComparedWithTheKernelsOwnCount() throws Exception {
        TestCert t = valid4x4();
        assertEquals(Result.Verdict.VERIFIED, run(write(t, "valid.gsc"), new Result(),
                new Engine()).verdict, "the engine, honest, on a valid certificate");
        long[] row = t.census.get(2);
        row[1] += 1; // one region position more than there are
        Path p = write(t, "false-census.gsc");
        Result ref = Verifier.verify(p, new Options());
        assertEquals(Result.Verdict.REJECTED, ref.verdict);
        assertEquals("R-CENSUS-1", ref.violations.get(0).rule());
        Result res = new Result();
        for (long[] r : t.census) res.census.add(new long[] {r[0], r[1], r[2], 0});
        Result attack = run(p, res, new Engine());
        assertNotEquals(Result.Verdict.VERIFIED, attack.verdict, "a false census VERIFIED: the"
                + " trailer was compared with rows the engine put in its Result beforehand");
        assertEquals("R-CENSUS-1", attack.violations.get(0).rule());
    }

    // ------------------------------------------------------------------ H2: tie-breaking order

    /**
     * Kernel.tb was Header.tb, an array the engine gets from header(): writing into it changed
     * which move codes the kernel generated for every entry (so a move could be hidden from R-P-1,
     * R-ALL-1 and R-SERVE-1). Now the kernel keeps its own copy: an engine that overwrites the
     * header's array changes nothing, a valid certificate still verifies.
     */
    @Test
    void theHeadersTieBreakingOrderWrittenByTheEngineChangesNothing() throws Exception {
        Path p = write(valid4x4(), "valid.gsc");
        Engine e = new Engine();
        e.afterHeader = k -> java.util.Arrays.fill(k.header().tb, 0);
        Result r = run(p, new Result(), e);
        assertEquals(Result.Verdict.VERIFIED, r.verdict, r.errorMessage + " " + r.violations);
    }

    // ------------------------------------------------------------------ H3: the allowance

    /**
     * Attack (a false root value VERIFIED): with the union census's keys kept, LayerPass.block
     * asked the engine's allowance for room at the block's first region key, after it had copied
     * and numbered the block but before it opened it; from there the engine handed over the next
     * block. The outer call then opened "block b" with block b + 1's entries: the root's entry,
     * in block b, was never checked. The certificate is review 7's false root (4x4 Othello, the
     * root's value + 2), here with an unreached entry X after the root in the root's layer (one
     * entry a block). Now the allowance runs as a check does: no block may be handed over or
     * ended meanwhile.
     */
    @Test
    void theAllowanceCannotHandOverABlockFromInsideAnother() throws Exception {
        TinySolver s = new TinySolver(1, 4, 4, 0, null);
        Game g = s.game;
        long[] start = s.othelloStart();
        long rm = start[0], ro = start[1], rOcc = rm | ro;
        TestCert t = s.build(rm, ro, 1);
        int value = t.rootValue, star = s.canonicalMove(rm, ro);
        long[] x = null;
        for (long[] pos : KernelReview6Test.positions(g, 4, rOcc, rOcc, Integer.MAX_VALUE))
            if (x == null && Long.compareUnsigned(pos[0], rm) > 0) x = pos;
        assertNotEquals(null, x, "a 4-disc position X after the root in key order");
        t.entries.clear();
        int falseValue = value + 2;
        t.rootValue = falseValue;
        t.entries.add(new TestCert.Entry(rOcc, rm, TestCert.P, falseValue, falseValue, star));
        t.entries.add(KernelReview6Test.trivial(g, x[0], x[1], g.uMin));
        t.chunk = 1;
        t.census.clear();
        for (int d = 4; d <= 16; d++) t.census.add(new long[] {d, 0, 0});
        Result counted = new Result();
        Result probe = runGrant(write(t, "probe.gsc"), true, counted);
        if (counted.census.isEmpty()) { // the kernel refuses the attack: it cannot be staged
            assertEquals(Result.Verdict.ERROR, probe.verdict, probe.errorMessage);
            assertTrue(probe.errorMessage.contains("while a check was running"),
                    probe.errorMessage);
            return;
        }
        t.census.clear();
        for (long[] row : counted.census) t.census.add(new long[] {row[0], row[1], row[2]});
        Path p = write(t, "false-root.gsc");
        assertEquals(Result.Verdict.REJECTED, Verifier.verify(p, new Options()).verdict,
                "the root's value " + falseValue + " is false (" + value + ")");
        assertEquals(Result.Verdict.REJECTED, runGrant(p, false, new Result()).verdict,
                "this engine, honest");
        Result attack = runGrant(p, true, new Result());
        assertNotEquals(Result.Verdict.VERIFIED, attack.verdict, "a false root value VERIFIED:"
                + " the root's block was replaced by the next one from inside the allowance");
    }

    /**
     * The engine of the allowance attack: region keys kept; when attack is set, the allowance's
     * first grant (the root's entry, the first region key) hands over the block after the one
     * being handed over, and the loop then goes on after it.
     */
    static Result runGrant(Path path, boolean attack, Result res) throws Exception {
        try (Container ct = new Container(path)) {
            Kernel kernel = new Kernel(res, false, false, 10, () -> { });
            try {
                kernel.header(ct);
                LayerPass[] current = {null};
                int[] handing = {-1}, handed = {-1};
                Payload[] next = {null};
                kernel.keepRegionKeys(n -> {
                    if (attack && handed[0] < 0 && next[0] != null) {
                        handed[0] = handing[0] + 1;
                        current[0].block(handed[0], next[0]);
                    }
                    return true;
                });
                EntryChecker c = kernel.newChecker(false);
                KernelReview7Test.readBlocks(kernel, ct);
                kernel.beginPass2();
                for (int li = kernel.layers() - 1; li >= 0; li--) {
                    int below = kernel.below(li);
                    Map<Long, long[]> table = KernelReview7Test.table(kernel, ct, below);
                    ChildLookup lookup = (occ, mover, a) -> KernelReview7Test.answer(table, occ,
                            mover, a);
                    LayerCheck lc = kernel.beginLayer(li);
                    LayerPass pass = lc.pass(KeyRange.whole(below >= 0 ? kernel.size(below) : 0),
                            lookup);
                    current[0] = pass;
                    for (int b = kernel.firstBlock(li); b < kernel.endBlock(li); b++) {
                        if (b == handed[0]) continue;
                        handing[0] = b;
                        next[0] = b + 1 < kernel.endBlock(li) ? kernel.reload(ct, b + 1, null)
                                : null;
                        int m = pass.block(b, kernel.reload(ct, b, null));
                        if (m < 0) break;
                        pass.check(c, 0, m);
                        pass.endBlock(c);
                    }
                    pass.end();
                    lc.finish();
                }
                return KernelReview7Test.end(kernel, ct, res);
            } catch (Kernel.Stop | Kernel.EngineFault stopped) {
                return KernelReview7Test.verdictOf(res, stopped);
            }
        }
    }

    // ------------------------------------------------------------------ H4: pass 1's payload

    /**
     * acceptBlock checked the engine's payload (R-LAY-2, R-LAY-3, the root's entry for R-ROOT-2,
     * the open entries kept) and only digested it again afterwards, so a thread that changed an
     * entry and changed it back while acceptBlock ran (a race) was not seen: R-ROOT-2 compared the
     * header with a value the file does not hold. Now startBlock copies the block and pass 1 reads
     * only that copy: the engine's payload, changed after startBlock, changes nothing (this
     * test's deterministic form of the race; it was an engine fault, "changed while the kernel
     * read it", before).
     */
    @Test
    void passOneReadsTheKernelsOwnCopyOfEachBlock() throws Exception {
        TestCert t = valid4x4();
        t.chunk = 1;
        Path p = write(t, "valid.gsc");
        Engine e = new Engine();
        e.afterStart = q -> {
            for (int i = 0; i < q.count; i++) {
                q.lo[i] = (byte) (q.lo[i] + 2);
                q.hi[i] = (byte) (q.hi[i] + 2);
                q.occ[i] = ~q.occ[i];
            }
        };
        Result r = run(p, new Result(), e);
        assertEquals(Result.Verdict.VERIFIED, r.verdict, r.errorMessage + " " + r.violations);
    }

    /**
     * Found while fixing the above: decode decoded into the columns the engine passed as reuse
     * and then digested them for the seal, so an engine thread writing into them meanwhile got
     * its own entries sealed as the file's (a race; with a forged bound here). Now decode
     * decodes and seals columns of its own and only then copies them into reuse: whatever such a
     * thread writes, startBlock either takes the file's entries or ends in an engine fault. Up to
     * 2,000 runs (a few seconds); the old code was caught within the first few dozen.
     */
    @Test
    void decodeSealsOnlyWhatItDecoded() throws Exception {
        TestCert t = valid4x4();
        t.chunk = 64;
        Path p = write(t, "valid.gsc");
        byte[] honestLo = null;
        int forgedAccepted = 0, faults = 0, runs = 0;
        long until = System.nanoTime() + 8_000_000_000L;
        while (runs < 2000 && System.nanoTime() < until && forgedAccepted == 0) {
            runs++;
            try (Container ct = new Container(p)) {
                Kernel kernel = new Kernel(new Result(), false, false, 10, () -> { });
                kernel.header(ct);
                BlockRecord rec = ct.nextBlockRecord();
                byte[] before = kernel.admitBlockRecord(rec);
                byte[] frame = ct.readDataFrame(rec);
                if (honestLo == null) {
                    Payload h = kernel.decode(rec, frame, before, null);
                    honestLo = java.util.Arrays.copyOf(h.lo, h.count);
                }
                int n = honestLo.length;
                Payload reuse = new Payload(n);
                byte forged = (byte) (honestLo[n - 1] + 2);
                java.util.concurrent.atomic.AtomicBoolean stop =
                        new java.util.concurrent.atomic.AtomicBoolean();
                Thread writer = new Thread(() -> {
                    while (!stop.get()) reuse.lo[n - 1] = forged;
                });
                writer.start();
                Payload q;
                try {
                    q = kernel.decode(rec, frame, before, reuse);
                } finally {
                    stop.set(true);
                    writer.join();
                }
                try {
                    kernel.startBlock(rec, q);
                } catch (Kernel.EngineFault fault) {
                    faults++;
                    continue;
                }
                if (q.lo[n - 1] != honestLo[n - 1]) forgedAccepted++;
            }
        }
        assertEquals(0, forgedAccepted, "a forged bound sealed as the file's (" + runs + " runs, "
                + faults + " engine faults)");
        assertTrue(runs > 0);
    }

    // ------------------------------------------------------------------ H5: chain values

    /**
     * BlockRecord.chain was a public array that decode, startBlock, acceptBlock and the trailer
     * read on use, and admitBlockRecord returned the kernel's own arrays (h_0, the last stored
     * chain value): an engine could write a forged block's chain value into the record, and put
     * the true one back before the trailer. Now a record's chain value cannot be changed, and
     * what admitBlockRecord returns is a copy: writing into either changes nothing.
     */
    @Test
    void chainValuesHandedToTheEngineCannotChangeTheKernels() throws Exception {
        Path p = write(valid4x4(), "valid.gsc");
        Engine e = new Engine();
        byte[][] returned = {null};
        e.afterAdmit = (rec, before) -> {
            byte[] chain = rec.chain();
            chain[0] ^= 1; // a copy: the record keeps its own
            if (returned[0] != null) returned[0][0] ^= 1; // the previous block's answer
            returned[0] = before;
        };
        Result r = run(p, new Result(), e);
        assertEquals(Result.Verdict.VERIFIED, r.verdict, r.errorMessage + " " + r.violations);
    }

    // ------------------------------------------------------------------ H6: checkReadSoFar

    /**
     * Kernel.violation ran the engine's checkReadSoFar before it recorded the violation, so a
     * callback that threw (and an engine that went on) lost it: nothing stopped a verdict.
     * Now the violation is recorded first, and a callback that fails otherwise than by a
     * violation of its own is an engine fault.
     */
    @Test
    void aThrowingCheckOfTheLayersReadSoFarCannotLoseTheViolation() throws Exception {
        TestCert t = valid4x4();
        t.chunk = 1;
        // R-LAY-3 in pass 1: two entries of the deepest layer (the file's first) swapped
        java.util.List<TestCert.Entry> list = new java.util.ArrayList<>(t.entries);
        list.sort(java.util.Comparator.comparingInt((TestCert.Entry en) -> -en.layer())
                .thenComparing((a, b) -> a.occ != b.occ ? Long.compareUnsigned(a.occ, b.occ)
                        : Long.compareUnsigned(a.mover, b.mover)));
        assertEquals(list.get(0).layer(), list.get(1).layer());
        java.util.Collections.swap(list, 0, 1);
        t.entries = list;
        t.sortEntries = false;
        Path p = write(t, "out-of-order.gsc");
        Result ref = Verifier.verify(p, new Options());
        assertEquals(Result.Verdict.REJECTED, ref.verdict);
        assertEquals("R-LAY-3", ref.violations.get(0).rule());
        Engine e = new Engine();
        e.checkReadSoFar = () -> {
            throw new IllegalStateException("the engine's own check of the layers read so far");
        };
        e.carryOn = true;
        Result r = run(p, new Result(), e);
        assertEquals(Result.Verdict.ERROR, r.verdict, r.errorMessage + " " + r.violations);
        assertTrue(r.errorMessage.contains("layers read so far"), "the engine fault names the"
                + " failed callback, not a later step: " + r.errorMessage);
    }
}

package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.gamecert.verifier.kernel.ChildLookup;
import org.gamecert.verifier.kernel.EntryChecker;
import org.gamecert.verifier.kernel.Kernel;
import org.gamecert.verifier.kernel.KeyRange;
import org.gamecert.verifier.kernel.LayerCheck;
import org.gamecert.verifier.kernel.LayerPass;
import org.gamecert.verifier.kernel.format.BlockRecord;
import org.gamecert.verifier.kernel.format.Container;
import org.gamecert.verifier.kernel.format.Payload;
import org.gamecert.verifier.kernel.RankedKernel;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.rules.ConnectFourRules;
import org.gamecert.verifier.kernel.rules.Game;
import org.gamecert.verifier.kernel.rules.LoaRules;
import org.gamecert.verifier.testcert.LoaTestCerts;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review 4 of the kernel (an independent reviewer's attacks): mode 4 (RankedKernel), mode 3
 * leaves, the §9 rules, composites, the games' rules, the census. A test that demonstrates a hole
 * asserts the correct behaviour, so it fails until the hole is fixed.
 */
class KernelReview4Test {
    @TempDir
    Path dir;

    Result verify(byte[] file, Options o) throws Exception {
        Path p = dir.resolve("c" + System.nanoTime() + ".gsc");
        Files.write(p, file);
        return Verifier.verify(p, o);
    }

    // ------------------------------------------------------------------ mode 4: RankedKernel

    /**
     * Attack (hang on a big mode-4 file): RankedKernel.slot takes (h >>> 40) & (slots.length - 1),
     * and h >>> 40 has only 24 bits, so once the table grows past 2^24 slots (more than 2^23
     * entries, within the default --max-memory of 2 GiB, which allows about 44.7 M entries) every
     * key starts its linear probe in the first 2^24 slots. With 2^24 entries those slots are full
     * and every further insert or lookup walks one ever-growing cluster: quadratic time, a hang,
     * on a file of some 17 M entries (an honest 6x6 LOA proof may be that big). The start slots
     * must spread over the whole table. (Checked on the hash itself through reflection: a file of
     * 2^24 entries is too big for a unit test.)
     */
    @Test
    void rankedKernelHashUsesTheWholeTableBeyond2To24Slots() throws Exception {
        Path header = dir.resolve("loa-header.gsc"); // a mode-4 file: what RankedKernel takes
        Files.write(header, mirroredRankedWin().write());
        RankedKernel rk;
        try (Container ct = new Container(header)) {
            rk = new RankedKernel(org.gamecert.verifier.kernel.FileMap.read(ct),
                    Options.DEFAULT_MAX_MEMORY, false, false, 10);
        }
        Field slots = RankedKernel.class.getDeclaredField("slots");
        slots.setAccessible(true);
        slots.set(rk, new int[1 << 25]); // the table's size for 2^23 < n <= 2^24 entries
        Method slot = RankedKernel.class.getDeclaredMethod("slot", long.class, long.class);
        slot.setAccessible(true);
        Random rnd = new Random(4);
        int upperHalf = 0;
        for (int i = 0; i < 4000; i++) {
            long m = rnd.nextLong() & 0xFFFFFFFFFL, o = rnd.nextLong() & 0xFFFFFFFFFL & ~m;
            if ((int) slot.invoke(rk, m | o, m) >= 1 << 24) upperHalf++;
        }
        slots.set(rk, new int[2048]);
        // a hash that spreads would put about half of the keys in the upper half
        assertTrue(upperHalf > 1000, "only " + upperHalf + " of 4000 keys start in the upper half"
                + " of a table of 2^25 slots: the probe starts are confined to 2^24 slots");
    }

    /**
     * A weak-ranked (mode 4) Connect Four 4x4 certificate with the mirror symmetry whose root is
     * given in its non-canonical orientation: X has three in column 4 (0-based 3), O three in
     * column 3; X wins at once in column 4. The one entry is the canonical (mirrored) position,
     * {C} lb = +1, cut move column 1 (code 0) in the stored orientation.
     */
    static TestCert mirroredRankedWin() {
        long mover = 1L << 15 | 1L << 16 | 1L << 17, opp = 1L << 10 | 1L << 11 | 1L << 12;
        TestCert t = LoaTestCerts.header(4, mover, opp, 1);
        t.family = 2;
        t.symmetry = 2;
        t.tb = new int[] {1, 2, 0, 3};
        long cm = 0b111L, co = 0b111L << 5; // the mirror image: the canonical form
        TestCert.Entry e = new TestCert.Entry(cm | co, cm, TestCert.C, 1, 0, 0);
        e.layer = 1;
        t.entries.add(e);
        return t;
    }

    /**
     * Attack (a false statement on a VERIFIED certificate): RankedKernel.run sets Result.rootMove
     * to the root entry's stored move, which is in the canonical orientation, while Result
     * documents "its stored move in the root's orientation" and Kernel.conclude (modes 1-3) maps
     * it back with g^-1 (SPEC §7.4). With a root given in another orientation the report says
     * "root move 1 achieves the value": in the root's own orientation column 1 is empty and far
     * from X's three, and O then wins in column 3. The move achieving the value is column 4.
     */
    @Test
    void rankedRootMoveIsStatedInTheRootsOrientation() throws Exception {
        TestCert t = mirroredRankedWin();
        ConnectFourRules g = new ConnectFourRules(4, 4);
        long[] c = new long[3];
        assertEquals(Game.TERMINAL, g.child(t.rootMover, t.rootOpponent, 3, c));
        assertEquals(1, c[2]); // column 4 wins at the root as given
        Path p = dir.resolve("mirrored-ranked.gsc");
        Files.write(p, t.write());
        Result r = Verifier.verify(p, new Options());
        assertEquals(Result.Verdict.VERIFIED, r.verdict, () -> "" + r.firstViolation());
        assertEquals(3, r.rootMove, "the root's cut move, in the root's orientation (SPEC §7.4)");
        java.io.ByteArrayOutputStream o = new java.io.ByteArrayOutputStream();
        java.io.PrintStream ps = new java.io.PrintStream(o, true,
                java.nio.charset.StandardCharsets.UTF_8);
        org.gamecert.verifier.cli.VerifyMain.run(new String[] {p.toString()}, ps, ps);
        String report = o.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(report.contains("root move   4 "), report);
    }

    // ------------------------------------------------------------------ an engine of our own

    /**
     * A minimal single-threaded engine driving the kernel through its public API, as
     * Verifier.Run does, except that pass 2 checks the layers in the order given (indexes into
     * the kernel's layers, which are deepest first in the file). The layer below is held whole
     * and answered honestly.
     */
    static Result runWithLayerOrder(Path path, java.util.function.IntFunction<int[]> order)
            throws Exception {
        return runEngine(path, order, true, 1, true);
    }

    /**
     * The same engine; census: whether it asks the kernel for the census (R-CENSUS-1), as
     * Verifier.Run does; finishes: how many times it finishes each layer's check.
     */
    static Result runEngine(Path path, java.util.function.IntFunction<int[]> order,
            boolean census, int finishes) throws Exception {
        return runEngine(path, order, census, finishes, true, false, false);
    }

    /** endPass1: whether the engine tells the kernel that pass 1 is over (Kernel.endPass1). */
    static Result runEngine(Path path, java.util.function.IntFunction<int[]> order,
            boolean census, int finishes, boolean endPass1) throws Exception {
        return runEngine(path, order, census, finishes, endPass1, false, false);
    }

    /**
     * worker: the entries are checked by a worker checker (as Verifier does with --threads > 1:
     * it keeps its first violation for the pass); endPass2First: the engine ends pass 2 right
     * after beginning it, before checking the layers.
     */
    static Result runEngine(Path path, java.util.function.IntFunction<int[]> order,
            boolean census, int finishes, boolean endPass1, boolean worker,
            boolean endPass2First) throws Exception {
        return runEngine(path, order, census, finishes, endPass1, worker, endPass2First, -1);
    }

    /** skipAdmit: the index of a block whose record the engine does not admit (-1: none). */
    static Result runEngine(Path path, java.util.function.IntFunction<int[]> order,
            boolean census, int finishes, boolean endPass1, boolean worker,
            boolean endPass2First, long skipAdmit) throws Exception {
        Result res = new Result();
        try (Container ct = new Container(path)) {
            Kernel kernel = new Kernel(res, false, false, 10, () -> { });
            try {
                kernel.header(ct);
                EntryChecker checker = kernel.newChecker(worker);
                BlockRecord rec;
                byte[] lastChain = null;
                while ((rec = ct.nextBlockRecord()) != null) {
                    byte[] before = rec.index == skipAdmit ? lastChain
                            : kernel.admitBlockRecord(rec);
                    Payload p = kernel.decode(rec, ct.readDataFrame(rec), before, null);
                    kernel.startBlock(rec, p);
                    kernel.acceptBlock(rec, p);
                    lastChain = rec.chain();
                }
                if (endPass1) kernel.endPass1();
                kernel.endStreaming();
                kernel.beginPass2();
                if (endPass2First) kernel.endPass2();
                for (int li : order.apply(kernel.layers())) {
                    int below = kernel.below(li);
                    java.util.Map<String, long[]> table = new java.util.HashMap<>();
                    if (below >= 0) {
                        long index = 0;
                        for (int b = kernel.firstBlock(below); b < kernel.endBlock(below); b++) {
                            Payload q = kernel.reload(ct, b, null);
                            for (int i = 0; i < q.count; i++)
                                table.put(q.occ[i] + "/" + q.mover[i], new long[] {q.kind[i] & 0xFF,
                                    q.lo[i], q.hi[i], index++});
                        }
                    }
                    ChildLookup lookup = (occ, mover, a) -> {
                        long[] r = table.get(occ + "/" + mover);
                        if (r == null) return false;
                        a.occ = occ;
                        a.mover = mover;
                        a.kind = (int) r[0];
                        a.lo = (int) r[1];
                        a.hi = (int) r[2];
                        a.index = r[3];
                        return true;
                    };
                    LayerCheck lc = kernel.beginLayer(li);
                    LayerPass pass = lc.pass(KeyRange.whole(below >= 0 ? kernel.size(below) : 0),
                            lookup);
                    for (int b = kernel.firstBlock(li); b < kernel.endBlock(li); b++) {
                        int m = pass.block(b, kernel.reload(ct, b, null));
                        if (m < 0) break;
                        pass.check(checker, 0, m);
                        pass.endBlock(checker);
                    }
                    pass.end();
                    for (int f = 0; f < finishes; f++) lc.finish();
                }
                if (!endPass2First) kernel.endPass2();
                kernel.trailer(ct);
                if (census) kernel.census(ct);
                return kernel.conclude(res);
            } catch (Kernel.Stop | Kernel.EngineFault stopped) {
                return KernelReview7Test.verdictOf(res, stopped);
            }
        }
    }

    /** Pass 2 as the reference engine makes it: shallowest layer first. */
    static int[] shallowestFirst(int layers) {
        int[] o = new int[layers];
        for (int i = 0; i < layers; i++) o[i] = layers - 1 - i;
        return o;
    }

    /** The deepest layer (index 0) first, then the others shallowest first. */
    static int[] deepestThenShallowestFirst(int layers) {
        int[] o = new int[layers];
        o[0] = 0;
        for (int i = 1; i < layers; i++) o[i] = layers - i;
        return o;
    }

    /**
     * Attack (an engine's choice makes a false census verify): Kernel.beginLayer takes the layers
     * in whatever order the engine begins them, and LayerCheck takes kernel.flagsOfNextLayer, the
     * flags the previous layer checked gave its children, checking only their length. An engine
     * that checks the deepest layer first gives it fresh flags (no needs, nothing reached), and
     * then the other layers in the right order: every layer is checked in full, no fault. The
     * deepest layer's region count is then 0. A semi-strong Othello 4x4 certificate whose trailer
     * says region 0 for that layer (false: its entries are in R) is rejected with R-CENSUS-1 by
     * the reference engine and by our engine in the right order, but VERIFIED with the layers
     * out of order. The kernel must refuse pass-2 layers out of order (or flags made for
     * another layer) as an engine fault, or at least never verify.
     */
    @Test
    void layersCheckedOutOfOrderMustNotVerifyAFalseCensus() throws Exception {
        TinySolver s = new TinySolver(1, 4, 4, 1, null);
        long[] start = s.othelloStart();
        TestCert t = s.build(start[0], start[1], 1);
        Path honest = dir.resolve("othello-honest.gsc");
        Files.write(honest, t.write());
        assertEquals(Result.Verdict.VERIFIED, runWithLayerOrder(honest,
                KernelReview4Test::shallowestFirst).verdict);
        // the census this engine order computes: no region in the deepest layer (Othello
        // counts no terminal position), written into the trailer
        int deepest = 0;
        for (TestCert.Entry e : t.entries) deepest = Math.max(deepest, e.layer());
        for (long[] row : t.census)
            if (row[0] == deepest) {
                assertTrue(row[1] > 0, "the deepest layer has positions of R");
                row[1] = 0;
            }
        Path forged = dir.resolve("othello-false-census.gsc");
        Files.write(forged, t.write());
        Result ref = Verifier.verify(forged, new Options());
        assertEquals(Result.Verdict.REJECTED, ref.verdict, "the census is false");
        assertEquals("R-CENSUS-1", ref.firstViolation().rule());
        assertEquals(Result.Verdict.REJECTED, runWithLayerOrder(forged,
                KernelReview4Test::shallowestFirst).verdict);
        Result attack = runWithLayerOrder(forged, KernelReview4Test::deepestThenShallowestFirst);
        assertTrue(attack.verdict != Result.Verdict.VERIFIED, "a false census VERIFIED because"
                + " the engine checked the deepest layer first: " + attack.commitment);
    }

    /** A semi-strong Othello 4x4 certificate of the start whose trailer's census is false. */
    Path falseCensus(String name) throws Exception {
        TinySolver s = new TinySolver(1, 4, 4, 1, null);
        long[] start = s.othelloStart();
        TestCert t = s.build(start[0], start[1], 1);
        t.census.get(3)[1] += 5; // region_d of discs 7: five positions more than R holds
        Path p = dir.resolve(name);
        Files.write(p, t.write());
        Result ref = Verifier.verify(p, new Options());
        assertEquals(Result.Verdict.REJECTED, ref.verdict);
        assertEquals("R-CENSUS-1", ref.firstViolation().rule());
        return p;
    }

    /**
     * Attack (an engine that never asks for the census): Kernel.conclude requires pass 2 to have
     * ended and every layer to be checked in full, but not that census() ran: R-CENSUS-1 (and
     * R-REACH-1 with --strict) are decided only if the engine calls Kernel.census. An engine that
     * skips it makes a certificate with a false census VERIFIED (its commitment names the false
     * rows). conclude must refuse to verify unless the census was checked.
     */
    @Test
    void anEngineThatSkipsTheCensusMustNotVerify() throws Exception {
        Path p = falseCensus("othello-census-skipped.gsc");
        assertEquals(Result.Verdict.REJECTED, runEngine(p, KernelReview4Test::shallowestFirst,
                true, 1).verdict);
        Result attack = runEngine(p, KernelReview4Test::shallowestFirst, false, 1);
        assertTrue(attack.verdict != Result.Verdict.VERIFIED, "a false census VERIFIED because"
                + " the engine did not call Kernel.census: " + attack.commitment);
    }

    /**
     * Attack (an engine that finishes a layer twice): LayerCheck.finish adds the layer's region
     * to the kernel's tally each time it is called, and marks the layer checked again. An engine
     * that finishes every layer twice doubles every region row; a trailer with those doubled rows
     * is rejected (R-CENSUS-1) by the reference engine and VERIFIED by this one. finish must be
     * refused a second time (an engine fault).
     */
    @Test
    void aLayerFinishedTwiceMustNotVerifyADoubledCensus() throws Exception {
        TinySolver s = new TinySolver(1, 4, 4, 1, null);
        long[] start = s.othelloStart();
        TestCert t = s.build(start[0], start[1], 1);
        // every region row doubled (Othello counts no terminal position)
        for (long[] row : t.census) row[1] *= 2;
        Path forged = dir.resolve("othello-doubled-census.gsc");
        Files.write(forged, t.write());
        Result ref = Verifier.verify(forged, new Options());
        assertEquals(Result.Verdict.REJECTED, ref.verdict, "the census is false");
        assertEquals("R-CENSUS-1", ref.firstViolation().rule());
        Result attack = runEngine(forged, KernelReview4Test::shallowestFirst, true, 2);
        assertTrue(attack.verdict != Result.Verdict.VERIFIED, "a doubled census VERIFIED because"
                + " the engine finished each layer twice: " + attack.commitment);
    }

    /**
     * Attack (an engine that never says pass 1 is over): Kernel.endPass1 is what closes the last
     * layer read (endLayer: its end block and its size); beginPass2 does not require it. Without
     * it the last layer, the root's, has size 0 and end block 0, so its check sees no entry and,
     * when it is the file's only layer (first block 0), ends "complete". A weak Connect Four 4x4
     * certificate of one entry, the start as {C} >= +1 ("the first player wins", false: 4x4 is a
     * draw) with a cut move to no entry, fails R-CUT-1 with the reference engine and with this
     * engine when it calls endPass1, and is VERIFIED when it does not. beginPass2 (or conclude)
     * must require pass 1 to have ended.
     */
    @Test
    void anEngineThatNeverEndsPass1MustNotVerifyAnUncheckedRoot() throws Exception {
        TestCert t = LoaTestCerts.header(4, 0, 0, 1);
        t.family = 2;
        t.mode = 2;
        t.symmetry = 0;
        t.tb = new int[] {1, 2, 0, 3};
        t.sortEntries = true;
        t.entries.add(new TestCert.Entry(0, 0, TestCert.C, 1, 1, 1));
        for (int d = 0; d <= 16; d++) t.census.add(new long[] {d, 0, d == 0 ? 1 : 0});
        TinySolver s = new TinySolver(2, 4, 4, 0, null);
        assertEquals(0, s.value(0, 0), "Connect Four 4x4 is a draw");
        Path p = dir.resolve("c4-false-win.gsc");
        Files.write(p, t.write());
        Result ref = Verifier.verify(p, new Options());
        assertEquals(Result.Verdict.REJECTED, ref.verdict);
        assertEquals("R-CUT-1", ref.firstViolation().rule());
        assertEquals(Result.Verdict.REJECTED, runEngine(p, KernelReview4Test::shallowestFirst,
                true, 1, true).verdict);
        Result attack = runEngine(p, KernelReview4Test::shallowestFirst, true, 1, false);
        assertTrue(attack.verdict != Result.Verdict.VERIFIED, "Connect Four 4x4 'won by the first"
                + " player' VERIFIED because the engine never called endPass1: "
                + attack.commitment);
    }

    /**
     * Attack (an engine hands a certificate that is not mode 4 to RankedKernel): RankedKernel's
     * constructor and run do not require the kernel's header to be weak-ranked; Verifier.Run
     * takes that path only when kernel.ranked(), but the choice is the engine's. RankedKernel
     * checks only the kinds C and A, so a semi-strong (mode 1) entry {P} is checked for nothing
     * but its position; its bounds read as [U_min, U_max], so a root claiming U_min meets R-ROOT-2.
     * A mode-1 Connect Four 4x4 certificate of one entry, the start as {P} with value -1 ("the
     * second player wins", false: a draw) and no census rows, is rejected (R-SERVE-1) by the
     * reference engine and VERIFIED through RankedKernel. RankedKernel must refuse a kernel whose
     * header is not mode 4 (an engine fault).
     */
    @Test
    void rankedKernelMustRefuseACertificateThatIsNotWeakRanked() throws Exception {
        TestCert t = LoaTestCerts.header(4, 0, 0, -1);
        t.family = 2;
        t.mode = 1;
        t.symmetry = 0;
        t.tb = new int[] {1, 2, 0, 3};
        t.sortEntries = true;
        t.entries.add(new TestCert.Entry(0, 0, TestCert.P, -1, -1, 1));
        assertEquals(0, new TinySolver(2, 4, 4, 0, null).value(0, 0), "Connect Four 4x4: a draw");
        Path p = dir.resolve("c4-false-loss.gsc");
        Files.write(p, t.write());
        Result ref = Verifier.verify(p, new Options());
        assertEquals(Result.Verdict.REJECTED, ref.verdict);
        assertEquals("R-SERVE-1", ref.firstViolation().rule());
        Result res = new Result();
        Result.Verdict verdict;
        try (Container ct = new Container(p)) {
            verdict = new RankedKernel(org.gamecert.verifier.kernel.FileMap.read(ct),
                    Options.DEFAULT_MAX_MEMORY, false, false, 10).run(ct).verdict;
        } catch (Kernel.Stop | Kernel.EngineFault refused) {
            verdict = null; // rejected or refused: not verified
        }
        assertTrue(verdict != Result.Verdict.VERIFIED, "a semi-strong certificate of a false value"
                + " VERIFIED by RankedKernel, which checked none of its P obligations");
    }

    /**
     * The engine above with the layer below layer `discs` held in two key ranges, the first up
     * to key (splitOcc, splitMover) inclusive; resetCarry: it calls LayerCheck.inRanges again
     * before the second range (the honest engine calls it once per layer).
     */
    static Result runWithRanges(Path path, int discs, long splitOcc, long splitMover,
            boolean resetCarry) throws Exception {
        Result res = new Result();
        try (Container ct = new Container(path)) {
            Kernel kernel = new Kernel(res, false, false, 10, () -> { });
            try {
                kernel.header(ct);
                EntryChecker checker = kernel.newChecker(false);
                BlockRecord rec;
                while ((rec = ct.nextBlockRecord()) != null) {
                    byte[] before = kernel.admitBlockRecord(rec);
                    Payload p = kernel.decode(rec, ct.readDataFrame(rec), before, null);
                    kernel.startBlock(rec, p);
                    kernel.acceptBlock(rec, p);
                }
                kernel.endPass1();
                kernel.endStreaming();
                kernel.beginPass2();
                for (int li : shallowestFirst(kernel.layers())) {
                    int below = kernel.below(li);
                    java.util.List<long[]> rows = new java.util.ArrayList<>();
                    if (below >= 0)
                        for (int b = kernel.firstBlock(below); b < kernel.endBlock(below); b++) {
                            Payload q = kernel.reload(ct, b, null);
                            for (int i = 0; i < q.count; i++)
                                rows.add(new long[] {q.occ[i], q.mover[i], q.kind[i] & 0xFF,
                                    q.lo[i], q.hi[i]});
                        }
                    java.util.List<KeyRange> ranges = new java.util.ArrayList<>();
                    if (below >= 0 && kernel.discs(li) == discs) {
                        int n1 = 0;
                        while (n1 < rows.size() && !KeyRange.after(rows.get(n1)[0],
                                rows.get(n1)[1], splitOcc, splitMover)) n1++;
                        ranges.add(new KeyRange(true, false, 0, 0, splitOcc, splitMover, 0, n1));
                        ranges.add(new KeyRange(false, true, splitOcc, splitMover, 0, 0, n1,
                                rows.size() - n1));
                    } else {
                        ranges.add(KeyRange.whole(rows.size()));
                    }
                    LayerCheck lc = kernel.beginLayer(li);
                    for (int r = 0; r < ranges.size(); r++) {
                        KeyRange range = ranges.get(r);
                        if (ranges.size() > 1 && (r == 0 || resetCarry)) lc.inRanges();
                        ChildLookup lookup = (occ, mover, a) -> {
                            for (int i = 0; i < range.size(); i++) {
                                long[] row = rows.get((int) (range.base() + i));
                                if (row[0] != occ || row[1] != mover) continue;
                                a.occ = occ;
                                a.mover = mover;
                                a.kind = (int) row[2];
                                a.lo = (int) row[3];
                                a.hi = (int) row[4];
                                a.index = i;
                                return true;
                            }
                            return false;
                        };
                        LayerPass pass = lc.pass(range, lookup);
                        for (int b = kernel.firstBlock(li); b < kernel.endBlock(li); b++) {
                            int m = pass.block(b, kernel.reload(ct, b, null));
                            if (m < 0) break;
                            pass.check(checker, 0, m);
                            pass.endBlock(checker);
                        }
                        pass.end();
                    }
                    lc.finish();
                }
                kernel.endPass2();
                kernel.trailer(ct);
                kernel.census(ct);
                return kernel.conclude(res);
            } catch (Kernel.Stop | Kernel.EngineFault stopped) {
                return KernelReview7Test.verdictOf(res, stopped);
            }
        }
    }

    /**
     * Attack (an engine resets the maximum carried over key ranges): when the layer below is
     * held in key ranges, LayerCheck carries each entry's maximum over the moves from range to
     * range (R-P-1, R-PP-1 are decided at the last range); LayerCheck.inRanges creates that carry
     * and may be called again at any time, which resets it. An engine that calls it again before
     * the last range makes R-PP-1 see only the last range's moves. A semi-strong Othello 4x4 part
     * claiming {P'} at a position, its value lowered to the best of the moves whose children lie
     * in the last range (a better move's child lies in the first), is rejected (R-PP-1) by the
     * honest engine in the same ranges and VERIFIED with the carry reset: a false exact value.
     * inRanges must be refused once a pass of the layer has begun (an engine fault).
     */
    @Test
    void resettingTheCarriedMaximumMustNotVerifyAFalseValue() throws Exception {
        TinySolver s = new TinySolver(1, 4, 4, 0, null);
        OthelloRulesView g = new OthelloRulesView(s.game);
        long[] found = null;
        Random rnd = new Random(44);
        long[] c = new long[3];
        for (int trial = 0; trial < 2000 && found == null; trial++) {
            long[] st = s.othelloStart();
            long m = st[0], o = st[1];
            for (int ply = 0; ply < 4 + rnd.nextInt(4); ply++) {
                long legal = s.game.legalMoveCodes(m, o);
                if (legal == 0) break;
                int code = g.pick(legal, rnd);
                if (s.game.child(m, o, code, c) != Game.CHILD) break;
                m = c[0];
                o = c[1];
            }
            if (s.game.legalMoveCodes(m, o) != 0 && !s.game.isTerminal(m, o))
                found = g.rangeLie(s, m, o);
        }
        assertTrue(found != null, "a position with a better move's child below the split");
        long rm = found[0], ro = found[1], splitOcc = found[2], splitMover = found[3];
        int lie = (int) found[4], lieMove = (int) found[5];
        TestCert t = s.buildPart(rm, ro, 1, TestCert.PP, 0);
        TestCert.Entry root = t.find(rm | ro, rm);
        assertTrue(lie < root.lo, "the lie is below the value " + root.lo);
        root.lo = root.hi = lie;
        root.move = lieMove;
        t.rootValue = t.rootUpper = lie;
        Path p = dir.resolve("othello-pp-lowered.gsc");
        Files.write(p, t.write());
        int discs = Long.bitCount(rm | ro);
        Result ref = Verifier.verify(p, new Options());
        assertEquals(Result.Verdict.REJECTED, ref.verdict);
        assertEquals("R-PP-1", ref.firstViolation().rule());
        Result honest = runWithRanges(p, discs, splitOcc, splitMover, false);
        assertEquals(Result.Verdict.REJECTED, honest.verdict);
        assertEquals("R-PP-1", honest.firstViolation().rule());
        Result attack = runWithRanges(p, discs, splitOcc, splitMover, true);
        assertTrue(attack.verdict != Result.Verdict.VERIFIED, "a P' value " + lie + " below the"
                + " true " + s.value(rm, ro) + " VERIFIED because the engine reset the carry: "
                + attack.commitment);
    }

    /** Helpers for the ranges attack, over the kernel's rules and the tiny solver. */
    static final class OthelloRulesView {
        final Game game;

        OthelloRulesView(Game game) {
            this.game = game;
        }

        int pick(long legal, Random rnd) {
            int k = rnd.nextInt(Long.bitCount(legal));
            for (; k > 0; k--) legal &= legal - 1;
            return Long.numberOfTrailingZeros(legal);
        }

        /**
         * {mover, opp, splitOcc, splitMover, lie, lieMove} for a position whose moves all have
         * a child (no pass, no end), split by child key so that the first range holds a move
         * better than every move of the second, none of the first range's moves is worth the
         * second range's best, the lie: the second range's best and its earliest move; or null.
         */
        long[] rangeLie(TinySolver s, long m, long o) {
            long[] c = new long[3];
            java.util.List<long[]> moves = new java.util.ArrayList<>(); // occ, mover, code, w
            for (long l = game.legalMoveCodes(m, o); l != 0; l &= l - 1) {
                int code = Long.numberOfTrailingZeros(l);
                if (game.child(m, o, code, c) != Game.CHILD) return null;
                moves.add(new long[] {c[0] | c[1], c[0], code, s.moveValue(m, o, code)});
            }
            moves.sort((a, b) -> KeyRange.after(a[0], a[1], b[0], b[1]) ? 1
                    : KeyRange.after(b[0], b[1], a[0], a[1]) ? -1 : 0);
            for (int split = 1; split < moves.size(); split++) {
                long best1 = Long.MIN_VALUE, best2 = Long.MIN_VALUE;
                for (int i = 0; i < moves.size(); i++)
                    if (i < split) best1 = Math.max(best1, moves.get(i)[3]);
                    else best2 = Math.max(best2, moves.get(i)[3]);
                boolean tie = false;
                for (int i = 0; i < split; i++) tie |= moves.get(i)[3] == best2;
                if (best1 <= best2 || tie) continue;
                int lieMove = -1; // the earliest move in TB (code order) worth best2
                for (int i = split; i < moves.size(); i++)
                    if (moves.get(i)[3] == best2 && (lieMove < 0 || moves.get(i)[2] < lieMove))
                        lieMove = (int) moves.get(i)[2];
                long[] last1 = moves.get(split - 1);
                return new long[] {m, o, last1[0], last1[1], best2, lieMove};
            }
            return null;
        }
    }

    /** The one-entry weak Connect Four 4x4 certificate "the first player wins" (false). */
    Path falseC4Win(String name) throws Exception {
        TestCert t = LoaTestCerts.header(4, 0, 0, 1);
        t.family = 2;
        t.mode = 2;
        t.symmetry = 0;
        t.tb = new int[] {1, 2, 0, 3};
        t.sortEntries = true;
        t.entries.add(new TestCert.Entry(0, 0, TestCert.C, 1, 1, 1));
        for (int d = 0; d <= 16; d++) t.census.add(new long[] {d, 0, d == 0 ? 1 : 0});
        Path p = dir.resolve(name);
        Files.write(p, t.write());
        Result ref = Verifier.verify(p, new Options());
        assertEquals(Result.Verdict.REJECTED, ref.verdict);
        assertEquals("R-CUT-1", ref.firstViolation().rule());
        return p;
    }

    /**
     * Attack (an engine ends pass 2 before checking the layers): Kernel.endPass2 reports the
     * violation pass 2 has found so far (kernel.found) and sets pass2Ended; beginLayer does not
     * refuse a layer after it, and LayerCheck.finish only stores a worker's violation in
     * kernel.found, which nothing reports any more. conclude sees pass 2 ended, every layer
     * checked in full and no violation recorded: VERIFIED. The one-entry Connect Four 4x4
     * certificate "the first player wins" (R-CUT-1) is rejected by this engine in the right
     * order and VERIFIED when it calls endPass2 first. beginLayer must refuse a layer once pass 2
     * ended, and conclude must see kernel.found.
     */
    @Test
    void endingPass2BeforeTheLayersMustNotHideAViolation() throws Exception {
        Path p = falseC4Win("c4-false-win-2.gsc");
        assertEquals(Result.Verdict.REJECTED, runEngine(p, KernelReview4Test::shallowestFirst,
                true, 1, true, true, false).verdict);
        Result attack = runEngine(p, KernelReview4Test::shallowestFirst, true, 1, true, true,
                true);
        assertTrue(attack.verdict != Result.Verdict.VERIFIED, "Connect Four 4x4 'won by the first"
                + " player' VERIFIED because the engine ended pass 2 first: " + attack.commitment);
    }

    /**
     * Attack (an engine that does not admit a block record): R-LAY-1 and R-CON-2 are checked in
     * Kernel.admitBlockRecord, which the engine calls; startBlock and acceptBlock only require
     * the block to be the next in the file and decoded against the chain value before it (which
     * the engine has from the record before). A semi-strong Othello 4x4 certificate with one more
     * block at its end, after the root's layer, of layer 10, holding a second entry for a
     * position that already has one (SPEC §5.5), as {A} <= +16 (true), is rejected (R-LAY-1) by
     * the reference engine and VERIFIED when the engine does not admit that block: a position
     * twice in the file and a layer out of order. startBlock must take only a block whose record
     * the kernel admitted.
     */
    @Test
    void aBlockNotAdmittedMustNotVerifyALayerOutOfOrder() throws Exception {
        TinySolver s = new TinySolver(1, 4, 4, 1, null);
        long[] start = s.othelloStart();
        TestCert t = s.build(start[0], start[1], 1);
        java.util.List<TestCert.Entry> list = new java.util.ArrayList<>(t.entries);
        list.sort(java.util.Comparator.comparingInt((TestCert.Entry e) -> -e.layer())
                .thenComparing((x, y) -> x.occ != y.occ ? Long.compareUnsigned(x.occ, y.occ)
                        : Long.compareUnsigned(x.mover, y.mover)));
        TestCert.Entry twin = null;
        for (TestCert.Entry e : list) if (twin == null && e.layer() == 10) twin = e;
        TestCert.Entry extra = new TestCert.Entry(twin.occ, twin.mover, TestCert.A, -16, 16, 0);
        list.add(extra); // after the root's layer: layer 10 again
        t.entries = list;
        t.sortEntries = false;
        for (long[] row : t.census) if (row[0] == 10) row[2]++;
        Path p = dir.resolve("othello-layer-again.gsc");
        Files.write(p, t.write());
        Result ref = Verifier.verify(p, new Options());
        assertEquals(Result.Verdict.REJECTED, ref.verdict);
        assertEquals("R-LAY-1", ref.firstViolation().rule());
        long last = -1;
        try (Container ct = new Container(p)) {
            new Kernel(new Result(), false, false, 10, () -> { }).header(ct);
            for (BlockRecord r; (r = ct.nextBlockRecord()) != null; ct.readDataFrame(r))
                last = r.index;
        }
        Result attack = runEngine(p, KernelReview4Test::shallowestFirst, true, 1, true, false,
                false, last);
        assertTrue(attack.verdict != Result.Verdict.VERIFIED, "a layer out of order (R-LAY-1) and"
                + " a position twice VERIFIED: the engine did not admit the block's record: "
                + attack.commitment);
    }

    /**
     * Attack (an engine feeds a mode-4 file's first block through the layered pass 1, then hands
     * the file to RankedKernel): Kernel.startBlock and acceptBlock do not refuse a weak-ranked
     * kernel, and RankedKernel.run does not require a kernel that has read no block. acceptBlock
     * counts the block's entries (R-HASH-2 then holds) and records the root's entry (rootFound,
     * its kinds and bounds: R-ROOT-1 and R-ROOT-3 then hold), but RankedKernel never holds or
     * checks those entries. A weak-ranked Connect Four 4x4 certificate of one entry, the start as
     * {A} <= -1 ("the first player loses", false: a draw) at rank 0 (= its disc count, so R-LAY-2
     * of the layered path holds), is rejected (R-ALL-1) by the reference engine and VERIFIED this
     * way. (With a {C} root the run ends in an ArrayIndexOutOfBoundsException instead: run reads
     * move[root] with root = -1.) RankedKernel must take only a kernel that has read no block,
     * and startBlock/acceptBlock must refuse a weak-ranked kernel.
     */
    @Test
    void aRankedBlockReadByTheLayeredPassMustNotEscapeRankedKernel() throws Exception {
        TestCert t = LoaTestCerts.header(4, 0, 0, -1);
        t.family = 2;
        t.symmetry = 0;
        t.tb = new int[] {1, 2, 0, 3};
        TestCert.Entry e = new TestCert.Entry(0, 0, TestCert.A, -1, -1, 0);
        e.layer = 0;
        t.entries.add(e);
        Path p = dir.resolve("c4-ranked-false-loss.gsc");
        Files.write(p, t.write());
        Result ref = Verifier.verify(p, new Options());
        assertEquals(Result.Verdict.REJECTED, ref.verdict);
        assertEquals("R-ALL-1", ref.firstViolation().rule());
        Result res = new Result();
        Result.Verdict verdict;
        try (Container ct = new Container(p)) {
            verdict = new RankedKernel(org.gamecert.verifier.kernel.FileMap.read(ct),
                    Options.DEFAULT_MAX_MEMORY, false, false, 10).run(ct).verdict;
        } catch (Kernel.Stop | Kernel.EngineFault refused) {
            verdict = null; // rejected or refused: not verified
        }
        assertTrue(verdict != Result.Verdict.VERIFIED, "Connect Four 4x4 'lost by the first player'"
                + " VERIFIED: its only entry was read by the layered pass 1 and never checked");
    }

    // ------------------------------------------------------------------ attacks repelled

    /**
     * Repelled: an engine that checks every layer deepest first hands a layer the flags made for
     * a layer of another size: an engine fault ("flags of another layer"), not a verdict.
     */
    @Test
    void layersDeepestFirstWithFlagsOfAnotherSizeAreAnEngineFault() throws Exception {
        TinySolver s = new TinySolver(1, 4, 4, 1, null);
        long[] start = s.othelloStart();
        Path p = dir.resolve("othello-deepest-first.gsc");
        Files.write(p, s.build(start[0], start[1], 1).write());
        Result r = runWithLayerOrder(p, layers -> {
            int[] o = new int[layers];
            for (int i = 0; i < layers; i++) o[i] = i;
            return o;
        });
        assertEquals(Result.Verdict.ERROR, r.verdict);
        // refused at the first layer begun out of order (before, by the flags' size)
        assertTrue(r.errorMessage.contains("begun out of order")
                || r.errorMessage.contains("flags of another layer"), r.errorMessage);
    }

    /**
     * Repelled: a weak-ranked Othello 4x4 certificate (dihedral symmetry) whose root, one empty
     * square from the end, is proven exactly, plus an entry for a symmetric image of the root
     * that is not its canonical form (a true {A} <= +16): RankedKernel checks R-POS-3 itself.
     */
    @Test
    void rankedEntryInANonCanonicalOrientationIsRejected() throws Exception {
        org.gamecert.verifier.kernel.rules.OthelloRules g =
                new org.gamecert.verifier.kernel.rules.OthelloRules(4);
        Random rnd = new Random(9);
        long[] scratch = new long[9], c = new long[3];
        for (int trial = 0; trial < 100_000; trial++) {
            int empty = rnd.nextInt(16);
            long occ = 0xFFFFL & ~(1L << empty), m = rnd.nextLong() & occ, o = occ & ~m;
            if (!g.isLegalPosition(m, o) || Long.bitCount(g.legalMoveCodes(m, o)) != 1) continue;
            long co = g.canonical(m, o, 8, scratch), cm = scratch[8];
            long im = -1, io = -1;
            for (int k = 1; k < 8 && im < 0; k++) {
                long tm = g.transform(cm, k), to = g.transform(co & ~cm, k);
                if ((tm | to) != co || tm != cm) {
                    im = tm;
                    io = to;
                }
            }
            if (im < 0) continue;
            int code = Long.numberOfTrailingZeros(g.legalMoveCodes(cm, co & ~cm));
            assertEquals(Game.TERMINAL, g.child(cm, co & ~cm, code, c));
            int v = (int) c[2];
            TestCert t = LoaTestCerts.header(4, cm, co & ~cm, v);
            t.family = 1;
            t.utility = 1;
            t.symmetry = 1;
            t.tb = new int[16];
            for (int i = 0; i < 16; i++) t.tb[i] = i;
            t.sortEntries = true;
            TestCert.Entry root = new TestCert.Entry(co, cm, TestCert.C | TestCert.A, v, v, code);
            TestCert.Entry image = new TestCert.Entry(im | io, im, TestCert.A, -16, 16, 0);
            root.layer = image.layer = 1;
            t.entries.add(root);
            t.entries.add(image);
            Result r = verify(t.write(), new Options());
            assertEquals(Result.Verdict.REJECTED, r.verdict);
            assertEquals("R-POS-3", r.firstViolation().rule());
            return;
        }
        throw new AssertionError("no position found");
    }
}

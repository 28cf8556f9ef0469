package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.gamecert.verifier.kernel.ChildLookup;
import org.gamecert.verifier.kernel.EntryChecker;
import org.gamecert.verifier.kernel.Kernel;
import org.gamecert.verifier.kernel.KeyRange;
import org.gamecert.verifier.kernel.LayerCheck;
import org.gamecert.verifier.kernel.LayerPass;
import org.gamecert.verifier.kernel.JoinedLayer;
import org.gamecert.verifier.kernel.Layout;
import org.gamecert.verifier.kernel.SliceResult;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.format.BlockRecord;
import org.gamecert.verifier.kernel.format.Container;
import org.gamecert.verifier.kernel.format.Payload;
import org.gamecert.verifier.kernel.rules.Game;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review 5 of the kernel (an independent reviewer's attacks on the binding of blocks and answers
 * to the file, and on the order of an engine's steps). A test that demonstrates a hole asserts
 * the correct behaviour, so it fails until the hole is fixed.
 */
class KernelReview5Test {
    @TempDir
    Path dir;

    /** How the test engine misbehaves. */
    static class Plan {
        /** Layer index whose next layer (li - 1) is begun before li is finished (-1: none). */
        int beginNextEarly = -1;
        /** Answers of layer li's lookups, forged by forge (when li == forgeLayer). */
        int forgeLayer = -1;
        java.util.function.Consumer<ChildLookup.Answer> forge;
        /** Layer whose blocks' entries get bounds tamperValue while checked (-1: none). */
        int tamperLayer = -1, tamperValue;
        /**
         * Layer whose layer below is held in two key ranges (its first entry, the rest), the
         * pass over the last range run before the pass over the first (-1: none).
         */
        int splitLayer = -1;
        /** The trailer and the census taken right after pass 1, before pass 2. */
        boolean censusFirst;
        /** --strict. */
        boolean strict;
        /** Blocks from this index on are read past, not given to the kernel (-1: none). */
        long skipFrom = -1;
    }

    /**
     * A single-threaded engine like KernelReview4Test.runEngine: pass 2 shallowest first, the
     * layer below held whole and answered from the file, except as plan says. res receives what
     * the kernel counted (its census rows) whatever the verdict.
     */
    static Result run(Path path, Plan plan, Result res) throws Exception {
        try (Container ct = new Container(path)) {
            Kernel kernel = new Kernel(res, false, plan.strict, 10, () -> { });
            try {
                kernel.header(ct);
                EntryChecker checker = kernel.newChecker(false);
                BlockRecord rec;
                while ((rec = ct.nextBlockRecord()) != null) {
                    if (plan.skipFrom >= 0 && rec.index >= plan.skipFrom) {
                        ct.readDataFrame(rec); // read past, on to the trailer
                        continue;
                    }
                    byte[] before = kernel.admitBlockRecord(rec);
                    Payload p = kernel.decode(rec, ct.readDataFrame(rec), before, null);
                    kernel.startBlock(rec, p);
                    kernel.acceptBlock(rec, p);
                }
                kernel.endPass1();
                kernel.endStreaming();
                if (plan.censusFirst) {
                    kernel.trailer(ct);
                    kernel.census(ct);
                }
                kernel.beginPass2();
                LayerCheck early = null;
                for (int li = kernel.layers() - 1; li >= 0; li--) {
                    int below = kernel.below(li);
                    Map<String, long[]> table = new HashMap<>();
                    if (below >= 0) {
                        long index = 0;
                        for (int b = kernel.firstBlock(below); b < kernel.endBlock(below); b++) {
                            Payload q = kernel.reload(ct, b, null);
                            for (int i = 0; i < q.count; i++)
                                table.put(q.occ[i] + "/" + q.mover[i], new long[] {
                                    q.kind[i] & 0xFF, q.lo[i], q.hi[i], index++});
                        }
                    }
                    boolean forging = li == plan.forgeLayer;
                    ChildLookup lookup = (occ, mover, a) -> {
                        long[] r = table.get(occ + "/" + mover);
                        if (r == null) return false;
                        a.occ = occ;
                        a.mover = mover;
                        a.kind = (int) r[0];
                        a.lo = (int) r[1];
                        a.hi = (int) r[2];
                        a.index = r[3];
                        if (forging) plan.forge.accept(a);
                        return true;
                    };
                    LayerCheck lc = early != null ? early : kernel.beginLayer(li);
                    early = null;
                    if (li == plan.splitLayer) {
                        Payload q = kernel.reload(ct, kernel.firstBlock(below), null);
                        long o = q.occ[0], mv = q.mover[0], size = kernel.size(below);
                        lc.inRanges();
                        LayerPass first = lc.pass(new KeyRange(true, false, 0, 0, o, mv, 0, 1),
                                lookup);
                        LayerPass rest = lc.pass(new KeyRange(false, true, o, mv, 0, 0, 1,
                                size - 1), (occ, mover, a) -> {
                                    if (!lookup.find(occ, mover, a)) return false;
                                    a.index--;
                                    return true;
                                });
                        runPass(kernel, ct, li, rest, checker, plan);
                        runPass(kernel, ct, li, first, checker, plan);
                    } else {
                        LayerPass pass = lc.pass(KeyRange.whole(below >= 0
                                ? kernel.size(below) : 0), lookup);
                        runPass(kernel, ct, li, pass, checker, plan);
                    }
                    if (li == plan.beginNextEarly) early = kernel.beginLayer(li - 1);
                    lc.finish();
                }
                kernel.endPass2();
                if (!plan.censusFirst) {
                    kernel.trailer(ct);
                    kernel.census(ct);
                }
                return kernel.conclude(res);
            } catch (Kernel.Stop | Kernel.EngineFault stopped) {
                return KernelReview7Test.verdictOf(res, stopped);
            }
        }
    }

    /** One pass over layer li's blocks, one checker a block. */
    static void runPass(Kernel kernel, Container ct, int li, LayerPass pass,
            EntryChecker checker, Plan plan) throws Exception {
        for (int b = kernel.firstBlock(li); b < kernel.endBlock(li); b++) {
            Payload q = kernel.reload(ct, b, null);
            int m = pass.block(b, q);
            if (m < 0) break;
            byte[] lo = q.lo.clone(), hi = q.hi.clone();
            if (li == plan.tamperLayer)
                for (int i = 0; i < m; i++)
                    q.lo[i] = q.hi[i] = (byte) plan.tamperValue;
            pass.check(checker, 0, m);
            System.arraycopy(lo, 0, q.lo, 0, lo.length); // as handed over
            System.arraycopy(hi, 0, q.hi, 0, hi.length);
            pass.endBlock(checker);
        }
        pass.end();
    }

    static Result run(Path path, Plan plan) throws Exception {
        return run(path, plan, new Result());
    }

    Path write(TestCert t, String name) throws Exception {
        Path p = dir.resolve(name);
        Files.write(p, t.write());
        return p;
    }

    /** Writes the census rows the kernel counted (res.census) into t's trailer. */
    static void censusAsCounted(TestCert t, Result res) {
        t.census.clear();
        for (long[] row : res.census) t.census.add(new long[] {row[0], row[1], row[2]});
    }

    // ------------------------------------------------------------ the order of pass 2's steps

    /**
     * Attack (a false root value VERIFIED): Kernel.beginLayer requires the layers shallowest
     * first, each once (nextWhole), but not that the layer before was finished: the LayerCheck of
     * layer li - 1 takes kernel.flagsOfNextLayer and kernel.answersOfNextLayer as they are when
     * it is begun. Begun before layer li's finish, it gets null: fresh flags and answers == null,
     * so compareAnswers compares nothing and the digests of layer li's answers, stored in its
     * childMarks (since then the counts in childFlags and their sum), are never compared with the file's records. An engine whose lookups for the
     * root's layer answer every child with a made-up value (P, -v') makes the root's false value
     * v' check; the census is written as this run counts it. The reference engine rejects the
     * file; the same engine in the honest order is caught (engine fault); begun early: VERIFIED.
     * Kernel.beginLayer must refuse a layer while the one above it is not finished (LayerCheck
     * .finish), or LayerCheck must take the flags and answers at its first pass.
     */
    @Test
    void aLayerBegunBeforeTheLayerAboveFinishedMustCompareItsAnswers() throws Exception {
        TinySolver s = new TinySolver(1, 4, 4, 1, null);
        long[] start = s.othelloStart();
        TestCert t = s.build(start[0], start[1], 1);
        int v = t.rootValue, forged = v >= 1 ? -1 : 1;
        t.rootValue = forged;
        TestCert.Entry root = null;
        int rootDiscs = Long.bitCount(start[0] | start[1]);
        for (TestCert.Entry e : t.entries)
            if (e.layer() == rootDiscs) root = e;
        root.lo = root.hi = forged;
        Plan plan = new Plan();
        plan.forge = a -> {
            a.kind = TestCert.P;
            a.lo = a.hi = -forged;
        };
        Result counted = new Result();
        Path probe = write(t, "probe.gsc");
        int layers = (int) t.entries.stream().mapToInt(TestCert.Entry::layer).distinct().count();
        plan.forgeLayer = layers - 1;
        plan.beginNextEarly = layers - 1;
        run(probe, plan, counted);
        censusAsCounted(t, counted);
        Path p = write(t, "othello-false-root.gsc");
        Result ref = Verifier.verify(p, new Options());
        assertEquals(Result.Verdict.REJECTED, ref.verdict, "the root's value is false");
        Plan honestOrder = new Plan();
        honestOrder.forge = plan.forge;
        honestOrder.forgeLayer = plan.forgeLayer;
        Result caught = run(p, honestOrder);
        assertNotEquals(Result.Verdict.VERIFIED, caught.verdict);
        Result attack = run(p, plan);
        assertNotEquals(Result.Verdict.VERIFIED, attack.verdict, "a false root value " + forged
                + " (true: " + v + ") VERIFIED: the root's children's layer begun before the"
                + " root's layer finished compares no answer; " + attack.commitment);
    }

    /**
     * A weak (mode 2) Othello 4x4 certificate of the start whose root entry and header claim a
     * false value (the true one +- 4), written as name; the reference engine rejects it.
     */
    record FalseWeakRoot(Path path, int value, int forged, int layers) {}

    FalseWeakRoot falseWeakRoot(String name) throws Exception {
        TinySolver s = new TinySolver(1, 4, 4, 1, null);
        long[] start = s.othelloStart();
        TestCert t = s.build(start[0], start[1], 2);
        int v = t.rootValue, forged = v <= 12 ? v + 4 : v - 4;
        t.rootValue = forged;
        int rootDiscs = Long.bitCount(start[0] | start[1]);
        int layers = (int) t.entries.stream().mapToInt(TestCert.Entry::layer).distinct().count();
        for (TestCert.Entry e : t.entries)
            if (e.layer() == rootDiscs) {
                assertEquals(TestCert.C | TestCert.A, e.kind);
                e.lo = e.hi = forged;
            }
        Path p = write(t, name);
        Result ref = Verifier.verify(p, new Options());
        assertEquals(Result.Verdict.REJECTED, ref.verdict, "the root's value is false");
        return new FalseWeakRoot(p, v, forged, layers);
    }

    // ------------------------------------------------------------ answers bound to records

    /**
     * Attack (a false root value VERIFIED in the honest order): an answer's record is bound to
     * the file's by LayerCheck.answerTag (since then answerHash), which takes lo & 0xFFFF and hi & 0xFFFF, but the
     * checker uses the answer's int fields as they are (EntryChecker.children: clo = -answer.hi,
     * chi = -answer.lo). An engine that answers each child of the root with lo + 2^16 and
     * hi - 2^16 (a wrong width or sign extension) has the same tag as the file's record, so
     * compareAnswers finds nothing, while R-CUT-1 and R-ALL-1 of the root see its cut move worth
     * about +2^16 and every move worth about -2^16: any root value checks. A weak (mode 2)
     * Othello 4x4 certificate of the start with a false root value (its root entry's bounds and
     * the header alike) is rejected by the reference engine and VERIFIED here. Marks.digest (the
     * sliced path) truncates the same way. The tag must cover the answer's fields in full (or
     * lookUp must refuse a kind outside 0..255 and bounds outside [uMin, uMax]).
     */
    @Test
    void anAnswersBoundsMustBeBoundInFullNotModulo2To16() throws Exception {
        FalseWeakRoot f = falseWeakRoot("othello-weak-false-root.gsc");
        Path p = f.path();
        int v = f.value(), forged = f.forged(), layers = f.layers();
        Plan plan = new Plan();
        plan.forgeLayer = layers - 1;
        plan.forge = a -> {
            a.lo += 1 << 16;
            a.hi -= 1 << 16;
        };
        Result attack = run(p, plan);
        assertNotEquals(Result.Verdict.VERIFIED, attack.verdict, "a false root value " + forged
                + " (true: " + v + ") VERIFIED by answers whose bounds are off by 2^16: "
                + attack.commitment);
    }

    // ------------------------------------------------------------ blocks bound to the file

    /**
     * Attack (a false root value VERIFIED, honest order, honest answers): LayerPass.block takes
     * the digest of the block's entries when it is handed over and endBlock takes it again, but
     * LayerPass.check reads the payload's public columns in between. An engine that changes the
     * root entry's bounds to the true value after block() and puts them back before endBlock()
     * (a buffer reused by another task, restored) has the root checked with the true value while
     * pass 1 took the false one (rootLo, rootHi) for R-ROOT-3: the digests agree, VERIFIED.
     * LayerPass.check must check entries the kernel copied at block() (or the digest must be
     * taken again after each check, before its verdict counts).
     */
    @Test
    void entriesChangedBetweenBlockAndEndBlockMustNotBeChecked() throws Exception {
        FalseWeakRoot f = falseWeakRoot("othello-weak-false-root-2.gsc");
        Path p = f.path();
        int v = f.value(), forged = f.forged(), layers = f.layers();
        assertEquals(Result.Verdict.REJECTED, run(p, new Plan()).verdict);
        Plan plan = new Plan();
        plan.tamperLayer = layers - 1;
        plan.tamperValue = v;
        Result attack = run(p, plan);
        assertNotEquals(Result.Verdict.VERIFIED, attack.verdict, "a false root value " + forged
                + " (true: " + v + ") VERIFIED: the root entry was checked with the bounds the"
                + " engine put in its payload between block() and endBlock(): "
                + attack.commitment);
    }

    // ------------------------------------------------------------ a slice's kernel concluding

    /** Pass 1 of the file by a kernel of its own, then its Layout (as Slices' driver makes it). */
    static Layout layoutOf(Path path) throws Exception {
        try (Container ct = new Container(path)) {
            Kernel kernel = new Kernel(new Result(), false, false, 10, () -> { });
            kernel.header(ct);
            BlockRecord rec;
            while ((rec = ct.nextBlockRecord()) != null) {
                byte[] before = kernel.admitBlockRecord(rec);
                Payload p = kernel.decode(rec, ct.readDataFrame(rec), before, null);
                kernel.startBlock(rec, p);
                kernel.acceptBlock(rec, p);
            }
            kernel.endPass1();
            return kernel.layout();
        }
    }

    /**
     * Attack (a file the reference engine rejects VERIFIED): a kernel that adopted a Layout (a
     * slice's kernel) is a Kernel like any other, and nothing keeps an engine from driving it
     * through pass 2, the trailer, the census and conclude. In it endPass1 "ends" the last layer
     * at block blocks = 0 (endLayer: lEnd = 0, lSize = 0), so a one-layer file's only layer (the
     * root's) is checked in full with no entry; trailer() compares the trailer's counts with the
     * 0 blocks and 0 entries this kernel read and the commitment with one over h_0 alone;
     * rootLo, rootHi, rootKind are 0 (never read); the census has no auxiliary entry. So a weak
     * Othello 4x4 file of the start (true value -10) whose header claims 0, whose one entry is
     * not even checked, and whose trailer says 0 blocks, 0 entries (commitment over h_0) is
     * rejected by the reference engine (R-CUT-1, and R-HASH-2) and VERIFIED by conclude on the
     * adopted kernel. A kernel that adopted a layout must refuse endPass1, beginPass2, beginLayer,
     * trailer, census and conclude (it can only end a slice).
     */
    @Test
    void aKernelThatAdoptedALayoutMustNotConclude() throws Exception {
        TinySolver s = new TinySolver(1, 4, 4, 1, null);
        long[] start = s.othelloStart();
        TestCert t = s.build(start[0], start[1], 2);
        int rootDiscs = Long.bitCount(start[0] | start[1]);
        assertNotEquals(0, t.rootValue);
        t.entries.removeIf(e -> e.layer() != rootDiscs);
        t.rootValue = 0;
        for (TestCert.Entry e : t.entries) e.lo = e.hi = 0;
        for (long[] row : t.census) row[1] = row[2] = 0;
        t.blockCountOverride = 0L;
        t.entryCountOverride = 0L;
        byte[] file = t.write();
        Path p = write(t, "one-layer.gsc");
        byte[] h0;
        try (Container ct = new Container(p)) {
            java.security.MessageDigest md = java.security.MessageDigest.getInstance("SHA-256");
            md.update((byte) 0);
            md.update(ct.readHeaderContent());
            h0 = md.digest();
        }
        int body = 20 + 20 * t.census.size(); // the trailer's content before its commitment
        java.security.MessageDigest md = java.security.MessageDigest.getInstance("SHA-256");
        md.update((byte) 2);
        md.update(h0);
        md.update(file, file.length - 32 - body, body);
        System.arraycopy(md.digest(), 0, file, file.length - 32, 32);
        Files.write(p, file);
        Result ref = Verifier.verify(p, new Options());
        assertEquals(Result.Verdict.REJECTED, ref.verdict);
        assertEquals("R-CUT-1", ref.firstViolation().rule()); // the root's bound; then R-HASH-2
        Layout layout = layoutOf(p);
        Result res = new Result();
        Result attack;
        try (Container ct = new Container(p)) {
            Kernel k = new Kernel(res, false, false, 10, () -> { });
            try {
                k.header(ct);
                k.adopt(layout);
                k.endPass1();
                k.beginPass2();
                for (int li = k.layers() - 1; li >= 0; li--) {
                    LayerCheck lc = k.beginLayer(li);
                    lc.pass(KeyRange.whole(0), ChildLookup.NONE).end();
                    lc.finish();
                }
                k.endPass2();
                BlockRecord r; // on to the trailer
                while ((r = ct.nextBlockRecord()) != null) ct.readDataFrame(r);
                k.trailer(ct);
                k.census(ct);
                attack = k.conclude(res);
            } catch (Kernel.Stop stop) {
                attack = Result.withVerdict(res, Result.Verdict.REJECTED);
            } catch (Kernel.EngineFault fault) {
                attack = Result.withVerdict(res, Result.Verdict.ERROR);
            }
        }
        assertNotEquals(Result.Verdict.VERIFIED, attack.verdict, "a file whose trailer counts no"
                + " block (R-HASH-2), root value 0 (true: -10), VERIFIED by a slice's kernel: "
                + attack.commitment);
    }

    // ------------------------------------------------------------ key ranges

    /**
     * A semi-strong Othello 4x4 certificate, false: its root (two empty cells, two moves to two
     * stored children, the better one's key first in its layer) claims P with the value of its
     * worse move, stored as its move; both children are P (their moves end the game). Null if
     * no such position is found.
     */
    static TestCert falseMaximum(TinySolver s) {
        Game g = s.game;
        long[] out = new long[3];
        java.util.Random rnd = new java.util.Random(5);
        for (int tries = 0; tries < 20000; tries++) {
            long[] start = s.othelloStart();
            long mover = start[0], opp = start[1];
            while (Long.bitCount(mover | opp) < 14) {
                long legal = g.legalMoveCodes(mover, opp);
                if (legal == 0) break;
                int pick = rnd.nextInt(Long.bitCount(legal));
                long bits = legal;
                for (int i = 0; i < pick; i++) bits &= bits - 1;
                int type = g.child(mover, opp, Long.numberOfTrailingZeros(bits), out);
                if (type == Game.TERMINAL) break;
                mover = out[0];
                opp = out[1];
            }
            if (Long.bitCount(mover | opp) != 14 || g.isTerminal(mover, opp)
                    || Long.bitCount(g.legalMoveCodes(mover, opp)) != 2)
                continue;
            TestCert t = s.build(mover, opp, 1);
            java.util.List<TestCert.Entry> kids = new java.util.ArrayList<>();
            TestCert.Entry root = null;
            for (TestCert.Entry e : t.entries)
                if (e.layer() == 15) kids.add(e);
                else if (e.layer() == 14) root = e;
                else root = null;
            if (root == null || kids.size() != 2 || t.entries.size() != 3) continue;
            kids.sort((x, y) -> KeyRange.after(x.occ, x.mover, y.occ, y.mover) ? 1 : -1);
            TestCert.Entry better = kids.get(0), worse = kids.get(1);
            if (-better.lo <= -worse.lo) continue; // the better move's child must come first
            long rm = root.mover, ro = root.occ & ~root.mover;
            int worseMove = -1;
            boolean children = true;
            for (long m = g.legalMoveCodes(rm, ro); m != 0; m &= m - 1) {
                int code = Long.numberOfTrailingZeros(m);
                children &= g.child(rm, ro, code, out) == Game.CHILD;
                if (s.canonicalKey(out[0], out[1])
                        == s.canonicalKey(worse.mover, worse.occ & ~worse.mover))
                    worseMove = code;
            }
            if (!children || worseMove < 0) continue;
            better.kind = worse.kind = TestCert.P;
            root.move = worseMove;
            root.lo = root.hi = t.rootValue = -worse.lo;
            return t;
        }
        return null;
    }

    /**
     * Attack (a false value VERIFIED): with the layer below in key ranges, R-P-1 (maxIs) is
     * decided in the pass over the last range, from the maximum carried over the passes before
     * it (LayerCheck.carry). LayerCheck.pass requires the ranges to be given in order (Tiling),
     * but the passes it returns may run in any order: an engine that runs the pass over the last
     * range first (its segments on two threads, say) has maxIs compare the value with the moves
     * of the last range only; the moves of the first range are merged into carry afterwards and
     * never compared. A root claiming P with the value of its worse move (the better move's
     * child is in the first range) is rejected (R-P-1) by the reference engine and by this
     * engine with the passes in order; VERIFIED with the last pass run first. The kernel must
     * require each pass over a layer to end before the next range's pass takes a block (or
     * decide R-P-1 / R-PP-1 when every pass ended, in finish).
     */
    @Test
    void rangesCheckedLastFirstMustStillCompareTheMaximum() throws Exception {
        TinySolver s = new TinySolver(1, 4, 4, 1, null);
        TestCert t = falseMaximum(s);
        assertTrue(t != null, "a position for the attack");
        Path probe = write(t, "probe-max.gsc");
        Plan plan = new Plan();
        plan.splitLayer = 1; // the root's layer: the file has layers 15, 14
        Result counted = new Result();
        run(probe, plan, counted);
        censusAsCounted(t, counted);
        Path p = write(t, "othello-false-max.gsc");
        Result ref = Verifier.verify(p, new Options());
        assertEquals(Result.Verdict.REJECTED, ref.verdict);
        assertEquals("R-P-1", ref.firstViolation().rule());
        assertEquals(Result.Verdict.REJECTED, run(p, new Plan()).verdict);
        Result attack = run(p, plan);
        assertNotEquals(Result.Verdict.VERIFIED, attack.verdict, "a root's false value VERIFIED:"
                + " the pass over the last key range ran first; " + attack.commitment);
    }

    // ------------------------------------------------------------ hash salting

    /**
     * Attack (a hang on chosen terminal positions, SPEC §10.3 census sets): KeySet.slot hashes
     * ((o ^ SALT) * K1) ^ (m * K2) and takes bits 0..k-1 and 31..31+k-1 of it for a table of
     * 2^k slots. A bit of a product depends only on the bits at or below it of its factors, and
     * the salt is XORed in, not multiplied: keys that differ only in bits above 30 + k of occ and
     * mover start their probe in the same slot, whatever the salt. With a table of 2^16 slots
     * every key that differs only in the cells of bits 47..63 (a Connect Four 8x7 board's two
     * top columns, the last 17 cells of a NoGo 1xN board) lands in one slot: one probe cluster,
     * quadratic time in the number of such terminal positions the census meets. (Checked on the
     * hash itself through reflection, as KernelReview4Test does for RankedKernel.) The salt must
     * be mixed so that every bit of the key reaches the slot (e.g. multiply by an odd salt and
     * take the top bits, as RankedKernel.slot does).
     */
    @Test
    void keySetSlotsSpreadKeysThatDifferOnlyInHighBits() throws Exception {
        Class<?> keySet = Class.forName("org.gamecert.verifier.kernel.KeySet");
        java.lang.reflect.Constructor<?> make = keySet.getDeclaredConstructor();
        make.setAccessible(true);
        Object set = make.newInstance();
        java.lang.reflect.Field keys = keySet.getDeclaredField("keys"); // slot i at 2i, 2i + 1
        keys.setAccessible(true);
        keys.set(set, new long[2 << 16]);
        java.lang.reflect.Method slot = keySet.getDeclaredMethod("slot", long.class, long.class);
        slot.setAccessible(true);
        java.util.Random rnd = new java.util.Random(6);
        java.util.Set<Integer> slots = new java.util.HashSet<>();
        long low = 0x00005A5A5A5A5A5AL; // the cells of bits 0..46 alike
        for (int i = 0; i < 4000; i++) {
            long high = rnd.nextLong() & 0xFFFF800000000000L; // bits 47..63
            long m = high & rnd.nextLong();
            slots.add((Integer) slot.invoke(set, low | high, (low & 0x5555L) | m));
        }
        assertTrue(slots.size() > 1000, "4000 keys that differ only in bits 47..63 start their"
                + " probes in " + slots.size() + " slot(s) of 65536, whatever the salt");
    }

    // ------------------------------------------------------------ the census's place

    /**
     * Attack (a false census VERIFIED): Kernel.census requires the trailer read, but not pass 2
     * ended; it compares the trailer's rows with region[] and takes unreached as they are when
     * it is called. An engine that takes the trailer and the census right after pass 1 (before
     * pass 2 counted anything) has every row's region compared with 0; pass 2 then counts the
     * region, which nobody compares. A semi-strong Othello 4x4 certificate of the start whose
     * trailer says region 0 in every row (its auxiliary counts true) is rejected (R-CENSUS-1)
     * by the reference engine and VERIFIED here. Kernel.census must require pass 2 to have
     * ended (pass2Ended, no layer check open).
     */
    @Test
    void theCensusTakenBeforePass2MustNotVerifyAFalseCensus() throws Exception {
        TinySolver s = new TinySolver(1, 4, 4, 1, null);
        long[] start = s.othelloStart();
        TestCert t = s.build(start[0], start[1], 1);
        for (long[] row : t.census) row[1] = 0;
        Path p = write(t, "othello-census-zero.gsc");
        Result ref = Verifier.verify(p, new Options());
        assertEquals(Result.Verdict.REJECTED, ref.verdict);
        assertEquals("R-CENSUS-1", ref.firstViolation().rule());
        assertEquals(Result.Verdict.REJECTED, run(p, new Plan()).verdict);
        Plan plan = new Plan();
        plan.censusFirst = true;
        Result attack = run(p, plan);
        assertNotEquals(Result.Verdict.VERIFIED, attack.verdict, "a census of region 0 VERIFIED:"
                + " the census was taken before pass 2; " + attack.commitment);
    }

    /**
     * The same order under --strict (R-REACH-1): unreached is 0 before pass 2, so the census
     * finds no unreached entry. A semi-strong certificate with an entry no proof edge reaches
     * (of a position with 11 discs, plus a valid entry of a position outside R) is rejected with
     * --strict (R-REACH-1) by the reference engine; with its trailer's region rows 0 (as this
     * order counts them) it is VERIFIED here with --strict: neither rule is decided.
     */
    @Test
    void theCensusTakenBeforePass2MustStillFindUnreachedEntries() throws Exception {
        TinySolver s = new TinySolver(1, 4, 4, 1, null);
        java.util.Random rnd = new java.util.Random(7);
        long[] root = null;
        while (root == null) root = playout(s, rnd, 11);
        TestCert t = s.build(root[0], root[1], 1);
        // an entry outside R: a P entry of a position with one empty cell (its moves end the
        // game) that R misses
        Game g = s.game;
        java.util.Set<String> keys = new java.util.HashSet<>();
        for (TestCert.Entry e : t.entries) keys.add(e.occ + "/" + e.mover);
        TestCert.Entry extra = null;
        for (int tries = 0; tries < 5000 && extra == null; tries++) {
            long[] pos = playout(s, rnd, 15);
            if (pos == null) continue;
            long[] sc = new long[9];
            long co = g.canonical(pos[0], pos[1], g.symmetryCount, sc), cm = sc[8];
            if (keys.contains(co + "/" + cm)) continue;
            int v = s.value(cm, co & ~cm);
            extra = new TestCert.Entry(co, cm, TestCert.P, v, v, s.canonicalMove(cm, co & ~cm));
        }
        assertTrue(extra != null, "an entry outside R");
        t.entries.add(extra);
        Path honest = write(t, "othello-unreached-honest.gsc");
        Options strict = new Options();
        strict.strict = true;
        Result ref = Verifier.verify(honest, strict);
        assertEquals(Result.Verdict.REJECTED, ref.verdict);
        assertEquals("R-REACH-1", ref.firstViolation().rule());
        assertEquals(Result.Verdict.VERIFIED, Verifier.verify(honest, new Options()).verdict);
        for (long[] row : t.census) row[1] = 0; // the region as counted before pass 2
        Path p = write(t, "othello-unreached.gsc");
        assertEquals(Result.Verdict.REJECTED, Verifier.verify(p, strict).verdict);
        Plan plan = new Plan();
        plan.strict = true;
        assertEquals(Result.Verdict.REJECTED, run(p, plan).verdict);
        plan.censusFirst = true;
        Result attack = run(p, plan);
        assertNotEquals(Result.Verdict.VERIFIED, attack.verdict, "an unreached entry VERIFIED"
                + " with --strict: the census was taken before pass 2; " + attack.commitment);
    }

    /** A position with the given discs by random moves from the start (null: none reached). */
    static long[] playout(TinySolver s, java.util.Random rnd, int discs) {
        long[] start = s.othelloStart();
        long mover = start[0], opp = start[1];
        long[] out = new long[3];
        while (Long.bitCount(mover | opp) < discs) {
            long legal = s.game.legalMoveCodes(mover, opp);
            if (legal == 0) return null;
            int pick = rnd.nextInt(Long.bitCount(legal));
            long bits = legal;
            for (int i = 0; i < pick; i++) bits &= bits - 1;
            if (s.game.child(mover, opp, Long.numberOfTrailingZeros(bits), out) != Game.CHILD)
                return null;
            mover = out[0];
            opp = out[1];
        }
        return s.game.isTerminal(mover, opp) || s.game.legalMoveCodes(mover, opp) == 0 ? null
                : new long[] {mover, opp};
    }

    // ------------------------------------------------------------ the trailer's place

    /**
     * Attack (a file the reference engine rejects VERIFIED): nothing binds the end of pass 1 to
     * the end of the file's blocks. Kernel.trailer reads the trailer where the engine's
     * Container stands and compares its counts with the blocks the kernel was given. A valid
     * Othello 4x4 certificate followed by one more block (a junk entry of 3 discs, chained) and
     * a trailer that counts only the blocks before it, its commitment over them, is rejected by
     * the reference engine; an engine that reads past the last block (Container.nextBlockRecord,
     * readDataFrame) without giving it to the kernel, then ends pass 1, has it VERIFIED: the
     * block is never hashed into the commitment, decoded, or checked. The kernel must require
     * the trailer to start where the last block it accepted ends (its frame offset plus
     * comp_len; after the header when there is none), or read the next record itself at
     * endPass1.
     */
    @Test
    void blocksReadPastBeforeTheTrailerMustNotVerify() throws Exception {
        TinySolver s = new TinySolver(1, 4, 4, 1, null);
        long[] start = s.othelloStart();
        TestCert t = s.build(start[0], start[1], 1);
        TestCert.Entry junk = new TestCert.Entry(0b111L, 0b1L, TestCert.A, 0, 0, 0);
        t.entries.add(junk);
        Path probe = write(t, "probe-junk.gsc");
        java.util.List<BlockRecord> recs = new java.util.ArrayList<>();
        try (Container ct = new Container(probe)) {
            ct.readHeaderContent();
            BlockRecord r;
            while ((r = ct.nextBlockRecord()) != null) {
                recs.add(r);
                ct.readDataFrame(r);
            }
        }
        BlockRecord last = recs.get(recs.size() - 1);
        assertEquals(3, last.layer, "the junk entry is the last block");
        assertEquals(1, last.count);
        t.blockCountOverride = (long) recs.size() - 1;
        t.entryCountOverride = (long) t.entries.size() - 1;
        byte[] file = t.write();
        int body = 20 + 20 * t.census.size();
        java.security.MessageDigest md = java.security.MessageDigest.getInstance("SHA-256");
        md.update((byte) 2);
        md.update(recs.get(recs.size() - 2).chain());
        md.update(file, file.length - 32 - body, body);
        System.arraycopy(md.digest(), 0, file, file.length - 32, 32);
        Path p = dir.resolve("othello-junk-block.gsc");
        Files.write(p, file);
        Result ref = Verifier.verify(p, new Options());
        assertEquals(Result.Verdict.REJECTED, ref.verdict);
        assertEquals(Result.Verdict.REJECTED, run(p, new Plan()).verdict);
        Plan plan = new Plan();
        plan.skipFrom = recs.size() - 1;
        Result attack = run(p, plan);
        assertNotEquals(Result.Verdict.VERIFIED, attack.verdict, "a file with a block the"
                + " trailer does not count VERIFIED (the block read past); reference: "
                + ref.firstViolation() + "; " + attack.commitment);
    }

    // ------------------------------------------------------------ slices

    /**
     * SlicedVerifier's pass 2, except that the root's layer (the first joined) is finished only
     * after the layer below it, whose slices are given no marks; the root's slices' answers are
     * forged by forge (null: honest).
     */
    static final class LateJoin implements Options.SlicedPass2 {
        final java.util.function.Consumer<Slices.Answers> forge;

        LateJoin(java.util.function.Consumer<Slices.Answers> forge) {
            this.forge = forge;
        }

        @Override
        public void run(Kernel kernel, Slices.Job job, long[] firstOcc, long[] firstMover)
                throws java.io.IOException {
            Map<Integer, java.util.List<Slices.MarkBatch>> marksIn = new HashMap<>();
            JoinedLayer late = null;
            for (int li = kernel.layers() - 1; li >= 0; li--) {
                int below = kernel.below(li);
                Slices.Slice[] slices = Slices.plan(kernel, li, 1 << 20, firstOcc, firstMover);
                Slices.Slice[] under = below < 0 ? new Slices.Slice[0]
                        : Slices.plan(kernel, below, 1 << 20, firstOcc, firstMover);
                Map<Integer, java.util.List<Slices.Requests>> requests = new HashMap<>();
                for (Slices.Slice sl : slices)
                    for (Slices.Requests r : Slices.requests(job, sl, under))
                        requests.computeIfAbsent(r.child, q -> new java.util.ArrayList<>())
                                .add(r);
                Map<Integer, java.util.List<Slices.Answers>> answers = new HashMap<>();
                boolean root = li == kernel.layers() - 1;
                for (Slices.Slice c : under)
                    for (Slices.Answers a : Slices.answer(job, c,
                            requests.getOrDefault(c.id(), java.util.List.of()))) {
                        if (root && forge != null) forge.accept(a);
                        answers.computeIfAbsent(a.parent, x -> new java.util.ArrayList<>())
                                .add(a);
                    }
                long sizeBelow = below < 0 ? 0 : kernel.size(below);
                JoinedLayer joined = kernel.beginJoinedLayer(li);
                Map<Integer, java.util.List<Slices.MarkBatch>> next = new HashMap<>();
                java.util.List<SliceResult> results = new java.util.ArrayList<>();
                for (Slices.Slice sl : slices) {
                    java.util.List<Slices.MarkBatch> in = late != null && li == kernel.layers()
                            - 2 ? java.util.List.of()
                            : marksIn.getOrDefault(sl.id(), java.util.List.of());
                    Slices.Checked c = Slices.check(job, sl, sizeBelow, under,
                            answers.getOrDefault(sl.id(), java.util.List.of()), in);
                    results.add(c.result);
                    for (Slices.MarkBatch m : c.marks)
                        next.computeIfAbsent(m.child, q -> new java.util.ArrayList<>()).add(m);
                }
                for (SliceResult r : results) joined.add(r);
                if (root) {
                    late = joined; // finished after the layer below
                } else {
                    joined.finish();
                    if (late != null) {
                        late.finish();
                        late = null;
                    }
                }
                marksIn = next;
            }
            if (late != null) late.finish();
        }
    }

    /**
     * Attack (a false root value VERIFIED, slices): the sliced path of the first hole.
     * Kernel.beginJoinedLayer requires the layers shallowest first but not the layer above
     * joined (finished) first; JoinedLayer.finish compares the marks a layer's slices took with
     * kernel.sentTo, which the layer above adds to only when it finishes. An engine that joins
     * the root's children's layer before the root's layer, its slices given no marks, has 0
     * compared with 0; the root's slices' marks (the digests of the forged answers) are then
     * added to sentTo and never compared. As in the first attack, the root's slices are answered
     * with P, -v' for every child; the census is written as this run counts it. The reference
     * engine rejects the file; VERIFIED here. A layer must be joined only once the layer above
     * it finished (or JoinedLayer.finish must refuse while the layer above is not finished).
     */
    @Test
    void aLayerJoinedBeforeTheLayerAboveMustCompareItsMarks() throws Exception {
        TinySolver s = new TinySolver(1, 4, 4, 1, null);
        long[] start = s.othelloStart();
        TestCert t = s.build(start[0], start[1], 1);
        int v = t.rootValue, forged = v >= 1 ? -1 : 1;
        t.rootValue = forged;
        int rootDiscs = Long.bitCount(start[0] | start[1]);
        for (TestCert.Entry e : t.entries)
            if (e.layer() == rootDiscs) e.lo = e.hi = forged;
        LateJoin engine = new LateJoin(a -> {
            for (int j = 0; j < a.n; j++) {
                a.kind[j] = (byte) TestCert.P;
                a.lo[j] = a.hi[j] = (byte) -forged;
            }
        });
        Options o = new Options();
        o.sliced = engine;
        Result counted = Verifier.verify(write(t, "probe-sliced.gsc"), o);
        if (counted.verdict == Result.Verdict.ERROR) { // the late join refused: the fix
            assertTrue(counted.errorMessage.contains("before the one above ended"),
                    counted.errorMessage);
            return;
        }
        assertTrue(!counted.census.isEmpty(), "the census counted: " + counted.verdict + " "
                + counted.errorMessage + " " + counted.firstViolation());
        censusAsCounted(t, counted);
        Path p = write(t, "othello-false-root-sliced.gsc");
        assertEquals(Result.Verdict.REJECTED, Verifier.verify(p, new Options()).verdict);
        Options honest = new Options();
        honest.sliced = new SlicedVerifier(1 << 20);
        assertNotEquals(Result.Verdict.VERIFIED, Verifier.verify(p, honest).verdict);
        Result attack = Verifier.verify(p, o);
        assertNotEquals(Result.Verdict.VERIFIED, attack.verdict, "a false root value " + forged
                + " (true: " + v + ") VERIFIED: the root's children's layer joined before the"
                + " root's layer; " + attack.errorMessage + " " + attack.commitment);
    }
}

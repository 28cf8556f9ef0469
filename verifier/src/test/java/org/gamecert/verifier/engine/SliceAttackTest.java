package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.gamecert.verifier.kernel.ChildLookup;
import org.gamecert.verifier.kernel.EntryChecker;
import org.gamecert.verifier.kernel.JoinedLayer;
import org.gamecert.verifier.kernel.Kernel;
import org.gamecert.verifier.kernel.KeyRange;
import org.gamecert.verifier.kernel.LayerCheck;
import org.gamecert.verifier.kernel.LayerPass;
import org.gamecert.verifier.kernel.Marks;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.SliceResult;
import org.gamecert.verifier.kernel.format.Container;
import org.gamecert.verifier.kernel.format.Payload;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review of the sliced pass 2 (SPEC §11.1): a deliberately faulty (untrusted) slice engine
 * against rejected certificates. The closed* tests are the attacks an independent review found
 * to end in a false VERIFIED (some on the whole-layer path too: a range's check broken off and
 * checked again, a checker of another kernel, pass 2 begun twice, the header read twice, slices
 * under another header): each is now an engine fault. The other tests are attacks that were
 * caught from the start.
 */
@Tag("slow")
class SliceAttackTest {
    @TempDir
    Path dir;

    // ------------------------------------------------------------------ an engine to attack with

    /** Step 3 of Slices, as an engine may run it. */
    interface SliceCheck {
        Slices.Checked check(Slices.Job job, Slices.Slice s, long sizeBelow, Slices.Slice[] under,
                List<Slices.Answers> answers, List<Slices.MarkBatch> marks) throws IOException;
    }

    /** SlicedVerifier.run with a pluggable step 3 (and a hook on the results). */
    static final class AttackEngine implements Options.SlicedPass2 {
        final long sliceEntries;
        final SliceCheck check;
        java.util.function.BiFunction<Integer, List<SliceResult>, List<SliceResult>> results =
                (li, r) -> r;
        /** Called with the driver kernel before pass 2 (to misuse it). */
        java.util.function.Consumer<Kernel> before = k -> {};
        int joinedLeft;
        /** Called with the driver kernel after each layer was joined. */
        java.util.function.Consumer<Kernel> after = k -> {};
        /** Replaces the layer order (null: deepest index first, as SlicedVerifier). */
        int[] order;

        AttackEngine(long sliceEntries, SliceCheck check) {
            this.sliceEntries = sliceEntries;
            this.check = check;
        }

        @Override
        public void run(Kernel kernel, Slices.Job job, long[] firstOcc, long[] firstMover)
                throws IOException {
            Map<Integer, List<Slices.MarkBatch>> marksIn = new HashMap<>();
            before.accept(kernel);
            int[] layers = order;
            if (layers == null) {
                layers = new int[kernel.layers()];
                for (int i = 0; i < layers.length; i++) layers[i] = layers.length - 1 - i;
            }
            for (int li : layers) {
                int below = kernel.below(li);
                Slices.Slice[] slices = Slices.plan(kernel, li, sliceEntries, firstOcc, firstMover);
                Slices.Slice[] under = below < 0 ? new Slices.Slice[0]
                        : Slices.plan(kernel, below, sliceEntries, firstOcc, firstMover);
                Map<Integer, List<Slices.Requests>> requests = new HashMap<>();
                for (Slices.Slice s : slices)
                    for (Slices.Requests r : Slices.requests(job, s, under))
                        requests.computeIfAbsent(r.child, q -> new ArrayList<>()).add(r);
                Map<Integer, List<Slices.Answers>> answers = new HashMap<>();
                for (Slices.Slice c : under)
                    for (Slices.Answers a : Slices.answer(job, c,
                            requests.getOrDefault(c.id(), List.of())))
                        answers.computeIfAbsent(a.parent, s -> new ArrayList<>()).add(a);
                long sizeBelow = below < 0 ? 0 : kernel.size(below);
                JoinedLayer joined = kernel.beginJoinedLayer(li);
                Map<Integer, List<Slices.MarkBatch>> next = new HashMap<>();
                List<SliceResult> results = new ArrayList<>();
                for (Slices.Slice s : slices) {
                    Slices.Checked c = check.check(job, s, sizeBelow, under,
                            answers.getOrDefault(s.id(), List.of()),
                            marksIn.getOrDefault(s.id(), List.of()));
                    results.add(c.result);
                    for (Slices.MarkBatch m : c.marks)
                        next.computeIfAbsent(m.child, q -> new ArrayList<>()).add(m);
                }
                for (SliceResult r : this.results.apply(li, results)) joined.add(r);
                joined.finish();
                after.accept(kernel);
                marksIn = next;
            }
        }
    }

    /** The answers for a slice as a lookup that can be told to fail (an engine's own code). */
    static final class Table implements ChildLookup {
        final Slices.AnswerTable table = new Slices.AnswerTable();
        boolean fail;
        int lookups;

        Table(List<Slices.Answers> answers) {
            for (Slices.Answers a : answers)
                for (int j = 0; j < a.n; j++)
                    table.put(a.occ[j], a.mover[j], a.index[j], a.kind[j], a.lo[j], a.hi[j]);
        }

        @Override
        public boolean find(long occ, long mover, Answer a) {
            lookups++;
            if (fail) throw new IllegalStateException("the engine's lookup fails (on purpose)");
            return table.find(occ, mover, a);
        }
    }

    /**
     * Attack 1 (swallow): each entry checked by a checker of its own made with
     * newChecker(false) (not a worker). A violation goes to the slice kernel's own Result
     * (kernel.violation) and throws Stop out of LayerPass.check; the engine catches it, the
     * checkers still tile the block (their ranges were set before the entries were checked),
     * and endSlice makes a clean SliceResult: it never looks at the slice kernel's violations.
     */
    static Slices.Checked swallow(Slices.Job job, Slices.Slice s, long sizeBelow,
            Slices.Slice[] under, List<Slices.Answers> answers, List<Slices.MarkBatch> marks)
            throws IOException {
        Table table = new Table(answers);
        Slices.MarkBatch in = Slices.merge(marks);
        SliceResult result;
        List<Marks> sent;
        try (Container ct = new Container(Path.of(job.file))) {
            Kernel kernel = Slices.sliceKernel(ct, job);
            LayerCheck lc = kernel.beginSlice(s.li(), s.first(), s.end());
            lc.receive(in.index, in.digest, in.bits, in.n);
            List<EntryChecker> pool = new ArrayList<>();
            LayerPass pass = lc.pass(KeyRange.whole(sizeBelow), sizeBelow > 0 ? table : ChildLookup.NONE);
            Payload p = null;
            for (int b = s.first(); b < s.end(); b++) {
                p = kernel.reload(ct, b, p);
                int m = pass.block(b, p);
                if (m < 0) break;
                while (pool.size() < m) pool.add(kernel.newChecker(false));
                for (int i = 0; i < m; i++) {
                    try {
                        pass.check(pool.get(i), i, i + 1);
                    } catch (RuntimeException swallowed) {
                        // Kernel.Stop of a violation: forgotten
                    }
                }
                pass.endBlock(pool.subList(0, m).toArray(new EntryChecker[0]));
            }
            pass.end();
            result = lc.endSlice();
            sent = lc.marks();
        }
        return new Slices.Checked(result, Slices.split(sent, under));
    }

    /**
     * Attack 2 (erase): a worker checker checks the block honestly (a violation is kept in the
     * checker), then is given the same range again with a lookup that throws at its first call:
     * LayerPass.check clears the checker's violation and sets its range before any entry is
     * checked, so endBlock takes the range as checked and finds no violation.
     */
    static Slices.Checked erase(Slices.Job job, Slices.Slice s, long sizeBelow,
            Slices.Slice[] under, List<Slices.Answers> answers, List<Slices.MarkBatch> marks)
            throws IOException {
        Table table = new Table(answers);
        Slices.MarkBatch in = Slices.merge(marks);
        SliceResult result;
        List<Marks> sent;
        try (Container ct = new Container(Path.of(job.file))) {
            Kernel kernel = Slices.sliceKernel(ct, job);
            LayerCheck lc = kernel.beginSlice(s.li(), s.first(), s.end());
            lc.receive(in.index, in.digest, in.bits, in.n);
            EntryChecker checker = kernel.newChecker(true);
            LayerPass pass = lc.pass(KeyRange.whole(sizeBelow), sizeBelow > 0 ? table : ChildLookup.NONE);
            Payload p = null;
            for (int b = s.first(); b < s.end(); b++) {
                p = kernel.reload(ct, b, p);
                int m = pass.block(b, p);
                if (m < 0) break;
                pass.check(checker, 0, m);
                table.fail = true;
                try {
                    pass.check(checker, 0, m);
                } catch (IllegalStateException expected) {
                    // the checker's violation was cleared; its range stands
                } finally {
                    table.fail = false;
                }
                pass.endBlock(checker);
            }
            pass.end();
            result = lc.endSlice();
            sent = lc.marks();
        }
        return new Slices.Checked(result, Slices.split(sent, under));
    }

    /**
     * Attack 2 on the whole-layer path (no slices): the same erase, run by an engine that checks
     * each layer whole through Kernel.beginLayer (as Verifier's pass 2 does), with its own
     * lookup over the layer below.
     */
    static final class WholeEraseEngine implements Options.SlicedPass2 {
        /** Null: erase; else the checkers come from a kernel that read this file's header. */
        final Path foreignHeader;
        /** Honest checks, then Kernel.beginPass2() after each layer (forgets its violation). */
        boolean resetFound;
        /** The driver kernel reads this header again for every layer but the one of block 0. */
        Path reheader;

        WholeEraseEngine() {
            this(null);
        }

        WholeEraseEngine(Path foreignHeader) {
            this.foreignHeader = foreignHeader;
        }

        @Override
        public void run(Kernel kernel, Slices.Job job, long[] firstOcc, long[] firstMover)
                throws IOException {
            try (Container ct = new Container(Path.of(job.file))) {
                for (int li = kernel.layers() - 1; li >= 0; li--) {
                    int below = kernel.below(li);
                    Slices.Answers all = new Slices.Answers(-1, below < 0 ? 0 : (int) kernel.size(below));
                    if (below >= 0) {
                        Payload q = null;
                        for (int b = kernel.firstBlock(below); b < kernel.endBlock(below); b++) {
                            q = kernel.reload(ct, b, q);
                            for (int i = 0; i < q.count; i++) {
                                all.occ[all.n] = q.occ[i];
                                all.mover[all.n] = q.mover[i];
                                all.index[all.n] = all.n;
                                all.kind[all.n] = q.kind[i];
                                all.lo[all.n] = q.lo[i];
                                all.hi[all.n++] = q.hi[i];
                            }
                        }
                    }
                    Table table = new Table(List.of(all));
                    if (reheader != null)
                        try (Container h = new Container(kernel.firstBlock(li) == 0 ? Path.of(job.file) : reheader)) {
                            kernel.header(h);
                        }
                    LayerCheck lc = kernel.beginLayer(li);
                    if (reheader != null) // back to the file's own: the engine may reload block 0
                        try (Container h = new Container(Path.of(job.file))) {
                            kernel.header(h);
                        }
                    EntryChecker checker = kernel.newChecker(true);
                    if (foreignHeader != null)
                        try (Container other = new Container(foreignHeader)) {
                            Kernel k2 = new Kernel(new Result(), false, false, 1, () -> {});
                            k2.header(other);
                            checker = k2.newChecker(true);
                        }
                    LayerPass pass = lc.pass(KeyRange.whole(below < 0 ? 0 : kernel.size(below)),
                            below >= 0 ? table : ChildLookup.NONE);
                    Payload p = null;
                    for (int b = kernel.firstBlock(li); b < kernel.endBlock(li); b++) {
                        p = kernel.reload(ct, b, p);
                        int m = pass.block(b, p);
                        if (m < 0) break;
                        if (reheader != null && b != 0)
                            try (Container h = new Container(reheader)) {
                                kernel.header(h);
                            }
                        pass.check(checker, 0, m);
                        if (reheader != null)
                            try (Container h = new Container(Path.of(job.file))) {
                                kernel.header(h);
                            }
                        table.fail = foreignHeader == null && !resetFound && reheader == null;
                        try {
                            if (table.fail) pass.check(checker, 0, m);
                        } catch (IllegalStateException expected) {
                            // cleared
                        } finally {
                            table.fail = false;
                        }
                        pass.endBlock(checker);
                    }
                    pass.end();
                    lc.finish();
                    if (resetFound) kernel.beginPass2();
                }
            }
        }
    }

    // ------------------------------------------------------------------ certificates

    /** A valid Othello 4x4 certificate (mode 1), blocks of at most blockEntries entries. */
    static TestCert othello(int blockEntries) {
        TinySolver s = new TinySolver(1, 4, 4, 1, null);
        long[] start = s.othelloStart();
        TestCert t = s.build(start[0], start[1], 1);
        t.maxBlockEntries = blockEntries;
        return t;
    }

    /** The certificate with one P entry of the given discs claiming a wrong value. */
    static TestCert wrongValue(TestCert t, int discs) {
        TestCert c = t.copy();
        for (TestCert.Entry e : c.entries)
            if (e.layer() == discs && (e.kind & TestCert.P) != 0) {
                int v = e.lo + (e.lo <= 0 ? 2 : -2);
                e.lo = e.hi = v;
                return c;
            }
        throw new AssertionError("no P entry with " + discs + " discs");
    }

    Path write(String name, TestCert t) throws IOException {
        Path f = dir.resolve(name);
        Files.write(f, t.write());
        return f;
    }

    static Result verifyWith(Path file, Options.SlicedPass2 engine, boolean strict) {
        Options o = new Options();
        o.sliced = engine;
        o.strict = strict;
        return Verifier.verify(file, o);
    }

    static Result single(Path file, boolean strict) {
        Options o = new Options();
        o.strict = strict;
        return Verifier.verify(file, o);
    }

    static String show(Result r) {
        return r.verdict + " " + r.errorMessage + " " + r.firstViolation();
    }

    // ------------------------------------------------------------------ holes

    @Test
    void closedSwallowNonWorkerViolations() throws Exception {
        Path bad = write("wrong-value.gsc", wrongValue(othello(7), 8));
        Result expected = single(bad, false);
        assertEquals(Result.Verdict.REJECTED, expected.verdict, show(expected));
        // the honest slice engine agrees
        assertEquals(Result.Verdict.REJECTED, verifyWith(bad, new SlicedVerifier(20), false).verdict);
        Result r = verifyWith(bad, new AttackEngine(20, SliceAttackTest::swallow), false);
        assertEngineFault(r);
        expected("swallow: single machine " + show(expected) + "; sliced " + show(r));
    }

    @Test
    void closedEraseAWorkersViolation() throws Exception {
        Path bad = write("wrong-value.gsc", wrongValue(othello(1), 8));
        Result expected = single(bad, false);
        assertEquals(Result.Verdict.REJECTED, expected.verdict, show(expected));
        Result r = verifyWith(bad, new AttackEngine(3, SliceAttackTest::erase), false);
        assertEngineFault(r);
        expected("erase: single machine " + show(expected) + "; sliced " + show(r));
    }

    @Test
    void closedEraseOnTheWholeLayerPathToo() throws Exception {
        Path bad = write("wrong-value.gsc", wrongValue(othello(1), 8));
        Result expected = single(bad, false);
        assertEquals(Result.Verdict.REJECTED, expected.verdict, show(expected));
        Result r = verifyWith(bad, new WholeEraseEngine(), false);
        assertEngineFault(r);
        expected("erase (whole layers): single machine " + show(expected) + "; " + show(r));
    }

    /**
     * Attack 3 (another header): the slice kernels of every slice but the one holding block 0
     * read a file whose header differs (here: the tie-break order, SPEC §9 R-TB-1) while its
     * blocks are byte for byte the same. Only block 0 is decoded against the header's own chain
     * start h_0; every other block against the previous block's chain value in the Layout, and
     * neither the Layout's fingerprint nor the SliceResult binds the header.
     */
    @Test
    void closedSliceKernelsReadAnotherHeader() throws Exception {
        TinySolver s1 = new TinySolver(1, 4, 4, 1, null);
        long[] start = s1.othelloStart();
        int[] identity = s1.build(start[0], start[1], 1).tb;
        int[] reversed = new int[identity.length];
        for (int i = 0; i < identity.length; i++) reversed[i] = identity[identity.length - 1 - i];
        TestCert other = new TinySolver(1, 4, 4, 1, reversed).build(start[0], start[1], 1);
        other.maxBlockEntries = 7;
        TestCert claimed = other.copy();
        claimed.tb = identity.clone(); // the file verified: another TB order than its moves follow
        Path bad = write("tb-identity.gsc", claimed);
        Path twin = write("tb-reversed.gsc", other);
        Result expected = single(bad, false);
        assertEquals(Result.Verdict.REJECTED, expected.verdict, show(expected));
        assertEquals(Result.Verdict.VERIFIED, single(twin, false).verdict, "the twin verifies");
        SliceCheck swap = (job, sl, sizeBelow, under, answers, marks) -> Slices.check(
                sl.first() == 0 ? job : new Slices.Job(twin, job.layout, job.strict), sl, sizeBelow,
                under, answers, marks);
        Result r = verifyWith(bad, new AttackEngine(20, swap), false);
        assertEngineFault(r);
        expected("header swap: single machine " + show(expected) + "; sliced " + show(r));
    }

    /**
     * Attack 4 (a checker of another kernel): LayerPass.check takes any EntryChecker, also one
     * made by a kernel that read another header (here the twin of attack 3, another TB order);
     * the rules are then decided with that kernel's header. Shown on the whole-layer path, where
     * the flags still go to the layer's own arrays.
     */
    @Test
    void closedCheckerOfAnotherKernel() throws Exception {
        TinySolver s1 = new TinySolver(1, 4, 4, 1, null);
        long[] start = s1.othelloStart();
        int[] identity = s1.build(start[0], start[1], 1).tb;
        int[] reversed = new int[identity.length];
        for (int i = 0; i < identity.length; i++) reversed[i] = identity[identity.length - 1 - i];
        TestCert other = new TinySolver(1, 4, 4, 1, reversed).build(start[0], start[1], 1);
        TestCert claimed = other.copy();
        claimed.tb = identity.clone();
        Path bad = write("tb-identity.gsc", claimed);
        Path twin = write("tb-reversed.gsc", other);
        Result expected = single(bad, false);
        assertEquals(Result.Verdict.REJECTED, expected.verdict, show(expected));
        Result r = verifyWith(bad, new WholeEraseEngine(twin), false);
        assertEngineFault(r);
        expected("foreign checker (whole layers): single machine " + show(expected) + "; " + show(r));
    }

    /**
     * A weak certificate that verifies without --strict but not with it: the root's tree and the
     * valid subtree of a position E the root does not reach, E being entry 0 of its layer; and
     * its twin header naming E as the root. Returns {file, twin} and sets discsE.
     */
    int discsE;

    Path[] extraSubtree() throws Exception {
        TinySolver s = new TinySolver(1, 4, 4, 1, null);
        long[] st = s.othelloStart();
        // every position reachable from the start, by disc count
        Map<Integer, List<Long>> reach = new HashMap<>();
        java.util.ArrayDeque<long[]> work = new java.util.ArrayDeque<>();
        java.util.Set<Long> seen = new java.util.HashSet<>();
        work.add(new long[] {st[0], st[1]});
        long[] out = new long[3];
        while (!work.isEmpty()) {
            long[] w = work.poll();
            long key = s.canonicalKey(w[0], w[1]);
            if (!seen.add(key)) continue;
            long o0 = key >>> 32, m0 = key & 0xFFFFFFFFL;
            if (s.game.storable(m0, o0 & ~m0, s.game.legalMoveCodes(m0, o0 & ~m0)))
                reach.computeIfAbsent(Long.bitCount(o0), x -> new ArrayList<>()).add(key);
            for (long m = s.game.legalMoveCodes(w[0], w[1]); m != 0; m &= m - 1) {
                int type = s.game.child(w[0], w[1], Long.numberOfTrailingZeros(m), out);
                if (type != org.gamecert.verifier.kernel.rules.Game.TERMINAL) work.add(new long[] {out[0], out[1]});
            }
        }
        for (List<Long> l : reach.values()) java.util.Collections.sort(l);
        TestCert base = null;
        java.util.Set<String> inBase = new java.util.HashSet<>();
        long eOcc = 0, eMover = 0;
        int layerE = -1;
        search:
        for (int rd = 5; rd <= 8; rd++)
            for (long rk : reach.getOrDefault(rd, List.of())) {
                long ro = rk >>> 32, rm = rk & 0xFFFFFFFFL;
                base = s.build(rm, ro & ~rm, 2);
                inBase.clear();
                for (TestCert.Entry e : base.entries) inBase.add(e.occ + "/" + e.mover);
                for (int d = rd + 2; d <= 12; d++) {
                    long minOcc = -1, minMover = -1;
                    boolean any = false;
                    for (TestCert.Entry e : base.entries)
                        if (e.layer() == d && (!any || KeyRange.after(minOcc, minMover, e.occ, e.mover))) {
                            minOcc = e.occ;
                            minMover = e.mover;
                            any = true;
                        }
                    if (!any) continue;
                    for (long k : reach.getOrDefault(d, List.of())) {
                        long o = k >>> 32, mv = k & 0xFFFFFFFFL;
                        if (inBase.contains(o + "/" + mv) || !KeyRange.after(minOcc, minMover, o, mv)) continue;
                        eOcc = o;
                        eMover = mv;
                        layerE = d;
                        break search;
                    }
                }
            }
        assertTrue(layerE > 0, "no position E found: the attack needs one");
        TestCert sub = s.build(eMover, eOcc & ~eMover, 2);
        TestCert merged = base.copy();
        for (TestCert.Entry e : sub.entries)
            if (!inBase.contains(e.occ + "/" + e.mover)) merged.entries.add(e.copy());
        for (long[] row : merged.census) {
            long n = 0;
            for (TestCert.Entry e : merged.entries) if (e.layer() == row[0]) n++;
            row[2] = n;
        }
        merged.maxBlockEntries = 7;
        TestCert twin = merged.copy();
        twin.rootMover = eMover;
        twin.rootOpponent = eOcc & ~eMover;
        twin.rootValue = s.value(eMover, eOcc & ~eMover);
        twin.rootUpper = twin.rootValue;
        Path file = write("extra-subtree.gsc", merged);
        Path twinFile = write("extra-subtree-twin.gsc", twin);
        assertEquals(Files.size(file), Files.size(twinFile));
        discsE = layerE;
        return new Path[] {file, twinFile};
    }

    /**
     * Attack 5 (--strict, R-REACH-1): the header of attack 3 used to seed the root's flags
     * elsewhere. A weak (mode 2) certificate holds, besides the root's tree, the valid subtree
     * of a position E that the root does not reach (its entries counted in the trailer's
     * auxiliary census, so the file verifies without --strict but not with it). E is entry 0 of
     * its layer, the index the Layout names for the root. The slice of E's layer that holds
     * entry 0 is checked by a kernel that read a twin header naming E as the root: that kernel
     * seeds entry 0 with the root's flags (REACHED), and its honest marks carry REACHED to the
     * whole subtree, so no entry is unreached.
     */
    @Test
    void closedStrictUnreachedHiddenByAnotherRoot() throws Exception {
        Path[] f = extraSubtree();
        Path file = f[0], twinFile = f[1];
        int layerE = discsE;
        Result plain = single(file, false);
        assertEquals(Result.Verdict.VERIFIED, plain.verdict, show(plain));
        Result expected = single(file, true);
        assertEquals(Result.Verdict.REJECTED, expected.verdict, show(expected));
        final int discsE = layerE;
        SliceCheck swap = (job, sl, sizeBelow, under, answers, marks) -> {
            int d;
            try (Container ct = new Container(Path.of(job.file))) {
                d = Slices.sliceKernel(ct, job).discs(sl.li());
            }
            boolean seedHere = d == discsE && sl.base() == 0 && sl.first() > 0;
            return Slices.check(seedHere ? new Slices.Job(twinFile, job.layout, job.strict) : job,
                    sl, sizeBelow, under, answers, marks);
        };
        Result honest = verifyWith(file, new AttackEngine(20, Slices::check), true);
        assertEquals(Result.Verdict.REJECTED, honest.verdict, show(honest));
        Result r = verifyWith(file, new AttackEngine(20, swap), true);
        assertEngineFault(r);
        expected("strict, root seeded elsewhere: E at " + discsE + " discs; single machine "
                + show(expected) + " unreached " + expected.unreached + "; sliced " + show(r)
                + " unreached " + r.unreached);
    }

    /**
     * Prints what an attack got, once checked: "expected: ..." (its ERROR and REJECTED lines in the
     * test log are the outcomes the test wants, not failures).
     */
    static void expected(String line) {
        System.out.println("expected: " + line);
    }

    /** The attack is an engine fault (it was a false VERIFIED before the fixes of the review). */
    static void assertEngineFault(Result r) {
        assertEquals(Result.Verdict.ERROR, r.verdict, show(r));
        assertTrue(r.errorMessage.startsWith("engine fault: "), show(r));
    }

    // ------------------------------------------------------------------ attacks that are caught

    Path bad() throws IOException {
        return write("bad.gsc", wrongValue(othello(7), 8));
    }

    void assertCaught(Path file, Options.SlicedPass2 engine, boolean strict, String how) {
        Result expected = single(file, strict);
        assertNotEquals(Result.Verdict.VERIFIED, expected.verdict, how + ": the target verifies");
        Result r = verifyWith(file, engine, strict);
        assertNotEquals(Result.Verdict.VERIFIED, r.verdict, how + ": " + show(r));
        expected("caught (" + how + "): " + show(r));
    }

    /** The results of every slice of an honest run on the valid twin, by layer. */
    Map<Integer, List<SliceResult>> resultsOf(Path good) {
        Map<Integer, List<SliceResult>> got = new HashMap<>();
        AttackEngine e = new AttackEngine(20, Slices::check);
        e.results = (li, r) -> {
            got.put(li, r);
            return r;
        };
        assertEquals(Result.Verdict.VERIFIED, verifyWith(good, e, false).verdict);
        return got;
    }

    @Test
    void caughtResultsOfAnotherFile() throws Exception {
        Path good = write("good.gsc", othello(7));
        Map<Integer, List<SliceResult>> other = resultsOf(good);
        AttackEngine e = new AttackEngine(20, Slices::check);
        e.results = (li, r) -> other.getOrDefault(li, r);
        assertCaught(bad(), e, false, "slice results of the valid file for the wrong one");
        // and only the layer whose slice found the violation
        AttackEngine e2 = new AttackEngine(20, Slices::check);
        e2.results = (li, r) -> {
            for (SliceResult x : r) if (x.violation() != null) return other.getOrDefault(li, r);
            return r;
        };
        assertCaught(bad(), e2, false, "one layer's results from the valid file");
    }

    @Test
    void caughtLayoutOfAnotherFile() throws Exception {
        Path good = write("good.gsc", othello(7));
        Slices.Job[] goodJob = new Slices.Job[1];
        AttackEngine grab = new AttackEngine(20, (job, sl, sb, under, a, m) -> {
            goodJob[0] = job;
            return Slices.check(job, sl, sb, under, a, m);
        });
        assertEquals(Result.Verdict.VERIFIED, verifyWith(good, grab, false).verdict);
        assertCaught(bad(), new AttackEngine(20, (job, sl, sb, under, a, m) -> Slices.check(
                new Slices.Job(Path.of(job.file), goodJob[0].layout, job.strict), sl, sb, under, a, m)),
                false, "slice kernels adopt the valid file's layout");
        assertCaught(bad(), new AttackEngine(20, (job, sl, sb, under, a, m) -> Slices.check(
                new Slices.Job(good, goodJob[0].layout, job.strict), sl, sb, under, a, m)),
                false, "slices checked on the valid file with its layout");
    }

    @Test
    void caughtResultsMovedBetweenLayersOrRepeated() throws Exception {
        Map<Integer, List<SliceResult>> seen = new HashMap<>();
        AttackEngine e = new AttackEngine(20, Slices::check);
        e.results = (li, r) -> {
            seen.put(li, r);
            return seen.containsKey(li + 1) && r.stream().anyMatch(x -> x.violation() != null)
                    ? seen.get(li + 1) : r;
        };
        assertCaught(bad(), e, false, "a layer's results replaced by the layer above's");
        AttackEngine e2 = new AttackEngine(20, Slices::check);
        e2.results = (li, r) -> r.stream().filter(x -> x.violation() == null).toList();
        assertCaught(bad(), e2, false, "the slice with the violation dropped");
    }

    @Test
    void caughtLayersOutOfOrderOrSkipped() throws Exception {
        Path file = bad();
        AttackEngine skip = new AttackEngine(20, Slices::check);
        skip.before = k -> skip.order = new int[] {k.layers() - 1};
        assertCaught(file, skip, false, "only the top layer joined");
        AttackEngine none = new AttackEngine(20, Slices::check);
        none.order = new int[0];
        assertCaught(file, none, false, "no layer joined");
        AttackEngine deepFirst = new AttackEngine(20, Slices::check);
        deepFirst.before = k -> {
            deepFirst.order = new int[k.layers()];
            for (int i = 0; i < k.layers(); i++) deepFirst.order[i] = i;
        };
        assertCaught(file, deepFirst, false, "deepest layer first");
        AttackEngine twice = new AttackEngine(20, Slices::check);
        twice.before = k -> twice.order = new int[] {k.layers() - 1, k.layers() - 1};
        assertCaught(file, twice, false, "one layer joined twice");
    }

    @Test
    void caughtWholeLayerMixedWithSlices() throws Exception {
        AttackEngine e = new AttackEngine(20, Slices::check);
        e.before = k -> {
            k.layout();
            LayerCheck lc = k.beginLayer(k.layers() - 1); // then slices for the same layers
        };
        assertCaught(bad(), e, false, "a whole layer begun, then the layers joined");
    }

    @Test
    void caughtTwoSlicesOnOneKernelOrAnEarlyEnd() throws Exception {
        // one kernel, two slices: refused by beginSlice
        Path file = bad();
        AttackEngine two = new AttackEngine(20, (job, sl, sb, under, a, m) -> {
            try (Container ct = new Container(Path.of(job.file))) {
                Kernel k = Slices.sliceKernel(ct, job);
                k.beginSlice(sl.li(), sl.first(), sl.end());
                k.beginSlice(sl.li(), sl.first(), sl.end());
            }
            return Slices.check(job, sl, sb, under, a, m);
        });
        assertCaught(file, two, false, "two slices on one kernel");
        // the check ended after the slice's first block
        AttackEngine early = new AttackEngine(20, (job, sl, sb, under, answers, marks) -> {
            Table table = new Table(answers);
            Slices.MarkBatch in = Slices.merge(marks);
            try (Container ct = new Container(Path.of(job.file))) {
                Kernel kernel = Slices.sliceKernel(ct, job);
                LayerCheck lc = kernel.beginSlice(sl.li(), sl.first(), sl.end());
                lc.receive(in.index, in.digest, in.bits, in.n);
                EntryChecker c = kernel.newChecker(true);
                LayerPass pass = lc.pass(KeyRange.whole(sb), sb > 0 ? table : ChildLookup.NONE);
                Payload p = kernel.reload(ct, sl.first(), null);
                int m = pass.block(sl.first(), p);
                if (m > 0) {
                    pass.check(c, 0, m);
                    pass.endBlock(c);
                }
                pass.end();
                return new Slices.Checked(lc.endSlice(), Slices.split(lc.marks(), under));
            }
        });
        assertCaught(file, early, false, "a slice ended after its first block");
        // a count of marks larger than the arrays that hold them: refused by name
        AttackEngine counted = new AttackEngine(20, (job, sl, sb, under, answers, marks) -> {
            try (Container ct = new Container(Path.of(job.file))) {
                Kernel kernel = Slices.sliceKernel(ct, job);
                LayerCheck lc = kernel.beginSlice(sl.li(), sl.first(), sl.end());
                Kernel.EngineFault f = assertThrows(Kernel.EngineFault.class,
                        () -> lc.receive(new long[1], new long[1], new byte[1], 3));
                assertTrue(f.getMessage().contains("shorter arrays"), f.getMessage());
            }
            return Slices.check(job, sl, sb, under, answers, marks);
        });
        assertCaught(file, counted, false, "more marks counted than given");
    }

    @Test
    void caughtAnotherHeaderForBlockZero() throws Exception {
        TinySolver s1 = new TinySolver(1, 4, 4, 1, null);
        long[] start = s1.othelloStart();
        int[] identity = s1.build(start[0], start[1], 1).tb;
        int[] reversed = new int[identity.length];
        for (int i = 0; i < identity.length; i++) reversed[i] = identity[identity.length - 1 - i];
        TestCert other = new TinySolver(1, 4, 4, 1, reversed).build(start[0], start[1], 1);
        other.maxBlockEntries = 7;
        TestCert claimed = other.copy();
        claimed.tb = identity.clone();
        Path bad = write("tb-identity.gsc", claimed);
        Path twin = write("tb-reversed.gsc", other);
        assertCaught(bad, new AttackEngine(20, (job, sl, sb, under, a, m) -> Slices.check(
                new Slices.Job(twin, job.layout, job.strict), sl, sb, under, a, m)), false,
                "every slice, block 0's too, on the twin header");
    }

    @Test
    void caughtAbsentAnswersAndForeignKeys() throws Exception {
        Path file = bad();
        // every answer "absent": the kernel knows less, rejects
        assertCaught(file, new AttackEngine(20, (job, sl, sb, under, a, m) ->
                Slices.check(job, sl, sb, under, List.of(), m)), false, "every answer absent");
        // answers of another slice (other keys) added: never asked, no change
        assertCaught(file, new AttackEngine(20, (job, sl, sb, under, a, m) -> {
            List<Slices.Answers> more = new ArrayList<>(a);
            for (Slices.Answers x : a) {
                Slices.Answers y = new Slices.Answers(x.parent, x.n);
                for (int j = 0; j < x.n; j++) {
                    y.occ[j] = x.occ[j];
                    y.mover[j] = x.mover[j] ^ 1;
                    y.index[j] = x.index[j];
                    y.kind[j] = x.kind[j];
                    y.lo[j] = x.lo[j];
                    y.hi[j] = x.hi[j];
                }
                y.n = x.n;
                more.add(y);
            }
            return Slices.check(job, sl, sb, under, more, m);
        }), false, "answers for keys not asked");
    }

    /** A weak (mode 2) certificate with one entry of the given discs claiming wrong bounds. */
    static TestCert weakWrongBounds(int blockEntries, int discs) {
        TinySolver s = new TinySolver(1, 4, 4, 1, null);
        long[] start = s.othelloStart();
        TestCert t = s.build(start[0], start[1], 2);
        t.maxBlockEntries = blockEntries;
        for (TestCert.Entry e : t.entries)
            if (e.layer() == discs) {
                int v = e.lo + (e.lo <= 0 ? 2 : -2);
                e.lo = e.hi = v;
                return t;
            }
        throw new AssertionError();
    }

    /**
     * Attack 6 (forget the violation): Kernel.beginPass2() is public and sets found = null; an
     * engine calls it after the layer whose slice found the violation was joined. The layer's
     * sums are not checked (a slice stopped), later layers' are (found is null again) and hold,
     * and endPass2 has no violation to report. In a weak certificate no flag carries a need, so
     * the entries the stopped slice did not check change no census row.
     */
    @Test
    void closedBeginPass2ForgetsTheViolation() throws Exception {
        Path bad = write("weak-wrong.gsc", weakWrongBounds(7, 8));
        Result expected = single(bad, false);
        assertEquals(Result.Verdict.REJECTED, expected.verdict, show(expected));
        AttackEngine e = new AttackEngine(20, Slices::check);
        e.after = Kernel::beginPass2;
        Result r = verifyWith(bad, e, false);
        assertEngineFault(r);
        expected("beginPass2 (slices): single machine " + show(expected) + "; sliced " + show(r));
        // and on the whole-layer path
        WholeEraseEngine w = new WholeEraseEngine();
        w.resetFound = true;
        Result r2 = verifyWith(bad, w, false);
        assertEngineFault(r2);
        expected("beginPass2 (whole layers): " + show(r2));
    }

    /**
     * Attack 7 (the driver reads another header): Kernel.header is public and may be called
     * again after pass 1; it replaces the TB order (and every other header field) and the chain
     * start h_0 (only block 0 is decoded against it, so the engine reads the file's own header
     * back before the layer that holds block 0). Shown on the whole-layer path with the TB twin of
     * attack 3.
     */
    @Test
    void closedDriverReadsAnotherHeader() throws Exception {
        TinySolver s1 = new TinySolver(1, 4, 4, 1, null);
        long[] start = s1.othelloStart();
        int[] identity = s1.build(start[0], start[1], 1).tb;
        int[] reversed = new int[identity.length];
        for (int i = 0; i < identity.length; i++) reversed[i] = identity[identity.length - 1 - i];
        TestCert other = new TinySolver(1, 4, 4, 1, reversed).build(start[0], start[1], 1);
        TestCert claimed = other.copy();
        claimed.tb = identity.clone();
        Path bad = write("tb-identity.gsc", claimed);
        Path twin = write("tb-reversed.gsc", other);
        Result expected = single(bad, false);
        assertEquals(Result.Verdict.REJECTED, expected.verdict, show(expected));
        WholeEraseEngine w = new WholeEraseEngine();
        w.reheader = twin;
        Result r = verifyWith(bad, w, false);
        assertEngineFault(r);
        expected("driver re-reads a header (whole layers): single machine " + show(expected) + "; " + show(r));
    }

    static long digest(long occ, long mover, int kind, int lo, int hi) { // Marks.digest, copied
        long h = mix(0x243F6A8885A308D3L, occ);
        h = mix(h, mover);
        return mix(h, ((long) (kind & 0xFF) << 48) ^ ((long) (lo & 0xFFFF) << 16) ^ (hi & 0xFFFF));
    }

    static long mix(long h, long v) {
        h = (h ^ v) * 0x9E3779B97F4A7C15L;
        h = (h ^ (h >>> 32)) * 0xD6E8FEB86659FD93L;
        return h ^ (h >>> 32);
    }

    /**
     * Attack 6, worse (--strict): once the kernel holds a violation (found), JoinedLayer checks
     * no layer's mark sums; the engine provokes one at the top layer (every answer "absent"),
     * then sends every entry of every deeper slice a forged mark REACHED (its digest computed
     * from the record, as Marks.digest does), and calls beginPass2() after the last layer. Every
     * unreached entry is hidden (and with need bits any region count could be made).
     */
    @Test
    void closedForgedMarksWhileAViolationIsHeldThenForgotten() throws Exception {
        Path file = extraSubtree()[0];
        Result expected = single(file, true);
        assertEquals(Result.Verdict.REJECTED, expected.verdict, show(expected));
        int[] top = {-1};
        AttackEngine e = new AttackEngine(20, (job, sl, sb, under, answers, marks) -> {
            if (sl.li() == top[0]) return Slices.check(job, sl, sb, under, List.of(), marks);
            Slices.MarkBatch forged = new Slices.MarkBatch(sl.id(), (int) sl.count());
            try (Container ct = new Container(Path.of(job.file))) {
                Kernel k = Slices.sliceKernel(ct, job);
                Payload p = null;
                for (int b = sl.first(); b < sl.end(); b++) {
                    p = k.reload(ct, b, p);
                    for (int i = 0; i < p.count; i++) {
                        forged.index[forged.n] = sl.base() + forged.n;
                        forged.digest[forged.n] = digest(p.occ[i], p.mover[i], p.kind[i], p.lo[i], p.hi[i]);
                        forged.bits[forged.n++] = 0x08; // REACHED
                    }
                }
            }
            return Slices.check(job, sl, sb, under, answers, List.of(forged));
        });
        e.before = k -> top[0] = k.layers() - 1;
        e.after = k -> {
            if (--e.joinedLeft == 0) k.beginPass2();
        };
        e.joinedLeft = -1;
        e.before = k -> {
            top[0] = k.layers() - 1;
            e.joinedLeft = k.layers();
        };
        Result r = verifyWith(file, e, true);
        assertEngineFault(r);
        expected("forged marks, violation forgotten (--strict): single machine " + show(expected)
                + " unreached " + expected.unreached + "; sliced " + show(r) + " unreached " + r.unreached);
    }

    @Test
    void honestAttackEngineAgrees() throws Exception {
        Path good = write("good.gsc", othello(7));
        Result r = verifyWith(good, new AttackEngine(20, Slices::check), true);
        assertEquals(Result.Verdict.VERIFIED, r.verdict, show(r));
        Path bad = write("bad.gsc", wrongValue(othello(7), 8));
        assertEquals(Result.Verdict.REJECTED,
                verifyWith(bad, new AttackEngine(20, Slices::check), false).verdict);
    }
}

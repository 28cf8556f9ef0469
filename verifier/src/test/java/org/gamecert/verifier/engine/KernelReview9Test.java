package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.gamecert.verifier.kernel.ChildLookup;
import org.gamecert.verifier.kernel.Composition;
import org.gamecert.verifier.kernel.EntryChecker;
import org.gamecert.verifier.kernel.Kernel;
import org.gamecert.verifier.kernel.KeyRange;
import org.gamecert.verifier.kernel.LayerCheck;
import org.gamecert.verifier.kernel.LayerPass;
import org.gamecert.verifier.kernel.PartConclusion;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.Violation;
import org.gamecert.verifier.kernel.format.BlockRecord;
import org.gamecert.verifier.kernel.format.Container;
import org.gamecert.verifier.kernel.format.Manifest;
import org.gamecert.verifier.kernel.format.Payload;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TestComposite;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review 9 of the kernel (after 1d9a879, GC-2026-15): whether the seven fixes of review 8 are
 * complete, and other ways for an engine to a false VERIFIED through the kernel's public API.
 * Each test stages one hole and asserts the correct behaviour, so it fails while the hole is
 * open:
 * <ul>
 * <li>a block's link to the chain value before it is Payload.chainBefore, a field the engine
 * writes: blocks of another file taken under this header, its commitment VERIFIED (review 8's
 * fix 5, the chain values, is incomplete);</li>
 * <li>LayerPass.endBlock tiles a clone of the engine's array and takes the workers' violations
 * from the array itself (a race: a false root value VERIFIED);</li>
 * <li>Manifest.parse reads the caller's array, then hashes it (a race: a composite whose part is
 * false VERIFIED under its own id);</li>
 * <li>Composition.decide checks concluded[i] and takes it by separate reads (a race: a composite
 * with undischarged open entries VERIFIED);</li>
 * <li>LayerPass.check reads past the block's kept entries into the kernel's reused copy: stale
 * entries checked under later entries' flags (a false census VERIFIED, deterministic).</li>
 * </ul>
 */
@Tag("slow")
class KernelReview9Test {
    @TempDir
    Path dir;

    Path write(byte[] file, String name) throws Exception {
        Path p = dir.resolve(name);
        Files.write(p, file);
        return p;
    }

    static byte[] sha(int prefix, byte[] data) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        md.update((byte) prefix);
        md.update(data);
        return md.digest();
    }

    // ------------------------------------------------------------------ hole 1: the chain's link

    /**
     * An engine that checks one file's blocks (and header) and hands the kernel the block records
     * and trailer of another. In pass 1 the engine picks the records (admitBlockRecord takes any
     * BlockRecord, e.g. one a Container on another file read), decode checks h_i against the
     * prevChain the engine passes (not the kernel's), and startBlock binds the block to the chain
     * before it only by Payload.chainBefore, a public field the engine writes: the seal binds the
     * entries to h_i, nothing binds h_i to h_{i-1}. So the engine decodes F2's blocks against F2's
     * chain, writes the kernel's own chain value (which admitBlockRecord just returned) into
     * chainBefore, and hands them over; the kernel checks their entries under F1's header and then
     * hashes F2's trailer after F2's last chain value: VERIFIED with F2's commitment.
     *
     * <p>F1 is a valid 4x4 Othello certificate (root value v); F2 has the very same blocks and
     * trailer rows under a header that claims v + 2: a false certificate (the reference verifier
     * rejects it, R-ROOT-2). The attack gets "VERIFIED sha256:F2" (and a PartConclusion with F2's
     * commitment and F1's claim, which is what a composite trusts). A fix: decode seals the
     * prevChain it checked with (seal over h_{i-1}, h_i and the digest), and startBlock checks the
     * seal with the kernel's own h_{i-1}, never Payload.chainBefore.
     */
    @Test
    void aBlockIsTakenOnlyChainedToTheKernelsOwnChainValue() throws Exception {
        TestCert t1 = KernelReview8Test.valid4x4();
        t1.chunk = 4;
        TestCert t2 = t1.copy();
        t2.chunk = 4;
        t2.rootValue = t1.rootValue + 2; // a false claim, same blocks
        byte[] f1 = t1.write(), f2 = t2.write();
        Path p1 = write(f1, "true.gsc"), p2 = write(f2, "false.gsc");
        assertEquals(Result.Verdict.VERIFIED, Verifier.verify(p1, new Options()).verdict);
        Result ref = Verifier.verify(p2, new Options());
        assertEquals(Result.Verdict.REJECTED, ref.verdict, "F2 claims a false root value");
        assertEquals(Result.Verdict.VERIFIED, splice(p1, p1, t1.headerContent()).verdict,
                "the engine, honest (one file)");

        Result attack = splice(p1, p2, t2.headerContent());
        assertTrue(attack.verdict != Result.Verdict.VERIFIED
                || !TestCert.commitmentOf(f2).equals(attack.commitment),
                "the false certificate F2 (" + TestCert.commitmentOf(f2) + ", root value "
                + t2.rootValue + ", true " + t1.rootValue + ") VERIFIED: its blocks were taken"
                + " under F1's header, chained by a chainBefore the engine wrote");
        assertNotEquals(Result.Verdict.VERIFIED, attack.verdict, attack.errorMessage);
    }

    /**
     * The splicing engine: the header from headerFile, block records, data frames and trailer
     * from blockFile (whose own header content is blockHeader), each block decoded against
     * blockFile's chain and then given the kernel's chain value in chainBefore. Pass 2 with the
     * layer below whole and honest answers, one checker.
     */
    static Result splice(Path headerFile, Path blockFile, byte[] blockHeader) throws Exception {
        Result res = new Result();
        try (Container hc = new Container(headerFile); Container bc = new Container(blockFile)) {
            Kernel kernel = new Kernel(res, false, false, 10, () -> { });
            try {
                kernel.header(hc);
                bc.readHeaderContent();
                byte[] prev = sha(0, blockHeader); // blockFile's h_0
                List<Payload> blocks = new ArrayList<>();
                BlockRecord rec;
                while ((rec = bc.nextBlockRecord()) != null) {
                    byte[] before = kernel.admitBlockRecord(rec); // the kernel's h_{i-1}
                    Payload p = kernel.decode(rec, bc.readDataFrame(rec), prev, null);
                    p.chainBefore = before;
                    kernel.startBlock(rec, p);
                    kernel.acceptBlock(rec, p);
                    Payload keep = new Payload(p.count);
                    keep.block = p.block;
                    System.arraycopy(p.occ, 0, keep.occ, 0, p.count);
                    System.arraycopy(p.mover, 0, keep.mover, 0, p.count);
                    System.arraycopy(p.kind, 0, keep.kind, 0, p.count);
                    System.arraycopy(p.lo, 0, keep.lo, 0, p.count);
                    System.arraycopy(p.hi, 0, keep.hi, 0, p.count);
                    System.arraycopy(p.move, 0, keep.move, 0, p.count);
                    blocks.add(keep);
                    prev = rec.chain();
                }
                kernel.endPass1();
                kernel.endStreaming();
                kernel.beginPass2();
                EntryChecker c = kernel.newChecker(false);
                for (int li = kernel.layers() - 1; li >= 0; li--) {
                    int below = kernel.below(li);
                    Map<Long, long[]> table = new HashMap<>();
                    if (below >= 0) {
                        long index = 0;
                        for (int b = kernel.firstBlock(below); b < kernel.endBlock(below); b++) {
                            Payload q = blocks.get(b);
                            for (int i = 0; i < q.count; i++)
                                table.put(KernelReview7Test.key(q.occ[i], q.mover[i]),
                                        new long[] {q.kind[i] & 0xFF, q.lo[i], q.hi[i], index++});
                        }
                    }
                    ChildLookup lookup = (occ, mover, a) -> KernelReview7Test.answer(table, occ,
                            mover, a);
                    LayerCheck lc = kernel.beginLayer(li);
                    LayerPass pass = lc.pass(KeyRange.whole(below >= 0 ? kernel.size(below) : 0),
                            lookup);
                    for (int b = kernel.firstBlock(li); b < kernel.endBlock(li); b++) {
                        int m = pass.block(b, blocks.get(b));
                        if (m < 0) break;
                        pass.check(c, 0, m);
                        pass.endBlock(c);
                    }
                    pass.end();
                    lc.finish();
                }
                return KernelReview7Test.end(kernel, bc, res);
            } catch (Kernel.Stop | Kernel.EngineFault stopped) {
                return KernelReview7Test.verdictOf(res, stopped);
            }
        }
    }

    // ------------------------------------------------------------------ hole 2: endBlock's array

    /**
     * LayerPass.endBlock(EntryChecker... used) checks that the ranges tile the block on a clone
     * of the engine's array, and then takes the workers' violations (c.first) from the engine's
     * array itself, read again. A worker keeps its violation only in c.first (it throws Stop and
     * its range counts as checked), so an engine thread that, between the two reads, replaces
     * the worker that found the violation by a checker with none (here one whose range was empty)
     * has the block ended, tiled, with no violation: the worker stopped at the violating entry,
     * so that entry (and any after it in its range) is never checked either, and nothing is
     * found. The certificate is a valid 4x4 Othello one with the root's value made false (+2,
     * R-P-1 at the root, the header's claim with it); the engine checks the root's block with a
     * worker and ends it with that worker and a few hundred checkers of empty ranges [m, m) (to
     * widen the window), while a thread swaps element 0 of the array. At most ~6 s; while the
     * hole is open the false root value is VERIFIED within a few dozen runs. A fix: endBlock takes
     * the violations from its clone (byStart), never from the engine's array.
     */
    @Test
    void endBlockTakesTheViolationsFromWhatItTiled() throws Exception {
        TestCert t = KernelReview8Test.valid4x4();
        TestCert.Entry root = t.find(t.rootMover | t.rootOpponent, t.rootMover);
        assertTrue(root != null && (root.kind & TestCert.P) != 0, "the root's entry, P");
        int falseValue = t.rootValue + 2;
        root.lo = root.hi = falseValue;
        t.rootValue = falseValue;
        Path p = write(t.write(), "false-root.gsc");
        Result ref = Verifier.verify(p, new Options());
        assertEquals(Result.Verdict.REJECTED, ref.verdict, "the root's value is false");
        assertEquals(Result.Verdict.REJECTED, runEndBlock(p, false).verdict, "this engine, honest");
        int verified = 0, runs = 0;
        long until = System.nanoTime() + 6_000_000_000L;
        while (runs < 2000 && System.nanoTime() < until && verified == 0) {
            runs++;
            if (runEndBlock(p, true).verdict == Result.Verdict.VERIFIED) verified++;
        }
        assertEquals(0, verified, "a false root value VERIFIED (" + runs + " runs): the worker"
                + " that found R-P-1 was swapped out of endBlock's array after the tiling check");
    }

    /**
     * Pass 1 honest; pass 2 with the layer below whole, honest answers, each block checked by a
     * worker; when race is set, the first block of pass 2 (the root's: its layer is checked
     * first) is ended with the worker and 300 checkers of empty ranges while a thread swaps the
     * array's element 0 between the worker and one of those.
     */
    static Result runEndBlock(Path path, boolean race) throws Exception {
        Result res = new Result();
        try (Container ct = new Container(path)) {
            Kernel kernel = KernelReview7Test.pass1(ct, res);
            try {
                KernelReview7Test.readBlocks(kernel, ct);
                kernel.beginPass2();
                EntryChecker[] empty = new EntryChecker[race ? 300 : 0];
                for (int e = 0; e < empty.length; e++) empty[e] = kernel.newChecker(true);
                EntryChecker w = kernel.newChecker(true);
                boolean raced = false;
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
                        pass.check(w, 0, m);
                        if (!race || raced) {
                            pass.endBlock(w);
                            continue;
                        }
                        raced = true;
                        EntryChecker[] used = new EntryChecker[1 + empty.length];
                        used[0] = w;
                        for (int e = 0; e < empty.length; e++) {
                            pass.check(empty[e], m, m);
                            used[1 + e] = empty[e];
                        }
                        java.util.concurrent.atomic.AtomicBoolean stop =
                                new java.util.concurrent.atomic.AtomicBoolean();
                        java.util.concurrent.CountDownLatch started =
                                new java.util.concurrent.CountDownLatch(1);
                        java.lang.invoke.VarHandle slot =
                                java.lang.invoke.MethodHandles.arrayElementVarHandle(
                                        EntryChecker[].class);
                        Thread swapper = new Thread(() -> {
                            started.countDown();
                            while (!stop.get()) {
                                slot.setOpaque(used, 0, empty[0]);
                                Thread.onSpinWait();
                                slot.setOpaque(used, 0, w);
                                Thread.onSpinWait();
                            }
                        });
                        swapper.start();
                        started.await();
                        try {
                            pass.endBlock(used);
                        } finally {
                            stop.set(true);
                            swapper.join();
                        }
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

    // ------------------------------------------------------------------ hole 3: Manifest.parse

    /**
     * Manifest.parse(byte[]) (kernel code: the manifest reader, SPEC §11.1 "Composites") parses
     * the caller's array in place: it copies the parts' commitments and reads the links from it
     * first, and hashes it for R-MAN-2 (the composite id) last. An engine thread that writes into
     * the array meanwhile gets a Manifest whose parts are not those its id commits to. Here the
     * composite A names a false part F as part 1 (F claims its root's value + 2; the reference
     * verifier rejects F and so A: R-COMP-1); the array holds A's bytes with F's commitment
     * swapped, back and forth, for the true part T's (same root, the true value). When the copy
     * reads T and the hash reads F, parse returns a manifest with id(A) and parts {P0, T}, and
     * Composition.decide, given the kernel's own conclusions for P0 and T, says VERIFIED with
     * A's id. At most ~6 s; while the hole is open this happens within a few thousand tries.
     * A fix: parse (and the constructor) work on a copy of the caller's bytes.
     */
    @Test
    void aManifestIsParsedFromTheBytesItsIdCommitsTo() throws Exception {
        TinySolver s = new TinySolver(1, 4, 4, 1, null);
        long[] start = s.othelloStart();
        TestComposite comp = TestComposite.split(s, start[0], start[1], 1, 5);
        assertEquals(2, comp.parts.size(), "a root part and one part for its open entry");
        TestComposite.Part root = comp.parts.get(0), truePart = comp.parts.get(1);
        TestCert falseCert = truePart.cert.copy();
        falseCert.rootValue += 2;
        falseCert.rootUpper = falseCert.rootValue;
        TestComposite.Part falsePart = new TestComposite.Part(falseCert);
        Result r0 = Verifier.verify(write(root.bytes, "root.gsc"), new Options());
        Result rt = Verifier.verify(write(truePart.bytes, "true.gsc"), new Options());
        Result rf = Verifier.verify(write(falsePart.bytes, "false.gsc"), new Options());
        assertEquals(Result.Verdict.INCOMPLETE, r0.verdict, "the root part has an open entry");
        assertEquals(Result.Verdict.VERIFIED, rt.verdict);
        assertEquals(Result.Verdict.REJECTED, rf.verdict, "the false part");
        PartConclusion[] given = {r0.conclusion, rt.conclusion};

        byte[] honest = comp.manifest(); // parts {P0, T}
        comp.parts.set(1, falsePart);
        byte[] composite = comp.manifest(); // A: parts {P0, F}
        String idA = comp.compositeId();
        Manifest a = Manifest.parse(composite.clone());
        assertEquals(idA, a.compositeId());
        Composition.Outcome honestA = Composition.decide(a, new PartConclusion[] {r0.conclusion,
            null}, new Violation[] {null, rf.firstViolation()});
        assertEquals(Result.Verdict.REJECTED, honestA.verdict, "A names the false part");

        int partAt = 8 + 4 + 2 + 4 + 32; // part 1's commitment in the file
        byte[] fBytes = java.util.Arrays.copyOfRange(composite, partAt, partAt + 32);
        byte[] tBytes = java.util.Arrays.copyOfRange(honest, partAt, partAt + 32);
        assertTrue(java.util.Arrays.equals(tBytes, truePart.commitment()));
        java.lang.invoke.VarHandle at =
                java.lang.invoke.MethodHandles.arrayElementVarHandle(byte[].class);
        byte[] f = composite.clone();
        java.util.concurrent.atomic.AtomicBoolean stop =
                new java.util.concurrent.atomic.AtomicBoolean();
        Thread writer = new Thread(() -> {
            while (!stop.get()) {
                for (int i = 0; i < 32; i++) at.setOpaque(f, partAt + i, tBytes[i]);
                for (int i = 0; i < 32; i++) at.setOpaque(f, partAt + i, fBytes[i]);
            }
        });
        writer.start();
        int tries = 0, forged = 0, verified = 0;
        long until = System.nanoTime() + 6_000_000_000L;
        try {
            while (System.nanoTime() < until && verified == 0) {
                tries++;
                Manifest m;
                try {
                    m = Manifest.parse(f);
                } catch (org.gamecert.verifier.kernel.format.FormatException e) {
                    continue; // R-MAN-2: the bytes hashed were not those read
                }
                if (!m.compositeId().equals(idA)
                        || !java.util.Arrays.equals(m.part(1), truePart.commitment()))
                    continue;
                forged++;
                if (Composition.decide(m, given, new Violation[2]).verdict
                        == Result.Verdict.VERIFIED)
                    verified++;
            }
        } finally {
            stop.set(true);
            writer.join();
        }
        assertEquals(0, verified, "composite " + idA + ", whose part 1 is a false certificate,"
                + " VERIFIED (" + tries + " tries, " + forged + " manifests with A's id and T as"
                + " part 1)");
    }

    // ------------------------------------------------------------------ hole 4: decide's arrays

    /**
     * Composition.decide(m, concluded, rejected) reads concluded[i] from the engine's array once
     * for each check (not null, the commitment, openEntriesFor) and once more to take it. A part's
     * conclusion kept for another manifest holds only the open entries that manifest's links name
     * and the first that none names, so composition takes it only for that manifest
     * (openEntriesFor); an engine thread that swaps concluded[0] between the root part's
     * conclusion checked alone (all its open entries kept) and one kept for another manifest m2
     * (which names E1 only: E1 and E2 kept, E3 and E4 only counted) gets the latter taken for m.
     * m links E1 and E2 only: E3 and E4 are discharged by no link (R-COMP-3; the reference
     * composition rejects m), yet with the m2 conclusion, step 3 sees only E1 and E2: VERIFIED,
     * with two open claims of the root part proven by nothing. The race runs in a JVM of its own
     * (staged there again) in which decide is not compiled, at most 5 s: compiled, the JIT may
     * merge the reads (nothing obliges it to). A fix: decide takes each array element once (a
     * clone of both arrays first).
     */
    @Test
    void compositionTakesEachConclusionAsItChecked() throws Exception {
        Staged st = stageDecide(dir);
        Composition.Outcome ref = Composition.decide(st.m, st.honest,
                new Violation[st.honest.length]);
        assertEquals(Result.Verdict.REJECTED, ref.verdict, "open entries of the root part that"
                + " no link of m discharges");
        assertEquals("R-COMP-3", ref.violation.rule());
        PartConclusion[] withKept = st.honest.clone();
        withKept[0] = st.kept;
        assertNotEquals(Result.Verdict.VERIFIED, Composition.decide(st.m, withKept,
                new Violation[st.honest.length]).verdict, "a conclusion kept for m2, not taken");
        // The race, in a JVM of its own in which decide is never compiled: compiled, its reads of
        // concluded[0] may be merged into one (they may as well not be: nothing orders them), and
        // the race would only be open for decide's first few hundred calls.
        Path childDir = Files.createDirectories(dir.resolve("child"));
        ProcessBuilder pb = new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:CompileCommand=quiet",
                "-XX:CompileCommand=exclude,org.gamecert.verifier.kernel.Composition::decide",
                "-cp", System.getProperty("java.class.path"), DecideRace.class.getName(),
                childDir.toString(), "5000");
        pb.redirectErrorStream(true);
        Process child = pb.start();
        String out;
        try {
            if (!child.waitFor(40, java.util.concurrent.TimeUnit.SECONDS))
                throw new AssertionError("the race's JVM did not end");
            out = new String(child.getInputStream().readAllBytes()).trim();
        } finally {
            child.destroyForcibly();
        }
        assertEquals(0, child.exitValue(), out);
        String last = out.substring(out.lastIndexOf('\n') + 1);
        assertTrue(last.startsWith("verified "), out);
        assertEquals("verified 0", last.substring(0, last.indexOf(" tries")), "composite "
                + st.m.compositeId() + " VERIFIED with open entries of its root part that no link"
                + " discharges: " + last);
    }

    /** The composite m, its parts' honest conclusions, and the root part's kept for m2. */
    record Staged(Manifest m, PartConclusion[] honest, PartConclusion kept) {}

    static Staged stageDecide(Path dir) throws Exception {
        TinySolver s = new TinySolver(1, 4, 4, 0, null);
        long[] start = s.othelloStart();
        TestComposite comp = TestComposite.split(s, start[0], start[1], 1, 5);
        TestComposite.Part root = comp.parts.get(0);
        List<long[]> rootLinks = new ArrayList<>();
        for (long[] l : comp.links) if (l[0] == 0) rootLinks.add(l);
        assertTrue(rootLinks.size() >= 3, "the root part has at least three open entries");
        // m: links for the first two open entries only; m2: the first only
        TestComposite mComp = sub(comp, rootLinks.subList(0, 2));
        TestComposite m2Comp = sub(comp, rootLinks.subList(0, 1));
        Manifest m = Manifest.parse(mComp.manifest()), m2 = Manifest.parse(m2Comp.manifest());
        Path rootFile = dir.resolve("root.gsc");
        Files.write(rootFile, root.bytes);
        Result alone = Verifier.verify(rootFile, new Options());
        Options asPartOfM2 = new Options();
        asPartOfM2.composite = m2;
        asPartOfM2.compositePart = 0;
        Result forM2 = Verifier.verify(rootFile, asPartOfM2);
        assertEquals(Result.Verdict.INCOMPLETE, alone.verdict);
        assertEquals(Result.Verdict.INCOMPLETE, forM2.verdict);
        assertTrue(forM2.conclusion.openKept() < alone.conclusion.openKept());
        PartConclusion[] honest = new PartConclusion[m.partCount()];
        honest[0] = alone.conclusion;
        for (int i = 1; i < mComp.parts.size(); i++) {
            Path f = dir.resolve("part" + i + ".gsc");
            Files.write(f, mComp.parts.get(i).bytes);
            Result r = Verifier.verify(f, new Options());
            assertTrue(r.conclusion != null, "part " + i + ": " + r.verdict);
            honest[i] = r.conclusion;
        }
        return new Staged(m, honest, forM2.conclusion);
    }

    /**
     * The race of compositionTakesEachConclusionAsItChecked: a thread swaps concluded[0] between
     * the root part's conclusion checked alone and the one kept for m2 while decide runs, for at
     * most args[1] ms or until a VERIFIED; prints "verified n tries t".
     */
    static final class DecideRace {
        public static void main(String[] args) throws Exception {
            Staged st = stageDecide(Path.of(args[0]));
            long millis = Long.parseLong(args[1]);
            PartConclusion good = st.honest[0], kept = st.kept;
            PartConclusion[] concluded = st.honest.clone();
            java.lang.invoke.VarHandle slot =
                    java.lang.invoke.MethodHandles.arrayElementVarHandle(PartConclusion[].class);
            java.util.concurrent.atomic.AtomicBoolean stop =
                    new java.util.concurrent.atomic.AtomicBoolean();
            java.util.concurrent.atomic.AtomicLong swaps =
                    new java.util.concurrent.atomic.AtomicLong();
            Thread swapper = new Thread(() -> {
                while (!stop.get()) {
                    slot.setOpaque(concluded, 0, kept);
                    slot.setOpaque(concluded, 0, good);
                    swaps.lazySet(swaps.get() + 1);
                }
            });
            swapper.start();
            while (swaps.get() < 100_000) Thread.onSpinWait();
            long tries = 0, verified = 0;
            long until = System.nanoTime() + millis * 1_000_000L;
            try {
                while (System.nanoTime() < until && verified == 0) {
                    tries++;
                    if (Composition.decide(st.m, concluded,
                            new Violation[concluded.length]).verdict == Result.Verdict.VERIFIED)
                        verified++;
                }
            } finally {
                stop.set(true);
                swapper.join();
            }
            System.out.println("verified " + verified + " tries " + tries);
        }
    }

    /** The composite of comp's root part with only the given links of it (and their parts). */
    static TestComposite sub(TestComposite comp, List<long[]> links) {
        TestComposite c = new TestComposite();
        c.parts.add(comp.parts.get(0));
        for (long[] l : links) {
            TestComposite.Part q = comp.parts.get((int) l[3]);
            int at = c.parts.indexOf(q);
            if (at < 0) {
                at = c.parts.size();
                c.parts.add(q);
            }
            c.links.add(new long[] {0, l[1], l[2], at});
        }
        c.sortParts();
        return c;
    }

    // ------------------------------------------------------------------ hole 5: stale entries

    /**
     * LayerPass.check(c, from, to) bounds its loop by the layer's size (b0 + i < limit), not by
     * the block's kept entries m, and reads entry i from the kernel's copy of the block, a buffer
     * it reuses from block to block (LayerPass.copy keeps it when it is long enough). So in a
     * block shorter than an earlier one of the pass, a checker given [m, m + x) checks the
     * earlier block's stale entries, each under the index b0 + i of a later entry of the layer:
     * with that later entry's flags. endBlock never sees that checker (the engine leaves it out:
     * a worker, its violations are dropped), but its check already marked the layer below: a
     * stale {C, A} entry checked with a region entry's flags passes needs P and A' to its
     * children, which the census then counts in the region (and whose flags pass needs further
     * down). The answers were honest, so their binding holds. Here: a valid 4x4 Othello
     * certificate, blocks of 8, 2, and the rest in every layer; the engine's census (counted with
     * the stale checks) is written into the trailer: the reference verifier rejects it
     * (R-CENSUS-1), the engine gets it VERIFIED. A fix: check refuses to < from or to > m (the
     * block's kept entries), and LayerPass never reads its copy past m.
     */
    @Test
    void aCheckReadsOnlyTheBlocksOwnEntries() throws Exception {
        TestCert t = KernelReview8Test.valid4x4();
        irregularBlocks(t);
        Result honest = runStale(write(t.write(), "valid.gsc"), false, new Result());
        assertEquals(Result.Verdict.VERIFIED, honest.verdict, honest.errorMessage);
        Result counted = new Result();
        Result probe = runStale(write(t.write(), "probe.gsc"), true, counted);
        if (counted.census.isEmpty()) { // the kernel refuses the stale checks: not staged
            assertEquals(Result.Verdict.ERROR, probe.verdict, probe.errorMessage);
            return;
        }
        assertEquals(honest.census.size(), counted.census.size());
        boolean differs = false;
        for (int r = 0; r < honest.census.size(); r++)
            differs |= honest.census.get(r)[1] != counted.census.get(r)[1];
        if (!differs) return; // the stale checks changed no count: nothing to stage
        t.census.clear();
        for (long[] row : counted.census) t.census.add(new long[] {row[0], row[1], row[2]});
        Path p = write(t.write(), "false-census.gsc");
        Result ref = Verifier.verify(p, new Options());
        assertEquals(Result.Verdict.REJECTED, ref.verdict);
        assertEquals("R-CENSUS-1", ref.violations.get(0).rule());
        Result attack = runStale(p, true, new Result());
        assertNotEquals(Result.Verdict.VERIFIED, attack.verdict, "a false census VERIFIED: stale"
                + " entries of an earlier block checked under later entries' flags");
    }

    /** Blocks of 8 and 2 entries at the start of every layer, the rest in one block. */
    static void irregularBlocks(TestCert t) {
        List<TestCert.Entry> list = new ArrayList<>(t.entries);
        list.sort(java.util.Comparator.comparingInt((TestCert.Entry e) -> -e.layer())
                .thenComparing((x, y) -> x.occ != y.occ ? Long.compareUnsigned(x.occ, y.occ)
                        : Long.compareUnsigned(x.mover, y.mover)));
        for (int i = 0; i < list.size(); i++) {
            int start = i;
            while (start > 0 && list.get(start - 1).layer() == list.get(i).layer()) start--;
            if (i - start == 8 || i - start == 10) t.splitBefore.add(i);
        }
    }

    /**
     * Pass 1 honest; pass 2 with the layer below whole, honest answers, one reporting checker;
     * when stale is set, in each block shorter than the longest before it in the pass (and not
     * the layer's last), a worker (never given to endBlock) checks [m, longest) as well.
     */
    static Result runStale(Path path, boolean stale, Result res) throws Exception {
        try (Container ct = new Container(path)) {
            Kernel kernel = KernelReview7Test.pass1(ct, res);
            try {
                KernelReview7Test.readBlocks(kernel, ct);
                kernel.beginPass2();
                EntryChecker c = kernel.newChecker(false), w = kernel.newChecker(true);
                for (int li = kernel.layers() - 1; li >= 0; li--) {
                    int below = kernel.below(li);
                    Map<Long, long[]> table = KernelReview7Test.table(kernel, ct, below);
                    ChildLookup lookup = (occ, mover, a) -> KernelReview7Test.answer(table, occ,
                            mover, a);
                    LayerCheck lc = kernel.beginLayer(li);
                    LayerPass pass = lc.pass(KeyRange.whole(below >= 0 ? kernel.size(below) : 0),
                            lookup);
                    long b0 = 0;
                    int longest = 0;
                    for (int b = kernel.firstBlock(li); b < kernel.endBlock(li); b++) {
                        Payload q = kernel.reload(ct, b, null);
                        int count = q.count;
                        int m = pass.block(b, q);
                        if (m < 0) break;
                        pass.check(c, 0, m);
                        long room = kernel.size(li) - b0;
                        if (stale && b + 1 < kernel.endBlock(li) && longest > m)
                            pass.check(w, m, (int) Math.min(longest, room));
                        pass.endBlock(c);
                        b0 += m;
                        longest = Math.max(longest, count);
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
}

package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.format.Header;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review 10 of the kernel (after GC-2026-15/-16): a systematic sweep of the kernel's public API
 * for engine-held state the kernel decides by. Each test stages one hole and asserts the correct
 * behaviour, so it fails while the hole is open:
 * <ul>
 * <li>Kernel.adopt is refused only by blocks/layers read, not by the kernel having made its own
 * layout (layout) or ended pass 1: a driver kernel of a file with no blocks makes its layout,
 * then adopts another file's, and takes that file's layers, block list and rootFound (R-ROOT-1)
 * as its own; the other file's slices then tile "its" layers and the empty file (no root entry)
 * is VERIFIED under its own commitment.</li>
 * <li>Kernel.header publishes the parsed Header to the engine's Result (res.header) before it
 * copies its tie-breaking order (tb = h.tb.clone()): an engine thread that watches res.header
 * rewrites h.tb (a public int[]) in that window, after Header.parse checked it, and the kernel
 * checks R-TB-1 and walks the moves in the engine's order (a race: a certificate breaking R-TB-1
 * VERIFIED; with a non-permutation written, moves are skipped altogether).</li>
 * </ul>
 */
@Tag("slow")
class KernelReview10Test {
    @TempDir
    Path dir;

    Path write(byte[] file, String name) throws Exception {
        Path p = dir.resolve(name);
        Files.write(p, file);
        return p;
    }

    static String show(Result r) {
        return r.verdict + " " + r.errorMessage + " " + r.firstViolation();
    }

    /** A valid weak (mode 2) certificate whose root value is 0: Connect Four 4x4, a draw. */
    static TestCert weakDraw() {
        TestCert t = new TinySolver(2, 4, 4, 2, null).build(0, 0, 2);
        t.maxBlockEntries = 64; // several blocks and slices
        return t;
    }

    /**
     * Hole 1: adopt after layout. The driver kernel reads F, a certificate with T's header and no
     * block at all (R-ROOT-1 must reject it), makes its layout (Verifier does, sliced), and the
     * engine then adopts T's layout (a valid certificate with the same header): nLayers, the
     * block list, rootFound and rootIndex become T's; the adopted fingerprint is T's under the
     * shared header, so T's slices (checked by slice kernels on T) join, every layer is
     * "checked", and F's trailer (0 blocks, its census written from T's tally with no auxiliary
     * entries, as F's pass 1 counted none) holds. rootKind and the bounds stay 0, which a weak
     * draw's root claim accepts.
     */
    @Test
    void adoptAfterOwnLayoutTakesAnotherFilesLayers() throws Exception {
        TestCert t = weakDraw();
        assertEquals(0, t.rootValue, "a draw");
        Path good = write(t.write(), "t.gsc");
        // T checked in slices; its job (layout) and first keys kept
        Slices.Job[] goodJob = new Slices.Job[1];
        long[][] firsts = new long[2][];
        Options.SlicedPass2 grab = (kernel, job, fo, fm) -> {
            goodJob[0] = job;
            firsts[0] = fo.clone();
            firsts[1] = fm.clone();
            new SlicedVerifier(200).run(kernel, job, fo, fm);
        };
        Options og = new Options();
        og.sliced = grab;
        Result tr = Verifier.verify(good, og);
        assertEquals(Result.Verdict.VERIFIED, tr.verdict, show(tr));

        // F: T's header, no entry, T's census with no auxiliary entries
        TestCert f = t.copy();
        f.entries.clear();
        f.census.clear();
        for (long[] row : t.census) f.census.add(new long[] {row[0], row[1], 0});
        Path bad = write(f.write(), "f.gsc");
        Options plain = new Options();
        Result alone = Verifier.verify(bad, plain);
        assertEquals(Result.Verdict.REJECTED, alone.verdict, show(alone));

        Options.SlicedPass2 attack = (kernel, job, fo, fm) -> {
            kernel.adopt(goodJob[0].layout); // after Verifier's kernel.layout(): not refused
            new SlicedVerifier(200).run(kernel, goodJob[0], firsts[0], firsts[1]);
        };
        Options oa = new Options();
        oa.sliced = attack;
        Result r = Verifier.verify(bad, oa);
        assertNotEquals(Result.Verdict.VERIFIED, r.verdict,
                "a file with no entry verified by adopting another file's layout: " + show(r));
        assertTrue(r.verdict == Result.Verdict.ERROR || r.verdict == Result.Verdict.REJECTED,
                show(r));
    }

    private static final VarHandle HEADER;

    static {
        try {
            HEADER = MethodHandles.lookup().findVarHandle(Result.class, "header", Header.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Hole 2 (a race): R-TB-1 decided by the engine's tie-breaking order. The file's header has
     * TB = 0..15, its stored moves are first-best in the reversed order (TinySolver built with
     * it): alone it is REJECTED (R-TB-1). An engine thread spins on res.header and, as soon as the
     * kernel publishes it, writes the reversed order into h.tb; the kernel clones h.tb a few
     * microseconds later (after building the game's rules), and checks by the engine's order.
     */
    @Test
    void headerTbRewrittenBeforeTheKernelCopiesIt() throws Exception {
        int[] reversed = new int[16];
        for (int i = 0; i < 16; i++) reversed[i] = 15 - i;
        TinySolver s = new TinySolver(1, 4, 4, 0, reversed);
        long[] start = s.othelloStart();
        TestCert t = s.build(start[0], start[1], 1);
        t.tb = new int[16];
        for (int i = 0; i < 16; i++) t.tb[i] = i;
        Path bad = write(t.write(), "tb.gsc");
        Result alone = KernelReview8Test.run(bad, new Result(), new KernelReview8Test.Engine());
        assertEquals(Result.Verdict.REJECTED, alone.verdict, show(alone));
        assertEquals("R-TB-1", alone.firstViolation().rule(), show(alone));

        long until = System.nanoTime() + 5_000_000_000L;
        int trials = 0, verified = 0;
        while (System.nanoTime() < until && verified == 0) {
            trials++;
            Result res = new Result();
            Thread writer = new Thread(() -> {
                long stop = System.nanoTime() + 200_000_000L;
                Header h;
                while ((h = (Header) HEADER.getAcquire(res)) == null) {
                    if (System.nanoTime() > stop) return;
                    Thread.onSpinWait();
                }
                System.arraycopy(reversed, 0, h.tb, 0, 16);
            });
            writer.start();
            Result r = KernelReview8Test.run(bad, res, new KernelReview8Test.Engine());
            writer.join();
            if (r.verdict == Result.Verdict.VERIFIED) verified++;
        }
        assertEquals(0, verified, "a certificate breaking R-TB-1 verified by the engine's order ("
                + trials + " runs)");
    }
}

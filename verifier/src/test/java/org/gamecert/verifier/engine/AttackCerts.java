package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TinySolver;

/**
 * Certificates the attack tests share (valid ones, and false ones the verifier must reject), and
 * the verdict of the sequential kernel on a file, taken several ways that must agree.
 */
final class AttackCerts {
    private AttackCerts() {}

    /** Key (occ, mover) after key (o, m) in a layer's order (SPEC §5.5: unsigned, occ then mover). */
    static boolean after(long occ, long mover, long o, long m) {
        return occ == o ? Long.compareUnsigned(mover, m) > 0 : Long.compareUnsigned(occ, o) > 0;
    }

    /** A valid Othello 4x4 certificate in blocks of 7 entries, written in dir. */
    static Path validOthello(Path dir) throws IOException {
        return write(dir, "valid.gsc", othello(7));
    }

    /** The same with one P entry of 8 discs claiming a wrong value: rejected. */
    static Path rejectedOthello(Path dir) throws IOException {
        return write(dir, "bad.gsc", wrongValue(othello(7), 8));
    }

    static Path write(Path dir, String name, TestCert t) throws IOException {
        Path f = dir.resolve(name);
        Files.write(f, t.write());
        return f;
    }

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

    /**
     * Twins whose blocks are byte for byte the same and whose headers differ only in the
     * tie-breaking order: {bad, twin}. The twin's moves are first-best in its own (reversed)
     * order and it verifies; bad claims the identity order, which its moves do not follow
     * (R-TB-1). Blocks of at most blockEntries entries.
     */
    static Path[] tieBreakTwins(Path dir, int blockEntries) throws IOException {
        TinySolver s1 = new TinySolver(1, 4, 4, 1, null);
        long[] start = s1.othelloStart();
        int[] identity = s1.build(start[0], start[1], 1).tb;
        int[] reversed = new int[identity.length];
        for (int i = 0; i < identity.length; i++) reversed[i] = identity[identity.length - 1 - i];
        TestCert other = new TinySolver(1, 4, 4, 1, reversed).build(start[0], start[1], 1);
        other.maxBlockEntries = blockEntries;
        TestCert claimed = other.copy();
        claimed.tb = identity.clone();
        return new Path[] {write(dir, "tb-identity.gsc", claimed), write(dir, "tb-reversed.gsc", other)};
    }

    /**
     * A weak certificate that verifies without --strict but not with it: the root's tree and the
     * valid subtree of a position E the root does not reach, E being entry 0 of its layer; and
     * its twin header naming E as the root (the same blocks). Returns {file, twin}.
     */
    static Path[] extraSubtree(Path dir) throws Exception {
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
                        if (e.layer() == d && (!any || after(minOcc, minMover, e.occ, e.mover))) {
                            minOcc = e.occ;
                            minMover = e.mover;
                            any = true;
                        }
                    if (!any) continue;
                    for (long k : reach.getOrDefault(d, List.of())) {
                        long o = k >>> 32, mv = k & 0xFFFFFFFFL;
                        if (inBase.contains(o + "/" + mv) || !after(minOcc, minMover, o, mv)) continue;
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
        Path file = write(dir, "extra-subtree.gsc", merged);
        Path twinFile = write(dir, "extra-subtree-twin.gsc", twin);
        assertEquals(Files.size(file), Files.size(twinFile));
        return new Path[] {file, twinFile};
    }

    /** An engine fault ended as the verifier ends it: ERROR, "engine fault: ...". */
    static Result faultAsResult(RuntimeException e) {
        if (e.getMessage() == null || !e.getMessage().startsWith("engine fault: ")) throw e;
        Result r = new Result();
        r.errorMessage = e.getMessage();
        return Result.withVerdict(r, Result.Verdict.ERROR);
    }

    /** The one-machine engine of the sequential kernel, its faults ended as the verifier ends them. */
    static Result sequential(Path file, Options o, int threads, long sliceEntries,
            SliceEngine.Faults faults) {
        try {
            return new SliceEngine(threads, sliceEntries, faults).verify(file, o);
        } catch (RuntimeException e) {
            return faultAsResult(e);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    static String rule(Result r) {
        return r.firstViolation() == null ? null : r.firstViolation().rule();
    }

    static String show(Result r) {
        return r.verdict + " " + r.errorMessage + " " + r.firstViolation();
    }

    /**
     * The verdict on a file: the sequential kernel with slices of one block on one thread and of
     * 2^16 entries on two, and Verifier.verify (the sequential kernel with
     * -Dgamecert.kernel=sequential, and by default after the switch): the same verdict and first
     * rule every way. Returns the first.
     */
    static Result verdict(Path file, Options o) {
        Result one = sequential(file, o, 1, 1, SliceEngine.Faults.NONE);
        Result two = sequential(file, o, 2, 1 << 16, SliceEngine.Faults.NONE);
        Result cli = Verifier.verify(file, o);
        for (Result r : new Result[] {two, cli}) {
            assertEquals(one.verdict, r.verdict, file + ": " + show(one) + " / " + show(r));
            assertEquals(rule(one), rule(r), file + ": " + show(one) + " / " + show(r));
        }
        return one;
    }

    static Result verdict(Path file) {
        return verdict(file, new Options());
    }

    static Result strictVerdict(Path file) {
        Options o = new Options();
        o.strict = true;
        return verdict(file, o);
    }
}

package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.Violation;
import org.gamecert.verifier.kernel.format.BlockRecord;
import org.gamecert.verifier.kernel.format.Container;
import org.gamecert.verifier.kernel.rules.Game;
import org.gamecert.verifier.testcert.LoaTestCerts;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * False certificates, each crafted so that an engine of the old concurrent kernel, driven out of
 * order or racing it (reviews 4 to 10), once had it VERIFIED: on the sequential kernel each is
 * rejected, by the rule the file breaks, the same with slices of one block on one thread and of
 * 2^16 entries on two, and through Verifier.verify (AttackCerts.verdict). The engines those
 * reviews used have no counterpart in the new contract (FileMap reads the file, the Combiner
 * concludes): see SliceProtocolTest for what an engine can still do wrong.
 */
class ForgedCertificateTest {
    @TempDir
    Path dir;

    Path write(TestCert t, String name) throws Exception {
        return AttackCerts.write(dir, name, t);
    }

    static void rejected(Path p, String rule) {
        Result r = AttackCerts.verdict(p);
        assertEquals(Result.Verdict.REJECTED, r.verdict, p + ": " + AttackCerts.show(r));
        assertEquals(rule, AttackCerts.rule(r), p + ": " + AttackCerts.show(r));
    }

    static TestCert othello4x4(int mode) {
        TinySolver s = new TinySolver(1, 4, 4, 1, null);
        long[] start = s.othelloStart();
        return s.build(start[0], start[1], mode);
    }

    // ---------------------------------------------------------------- the census (R-CENSUS-1)

    /**
     * A census the kernel did not count is rejected, whatever an engine could once do to the
     * count (review 4: the deepest layer checked first, fresh flags, its region row 0; a layer
     * finished twice, every row doubled; census() never called; review 5: the census taken
     * before pass 2, every row 0; review 8: the engine's Result list holding the trailer's rows).
     */
    @Test
    void aCensusOtherThanTheKernelCountsIsRejected() throws Exception {
        TestCert valid = othello4x4(1);
        Path ok = write(valid, "valid.gsc");
        assertEquals(Result.Verdict.VERIFIED, AttackCerts.verdict(ok).verdict);
        int deepest = 0;
        for (TestCert.Entry e : valid.entries) deepest = Math.max(deepest, e.layer());
        TestCert t = valid.copy();
        for (long[] row : t.census)
            if (row[0] == deepest) {
                assertTrue(row[1] > 0, "the deepest layer has positions of R");
                row[1] = 0;
            }
        rejected(write(t, "deepest-row-0.gsc"), "R-CENSUS-1");
        t = valid.copy();
        t.census.get(3)[1] += 5;
        rejected(write(t, "five-more.gsc"), "R-CENSUS-1");
        t = valid.copy();
        for (long[] row : t.census) row[1] *= 2;
        rejected(write(t, "doubled.gsc"), "R-CENSUS-1");
        t = valid.copy();
        for (long[] row : t.census) row[1] = 0;
        rejected(write(t, "all-0.gsc"), "R-CENSUS-1");
    }

    /**
     * Blocks of 8, 2 and the rest in every layer (review 9: a block shorter than an earlier one
     * of the pass had the old kernel check stale entries of that earlier block, under later
     * entries' flags, and count them in the census): verified as it is, rejected with one row
     * more, every way of slicing it.
     */
    @Test
    void irregularBlocksCountEachEntryOnce() throws Exception {
        TestCert t = othello4x4(1);
        List<TestCert.Entry> list = new ArrayList<>(t.entries);
        list.sort(java.util.Comparator.comparingInt((TestCert.Entry e) -> -e.layer())
                .thenComparing((x, y) -> x.occ != y.occ ? Long.compareUnsigned(x.occ, y.occ)
                        : Long.compareUnsigned(x.mover, y.mover)));
        for (int i = 0; i < list.size(); i++) {
            int start = i;
            while (start > 0 && list.get(start - 1).layer() == list.get(i).layer()) start--;
            if (i - start == 8 || i - start == 10) t.splitBefore.add(i);
        }
        Result honest = AttackCerts.verdict(write(t, "irregular.gsc"));
        assertEquals(Result.Verdict.VERIFIED, honest.verdict, AttackCerts.show(honest));
        for (int r = 0, tried = 0; r < t.census.size() && tried < 2; r += 5) {
            if (t.census.get(r)[1] == 0) continue;
            tried++;
            TestCert more = t.copy();
            more.census.get(r)[1]++;
            rejected(write(more, "irregular-" + r + ".gsc"), "R-CENSUS-1");
        }
    }

    // ---------------------------------------------------------------- reachability (R-REACH-1)

    /**
     * A valid subtree the root does not reach verifies without --strict and is rejected with it
     * (R-REACH-1), also when its trailer's region rows are 0 (review 5: the census taken before
     * pass 2 found no unreached entry and compared the rows with 0).
     */
    @Test
    void anUnreachedEntryIsRejectedUnderStrict() throws Exception {
        Path[] f = AttackCerts.extraSubtree(dir);
        assertEquals(Result.Verdict.VERIFIED, AttackCerts.verdict(f[0]).verdict);
        Result strict = AttackCerts.strictVerdict(f[0]);
        assertEquals(Result.Verdict.REJECTED, strict.verdict, AttackCerts.show(strict));
        assertEquals("R-REACH-1", AttackCerts.rule(strict));

        TinySolver s = new TinySolver(1, 4, 4, 1, null);
        Random rnd = new Random(7);
        long[] root = null;
        while (root == null) root = playout(s, rnd, 11);
        TestCert t = s.build(root[0], root[1], 1);
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
        assertNotNull(extra, "an entry outside R");
        t.entries.add(extra);
        Path honest = write(t, "othello-unreached.gsc");
        assertEquals(Result.Verdict.VERIFIED, AttackCerts.verdict(honest).verdict);
        Result r = AttackCerts.strictVerdict(honest);
        assertEquals("R-REACH-1", AttackCerts.rule(r), AttackCerts.show(r));
        for (long[] row : t.census) row[1] = 0;
        Path zero = write(t, "othello-unreached-rows-0.gsc");
        Result z = AttackCerts.strictVerdict(zero);
        assertEquals(Result.Verdict.REJECTED, z.verdict, AttackCerts.show(z));
        assertEquals("R-CENSUS-1", AttackCerts.rule(z)); // the census, then R-REACH-1 (SPEC §9)
    }

    /** A position with the given discs by random moves from the start (null: none reached). */
    static long[] playout(TinySolver s, Random rnd, int discs) {
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

    // ---------------------------------------------------------------- false claims

    /** Connect Four 4x4 "the first player wins" (false: a draw), one {C} entry. */
    static TestCert falseConnectFourWin() {
        TestCert t = LoaTestCerts.header(4, 0, 0, 1);
        t.family = 2;
        t.mode = 2;
        t.symmetry = 0;
        t.tb = new int[] {1, 2, 0, 3};
        t.sortEntries = true;
        t.entries.add(new TestCert.Entry(0, 0, TestCert.C, 1, 1, 1));
        for (int d = 0; d <= 16; d++) t.census.add(new long[] {d, 0, d == 0 ? 1 : 0});
        return t;
    }

    /**
     * One-entry Connect Four 4x4 claims (review 4: an engine that never ended pass 1, or ended
     * pass 2 first, had the root unchecked; RankedKernel given a mode-1 file checked none of its
     * P obligations): "the first player wins" (weak, R-CUT-1) and "the second player wins"
     * (semi-strong {P} -1, R-SERVE-1) are rejected.
     */
    @Test
    void oneEntryFalseClaimsAreRejected() throws Exception {
        assertEquals(0, new TinySolver(2, 4, 4, 0, null).value(0, 0), "Connect Four 4x4: a draw");
        rejected(write(falseConnectFourWin(), "c4-false-win.gsc"), "R-CUT-1");
        TestCert t = LoaTestCerts.header(4, 0, 0, -1);
        t.family = 2;
        t.mode = 1;
        t.symmetry = 0;
        t.tb = new int[] {1, 2, 0, 3};
        t.sortEntries = true;
        t.entries.add(new TestCert.Entry(0, 0, TestCert.P, -1, -1, 1));
        rejected(write(t, "c4-false-loss.gsc"), "R-SERVE-1");
    }

    /**
     * A block of layer 10 again after the root's layer, holding a second entry for a position
     * that has one (review 4: a block whose record the engine did not admit skipped R-LAY-1).
     */
    @Test
    void aLayerAgainAfterTheRootsIsRejected() throws Exception {
        TestCert t = othello4x4(1);
        List<TestCert.Entry> list = new ArrayList<>(t.entries);
        list.sort(java.util.Comparator.comparingInt((TestCert.Entry e) -> -e.layer())
                .thenComparing((x, y) -> x.occ != y.occ ? Long.compareUnsigned(x.occ, y.occ)
                        : Long.compareUnsigned(x.mover, y.mover)));
        TestCert.Entry twin = null;
        for (TestCert.Entry e : list) if (twin == null && e.layer() == 10) twin = e;
        list.add(new TestCert.Entry(twin.occ, twin.mover, TestCert.A, -16, 16, 0));
        t.entries = list;
        t.sortEntries = false;
        for (long[] row : t.census) if (row[0] == 10) row[2]++;
        rejected(write(t, "othello-layer-again.gsc"), "R-LAY-1");
    }

    /**
     * A block after the last one the trailer counts (its commitment over the blocks before it),
     * review 5: an engine that read past it without handing it over had it never hashed, decoded
     * or checked. The junk entry (3 discs, after the 4-disc root) is
     * not a legal Othello position: rejected there (R-POS-1), where the old kernel also stopped.
     */
    @Test
    void aBlockTheTrailerDoesNotCountIsRejected() throws Exception {
        TestCert t = othello4x4(1);
        t.entries.add(new TestCert.Entry(0b111L, 0b1L, TestCert.A, 0, 0, 0));
        Path probe = write(t, "probe-junk.gsc");
        List<BlockRecord> recs = new ArrayList<>();
        try (Container ct = new Container(probe)) {
            ct.readHeaderContent();
            BlockRecord r;
            while ((r = ct.nextBlockRecord()) != null) {
                recs.add(r);
                ct.readDataFrame(r);
            }
        }
        assertEquals(3, recs.get(recs.size() - 1).layer, "the junk entry is the last block");
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
        Result r = AttackCerts.verdict(p);
        assertEquals(Result.Verdict.REJECTED, r.verdict, AttackCerts.show(r));
        System.out.println("expected: a block the trailer does not count: " + AttackCerts.show(r));
    }

    /**
     * The root's layer only, header and entry claiming 0 (true: -10), a trailer counting no block
     * and committing to h_0 alone (review 5: a slice's kernel, driven to conclude, checked no
     * entry): the root's bound fails first (R-CUT-1), then R-HASH-2.
     */
    @Test
    void aTrailerThatCountsNoBlockCannotHideTheRoot() throws Exception {
        TestCert t = othello4x4(2);
        int rootDiscs = 4;
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
        int body = 20 + 20 * t.census.size();
        java.security.MessageDigest md = java.security.MessageDigest.getInstance("SHA-256");
        md.update((byte) 2);
        md.update(h0);
        md.update(file, file.length - 32 - body, body);
        System.arraycopy(md.digest(), 0, file, file.length - 32, 32);
        Files.write(p, file);
        rejected(p, "R-CUT-1");
    }

    /**
     * The blocks and trailer rows of a valid certificate under a header claiming its root value
     * + 2 (review 9: an engine spliced one file's blocks under another's header): R-ROOT-2.
     */
    @Test
    void anotherHeaderOverTheSameBlocksIsRejected() throws Exception {
        TestCert t1 = othello4x4(1);
        t1.chunk = 4;
        TestCert t2 = t1.copy();
        t2.chunk = 4;
        t2.rootValue = t1.rootValue + 2;
        assertEquals(Result.Verdict.VERIFIED, AttackCerts.verdict(write(t1, "true.gsc")).verdict);
        rejected(write(t2, "false.gsc"), "R-ROOT-2");
    }

    /** A valid certificate's header over no block (review 10): rejected (R-ROOT-1). */
    @Test
    @org.junit.jupiter.api.Tag("slow") // the valid Connect Four 4x4 draw, three ways: ~25 s
    void aValidHeaderOverNoBlockIsRejected() throws Exception {
        TestCert draw = new TinySolver(2, 4, 4, 2, null).build(0, 0, 2);
        draw.maxBlockEntries = 64;
        assertEquals(Result.Verdict.VERIFIED, AttackCerts.verdict(write(draw, "t.gsc")).verdict);
        TestCert f = draw.copy();
        f.entries.clear();
        f.census.clear();
        for (long[] row : draw.census) f.census.add(new long[] {row[0], row[1], 0});
        rejected(write(f, "f.gsc"), "R-ROOT-1");
    }

    /**
     * The root's entry and the header alike claim v + 2 (found 2026-11-25: an engine that
     * answered the root's children with bounds shifted to fit once had it VERIFIED; those
     * answers are an engine fault now, EngineFaultTest): rejected.
     */
    @Test
    void aFalseRootValueIsRejected() throws Exception {
        TinySolver othello = new TinySolver(1, 4, 4, 1, null);
        long[] start = othello.othelloStart();
        TestCert cert = othello.build(start[0], start[1], 1);
        int rootDiscs = Long.bitCount(start[0] | start[1]);
        for (TestCert.Entry e : cert.entries)
            if (Long.bitCount(e.occ) == rootDiscs) {
                e.lo += 2;
                e.hi += 2;
            }
        cert.rootValue += 2;
        Result r = AttackCerts.verdict(write(cert, "false-root.gsc"));
        assertEquals(Result.Verdict.REJECTED, r.verdict, AttackCerts.show(r));
        assertEquals("R-P-1", AttackCerts.rule(r), AttackCerts.show(r));
    }

    /** Moves first-best in another order than the header's (R-TB-1); the twin verifies. */
    @Test
    void movesThatDoNotFollowTheHeadersTieBreakingOrderAreRejected() throws Exception {
        Path[] twins = AttackCerts.tieBreakTwins(dir, 7);
        rejected(twins[0], "R-TB-1");
        assertEquals(Result.Verdict.VERIFIED, AttackCerts.verdict(twins[1]).verdict);
    }

    // ---------------------------------------------------------------- order of checks

    /** The first {C} or {C, A} entry of the layer, its bounds raised to U_max. */
    static TestCert lowered(TestCert t, int layer, int uMax) {
        TestCert c = t.copy();
        for (TestCert.Entry e : c.entries)
            if (e.layer() == layer && (e.kind & TestCert.C) != 0 && e.lo < uMax) {
                e.lo = uMax;
                e.hi = uMax;
                return c;
            }
        return null;
    }

    Result verify(TestCert t) throws Exception {
        return AttackCerts.verdict(write(t, "c" + System.nanoTime() + ".gsc"));
    }

    /**
     * Two lies in two layers: the deeper layer's (earlier in the file) is reported, as SPEC §9
     * orders them, every way of slicing; and a lie followed, later in the file, by a payload that
     * does not decode: the lie is reported, not the decoding failure; with --all, both.
     */
    @Test
    void theFirstViolationInFileOrderIsReported() throws Exception {
        TestCert base = othello4x4(2);
        int uMax = 16;
        int[] layers = base.entries.stream().mapToInt(TestCert.Entry::layer).distinct().sorted()
                .toArray();
        int pairs = 0;
        for (int a = 0; a < layers.length && pairs < 1; a += 3)
            for (int b = layers.length - 1; b > a && pairs < 1; b -= 4) {
                TestCert shallow = lowered(base, layers[a], uMax);
                if (shallow == null) continue;
                TestCert deep = lowered(base, layers[b], uMax);
                TestCert both = deep == null ? null : lowered(shallow, layers[b], uMax);
                if (both == null) continue;
                Result rs = verify(shallow), rd = verify(deep);
                if (rs.verdict != Result.Verdict.REJECTED || rd.verdict != Result.Verdict.REJECTED)
                    continue;
                assertEquals(layers[b], rd.firstViolation().layer());
                Result r = verify(both);
                assertEquals(rd.firstViolation().toString(), r.firstViolation().toString(),
                        "lies in layers " + layers[a] + " and " + layers[b]);
                pairs++;
            }
        assertTrue(pairs >= 1, "pairs of layers compared: " + pairs);

        TestCert deep = null;
        for (int b = layers.length - 1; b >= 0 && deep == null; b--) {
            deep = lowered(base, layers[b], uMax);
            if (deep != null && verify(deep).verdict != Result.Verdict.REJECTED) deep = null;
        }
        assertNotNull(deep);
        Result lie = verify(deep);
        int lieBlock = (int) lie.firstViolation().block();
        TestCert broken = deep.copy();
        broken.payloadHook = (blk, raw) -> blk == lieBlock + 1 ? Arrays.copyOf(raw, raw.length + 1)
                : raw; // a byte left over: R-ENC-2
        TestCert onlyBroken = base.copy();
        onlyBroken.payloadHook = broken.payloadHook;
        assertEquals("R-ENC-2", AttackCerts.rule(verify(onlyBroken)));
        assertEquals(lie.firstViolation().toString(), verify(broken).firstViolation().toString());
        Options all = new Options();
        all.all = true;
        for (long slice : new long[] {1, 1 << 16}) {
            Result r = AttackCerts.sequential(write(broken, "all-" + slice + ".gsc"), all, 1, slice,
                    SliceEngine.Faults.NONE);
            List<String> rules = new ArrayList<>();
            for (Violation v : r.violations) rules.add(v.rule());
            assertTrue(rules.contains("R-ENC-2") && rules.contains(AttackCerts.rule(lie)),
                    rules::toString);
            assertEquals(AttackCerts.rule(lie), rules.get(0), "the lie first, in block order");
        }
    }

    @Test
    void aPPrimeValueBelowABetterMoveIsRejected() throws Exception {
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
        // the better move's child first in its layer's key order: in another slice than the
        // worse move's when slices are of one block (the old kernel's key-range carry, reset by
        // an engine, once hid it)
        t.maxBlockEntries = 1;
        Files.write(p, t.write());
        Result r = AttackCerts.verdict(p);
        assertEquals(Result.Verdict.REJECTED, r.verdict, AttackCerts.show(r));
        assertEquals("R-PP-1", AttackCerts.rule(r));
    }

    /** Helpers for the P' construction, over the kernel's rules and the tiny solver. */
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
            moves.sort((a, b) -> AttackCerts.after(a[0], a[1], b[0], b[1]) ? 1
                    : AttackCerts.after(b[0], b[1], a[0], a[1]) ? -1 : 0);
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

}

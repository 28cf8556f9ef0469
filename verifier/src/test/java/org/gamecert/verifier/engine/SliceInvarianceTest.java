package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.rules.Game;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TestCert.Entry;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the sequential kernel concludes does not depend on how the engine cuts the layers into
 * slices or on how many threads check them (SPEC §11.1: slices of consecutive blocks, any
 * thread): on valid certificates and random corruptions of them, in blocks of 5 entries, the
 * verdict, the first violation (or, --all, the counts per rule), the census, the commitment are
 * the same with whole layers on one thread as with slices of one block, and of a third of the
 * largest layer, on one and two threads. (The old kernel's tests of this property held the layer
 * below in key-range segments: SegmentReviewTest, CheckingPassReviewTest.)
 */
@Tag("slow")
class SliceInvarianceTest {
    static TinySolver oth, c4;
    static TestCert othCert, othWeak, c4Cert;

    @TempDir
    Path dir;

    @BeforeAll
    static void build() {
        RuleViolationTest.build(); // the same certificates as the rule tests
        oth = RuleViolationTest.oth;
        c4 = RuleViolationTest.c4;
        othCert = RuleViolationTest.othCert.copy();
        othWeak = RuleViolationTest.othWeak.copy();
        c4Cert = RuleViolationTest.c4Cert.copy();
        for (TestCert t : List.of(othCert, othWeak, c4Cert)) t.maxBlockEntries = 5;
    }

    static long maxLayer(TestCert t) {
        java.util.Map<Integer, Long> n = new java.util.HashMap<>();
        for (Entry e : t.entries) n.merge(e.layer(), 1L, Long::sum);
        return n.values().stream().mapToLong(Long::longValue).max().orElse(1);
    }

    static String summary(Result r, boolean all) {
        StringBuilder sb = new StringBuilder();
        sb.append(r.verdict).append(" err=").append(r.errorMessage);
        sb.append(" commit=").append(r.commitment);
        if (r.verdict == Result.Verdict.VERIFIED) {
            sb.append(" region=").append(r.region).append(" unreached=").append(r.unreached)
                    .append(" root move=").append(r.rootMove).append(" census=");
            for (long[] c : r.census) sb.append(Arrays.toString(c));
        }
        if (!all) sb.append(" first=").append(r.firstViolation());
        else sb.append(" counts=").append(new java.util.TreeMap<>(r.violationCounts));
        return sb.toString();
    }

    Result run(byte[] file, int threads, long slice, boolean strict, boolean all) throws Exception {
        Path p = dir.resolve("c" + System.nanoTime() + ".gsc");
        Files.write(p, file);
        try {
            Options o = new Options();
            o.strict = strict;
            o.all = all;
            return AttackCerts.sequential(p, o, threads, slice, SliceEngine.Faults.NONE);
        } finally {
            Files.delete(p);
        }
    }

    /** Mismatches between whole layers and slices, for one file. */
    List<String> compare(String name, byte[] file, long biggest, boolean allModes) throws Exception {
        List<String> bad = new ArrayList<>();
        for (boolean all : allModes ? new boolean[] {false, true} : new boolean[] {false})
            for (boolean strict : allModes ? new boolean[] {false, true} : new boolean[] {false}) {
                String w = summary(run(file, 1, Long.MAX_VALUE, strict, all), all);
                for (int threads : new int[] {1, 2})
                    for (long slice : new long[] {1, biggest / 3 + 1}) {
                        String s = summary(run(file, threads, slice, strict, all), all);
                        if (!w.equals(s))
                            bad.add(name + " all=" + all + " strict=" + strict + " threads="
                                    + threads + " slice=" + slice + "\n   whole:  " + w
                                    + "\n   slices: " + s);
                    }
            }
        return bad;
    }

    static final int[] KINDS = {TestCert.P, TestCert.AP, TestCert.PP, TestCert.A, TestCert.C, TestCert.C | TestCert.A};

    /** One random corruption of t (in place); returns a description. */
    static String corrupt(TestCert t, TinySolver s, Random rnd) {
        Entry e = t.entries.get(rnd.nextInt(t.entries.size()));
        long opp = e.occ & ~e.mover;
        switch (rnd.nextInt(8)) {
            case 0: {
                int dv = rnd.nextBoolean() ? 1 : -1;
                e.lo += dv;
                e.hi += dv;
                if (e.lo < -16 || e.hi > 16) { e.lo -= 2 * dv; e.hi -= 2 * dv; }
                return "value " + dv;
            }
            case 1: {
                if (e.lo > -16 && rnd.nextBoolean()) e.lo--;
                else if (e.hi < 16) e.hi++;
                return "widen";
            }
            case 2: {
                e.kind = KINDS[rnd.nextInt(KINDS.length)];
                if (e.kind != TestCert.P && e.kind != TestCert.AP && e.kind != TestCert.PP) {
                    // bounds entries: keep exact values
                }
                return "kind " + e.kind;
            }
            case 3: {
                long legal = s.game.legalMoveCodes(e.mover, opp);
                int[] codes = new int[Long.bitCount(legal)];
                int q = 0;
                for (long m = legal; m != 0; m &= m - 1) codes[q++] = Long.numberOfTrailingZeros(m);
                e.move = codes[rnd.nextInt(codes.length)];
                return "move " + e.move;
            }
            case 4:
                t.entries.remove(e);
                return "delete";
            case 5: {
                // delete a child of e (an entry in the layer below)
                long[] out = new long[3];
                long legal = s.game.legalMoveCodes(e.mover, opp);
                for (long m = legal; m != 0; m &= m - 1) {
                    if (s.game.child(e.mover, opp, Long.numberOfTrailingZeros(m), out) == Game.TERMINAL) continue;
                    long k = s.canonicalKey(out[0], out[1]);
                    Entry c = t.find(k >>> 32, k & 0xFFFFFFFFL);
                    if (c != null && rnd.nextInt(3) == 0) {
                        t.entries.remove(c);
                        return "delete child";
                    }
                }
                t.entries.remove(e);
                return "delete";
            }
            case 6: {
                // the exact value moved to a bound entry / the other way
                if (e.kind == TestCert.P) { e.kind = TestCert.C | TestCert.A; return "P->CA"; }
                e.kind = TestCert.P;
                e.move = s.canonicalMove(e.mover, opp);
                return "->P";
            }
            default: {
                // two corruptions at once
                String a = corrupt(t, s, rnd);
                return a + " + " + corrupt(t, s, rnd);
            }
        }
    }

    @Test
    void validCertificatesEveryMode() throws Exception {
        List<String> bad = new ArrayList<>();
        for (TestCert t : List.of(othCert, othWeak, c4Cert)) {
            assertEquals(Result.Verdict.VERIFIED, run(t.write(), 1, 1, false, false).verdict);
            bad.addAll(compare("valid", t.write(), maxLayer(t), true));
        }
        assertTrue(bad.isEmpty(), String.join("\n", bad));
    }

    /** Random corruptions: the first violation is the same however sliced. */
    @Test
    void randomCorruptionsFirstViolation() throws Exception {
        List<String> bad = new ArrayList<>();
        Random rnd = new Random(12345);
        Object[][] bases = {{othCert, oth}, {othWeak, oth}, {c4Cert, c4}};
        int rejected = 0;
        for (int round = 0; round < 8; round++)
            for (Object[] b : bases) {
                TestCert t = ((TestCert) b[0]).copy();
                String what = corrupt(t, (TinySolver) b[1], rnd);
                byte[] f = t.write();
                bad.addAll(compare("round " + round + " " + what, f, maxLayer(t), false));
                if (run(f, 1, 1, false, false).verdict == Result.Verdict.REJECTED) rejected++;
            }
        assertTrue(bad.isEmpty(), bad.size() + " mismatches\n"
                + String.join("\n", bad.subList(0, Math.min(10, bad.size()))));
        assertTrue(rejected >= 12, "rejected " + rejected + " of 24: the corruptions must bite");
        System.out.println("expected: rejected " + rejected + " of 24");
    }

    /** Random corruptions with --all: the same verdict and counts per rule however sliced. */
    @Test
    void randomCorruptionsAllMode() throws Exception {
        List<String> bad = new ArrayList<>();
        Random rnd = new Random(777);
        Object[][] bases = {{othCert, oth}, {othWeak, oth}, {c4Cert, c4}};
        for (int round = 0; round < 6; round++)
            for (Object[] b : bases) {
                TestCert t = ((TestCert) b[0]).copy();
                String what = corrupt(t, (TinySolver) b[1], rnd) + " + "
                        + corrupt(t, (TinySolver) b[1], rnd);
                byte[] f = t.write();
                Result whole = run(f, 1, Long.MAX_VALUE, false, true);
                for (long slice : new long[] {1, maxLayer(t) / 2 + 1}) {
                    Result seg = run(f, 1, slice, false, true);
                    if (whole.verdict != seg.verdict || !whole.violationCounts.equals(seg.violationCounts))
                        bad.add("round " + round + " " + what + " slice " + slice + "\n   whole  "
                                + summary(whole, true) + "\n   slices " + summary(seg, true));
                }
            }
        assertTrue(bad.isEmpty(), bad.size() + " mismatches\n"
                + String.join("\n", bad.subList(0, Math.min(10, bad.size()))));
    }

    /**
     * --all: a P entry whose stored move is a later move than the canonical one: one R-TB-1 for
     * the claim however sliced (the old kernel once reported one per key-range segment).
     */
    @Test
    void allModeTieBreakCountedOncePerClaim() throws Exception {
        List<String> bad = new ArrayList<>();
        int tried = 0;
        for (Entry e0 : RuleViolationTest.ofKind(othCert, TestCert.P)) {
            long opp = e0.occ & ~e0.mover, legal = oth.game.legalMoveCodes(e0.mover, opp);
            if (Long.bitCount(legal) < 2 || tried >= 3) continue;
            int last = 63 - Long.numberOfLeadingZeros(legal);
            if (last == e0.move) continue;
            TestCert t = othCert.copy();
            Entry e = t.find(e0.occ, e0.mover);
            e.move = last;
            tried++;
            byte[] f = t.write();
            Result whole = run(f, 1, Long.MAX_VALUE, false, true);
            assertEquals(Result.Verdict.REJECTED, whole.verdict, summary(whole, true));
            for (long slice : new long[] {1, maxLayer(t) / 6 + 1, maxLayer(t) / 3 + 1}) {
                Result seg = run(f, 2, slice, false, true);
                if (whole.verdict != seg.verdict || !whole.violationCounts.equals(seg.violationCounts))
                    bad.add("entry " + Long.toHexString(e.occ) + "/" + Long.toHexString(e.mover)
                            + " move " + last + " slice " + slice + "\n   whole  "
                            + summary(whole, true) + "\n   slices " + summary(seg, true));
            }
        }
        assertTrue(tried >= 1, "no P entry with a later legal move");
        assertTrue(bad.isEmpty(), bad.size() + " mismatches of " + tried + "\n"
                + String.join("\n", bad.subList(0, Math.min(6, bad.size()))));
    }
}

package org.gamecert.verifier.engine;
import org.gamecert.verifier.kernel.Result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.gamecert.verifier.kernel.rules.Game;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TestCert.Entry;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review of "layers in segments": a certificate checked with every layer below held whole and
 * with the layer below in key-range segments (several sizes, threads 1 and 3, strict on and off)
 * ends in the same verdict, census, commitment and first violation; random corruptions and
 * corruptions at segment boundaries.
 */
@Tag("slow")
class SegmentReviewTest {
    static TinySolver oth, c4;
    static TestCert othCert, othWeak, c4Cert;

    @TempDir
    Path dir;

    @BeforeAll
    static void build() {
        RuleViolationTest.build(); // the same certificates as the rule tests
        oth = RuleViolationTest.oth;
        othCert = RuleViolationTest.othCert;
        othWeak = RuleViolationTest.othWeak;
        c4 = RuleViolationTest.c4;
        c4Cert = RuleViolationTest.c4Cert;
    }

    Result verify(byte[] file, Options o) throws Exception {
        return verifyIn(dir, file, o);
    }

    /** Verifies file written to a fresh name in dir, then deletes it. */
    static Result verifyIn(Path dir, byte[] file, Options o) throws Exception {
        Path p = dir.resolve("c" + System.nanoTime() + ".gsc");
        Files.write(p, file);
        try {
            return Verifier.verify(p, o);
        } finally {
            Files.delete(p);
        }
    }

    static Options opts(int threads, boolean strict, boolean all, long held) {
        Options o = new Options();
        o.threads = threads;
        o.strict = strict;
        o.all = all;
        o.maxHeldEntries = held;
        return o;
    }

    static long maxLayer(TestCert t) {
        java.util.Map<Integer, Long> n = new java.util.HashMap<>();
        for (Entry e : t.entries) n.merge(e.layer(), 1L, Long::sum);
        return n.values().stream().mapToLong(Long::longValue).max().orElse(1);
    }

    static String summary(Result r, boolean all) {
        StringBuilder sb = new StringBuilder();
        sb.append(r.verdict).append(" err=").append(r.errorMessage == null ? "-" : r.errorMessage.replaceAll("[0-9]+", "#"));
        sb.append(" commit=").append(r.commitment);
        if (r.verdict == Result.Verdict.VERIFIED) {
            sb.append(" region=").append(r.region).append(" unreached=").append(r.unreached).append(" census=");
            for (long[] c : r.census) sb.append(Arrays.toString(c));
        }
        if (!all) sb.append(" first=").append(r.firstViolation());
        else sb.append(" counts=").append(new java.util.TreeMap<>(r.violationCounts));
        return sb.toString();
    }

    /** Mismatches between the whole run and segmented runs of one file. */
    List<String> compare(String name, byte[] file, long biggest, boolean allModes) throws Exception {
        List<String> bad = new ArrayList<>();
        int saved = Verifier.parallelMinEntries;
        try {
            for (boolean all : allModes ? new boolean[] {false, true} : new boolean[] {false}) {
                for (boolean strict : allModes ? new boolean[] {false, true} : new boolean[] {false}) {
                    Verifier.parallelMinEntries = saved;
                    Result whole = verify(file, opts(1, strict, all, Long.MAX_VALUE));
                    String w = summary(whole, all);
                    for (int threads : new int[] {1, 3}) {
                        Verifier.parallelMinEntries = threads == 1 ? saved : 1;
                        for (long held : new long[] {Math.max(2, biggest / 20), biggest / 3 + 1}) {
                            Result seg = verify(file, opts(threads, strict, all, held));
                            String s = summary(seg, all);
                            if (!w.equals(s))
                                bad.add(name + " all=" + all + " strict=" + strict + " threads=" + threads + " held=" + held
                                        + "\n   whole: " + w + "\n   seg:   " + s
                                        // the summaries hide numbers (# for digits): the raw message names the layer
                                        + "\n   seg's message: " + seg.errorMessage);
                        }
                    }
                }
            }
        } finally {
            Verifier.parallelMinEntries = saved;
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
    void validCertificatesAllModes() throws Exception {
        List<String> bad = new ArrayList<>();
        for (TestCert t : List.of(othCert, othWeak, c4Cert)) bad.addAll(compare("valid", t.write(), maxLayer(t), true));
        assertTrue(bad.isEmpty(), String.join("\n", bad));
    }

    /** Random corruptions: the first violation (not --all) is the same whole and in segments. */
    @Test
    void randomCorruptionsFirstViolation() throws Exception {
        List<String> bad = new ArrayList<>();
        Random rnd = new Random(12345);
        Object[][] bases = {{othCert, oth}, {othWeak, oth}, {c4Cert, c4}};
        int rejected = 0;
        for (int round = 0; round < 8; round++) {
            for (Object[] b : bases) {
                TestCert t = ((TestCert) b[0]).copy();
                String what = corrupt(t, (TinySolver) b[1], rnd);
                byte[] f = t.write();
                List<String> m = compare("round " + round + " " + what, f, maxLayer(t), false);
                bad.addAll(m);
                if (verify(f, new Options()).verdict == Result.Verdict.REJECTED) rejected++;
            }
        }
        assertTrue(bad.isEmpty(), bad.size() + " mismatches\n" + String.join("\n", bad.subList(0, Math.min(10, bad.size()))));
        System.out.println("expected: rejected " + rejected + " of 24");
    }

    /** Random corruptions with --all: same verdict and the same violation counts per rule. */
    @Test
    void randomCorruptionsAllMode() throws Exception {
        List<String> bad = new ArrayList<>();
        Random rnd = new Random(777);
        Object[][] bases = {{othCert, oth}, {othWeak, oth}, {c4Cert, c4}};
        for (int round = 0; round < 6; round++) {
            for (Object[] b : bases) {
                TestCert t = ((TestCert) b[0]).copy();
                String what = corrupt(t, (TinySolver) b[1], rnd) + " + " + corrupt(t, (TinySolver) b[1], rnd);
                byte[] f = t.write();
                Options all = opts(1, false, true, Long.MAX_VALUE);
                Result whole = verify(f, all);
                for (long held : new long[] {Math.max(2, maxLayer(t) / 20), maxLayer(t) / 2 + 1}) {
                    Result seg = verify(f, opts(1, false, true, held));
                    if (whole.verdict != seg.verdict || !whole.violationCounts.equals(seg.violationCounts))
                        bad.add("round " + round + " " + what + " held " + held + "\n   whole " + summary(whole, true) + "\n   seg   " + summary(seg, true));
                }
            }
        }
        assertTrue(bad.isEmpty(), bad.size() + " mismatches\n" + String.join("\n", bad.subList(0, Math.min(10, bad.size()))));
    }

    /**
     * --all: a P entry whose stored move is a later move than the canonical one. Held whole,
     * tieBreak reports one R-TB-1 for the claim; in segments (the star's child in one, the earlier
     * exact move's child in another) it once reported one per segment. Found by review.
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
            Result whole = verify(f, opts(1, false, true, Long.MAX_VALUE));
            for (long held : new long[] {maxLayer(t) / 6 + 1, maxLayer(t) / 3 + 1}) {
                Result seg = verify(f, opts(1, false, true, held));
                if (whole.verdict != seg.verdict || !whole.violationCounts.equals(seg.violationCounts))
                    bad.add("entry " + Long.toHexString(e.occ) + "/" + Long.toHexString(e.mover) + " move " + last + " held " + held
                            + "\n   whole " + summary(whole, true) + "\n   seg   " + summary(seg, true));
            }
        }
        assertTrue(bad.isEmpty(), bad.size() + " mismatches of " + tried + "\n" + String.join("\n", bad.subList(0, Math.min(6, bad.size()))));
    }
}

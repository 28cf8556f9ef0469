package org.gamecert.verifier.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.rules.Game;
import org.gamecert.verifier.kernel.rules.NoGoRules;
import org.gamecert.verifier.testcert.TestCert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An answer binds the record of the key asked (SPEC §11.1, AUDIT.md "what to convince yourself
 * of" 5): an engine that answers a request for key K with the record, at index j, of an entry of
 * another key K' of the layer below must be caught by the fact sums, whatever K' is. The file here
 * is Linear NoGo 1x64 (every bit a point), weak (mode 2): a root R that is lost claims +1 by a cut
 * move to K, which has no entry; the layer below holds K' (a lost position, proved) with
 * occ' = occ(K) ^ 3<<62 (the same disc count) and mover' = mover(K) ^ D ^ D>>>32, D = 1<<62 or
 * 3<<62 (the other one, where it is a legal position). The honest engine's verdict is R-CUT-1.
 */
class AnswerBindingTest {
    @TempDir
    Path dir;

    static final Game G = new NoGoRules(64);
    final Map<List<Long>, Integer> memo = new HashMap<>();
    final long[] out = new long[3];

    int value(long mover, long opp) {
        long legal = G.legalMoveCodes(mover, opp);
        if (legal == 0) return -1;
        List<Long> k = List.of(mover, opp);
        Integer v = memo.get(k);
        if (v != null) return v;
        int best = -1;
        long[] o = new long[3];
        for (long m = legal; m != 0 && best < 1; m &= m - 1) {
            int type = G.child(mover, opp, Long.numberOfTrailingZeros(m), o);
            int w = type == Game.TERMINAL ? 1 : -value(o[0], o[1]);
            best = Math.max(best, w);
        }
        memo.put(k, best);
        return best;
    }

    int bestMove(long mover, long opp) {
        int v = value(mover, opp);
        long[] o = new long[3];
        for (long m = G.legalMoveCodes(mover, opp); m != 0; m &= m - 1) {
            int code = Long.numberOfTrailingZeros(m);
            int type = G.child(mover, opp, code, o);
            if ((type == Game.TERMINAL ? 1 : -value(o[0], o[1])) == v) return code;
        }
        throw new AssertionError();
    }

    /** {R mover, R opponent, cut move, K occ, K mover, K' occ, K' mover}. */
    long[] findSetting() {
        SplittableRandom rnd = new SplittableRandom(11);
        for (int game = 0; game < 200000; game++) {
            long mover = 0, opp = 0;
            while (true) {
                long legal = G.legalMoveCodes(mover, opp);
                if (legal == 0) break;
                int empties = 64 - Long.bitCount(mover | opp);
                if (empties <= 11 && value(mover, opp) == -1) {
                    for (long m = legal; m != 0; m &= m - 1) {
                        int code = Long.numberOfTrailingZeros(m);
                        if (G.child(mover, opp, code, out) != Game.CHILD) continue;
                        long kOcc = out[0] | out[1], kMover = out[0];
                        if (Long.bitCount(kOcc >>> 62) != 1) continue;
                        for (long d : new long[] {1L << 62, 3L << 62}) {
                            long o2 = kOcc ^ 3L << 62, m2 = kMover ^ d ^ d >>> 32;
                            if ((m2 & ~o2) != 0 || !G.isLegalPosition(m2, o2 & ~m2)
                                    || G.legalMoveCodes(m2, o2 & ~m2) == 0
                                    || value(m2, o2 & ~m2) != -1)
                                continue;
                            return new long[] {mover, opp, code, kOcc, kMover, o2, m2};
                        }
                    }
                }
                if (empties <= 8) break;
                int pick = rnd.nextInt(Long.bitCount(legal));
                long mm = legal;
                for (int i = 0; i < pick; i++) mm &= mm - 1;
                long next = mover | (mm & -mm);
                mover = opp;
                opp = next;
            }
        }
        throw new AssertionError("no setting found");
    }

    /** The certificate: R (lone C, +1), and K' with its whole tree (C and A, exact). */
    Path certificate(long[] s) throws Exception {
        TestCert t = new TestCert();
        t.family = 3;
        t.width = 64;
        t.height = 1;
        t.utility = 2;
        t.symmetry = 0;
        t.mode = 2;
        t.tb = new int[64];
        for (int i = 0; i < 64; i++) t.tb[i] = i;
        t.rootMover = s[0];
        t.rootOpponent = s[1];
        t.rootValue = 1; // false: R is lost
        t.entries.add(new TestCert.Entry(s[0] | s[1], s[0], TestCert.C, 1, 1, (int) s[2]));
        java.util.ArrayDeque<long[]> work = new java.util.ArrayDeque<>();
        java.util.Set<List<Long>> seen = new java.util.HashSet<>();
        work.add(new long[] {s[6], s[5] & ~s[6]});
        long[] o = new long[3];
        while (!work.isEmpty()) {
            long[] p = work.poll();
            if (!seen.add(List.of(p[0], p[1]))) continue;
            int v = value(p[0], p[1]);
            t.entries.add(new TestCert.Entry(p[0] | p[1], p[0], TestCert.C | TestCert.A, v, v,
                    bestMove(p[0], p[1])));
            for (long m = G.legalMoveCodes(p[0], p[1]); m != 0; m &= m - 1)
                if (G.child(p[0], p[1], Long.numberOfTrailingZeros(m), o) == Game.CHILD)
                    work.add(new long[] {o[0], o[1]});
        }
        int rootDiscs = Long.bitCount(s[0] | s[1]);
        for (int d = rootDiscs; d <= 64; d++) {
            long n = 0;
            for (TestCert.Entry e : t.entries) if (e.layer() == d) n++;
            t.census.add(new long[] {d, 0, n});
        }
        return AttackCerts.write(dir, "nogo64-" + rootDiscs + ".gsc", t);
    }

    /** A driver that answers the request for K with K''s record (index, kinds, bounds). */
    static final class Substituting extends KernelDriver {
        final long kOcc, kMover, k2Occ, k2Mover;
        boolean substituted;

        Substituting(Path file, long[] s) throws java.io.IOException {
            super(file);
            kOcc = s[3];
            kMover = s[4];
            k2Occ = s[5];
            k2Mover = s[6];
        }

        @Override
        void answers(int li, int first, long[][] req, long[] index, byte[] kind, byte[] lo,
                byte[] hi) {
            for (int r = 0; r < req[0].length; r++)
                if (req[0][r] == kOcc && req[1][r] == kMover) {
                    try {
                        Table under = table(map.below(li));
                        Integer j = under.at.get(List.of(k2Occ, k2Mover));
                        index[r] = j;
                        kind[r] = under.kind[j];
                        lo[r] = under.lo[j];
                        hi[r] = under.hi[j];
                        substituted = true;
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }
        }
    }

    @Test
    void anAnswerWithTheRecordOfAnotherKeyIsNeverTaken() throws Exception {
        long[] s = findSetting();
        Path file = certificate(s);
        Result honest = AttackCerts.verdict(file);
        assertEquals(Result.Verdict.REJECTED, honest.verdict, AttackCerts.show(honest));
        assertEquals("R-CUT-1", AttackCerts.rule(honest), AttackCerts.show(honest));
        int verified = 0, runs = 40;
        for (int run = 0; run < runs; run++) { // each run a new map: new keys
            Substituting d = new Substituting(file, s);
            Result r = d.run();
            assertTrue(d.substituted);
            if (r.verdict == Result.Verdict.VERIFIED) verified++;
            else assertNotNull(r.verdict);
        }
        assertEquals(0, verified, verified + " of " + runs + " runs said VERIFIED for a root that"
                + " is lost (R " + Long.toHexString(s[0]) + "/" + Long.toHexString(s[1])
                + "): the request for K answered with the record of K'");
    }
}

package org.gamecert.verifier.engine;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;
import org.gamecert.verifier.kernel.rules.Game;
import org.gamecert.verifier.testcert.TestCert;
import org.gamecert.verifier.testcert.TinySolver;

/**
 * Review helper: a producer that stores, at the entries whose kind set the policy names, the LAST
 * optimal move in TB order (not the canonical, earliest one), and builds R (SPEC §10.1) from the
 * stored moves, exactly as mode 5 defines it, with exact {C, A} auxiliary entries for every move
 * an A'-only entry refutes. With the policy "A'-only entries" it is an honest mode-5 producer
 * whose region differs from mode 1's; with any other policy it lies about a tie-break that mode 5
 * still proves (P, P', {A', P'}).
 */
final class OptimalMoveCerts {
    static final int P = TestCert.P, AP = TestCert.AP, PP = TestCert.PP;

    /** Policies: which final kind sets store the last optimal move. */
    static final IntPredicate A_PRIME_ONLY = k -> k == AP;
    static final IntPredicate ALSO_P_PRIME = k -> k == AP || k == PP;
    static final IntPredicate ALSO_P = k -> k == AP || k == P;
    static final IntPredicate ALSO_BOTH = k -> k == AP || k == (AP | PP);

    final TinySolver s;
    final Game game;
    final int[] tb;
    final long[] out = new long[3];
    /** After build: how many entries store a move other than the canonical one. */
    int nonCanonical;

    OptimalMoveCerts(TinySolver s, int[] tb) {
        this.s = s;
        this.game = s.game;
        this.tb = tb;
    }

    static long occOf(long key) {
        return key >>> 32;
    }

    static long moverOf(long key) {
        return key & 0xFFFFFFFFL;
    }

    /** The last move of maximal value in TB order (the canonical move when it is the only one). */
    int lastOptimal(long mover, long opp) {
        long legal = game.legalMoveCodes(mover, opp);
        int v = s.value(mover, opp), move = -1;
        for (int code : tb)
            if (((legal >>> code) & 1) != 0 && s.moveValue(mover, opp, code) == v) move = code;
        return move;
    }

    static int reduce(int needs) {
        return (needs & P) != 0 ? P : needs;
    }

    static int f(int need) {
        return need == AP ? PP : need == PP ? AP : need;
    }

    int stored(long k, int kind, IntPredicate alt) {
        long mover = moverOf(k), opp = occOf(k) & ~mover;
        return alt.test(kind) ? lastOptimal(mover, opp) : s.canonicalMove(mover, opp);
    }

    /**
     * A whole certificate (not a part) of the given mode rooted at the position, moves stored by
     * the policy, R built from the stored moves, census counted from that R.
     */
    TestCert build(long rootMover, long rootOpp, int mode, IntPredicate alt) {
        long rootKey = s.canonicalKey(rootMover, rootOpp);
        Map<Long, Integer> guess = new HashMap<>(), needs = null;
        Map<Integer, Set<Long>> terminals = null;
        for (int round = 0; round < 50; round++) {
            needs = new HashMap<>();
            terminals = new HashMap<>();
            ArrayDeque<long[]> work = new ArrayDeque<>();
            work.add(new long[] {rootKey, P});
            while (!work.isEmpty()) {
                long[] w = work.poll();
                int have = needs.getOrDefault(w[0], 0), need = (int) w[1];
                if ((have & need) != 0) continue;
                needs.put(w[0], have | need);
                long mover = moverOf(w[0]), opp = occOf(w[0]) & ~mover;
                int kind = guess.getOrDefault(w[0], reduce(have | need));
                int star = stored(w[0], kind, alt);
                for (long m = game.legalMoveCodes(mover, opp); m != 0; m &= m - 1) {
                    int code = Long.numberOfTrailingZeros(m);
                    int cn = need == P ? (code == star ? P : AP)
                            : need == AP ? (code == star ? PP : 0) : AP;
                    if (cn == 0) continue;
                    int type = game.child(mover, opp, code, out);
                    if (type == Game.TERMINAL) {
                        terminals.computeIfAbsent(Long.bitCount(out[0] | out[1]),
                                x -> new HashSet<>()).add(s.canonicalKey(out[0], out[1]));
                        continue;
                    }
                    if (type == Game.PASS_CHILD) cn = f(cn);
                    work.add(new long[] {s.canonicalKey(out[0], out[1]), cn});
                }
            }
            Map<Long, Integer> next = new HashMap<>();
            for (Map.Entry<Long, Integer> e : needs.entrySet()) next.put(e.getKey(), reduce(e.getValue()));
            if (next.equals(guess)) break;
            if (round == 49) throw new AssertionError("the kinds do not settle");
            guess = next;
        }
        TestCert t = new TestCert();
        nonCanonical = 0;
        Set<Long> aux = new HashSet<>();
        ArrayDeque<Long> auxWork = new ArrayDeque<>();
        for (Map.Entry<Long, Integer> e : needs.entrySet()) {
            int kind = reduce(e.getValue());
            long mover = moverOf(e.getKey()), opp = occOf(e.getKey()) & ~mover;
            int star = stored(e.getKey(), kind, alt);
            if (star != s.canonicalMove(mover, opp)) nonCanonical++;
            int v = s.value(mover, opp);
            t.entries.add(new TestCert.Entry(occOf(e.getKey()), mover, kind, v, v, star));
            if (kind == AP)
                for (long m = game.legalMoveCodes(mover, opp); m != 0; m &= m - 1) {
                    int code = Long.numberOfTrailingZeros(m);
                    if (code != star && game.child(mover, opp, code, out) != Game.TERMINAL)
                        auxWork.add(s.canonicalKey(out[0], out[1]));
                }
        }
        while (!auxWork.isEmpty()) {
            long k = auxWork.poll();
            if (needs.containsKey(k) || !aux.add(k)) continue;
            long mover = moverOf(k), opp = occOf(k) & ~mover;
            int v = s.value(mover, opp);
            t.entries.add(new TestCert.Entry(occOf(k), mover, TestCert.C | TestCert.A, v, v,
                    s.canonicalMove(mover, opp)));
            for (long m = game.legalMoveCodes(mover, opp); m != 0; m &= m - 1)
                if (game.child(mover, opp, Long.numberOfTrailingZeros(m), out) != Game.TERMINAL)
                    auxWork.add(s.canonicalKey(out[0], out[1]));
        }
        int rootDiscs = Long.bitCount(rootMover | rootOpp);
        boolean countTerminals = !(game instanceof org.gamecert.verifier.kernel.rules.OthelloRules);
        for (int d = rootDiscs; d <= game.cells; d++) {
            long region = 0, auxCount = 0;
            for (long k : needs.keySet()) if (Long.bitCount(occOf(k)) == d) region++;
            if (countTerminals) region += terminals.getOrDefault(d, Set.of()).size();
            for (long k : aux) if (Long.bitCount(occOf(k)) == d) auxCount++;
            t.census.add(new long[] {d, region, auxCount});
        }
        t.rootMover = rootMover;
        t.rootOpponent = rootOpp;
        t.rootValue = s.value(rootMover, rootOpp);
        t.mode = mode;
        t.tb = tb.clone();
        return t;
    }

    /** The header fields of a TinySolver certificate of the same game (family, size, symmetry). */
    static TestCert withHeaderOf(TestCert t, TestCert like) {
        t.family = like.family;
        t.width = like.width;
        t.height = like.height;
        t.utility = like.utility;
        t.symmetry = like.symmetry;
        t.rootKinds = P;
        t.rootUpper = t.rootValue;
        return t;
    }
}

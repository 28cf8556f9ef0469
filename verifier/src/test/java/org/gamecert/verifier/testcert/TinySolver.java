package org.gamecert.verifier.testcert;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.gamecert.verifier.kernel.rules.ConnectFourRules;
import org.gamecert.verifier.kernel.rules.Game;
import org.gamecert.verifier.kernel.rules.NoGoRules;
import org.gamecert.verifier.kernel.rules.OthelloRules;

/**
 * Test-only: solves a tiny game by memoized brute force and writes a valid certificate for it,
 * following SPEC §9/§10 directly: exactly R as region entries, and exact {C, A} auxiliary entries
 * for everything the A' refutations need.
 */
public final class TinySolver {
    public final Game game;
    /** Connect Four or NoGo (family 3, 1×width): centre-first TB, terminal positions counted. */
    final boolean c4;
    final int family, width, height, symmetry, group;
    final int[] tb;
    final Map<Long, Integer> memo = new HashMap<>();
    final long[] out = new long[3];

    public TinySolver(int family, int width, int height, int symmetry, int[] tb) {
        this.family = family;
        this.width = width;
        this.height = height;
        this.symmetry = symmetry;
        this.c4 = family != 1;
        this.game = family == 3 ? new NoGoRules(width)
                : c4 ? new ConnectFourRules(width, height) : new OthelloRules(width);
        this.group = symmetry == 0 ? 1 : game.symmetryCount;
        if (tb == null) {
            tb = new int[game.moveCodes];
            if (c4) {
                int k = 0;
                for (int dist = 0; dist <= width; dist++)
                    for (int c = 0; c < width; c++)
                        if (Math.abs(2 * c - (width - 1)) == dist) tb[k++] = c;
            } else {
                for (int i = 0; i < tb.length; i++) tb[i] = i;
            }
        }
        this.tb = tb;
        if (game.cells + (family == 2 ? width : 0) > 32) throw new IllegalArgumentException("tiny games only");
    }

    static long key(long mover, long opp) {
        return ((mover | opp) << 32) | mover;
    }

    static long occOf(long key) {
        return key >>> 32;
    }

    static long moverOf(long key) {
        return key & 0xFFFFFFFFL;
    }

    public long canonicalKey(long mover, long opp) {
        long occ = mover | opp, bo = occ, bm = mover;
        for (int g = 1; g < group; g++) {
            long o = game.transform(occ, g), m = game.transform(mover, g);
            if (o < bo || (o == bo && m < bm)) {
                bo = o;
                bm = m;
            }
        }
        return (bo << 32) | bm;
    }

    public int value(long mover, long opp) {
        if (game.isTerminal(mover, opp)) return game.terminalValue(mover, opp);
        long k = key(mover, opp);
        Integer v = memo.get(k);
        if (v != null) return v;
        int best = Integer.MIN_VALUE;
        for (long m = game.legalMoveCodes(mover, opp); m != 0; m &= m - 1)
            best = Math.max(best, moveValue(mover, opp, Long.numberOfTrailingZeros(m)));
        memo.put(k, best);
        return best;
    }

    public int moveValue(long mover, long opp, int code) {
        long[] o = new long[3];
        int type = game.child(mover, opp, code, o);
        if (type == Game.TERMINAL) return (int) o[2];
        int v = value(o[0], o[1]);
        return type == Game.CHILD ? -v : v;
    }

    public int canonicalMove(long mover, long opp) {
        long legal = game.legalMoveCodes(mover, opp);
        int best = Integer.MIN_VALUE, move = -1;
        for (int code : tb) {
            if (((legal >>> code) & 1) == 0) continue;
            int w = moveValue(mover, opp, code);
            if (w > best) {
                best = w;
                move = code;
            }
        }
        return move;
    }

    static int f(int need) {
        return need == 2 ? 4 : need == 4 ? 2 : need;
    }

    /** Builds a valid certificate (mode 1 semi-strong, 2 weak) for the given root. */
    public TestCert build(long rootMover, long rootOpp, int mode) {
        return build(rootMover, rootOpp, mode, false, mode == 1 ? TestCert.P : TestCert.C | TestCert.A, 0);
    }

    /**
     * A valid part (SPEC §15.1) of base mode 1 or 2 rooted at the position. Its claim: rootKinds
     * (exact kinds in mode 1, which seed its region; a bound set in mode 2) with the root's value
     * as both ends. The positions with openDiscs discs (0: none) other than the root are open
     * entries: the reduction of their needs (mode 1 region) or {C, A} (bounds), with their value,
     * not expanded.
     */
    public TestCert buildPart(long rootMover, long rootOpp, int baseMode, int rootKinds, int openDiscs) {
        return build(rootMover, rootOpp, baseMode, true, rootKinds, openDiscs);
    }

    private TestCert build(long rootMover, long rootOpp, int mode, boolean part, int rootKinds, int openDiscs) {
        TestCert t = new TestCert();
        t.family = family;
        t.width = width;
        t.height = height;
        t.utility = family == 1 ? 1 : 2;
        t.symmetry = symmetry;
        t.mode = mode | (part ? TestCert.PART : 0);
        t.tb = tb.clone();
        t.rootMover = rootMover;
        t.rootOpponent = rootOpp;
        t.rootValue = value(rootMover, rootOpp);
        t.rootKinds = rootKinds;
        t.rootUpper = t.rootValue;
        Map<Long, Integer> needs = new HashMap<>();
        Map<Integer, Set<Long>> terminals = new HashMap<>();
        ArrayDeque<long[]> work = new ArrayDeque<>();
        long rootKey = canonicalKey(rootMover, rootOpp);
        java.util.function.LongPredicate open = k -> openDiscs > 0 && k != rootKey && Long.bitCount(occOf(k)) == openDiscs;
        if (mode == 1)
            for (int n : new int[] {TestCert.P, TestCert.AP, TestCert.PP})
                if ((rootKinds & n) != 0) work.add(new long[] {rootKey, n});
        while (!work.isEmpty()) {
            long[] w = work.poll();
            int have = needs.getOrDefault(w[0], 0), need = (int) w[1];
            if ((have & need) != 0) continue;
            needs.put(w[0], have | need);
            if (open.test(w[0])) continue; // its part's region continues it
            long mover = moverOf(w[0]), opp = occOf(w[0]) & ~mover;
            int star = canonicalMove(mover, opp);
            for (long m = game.legalMoveCodes(mover, opp); m != 0; m &= m - 1) {
                int code = Long.numberOfTrailingZeros(m);
                int cn = need == TestCert.P ? (code == star ? TestCert.P : TestCert.AP)
                        : need == TestCert.AP ? (code == star ? TestCert.PP : 0) : TestCert.AP;
                if (cn == 0) continue;
                int type = game.child(mover, opp, code, out);
                if (type == Game.TERMINAL) {
                    terminals.computeIfAbsent(Long.bitCount(out[0] | out[1]), x -> new HashSet<>()).add(canonicalKey(out[0], out[1]));
                    continue;
                }
                if (type == Game.PASS_CHILD) cn = f(cn);
                work.add(new long[] {canonicalKey(out[0], out[1]), cn});
            }
        }
        Set<Long> aux = new HashSet<>();
        ArrayDeque<Long> auxWork = new ArrayDeque<>();
        for (Map.Entry<Long, Integer> e : needs.entrySet()) {
            int n = e.getValue();
            int kind = (n & TestCert.P) != 0 ? TestCert.P : n;
            long mover = moverOf(e.getKey()), opp = occOf(e.getKey()) & ~mover;
            int star = canonicalMove(mover, opp);
            boolean isOpen = open.test(e.getKey());
            t.entries.add(new TestCert.Entry(occOf(e.getKey()), mover, kind | (isOpen ? TestCert.O : 0), value(mover, opp), value(mover, opp), star));
            if (kind == TestCert.AP && !isOpen)
                for (long m = game.legalMoveCodes(mover, opp); m != 0; m &= m - 1) {
                    int code = Long.numberOfTrailingZeros(m);
                    if (code != star && game.child(mover, opp, code, out) != Game.TERMINAL) auxWork.add(canonicalKey(out[0], out[1]));
                }
        }
        if (mode == 2) auxWork.add(rootKey);
        Set<Long> openAux = new HashSet<>();
        while (!auxWork.isEmpty()) {
            long k = auxWork.poll();
            if (needs.containsKey(k) || !aux.add(k)) continue;
            long mover = moverOf(k), opp = occOf(k) & ~mover;
            int v = value(mover, opp);
            boolean isOpen = open.test(k);
            t.entries.add(new TestCert.Entry(occOf(k), mover, TestCert.C | TestCert.A | (isOpen ? TestCert.O : 0), v, v, canonicalMove(mover, opp)));
            if (isOpen) {
                openAux.add(k);
                continue;
            }
            for (long m = game.legalMoveCodes(mover, opp); m != 0; m &= m - 1)
                if (game.child(mover, opp, Long.numberOfTrailingZeros(m), out) != Game.TERMINAL) auxWork.add(canonicalKey(out[0], out[1]));
        }
        int rootDiscs = Long.bitCount(rootMover | rootOpp);
        for (int d = rootDiscs; d <= game.cells; d++) {
            long region = 0, auxCount = 0;
            for (long k : needs.keySet()) if (Long.bitCount(occOf(k)) == d && !open.test(k)) region++;
            if (c4) region += terminals.getOrDefault(d, Set.of()).size();
            for (long k : aux) if (Long.bitCount(occOf(k)) == d && !openAux.contains(k)) auxCount++;
            t.census.add(new long[] {d, region, auxCount});
        }
        return t;
    }

    /** The standard Othello start, Black to move. */
    public long[] othelloStart() {
        int n = width, h = n / 2;
        long white = (1L << ((h - 1) * n + h - 1)) | (1L << (h * n + h));
        long black = (1L << ((h - 1) * n + h)) | (1L << (h * n + h - 1));
        return new long[] {black, white};
    }
}

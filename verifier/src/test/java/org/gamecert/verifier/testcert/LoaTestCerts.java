package org.gamecert.verifier.testcert;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.gamecert.verifier.kernel.rules.Game;
import org.gamecert.verifier.kernel.rules.LoaRules;

/**
 * Weak-ranked LOA certificates (SPEC §7.7, §9.2) for tests, made by a tiny depth-limited win
 * search on the verifier's own rules (the producer's solver is another program): a win entry
 * {C} lb = +1 with its move, a loss entry {A} ub = -1, each in the layer of its rank.
 */
public final class LoaTestCerts {
    private LoaTestCerts() {}

    /** A header for loa:NxN, mode 4, rooted at (mover, opp) with the given claim. */
    public static TestCert header(int n, long mover, long opp, int rootValue) {
        TestCert t = new TestCert();
        t.family = 4;
        t.width = n;
        t.height = n;
        t.utility = 2;
        t.symmetry = 0;
        t.mode = 4;
        t.tb = new int[64];
        for (int i = 0; i < 64; i++) t.tb[i] = i;
        t.rootMover = mover;
        t.rootOpponent = opp;
        t.rootValue = rootValue;
        t.sortEntries = false;
        return t;
    }

    /** The ranked win proof of the root within maxRank plies, lowest rank first; null if none. */
    public static TestCert winProof(int n, long mover, long opp, int maxRank) {
        return winProof(new LoaRules(n), header(n, mover, opp, 1), mover, opp, maxRank);
    }

    /**
     * The same for any game of SPEC §7 with symmetry 0 (mode 4 is for any game, §9.2): t is the
     * header to fill, rooted at (mover, opp) with root_value +1.
     */
    public static TestCert winProof(Game g, TestCert t, long mover, long opp, int maxRank) {
        for (int d = 1; d <= maxRank; d++) {
            Map<String, TestCert.Entry> entries = new LinkedHashMap<>();
            if (win(g, mover, opp, d, entries)) {
                List<TestCert.Entry> list = new ArrayList<>(entries.values());
                list.sort((a, b) -> a.layer != b.layer ? Integer.compare(a.layer, b.layer)
                        : a.occ != b.occ ? Long.compareUnsigned(a.occ, b.occ)
                        : Long.compareUnsigned(a.mover, b.mover));
                t.entries.addAll(list);
                return t;
            }
        }
        return null;
    }

    private static String key(long m, long o) {
        return m + "/" + o;
    }

    /** Win within d plies; on success the proof's entries are added (ranks <= d). */
    static boolean win(Game g, long m, long o, int d, Map<String, TestCert.Entry> out) {
        long legal = g.legalMoveCodes(m, o);
        long[] c = new long[3];
        for (int code = 0; code < g.moveCodes; code++) {
            if ((legal >>> code & 1) == 0) continue;
            int type = g.child(m, o, code, c);
            Map<String, TestCert.Entry> sub = new LinkedHashMap<>(out);
            boolean ok = type == Game.TERMINAL ? c[2] == 1 : d > 1 && (type == Game.CHILD
                    ? loss(g, c[0], c[1], d - 1, sub) : win(g, c[0], c[1], d - 1, sub));
            if (!ok) continue;
            out.putAll(sub);
            TestCert.Entry e = new TestCert.Entry(m | o, m, TestCert.C, 1, 0, code);
            e.layer = d;
            out.putIfAbsent(key(m, o), e);
            return true;
        }
        return false;
    }

    static boolean loss(Game g, long m, long o, int d, Map<String, TestCert.Entry> out) {
        long legal = g.legalMoveCodes(m, o);
        long[] c = new long[3];
        Map<String, TestCert.Entry> sub = new LinkedHashMap<>(out);
        for (int code = 0; code < g.moveCodes; code++) {
            if ((legal >>> code & 1) == 0) continue;
            int type = g.child(m, o, code, c);
            boolean ok = type == Game.TERMINAL ? c[2] == -1 : d > 1 && (type == Game.CHILD
                    ? win(g, c[0], c[1], d - 1, sub) : loss(g, c[0], c[1], d - 1, sub));
            if (!ok) return false;
        }
        out.putAll(sub);
        TestCert.Entry e = new TestCert.Entry(m | o, m, TestCert.A, 0, -1, 0);
        e.layer = d;
        out.putIfAbsent(key(m, o), e);
        return true;
    }

    /** The 4×4 game from the start: Black wins in 3 plies. */
    public static TestCert start4x4() {
        LoaRules g = new LoaRules(4);
        long[] s = g.start();
        return winProof(4, s[0], s[1], 5);
    }

    /**
     * A position of loa:NxN (reached by seeded random play) whose mover has a move that connects
     * both sides at once (a draw, SPEC §7.7): {mover, opp, code}; null if none found.
     */
    public static long[] simultaneousConnection(int n, long seed) {
        LoaRules g = new LoaRules(n);
        java.util.Random rnd = new java.util.Random(seed);
        long[] c = new long[3];
        for (int game = 0; game < 20000; game++) {
            long[] s = g.start();
            long m = s[0], o = s[1];
            for (int ply = 0; ply < 200; ply++) {
                long legal = g.legalMoveCodes(m, o);
                if (legal == 0 || g.isTerminal(m, o)) break;
                for (int code = 0; code < 64; code++) {
                    if ((legal >>> code & 1) == 0) continue;
                    if (g.child(m, o, code, c) == Game.TERMINAL && c[2] == 0
                            && g.connected(c[0]) && g.connected(c[1]))
                        return new long[] {m, o, code};
                }
                int pick = rnd.nextInt(Long.bitCount(legal));
                int code = -1;
                for (long x = legal; pick-- >= 0; x &= x - 1) code = Long.numberOfTrailingZeros(x);
                int type = g.child(m, o, code, c);
                if (type == Game.TERMINAL) break;
                m = c[0];
                o = c[1];
            }
        }
        return null;
    }
}

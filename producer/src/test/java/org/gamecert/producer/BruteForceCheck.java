package org.gamecert.producer;

import org.gamecert.producer.cert.CertificateReader;
import org.gamecert.producer.cert.LayerEntries;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Checks a certificate against the truth computed by plain negamax with the reference rules:
 * every exact value, canonical move and bound; the obligations as a verifier reads them (child
 * entries' bounds only); the region R computed from its definition equals the artifact, layer
 * by layer, with the reduced kind sets; the census; and that every entry is reached.
 */
public final class BruteForceCheck {
    static final int P = 1, AP = 2, PP = 4, A = 8, C = 16;

    private BruteForceCheck() {}

    record Key(long m, long o) {}

    static Key key(long[] p) { return new Key(p[0], p[1]); }

    /** Every entry, by canonical key: {kinds, value1, value2, move}. */
    static Map<Key, int[]> entries(CertificateReader r) {
        Map<Key, int[]> map = new HashMap<>();
        for (LayerEntries e : r.layers.values())
            for (int i = 0; i < e.count; i++) {
                assertEquals(e.layer, Long.bitCount(e.mover[i] | e.opponent[i]), "entry in the wrong layer");
                assertNull(map.put(new Key(e.mover[i], e.opponent[i]), new int[]{e.kinds[i], e.value1[i], e.value2[i], e.move[i] & 0xFF}));
            }
        return map;
    }

    static int lo(int[] e, RefGame g) {
        if ((e[0] & 7) != 0) return e[1];
        return (e[0] & C) != 0 ? e[1] : g.uMin;
    }

    static int hi(int[] e, RefGame g) {
        if ((e[0] & 7) != 0) return e[1];
        return (e[0] & A) != 0 ? e[2] : g.uMax;
    }

    static int through(int need, int sign) {
        if (sign < 0) return need;
        return need == P ? P : need == AP ? PP : AP;
    }

    public static void check(RefGame g, long rootM, long rootO, CertificateReader r, boolean weak) {
        Map<Key, int[]> ents = entries(r);
        long[] rootC = g.canonical(rootM, rootO);
        int rootV = g.value(rootC[0], rootC[1]);
        assertEquals(rootV, r.rootValue, "root value");
        assertEquals(rootM, r.rootMover);
        assertEquals(rootO, r.rootOpponent);
        int[] rootE = ents.get(key(rootC));
        assertNotNull(rootE, "root entry");
        if (weak) {
            assertEquals(rootV, lo(rootE, g));
            assertEquals(rootV, hi(rootE, g));
        } else {
            assertEquals(P, rootE[0]);
        }

        // 1. Truth of every claim, and the local obligations read as a verifier would.
        for (Map.Entry<Key, int[]> en : ents.entrySet()) {
            long m = en.getKey().m(), o = en.getKey().o();
            int[] e = en.getValue();
            int kinds = e[0];
            assertArrayEquals(new long[]{m, o}, g.canonical(m, o), "key not canonical");
            assertFalse(g.terminal(m, o), "terminal entry");
            List<Integer> ms = g.moves(m, o);
            assertFalse(ms.isEmpty(), "pass entry");
            if (weak) assertEquals(0, kinds & 7, "weak certificate with an exact entry");
            assertTrue(kinds == 1 || kinds == 2 || kinds == 4 || kinds == 6 || kinds == 8 || kinds == 16 || kinds == 24, "kind set " + kinds);
            int v = g.value(m, o);
            if ((kinds & 7) != 0) {
                assertEquals(v, e[1], "exact value");
                assertEquals(g.canonicalMove(m, o), e[3], "canonical move");
            }
            if ((kinds & C) != 0) {
                assertTrue(e[1] <= v, "lower bound is false");
                assertTrue(ms.contains(e[3]), "cut move illegal");
                assertTrue(g.moveValue(m, o, e[3]) >= e[1], "cut move does not reach the bound");
                assertTrue(e[1] > g.uMin, "trivial lower bound written");
            }
            if ((kinds & A) != 0) {
                assertTrue(e[2] >= v, "upper bound is false");
                assertTrue(e[2] < g.uMax, "trivial upper bound written");
            }
            // obligations over child entries only
            int[] mlo = new int[g.moveCodes], mhi = new int[g.moveCodes], ckinds = new int[g.moveCodes];
            boolean[] term = new boolean[g.moveCodes];
            int[] sign = new int[g.moveCodes];
            for (int mv : ms) {
                long[] c = g.child(m, o, mv);
                sign[mv] = (int) c[0];
                if (c[0] == 0) { mlo[mv] = mhi[mv] = (int) c[3]; term[mv] = true; continue; }
                int[] ce = ents.get(key(g.canonical(c[1], c[2])));
                int clo = ce == null ? g.uMin : lo(ce, g), chi = ce == null ? g.uMax : hi(ce, g);
                ckinds[mv] = ce == null ? 0 : ce[0];
                if (c[0] < 0) { mlo[mv] = -chi; mhi[mv] = -clo; } else { mlo[mv] = clo; mhi[mv] = chi; }
            }
            int star = e[3];
            if ((kinds & (P | PP)) != 0) {
                int max = Integer.MIN_VALUE;
                for (int mv : ms) { assertEquals(mlo[mv], mhi[mv], "P/P' child not exact"); max = Math.max(max, mlo[mv]); }
                assertEquals(v, max);
                for (int mv : ms) {
                    int need = (kinds & P) != 0 && mv == star ? P : AP;
                    assertTrue(term[mv] || serves(ckinds[mv], through(need, sign[mv])), "region need not served");
                }
            }
            if ((kinds & AP) != 0 && (kinds & P) == 0) {
                assertTrue(term[star] || serves(ckinds[star], through(PP, sign[star])), "A' canonical child not P'");
                assertEquals(v, mlo[star]);
                assertEquals(v, mhi[star]);
                int rank = indexOf(g.tb, star);
                for (int mv : ms) {
                    if (indexOf(g.tb, mv) < rank) assertTrue(mhi[mv] < v, "earlier move not refuted strictly");
                    else if (mv != star) assertTrue(mhi[mv] <= v, "later move not refuted");
                }
            }
            if ((kinds & C) != 0) assertTrue(mlo[star] >= e[1], "R-CUT-1 over child entries");
            if ((kinds & A) != 0) for (int mv : ms) assertTrue(mhi[mv] <= e[2], "R-ALL-1 over child entries");
        }

        // 2. R from its definition (true canonical moves), compared with the artifact.
        Map<Key, Integer> needs = new HashMap<>();
        Set<Key> terminalsInR = new HashSet<>();
        if (!weak) {
            ArrayDeque<long[]> queue = new ArrayDeque<>();
            needs.put(key(rootC), P);
            queue.add(new long[]{rootC[0], rootC[1], P});
            while (!queue.isEmpty()) {
                long[] q = queue.poll();
                long m = q[0], o = q[1];
                int need = (int) q[2];
                int star = g.canonicalMove(m, o);
                for (int mv : g.moves(m, o)) {
                    int childNeed;
                    if (need == P) childNeed = mv == star ? P : AP;
                    else if (need == AP) { if (mv != star) continue; childNeed = PP; }
                    else childNeed = AP;
                    long[] c = g.child(m, o, mv);
                    if (c[0] == 0) { terminalsInR.add(key(g.canonical(c[1], c[2]))); continue; }
                    childNeed = through(childNeed, (int) c[0]);
                    Key ck = key(g.canonical(c[1], c[2]));
                    int old = needs.getOrDefault(ck, 0);
                    if ((old & childNeed) == 0) {
                        needs.put(ck, old | childNeed);
                        queue.add(new long[]{ck.m(), ck.o(), childNeed});
                    }
                }
            }
        }
        int regionEntries = 0;
        for (Map.Entry<Key, int[]> en : ents.entrySet()) {
            int k = en.getValue()[0];
            if ((k & 7) == 0) continue;
            regionEntries++;
            Integer n = needs.get(en.getKey());
            assertNotNull(n, "region entry outside R");
            int reduced = (n & P) != 0 ? P : n;
            assertEquals(reduced, k, "kind set of a region entry");
        }
        assertEquals(needs.size(), regionEntries, "R has positions without a region entry");

        // 3. Census.
        int rootDiscs = Long.bitCount(rootM | rootO);
        assertEquals(g.cells - rootDiscs + 1, r.census.length);
        for (long[] row : r.census) {
            int d = (int) row[0];
            long region = needs.keySet().stream().filter(k -> Long.bitCount(k.m() | k.o()) == d).count();
            if (g.countsTerminalsInCensus()) region += terminalsInR.stream().filter(k -> Long.bitCount(k.m() | k.o()) == d).count();
            long aux = ents.entrySet().stream().filter(x -> Long.bitCount(x.getKey().m() | x.getKey().o()) == d && (x.getValue()[0] & 7) == 0).count();
            assertEquals(region, row[1], "census region at " + d);
            assertEquals(aux, row[2], "census aux at " + d);
        }

        // 4. Every entry reached from the root through the kinds it carries (SPEC §10.2).
        Set<Key> reached = new HashSet<>();
        ArrayDeque<Key> q = new ArrayDeque<>();
        reached.add(key(rootC));
        q.add(key(rootC));
        while (!q.isEmpty()) {
            Key k = q.poll();
            int[] e = ents.get(k);
            List<Integer> ms = g.moves(k.m(), k.o());
            for (int mv : ms) {
                if ((e[0] & (P | AP | PP | A)) == 0 && mv != e[3]) continue;
                long[] c = g.child(k.m(), k.o(), mv);
                if (c[0] == 0) continue;
                Key ck = key(g.canonical(c[1], c[2]));
                if (ents.containsKey(ck) && reached.add(ck)) q.add(ck);
            }
        }
        assertEquals(ents.size(), reached.size(), "unreached entries");
    }

    static boolean serves(int kinds, int need) {
        if (need == P) return (kinds & P) != 0;
        if (need == AP) return (kinds & (P | AP)) != 0;
        return (kinds & (P | PP)) != 0;
    }

    static int indexOf(int[] a, int x) {
        for (int i = 0; i < a.length; i++) if (a[i] == x) return i;
        return -1;
    }
}

package org.gamecert.producer.research;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The research throwaway of issue #40 on 4×4 (about a second): its oracle agrees with a plain
 * minimax of every reachable position, and the paper's procedure run with it proves what it claims:
 * its region is the semi-strong region defined from the exact values, and every bound it stored holds.
 */
class PaperReopeningC4Test {
    private final C4Board b = new C4Board(4, 4);
    private final Map<Long, Integer> minimax = new HashMap<>();

    /** Plain memoized minimax, no pruning, no shared code with the oracle. */
    private int minimax(long pos, long mask) {
        long k = b.key(pos, mask);
        Integer got = minimax.get(k);
        if (got != null) return got;
        int best = -2;
        for (int c = 0; c < b.w; c++) {
            long m = b.possible(mask) & b.colMask[c];
            if (m == 0) continue;
            int v = b.four(pos | m) ? 1 : (mask | m) == b.boardMask ? 0 : -minimax(pos ^ mask, mask | m);
            best = Math.max(best, v);
        }
        minimax.put(k, best);
        return best;
    }

    @Test
    void oracleAgreesWithMinimaxOnEveryReachablePositionOf4x4() {
        C4Oracle oracle = new C4Oracle(b, 16);
        minimax(0, 0);
        assertTrue(minimax.size() > 100_000, "4x4 has about 10^5 non-terminal positions");
        // every key decodes to (pos, mask): walk them again from the start
        Set<Long> seen = new HashSet<>();
        int[] checked = {0};
        walk(0, 0, seen, oracle, checked);
        assertEquals(minimax.size(), checked[0]);
    }

    private void walk(long pos, long mask, Set<Long> seen, C4Oracle oracle, int[] checked) {
        if (!seen.add(b.key(pos, mask))) return;
        assertEquals(minimax(pos, mask), oracle.value(pos, mask), () -> "position " + Long.toHexString(b.key(pos, mask)));
        checked[0]++;
        for (int c = 0; c < b.w; c++) {
            long m = b.possible(mask) & b.colMask[c];
            if (m == 0 || b.four(pos | m) || (mask | m) == b.boardMask) continue;
            walk(pos ^ mask, mask | m, seen, oracle, checked);
        }
    }

    /** The semi-strong region from exact values: P, A', P' expanded as SPEC §10.1 says. */
    private void region(long pos, long mask, int need, Map<Long, Integer> out) {
        long k = b.key(pos, mask);
        int had = out.getOrDefault(k, 0);
        if ((had & need) != 0) return;
        out.put(k, had | need);
        if (b.terminal(pos, mask)) return;
        int canon = -1, best = -2;
        for (int t = 0; t < b.w; t++) {
            int c = b.tb[t];
            long m = b.possible(mask) & b.colMask[c];
            if (m == 0) continue;
            int v = b.four(pos | m) ? 1 : (mask | m) == b.boardMask ? 0 : -minimax(pos ^ mask, mask | m);
            if (v > best) { best = v; canon = c; }
        }
        for (int c = 0; c < b.w; c++) {
            long m = b.possible(mask) & b.colMask[c];
            if (m == 0) continue;
            int childNeed;
            if (need == PaperReopeningC4.P) childNeed = c == canon ? PaperReopeningC4.P : PaperReopeningC4.AP;
            else if (need == PaperReopeningC4.AP) { if (c != canon) continue; childNeed = PaperReopeningC4.PP; }
            else childNeed = PaperReopeningC4.AP;
            region(pos ^ mask, mask | m, childNeed, out);
        }
    }

    @Test
    void paperProcedureOn4x4CertifiesTheRegionAndEveryStoredBoundHolds() {
        minimax(0, 0);
        Map<Long, Integer> r = new HashMap<>();
        region(0, 0, PaperReopeningC4.P, r);
        for (int strict : new int[]{0, PaperReopeningC4.STRICT_ALL}) {
            for (PaperReopeningC4.Cut cut : new PaperReopeningC4.Cut[]{PaperReopeningC4.Cut.PAPER, PaperReopeningC4.Cut.THREATS_SUFFICIENT}) {
                PaperReopeningC4 p = new PaperReopeningC4(4, 4, cut, strict, false);
                assertEquals(minimax(0, 0), p.run(), "root value");
                Set<Long> region = new HashSet<>();
                int[] bad = {0};
                p.table.forEach((k, e) -> {
                    if ((PaperReopeningC4.visitedKinds(e) & PaperReopeningC4.REGION) != 0) region.add(k);
                    // a terminal position holds its own value; others the exact one, by the minimax table
                    Integer v = minimax.get(k);
                    if (v != null && (PaperReopeningC4.lo(e) > v || PaperReopeningC4.hi(e) < v)) bad[0]++;
                });
                assertEquals(0, bad[0], cut + " strict " + strict + ": stored bounds that do not hold");
                assertEquals(r.keySet(), region, cut + " strict " + strict + ": region");
            }
        }
    }
}

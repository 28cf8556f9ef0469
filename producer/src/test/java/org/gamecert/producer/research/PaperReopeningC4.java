package org.gamecert.producer.research;

import java.util.Arrays;

/**
 * Research throwaway (issue #40), not production code: the semi-strong paper's reopening alpha–beta
 * (Takizawa, arXiv 2411.01029) for Connect Four on small boards, under oracle move ordering, so that
 * its proof can be compared per disc count and per kind with the producer's certificate.
 * <p>Node kinds, as in the paper's public 6×6 Othello program (read, not copied): P (principal: first
 * child P, the others A'), A' (optimal agent to move: first child P', the others C), P' (free agent
 * to move: every child A'), A (all: every child C), C (cut: one child, A). P, A' and P' are searched
 * with the full window (exact values), C and A with the null window the parent's bound asks. A table
 * holds every expanded position with its fail-soft bounds and the kinds it was expanded as; a P'
 * position is reopened unless it was expanded as P or P', an A' one unless as P or A', a C or A
 * position when its bounds do not answer the window.
 * <p>Oracle ordering: at every expanded position the moves are ordered by decreasing exact value,
 * ties by the fixed order centre first, then left; the first move of a C node is thus a maximizer.
 * Win/draw/loss values: a bound that every value meets (a C child asked for at least −1, as the
 * refuted moves of an A' position worth +1 are) is not searched, and its position is not visited.
 * Counts: the distinct positions visited, terminal positions included, no mirror quotient.
 * <p>Variants (one choice changed at a time, to find what makes our proofs larger): the cut move
 * ({@link Cut}), the A' tie-break proof of SPEC §9 R-TB-1 ({@code strictTb}: a move earlier in the
 * order than the canonical one must be shown strictly worse), fail-hard bounds.
 */
public final class PaperReopeningC4 {
    public static final int P = 1, AP = 2, PP = 4, A = 8, C = 16, TERM = 32;
    public static final int REGION = P | AP | PP;

    /** How a C node picks its (single) move among those that reach its bound. */
    public enum Cut {
        /** The paper: the first move of the oracle order (a maximizer, ties centre first, then left). */
        PAPER,
        /** The first move in the fixed order (centre first) that reaches the bound. */
        TB_SUFFICIENT,
        /** The producer's static rule without its layer popularity: a terminal move that reaches the
         *  bound, else the most threats made, ties centre first. */
        THREATS_SUFFICIENT,
        /** An immediate win first, then the paper's order. */
        TERMINAL_THEN_PAPER,
        /** The highest value first (a win where one exists), then {@link #THREATS_SUFFICIENT} among those. */
        VALUE_THEN_THREATS,
        /** Among the moves that reach the bound, the one whose value is highest, and among wins the
         *  fastest (fewest plies to the end against best defence), ties centre first. */
        FASTEST_WIN
    }

    final C4Board b;
    final C4Oracle oracle;
    final Cut cut;
    final boolean failHard;
    /** R-TB-1 at A' for the A' values in this mask: bit 0 for v = +1, bit 1 for v = 0 (0: the paper). */
    final int strictTb;
    /** key → bits 0-7 kinds expanded as, 8-15 kinds visited as, 16-18 lo+2, 19-21 hi+2, 22-27 discs */
    final LongIntMap table = new LongIntMap(16);
    long expansions, visits;
    private final C4Distance distance;

    public static final int STRICT_WIN = 1, STRICT_DRAW = 2, STRICT_ALL = 3;

    public PaperReopeningC4(int w, int h, Cut cut, int strictTb, boolean failHard) {
        this.b = new C4Board(w, h);
        this.oracle = new C4Oracle(b, Math.min(24, Math.max(16, b.cells - 4)));
        this.cut = cut; this.strictTb = strictTb; this.failHard = failHard;
        this.distance = cut == Cut.FASTEST_WIN ? new C4Distance(b, oracle) : null;
    }

    private static int pack(int expanded, int visited, int lo, int hi, int discs) {
        return expanded | visited << 8 | (lo + 2) << 16 | (hi + 2) << 19 | discs << 22;
    }
    static int expanded(int e) { return e & 0xFF; }
    static int visitedKinds(int e) { return (e >>> 8) & 0xFF; }
    static int lo(int e) { return ((e >>> 16) & 7) - 2; }
    static int hi(int e) { return ((e >>> 19) & 7) - 2; }
    static int discs(int e) { return (e >>> 22) & 63; }

    /** The root's value; fills {@link #table}. */
    public int run() { return run(""); }

    /** From the position after {@code moves} (1-based columns). */
    public int run(String moves) {
        long[] r = b.play(moves);
        return search(r[0], r[1], -2, 2, P);
    }

    private void record(long k, int e0, int kindVisited, int kindExpanded, int lo, int hi, int discs) {
        int ex = 0, vi = 0, l = -1, u = 1;
        if (e0 != Integer.MIN_VALUE) { ex = expanded(e0); vi = visitedKinds(e0); l = lo(e0); u = hi(e0); }
        table.put(k, pack(ex | kindExpanded, vi | kindVisited, Math.max(l, lo), Math.min(u, hi), discs));
    }

    /** Fail-soft search of (pos, mask) as a node of the given kind, window (alpha, beta). */
    int search(long pos, long mask, int alpha, int beta, int kind) {
        visits++;
        long k = b.key(pos, mask);
        int discs = b.discs(mask);
        int e = table.get(k, Integer.MIN_VALUE);
        if (b.terminal(pos, mask)) {
            int v = b.terminalValue(pos, mask);
            record(k, e, kind | TERM, 0, v, v, discs);
            return v;
        }
        if (e != Integer.MIN_VALUE) {
            int ex = expanded(e), lo = lo(e), hi = hi(e);
            boolean hit = false;
            int ret = 0;
            switch (kind) {
                case P: throw new IllegalStateException("a principal position seen twice");
                case PP: if ((ex & (P | PP)) != 0) { hit = true; ret = lo; } break;
                case AP: if ((ex & (P | AP)) != 0) { hit = true; ret = lo; } break;
                default:
                    if (lo == hi) { hit = true; ret = lo; }
                    else if (hi <= alpha) { hit = true; ret = hi; }
                    else if (lo >= beta) { hit = true; ret = lo; }
            }
            if (hit) {
                record(k, e, kind, 0, -1, 1, discs);
                return ret;
            }
        }
        expansions++;
        // the moves with their exact values, in oracle order
        long poss = b.possible(mask), opp = pos ^ mask;
        int n = 0;
        int[] col = new int[b.w], val = new int[b.w];
        for (int t = 0; t < b.w; t++) {
            int c = b.tb[t];
            if ((poss & b.colMask[c]) == 0) continue;
            int v = oracle.moveValue(pos, mask, c);
            int p = n++;
            while (p > 0 && val[p - 1] < v) { val[p] = val[p - 1]; col[p] = col[p - 1]; p--; }
            val[p] = v; col[p] = c;
        }
        int canon = col[0], v0 = val[0]; // the canonical move: a maximizer, the earliest in the fixed order
        if (kind == C) moveCutFirst(pos, mask, col, val, n, beta);
        int best = -2, nowAlpha = alpha;
        for (int i = 0; i < n; i++) {
            long m = poss & b.colMask[col[i]];
            long cp = opp, cm = mask | m;
            int childKind = childKind(kind, i == 0);
            int score;
            if (childKind == P || childKind == AP || childKind == PP) {
                score = -search(cp, cm, -2, 2, childKind);
            } else if (kind == AP && i > 0) {
                // a refuted move: at most v0, or, SPEC R-TB-1 (strictTb), below v0 when earlier in the order
                boolean strict = (v0 == 1 && (strictTb & STRICT_WIN) != 0) || (v0 == 0 && (strictTb & STRICT_DRAW) != 0);
                int ub = strict && b.tbRank[col[i]] < b.tbRank[canon] ? v0 - 1 : v0;
                if (ub >= 1) continue; // asks nothing: not visited
                score = -search(cp, cm, -ub - 1, -ub, C);
                if (score > ub) throw new IllegalStateException("a refuted move is not refuted");
            } else if (kind == C) {
                score = -search(cp, cm, -beta, -alpha, A);
            } else { // kind A: every child C, null window
                score = -search(cp, cm, -beta, -alpha, C);
            }
            if (score > best) best = score;
            if (kind == C) {
                if (score < beta) throw new IllegalStateException("oracle cut does not reach its bound");
                break;
            }
            if (kind == A && score >= beta) throw new IllegalStateException("an all node failed high");
            if (score > nowAlpha && kind != AP) nowAlpha = score;
        }
        int lo, hi;
        if ((kind & REGION) != 0) {
            if (kind == AP) best = v0;
            lo = hi = best;
        } else if (kind == C) { lo = failHard ? beta : best; hi = 1; }
        else { lo = -1; hi = failHard ? alpha : best; }
        record(k, table.get(k, Integer.MIN_VALUE), kind, kind, lo, hi, discs);
        return (kind & REGION) != 0 ? best : kind == C ? lo : hi;
    }

    private static int childKind(int kind, boolean first) {
        switch (kind) {
            case P: return first ? P : AP;
            case AP: return first ? PP : C;
            case PP: return AP;
            case A: return C;
            case C: return A;
            default: throw new IllegalArgumentException();
        }
    }

    /** Puts the C node's chosen move first (the moves are in oracle order). */
    private void moveCutFirst(long pos, long mask, int[] col, int[] val, int n, int need) {
        int pick = -1;
        switch (cut) {
            case PAPER: pick = 0; break;
            case TB_SUFFICIENT: {
                int bestRank = Integer.MAX_VALUE;
                for (int i = 0; i < n; i++)
                    if (val[i] >= need && b.tbRank[col[i]] < bestRank) { bestRank = b.tbRank[col[i]]; pick = i; }
                break;
            }
            case THREATS_SUFFICIENT: {
                long bestScore = Long.MIN_VALUE;
                for (int i = 0; i < n; i++) {
                    if (val[i] < need) continue;
                    long m = b.possible(mask) & b.colMask[col[i]];
                    boolean term = b.four(pos | m) || (mask | m) == b.boardMask;
                    long s = term ? Long.MAX_VALUE : Long.bitCount(b.winningCells(pos | m, mask | m)) * 16L - b.tbRank[col[i]];
                    if (s > bestScore) { bestScore = s; pick = i; }
                }
                break;
            }
            case VALUE_THEN_THREATS: {
                long bestScore = Long.MIN_VALUE;
                for (int i = 0; i < n && val[i] == val[0]; i++) {
                    long m = b.possible(mask) & b.colMask[col[i]];
                    boolean term = b.four(pos | m) || (mask | m) == b.boardMask;
                    long s = term ? Long.MAX_VALUE : Long.bitCount(b.winningCells(pos | m, mask | m)) * 16L - b.tbRank[col[i]];
                    if (s > bestScore) { bestScore = s; pick = i; }
                }
                break;
            }
            case TERMINAL_THEN_PAPER: {
                for (int i = 0; i < n && pick < 0; i++) {
                    long m = b.possible(mask) & b.colMask[col[i]];
                    if (b.four(pos | m)) pick = i;
                }
                if (pick < 0) pick = 0;
                break;
            }
            case FASTEST_WIN: {
                if (val[0] < 1) { pick = 0; break; }
                int bestD = Integer.MAX_VALUE;
                for (int i = 0; i < n && val[i] == 1; i++) {
                    int d = distance.winMovePlies(pos, mask, col[i]);
                    if (d < bestD) { bestD = d; pick = i; }
                }
                break;
            }
        }
        if (pick < 0) throw new IllegalStateException("no move reaches the bound");
        int c = col[pick], v = val[pick];
        System.arraycopy(col, 0, col, 1, pick); System.arraycopy(val, 0, val, 1, pick);
        col[0] = c; val[0] = v;
    }

    // ---------------------------------------------------------------- census

    /** Per disc count: region, C only, A only, C and A, terminal outside the region. */
    public long[][] census() {
        long[][] rows = new long[b.cells + 1][5];
        table.forEach((k, e) -> {
            int vk = visitedKinds(e), d = discs(e);
            if ((vk & REGION) != 0) rows[d][0]++;
            else if ((vk & TERM) != 0) rows[d][4]++;
            else if ((vk & (C | A)) == (C | A)) rows[d][3]++;
            else if ((vk & C) != 0) rows[d][1]++;
            else rows[d][2]++;
        });
        return rows;
    }

    static String table(long[][] rows) {
        StringBuilder sb = new StringBuilder("discs\tregion\tC\tA\tCA\tterminal\tproof\n");
        long[] tot = new long[6];
        for (int d = 0; d < rows.length; d++) {
            long[] r = rows[d];
            long proof = r[1] + r[2] + r[3] + r[4];
            sb.append(d).append('\t').append(r[0]).append('\t').append(r[1]).append('\t').append(r[2]).append('\t')
                    .append(r[3]).append('\t').append(r[4]).append('\t').append(proof).append('\n');
            for (int j = 0; j < 5; j++) tot[j] += r[j];
            tot[5] += proof;
        }
        sb.append("total\t").append(tot[0]).append('\t').append(tot[1]).append('\t').append(tot[2]).append('\t')
                .append(tot[3]).append('\t').append(tot[4]).append('\t').append(tot[5]).append('\n');
        return sb.toString();
    }

    /**
     * Usage: PaperReopeningC4 WxH [--moves 4453] [--cut PAPER|TB_SUFFICIENT|...] [--strict-tb | --strict-tb-win | --strict-tb-draw] [--fail-hard].
     * Prints the root value and the census (tab-separated) of the paper's procedure.
     */
    public static void main(String[] args) {
        String[] wh = args[0].split("x");
        Cut cut = Cut.PAPER;
        int strict = 0;
        boolean hard = false;
        String moves = "";
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--cut": cut = Cut.valueOf(args[++i]); break;
                case "--strict-tb": strict = STRICT_ALL; break;
                case "--strict-tb-win": strict = STRICT_WIN; break;
                case "--strict-tb-draw": strict = STRICT_DRAW; break;
                case "--fail-hard": hard = true; break;
                case "--moves": moves = args[++i]; break;
                default: throw new IllegalArgumentException(args[i]);
            }
        }
        long t0 = System.nanoTime();
        PaperReopeningC4 r = new PaperReopeningC4(Integer.parseInt(wh[0]), Integer.parseInt(wh[1]), cut, strict, hard);
        int v = r.run(moves);
        System.out.printf("# connect4:%s moves=%s cut=%s strictTb=%s failHard=%s root value %d; %d visits, %d expansions, "
                        + "%d oracle nodes, %.1f s%n", args[0], moves, cut, strict, hard, v, r.visits, r.expansions,
                r.oracle.nodes, (System.nanoTime() - t0) / 1e9);
        System.out.print(table(r.census()));
    }
}

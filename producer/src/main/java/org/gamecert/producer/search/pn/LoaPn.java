package org.gamecert.producer.search.pn;

import org.gamecert.producer.game.Loa;
import org.gamecert.producer.search.RankedProof;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

import static org.gamecert.producer.search.pn.PnTable.AND;
import static org.gamecert.producer.search.pn.PnTable.LOOP;
import static org.gamecert.producer.search.pn.PnTable.ON_PATH;
import static org.gamecert.producer.search.pn.PnTable.RANK_MASK;

/**
 * Depth-first proof-number search (df-pn, Nagai 2002, with the 1+ε threshold of Pawlewicz and
 * Lew, ε = 1/4) for Lines of Action, proving that the <em>attacker</em> (the root's mover, or its
 * opponent when a loss is sought) wins. OR nodes: the attacker to move; AND nodes: the defender.
 * A new node starts at (1, number of moves) in an OR node and (number of moves, 1) in an AND node
 * (the mobility initialisation of Winands' PN search for LOA), the proof number multiplied by the
 * square of the attacker's number of groups and the disproof number by the square of the
 * defender's (measured: 5×5 from the start 64,377 MID calls against 104,656 with mobility alone,
 * the 6×6 position after b1-b3 f5-e4 b3-b5 f2-d4 191,028 against 458,826; the first power gave
 * 69,426 and 230,160, the cube 81,580 and 183,589).
 *
 * <p><b>Proofs never rest on a repetition.</b> A position proven won for the attacker (pn = 0)
 * is proven only from terminal wins and positions proven earlier, each with its rank (OR: 1 + the
 * least rank of a proven child; AND: 1 + the largest rank of its children, 0 for a terminal), so
 * ranks strictly decrease along every proof edge and no proof path repeats a position (SPEC §9.2).
 * Proven entries are never replaced or changed, so a proof holds under every history and the proof
 * read from the table after the search is the one the search made.
 *
 * <p><b>Graph-history interaction.</b> A child that is on the current search path (a repetition)
 * counts as disproved: the attacker cannot win through it without repeating a position. A
 * disproof that rests on such a repetition holds only for the path it was made under, so it is
 * stored as LOOP with the least depth of the path positions it rests on and a 64-bit hash of the
 * path from the root to its parent; it is used only under that same path (a collision of the hash
 * could make the search miss a win, never accept a false one), anywhere else it is searched again. At the node whose depth is that least depth (the repeated position itself) the
 * dependence is resolved: the attacker has no repetition-free win from there, whatever the
 * history, and the disproof becomes an ordinary one. The numbers of a node computed with a child
 * on the path (or a LOOP child) depend on the path; df-pn can go round such a cycle for ever (a
 * child's numbers fall back when read from another path), so these are stored only upwards (never
 * below what the entry had); and if a whole slice still makes no new position and leaves the
 * root's numbers as they were, the search is {@link #stuck()}: it gives up with no result (it
 * happens in drawn positions of 5×5 whose repetitions df-pn does not settle). So a disproof at the root means there is no
 * repetition-free win, which by the attractor argument is no win at all for the attacker under
 * the real rules (a third repetition is a draw); disproofs are not certified, only wins are.
 *
 * <p><b>Determinism.</b> One thread. The search runs in slices of {@link #SLICE} MID calls, each
 * started at the root with the table as the previous one left it: the state between two slices is
 * the table and two counters, which is what a checkpoint holds, so a resumed run continues
 * exactly as an uninterrupted one. The table's replacement rule ({@link PnTable}) depends on its
 * capacity only once it fills.
 */
public final class LoaPn implements RankedProof {
    public static final int INF = 1 << 30;
    /** MID calls per slice in {@code produce solve}: fixed, it is part of what the search does. */
    public static final long SLICE = 1 << 18;
    /** The rules that decide the proof found (a checkpoint made under other rules is refused). */
    public static final String RULES = "df-pn 1+1/4, mobility times groups squared initialisation, moves in code order, LOOP disproofs per path "
            + "hash, numbers resting on the path never go down, stuck after a slice without progress, slices of 2^18 MID calls, PnTable rule: grow to the limit, then collect at 3/4 to 1/2 by log2 work";
    static final int MAXD = 4000;
    private static final int NO_LOOP = RANK_MASK;

    /** Thrown when the time runs out (no result; the table is left consistent). */
    public static final class OutOfTime extends RuntimeException {
        public OutOfTime() { super("time limit", null, false, false); }
    }

    private final Loa loa;
    private PnTable tt;
    /** MID calls (each expands its node: generates and plays every move). */
    public long nodes;
    private long slices;
    private long sliceEnd, deadline = Long.MAX_VALUE;
    private boolean stop, timeUp, stuck;

    private final long[] pathSerial = new long[MAXD + 1], pathM = new long[MAXD + 1], pathO = new long[MAXD + 1];
    private final int[][] mvBuf = new int[MAXD + 1][];
    private final long[][] cm = new long[MAXD + 1][], co = new long[MAXD + 1][];
    private final int[][] cInitP = new int[MAXD + 1][], cInitD = new int[MAXD + 1][], cCode = new int[MAXD + 1][];
    private final LoaMoves gen;

    private final long slice;

    public LoaPn(Loa loa, PnTable table) {
        this(loa, table, SLICE);
    }

    /** With another slice length (tests of checkpoints: the slice is part of what the search does). */
    public LoaPn(Loa loa, PnTable table, long slice) {
        this.slice = slice;
        this.loa = loa;
        this.tt = table;
        this.gen = new LoaMoves(loa.n);
    }

    public PnTable table() { return tt; }
    public long slices() { return slices; }

    public void deadline(long nanos) { deadline = nanos; }

    /** Receives the root's numbers after every slice. */
    public interface Listener {
        void afterSlice(LoaPn search, int rootPn, int rootDn) throws IOException;
    }

    /**
     * Runs slices until the root is solved: +1 the attacker wins (proven), -1 it does not (no
     * repetition-free win), 0 the search is {@link #stuck()}. attackerMoves: the attacker is the
     * root's mover (else its opponent).
     */
    public int prove(long m, long o, boolean attackerMoves, Listener listener) throws IOException {
        while (true) {
            int r = result(m, o, attackerMoves);
            if (r != 0 || stuck) return r;
            slice(m, o, attackerMoves);
            if (listener != null) {
                int[] x = numbers(m, o, attackerMoves);
                listener.afterSlice(this, x[0], x[1]);
            }
        }
    }

    /** +1 the root is proven, -1 disproven, 0 not yet. */
    public int result(long m, long o, boolean attackerMoves) {
        int s = tt.find(m, o | (attackerMoves ? 0 : AND));
        if (s >= 0 && tt.pn[s] == 0) return 1;
        if (s >= 0 && tt.dn[s] == 0 && (tt.info[s] & LOOP) == 0) return -1;
        return 0;
    }

    /** One slice from the root, then {@link #result}; OutOfTime when the deadline passes during it (the table stays consistent). */
    public int slice(long m, long o, boolean attackerMoves) {
        if (timeUp) throw new OutOfTime();
        sliceEnd = nodes + slice;
        stop = false;
        int[] before = numbers(m, o, attackerMoves);
        long made = tt.made;
        mid(0, m, o | (attackerMoves ? 0 : AND), INF, INF);
        if (timeUp) throw new OutOfTime(); // a slice cut short is no state to keep: the last whole one is
        slices++;
        int[] after = numbers(m, o, attackerMoves);
        int r = result(m, o, attackerMoves);
        // a whole slice that made no position and left the root as it was goes round a cycle of the
        // graph (df-pn's known failure on graphs with cycles): the search gives up, with no result
        if (r == 0 && tt.made == made && before[0] == after[0] && before[1] == after[1]) stuck = true;
        return r;
    }

    /** The search went round a cycle of the graph for a whole slice and gave up: no result, neither way. */
    public boolean stuck() { return stuck; }

    /** The root's numbers as the table has them (1, 1 when not there). */
    public int[] numbers(long m, long o, boolean attackerMoves) {
        int s = tt.find(m, o | (attackerMoves ? 0 : AND));
        return s < 0 ? new int[] {1, 1} : new int[] {tt.pn[s], tt.dn[s]};
    }

    // ------------------------------------------------------------------ the search

    private void mid(int depth, long m, long key, int thpn, int thdn) {
        nodes++;
        if ((nodes & 4095) == 0 && System.nanoTime() > deadline) timeUp = true;
        if (nodes >= sliceEnd || timeUp) stop = true;
        long nodes0 = nodes;
        boolean or = (key & AND) == 0;
        long o = key & ~AND;
        if (mvBuf[depth] == null) {
            mvBuf[depth] = new int[64];
            cm[depth] = new long[64];
            co[depth] = new long[64];
            cInitP[depth] = new int[64];
            cInitD[depth] = new int[64];
            cCode[depth] = new int[64];
        }
        int[] mv = mvBuf[depth];
        long[] ckm = cm[depth], cko = co[depth];
        int[] ip = cInitP[depth], id = cInitD[depth], code = cCode[depth];
        int count = gen.moves(m, o, mv), k = 0;
        for (int i = 0; i < count; i++) {
            // the move, as Loa.play: a side connected ends the game; else the opponent moves, or passes
            int from = mv[i] >>> 8 & 0xFF, to = mv[i] & 0xFF;
            long bit = 1L << to, m2 = (m & ~(1L << from)) | bit, o2 = o & ~bit;
            boolean mine = loa.connected(m2);
            // without a capture the opponent's pieces are as they were: not connected (this node is no terminal)
            boolean theirs = o2 != o && loa.connected(o2);
            int value = 2; // not terminal
            if (mine || theirs) value = mine && theirs ? 0 : mine ? 1 : -1;
            boolean childOr = !or;
            long cmv = o2, cop = m2;
            int mob = 0;
            if (value == 2) {
                mob = gen.count(o2, m2);
                if (mob == 0) { // the opponent passes
                    mob = gen.count(m2, o2);
                    if (mob == 0) value = 0; // nobody can move
                    childOr = or;
                    cmv = m2;
                    cop = o2;
                }
            }
            if (value != 2) {
                boolean win = or ? value == 1 : value == -1;
                if (or && win) { finish(m, key, depth, 0, INF, 1, mv[i] >>> 16, nodes0); return; }
                if (!or && !win) { finish(m, key, depth, INF, 0, NO_LOOP, 0, nodes0); return; }
                continue; // a lost terminal in an OR node, a won one in an AND node: no weight
            }
            ckm[k] = cmv;
            cko[k] = cop | (childOr ? 0 : AND);
            // mobility (Winands) times the square of the groups: the attacker's for pn, the defender's for dn
            int ga = loa.groups(or ? m2 : o2), gd = loa.groups(or ? o2 : m2);
            int pi = (childOr ? 1 : mob) * ga * ga, di = (childOr ? mob : 1) * gd * gd;
            ip[k] = pi;
            id[k] = di;
            code[k] = mv[i] >>> 16;
            k++;
        }
        if (k == 0) { // every move a terminal that decides nothing: lost (OR) or won (AND)
            if (or) finish(m, key, depth, INF, 0, NO_LOOP, 0, nodes0);
            else finish(m, key, depth, 0, INF, 1, 0, nodes0);
            return;
        }
        if (depth >= MAXD - 1) { // too deep to go on: a disproof for this path only
            finish(m, key, depth, INF, 0, 0, 0, nodes0);
            return;
        }
        int s = tt.findOrAdd(m, key, 1, 1);
        if (tt.pn[s] == 0) throw new IllegalStateException("searching a proven position");
        if ((tt.info[s] & LOOP) != 0) tt.aux[s] = 0; // a LOOP disproof made under another path: searched again
        tt.info[s] = ON_PATH;
        // the path from the root to here, as one hash: a LOOP disproof holds under the path it was made under
        long prev = depth == 0 ? 0x5DEECE66DL : pathSerial[depth - 1];
        long serial = (prev ^ m * 0x9E3779B97F4A7C15L) * 0xBF58476D1CE4E5B9L ^ Long.rotateLeft(key * 0x94D049BB133111EBL, 31);
        serial ^= serial >>> 29;
        pathSerial[depth] = serial;
        pathM[depth] = m;
        pathO[depth] = key;
        int pn, dn, best, bestRank, md;
        boolean cyclic; // numbers that rest on the path (a repetition): they may differ under another path
        while (true) {
            // the children's numbers, from the table (transpositions may have changed any of them)
            long sum = 0;
            int min = Integer.MAX_VALUE, second = Integer.MAX_VALUE, bestOther = 0;
            best = -1;
            bestRank = or ? Integer.MAX_VALUE : 0;
            md = or ? NO_LOOP : -1;
            cyclic = false;
            for (int j = 0; j < k; j++) {
                int p, d, cmd = NO_LOOP, cs = tt.find(ckm[j], cko[j]);
                if (cs < 0) { p = ip[j]; d = id[j]; }
                else {
                    int inf = tt.info[cs];
                    if ((inf & ON_PATH) != 0) { p = INF; d = 0; cmd = pathDepth(ckm[j], cko[j], depth); cyclic = true; }
                    else if ((inf & LOOP) != 0 && tt.aux[cs] == serial) { p = INF; d = 0; cmd = inf & RANK_MASK; cyclic = true; }
                    else { p = tt.pn[cs]; d = tt.dn[cs]; } // a LOOP disproof of another parent: its numbers from before
                    if (p == 0) {
                        int r = inf & RANK_MASK;
                        if (or ? r < bestRank : r > bestRank) { bestRank = r; if (or) best = j; }
                    }
                }
                int mine = or ? p : d, other = or ? d : p;
                if (mine < min) { second = min; min = mine; if (!(or && min == 0)) { best = j; bestOther = other; } }
                else if (mine < second) second = mine;
                sum += other;
                if (d == 0) md = or ? Math.min(md, cmd) : Math.max(md, cmd);
            }
            if (or && min == 0) { pn = 0; dn = INF; break; }
            if (!or && min == 0) { pn = INF; dn = 0; break; }
            int agg = (int) Math.min(sum, INF - 1);
            if (or) {
                pn = min; dn = min == INF ? 0 : agg;
                if (min == INF) break;
            } else {
                dn = min; pn = min == INF ? 0 : agg;
                if (min == INF) break;
            }
            if (pn >= thpn || dn >= thdn || stop) break;
            long sec = second == Integer.MAX_VALUE ? INF : second;
            long near = Math.min(INF, sec + Math.max(1, sec >> 2));
            int cp, cd;
            if (or) {
                cp = (int) Math.min(thpn, near);
                cd = (int) Math.min(INF, (long) thdn - dn + bestOther);
            } else {
                cd = (int) Math.min(thdn, near);
                cp = (int) Math.min(INF, (long) thpn - pn + bestOther);
            }
            mid(depth + 1, ckm[best], cko[best], cp, cd);
        }
        s = tt.find(m, key);
        tt.info[s] = 0;
        if (pn == 0) {
            if (or) finishAt(s, 0, INF, 1 + bestRank, code[best], nodes0);
            else finishAt(s, 0, INF, 1 + bestRank, 0, nodes0); // terminal children count rank 0
        } else if (dn == 0 && md < depth) loopAt(s, md, depth);
        else {
            if (cyclic) { // such numbers never go down: no cycle of the graph can make the search go round
                pn = Math.max(pn, tt.pn[s]);
                dn = Math.max(dn, tt.dn[s]);
            }
            finishAt(s, pn, dn, NO_LOOP, 0, nodes0);
        }
    }

    /**
     * A disproof resting on a repetition of path positions from depth md on: under this path only
     * (its hash up to the parent). The entry keeps the numbers it had, which any other path reads.
     */
    private void loopAt(int s, int md, int depth) {
        tt.info[s] = LOOP | md;
        tt.aux[s] = pathSerial[depth - 1];
    }

    /** Depth of the path position with this key (it is on the path). */
    private int pathDepth(long m, long key, int depth) {
        for (int d = depth; d >= 0; d--) if (pathM[d] == m && pathO[d] == key) return d;
        throw new IllegalStateException("ON_PATH entry not on the path");
    }

    /** Stores a result for a node not yet in the table (decided by its terminal moves) or in it. */
    private void finish(long m, long key, int depth, int pn, int dn, int rankOrLoop, int code, long nodes0) {
        int s = tt.find(m, key);
        if (s < 0) s = tt.findOrAdd(m, key, 1, 1);
        else if ((tt.info[s] & LOOP) != 0) { tt.info[s] = 0; tt.aux[s] = 0; }
        if (dn == 0 && rankOrLoop < depth) { tt.pn[s] = Math.max(tt.pn[s], 1); tt.dn[s] = Math.max(tt.dn[s], 1); }
        if (dn == 0 && rankOrLoop < depth) { loopAt(s, rankOrLoop, depth); return; }
        finishAt(s, pn, dn, dn == 0 ? NO_LOOP : rankOrLoop, code, nodes0);
    }

    private void finishAt(int s, int pn, int dn, int rankOrLoop, int code, long nodes0) {
        if (dn == 0 && rankOrLoop != NO_LOOP) {
            throw new IllegalStateException("LOOP disproofs go through finish");
        }
        if (pn == 0) tt.markProven(s);
        tt.pn[s] = pn;
        tt.dn[s] = dn;
        tt.info[s] = pn == 0 ? rankOrLoop | code << 24 : 0;
        tt.aux[s] = Math.min(Long.MAX_VALUE >> 1, tt.aux[s] + (nodes - nodes0 + 1));
    }

    // ------------------------------------------------------------------ the proof (RankedProof)

    @Override public int winRank(long m, long o) {
        int s = tt.find(m, o);
        return s >= 0 && tt.pn[s] == 0 ? tt.info[s] & RANK_MASK : 0;
    }

    @Override public int winMove(long m, long o) {
        int s = tt.find(m, o);
        return s >= 0 && tt.pn[s] == 0 ? tt.info[s] >>> 24 & 63 : 0;
    }

    @Override public int lossRank(long m, long o) {
        int s = tt.find(m, o | AND);
        return s >= 0 && tt.pn[s] == 0 ? tt.info[s] & RANK_MASK : 0;
    }

    // ------------------------------------------------------------------ checkpoints

    public void write(DataOutputStream out) throws IOException {
        out.writeLong(nodes);
        out.writeLong(slices);
        out.writeBoolean(stuck);
        tt.write(out);
    }

    public static LoaPn read(Loa loa, DataInputStream in, long slice) throws IOException {
        long nodes = in.readLong(), slices = in.readLong();
        boolean stuck = in.readBoolean();
        LoaPn p = new LoaPn(loa, PnTable.read(in), slice);
        p.stuck = stuck;
        p.nodes = nodes;
        p.slices = slices;
        return p;
    }
}

package org.gamecert.producer.cert;

import org.gamecert.producer.game.Game;
import org.gamecert.producer.game.Othello;
import org.gamecert.producer.search.OthelloSolver;
import org.gamecert.producer.search.ProofLog;
import org.gamecert.producer.search.TranspositionTable;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Locale;

/**
 * A weak Othello certificate with 6-empty leaves (SPEC §9.1) that is the search's own proof
 * ({@code --proof search}): the root's value is searched once, by a solver that keeps its proof
 * ({@link ProofLog}), and the entries are read from that proof instead of being searched again
 * ({@link Extractor}'s way, which chooses every cut by its own rules and proves it). Measured on
 * FFO #40–#49, that extraction costs 0.2–1.5 times the plain search on top of it; this one reads.
 *
 * <p>From the root down, layer by layer: the root needs "V ≥ v" and "V ≤ v", each with the record
 * of the test that proved it. A need's entry takes its record's move (a lower bound: the cut) and
 * pushes on the children what that record's children proved: the cut child's record for a lower
 * bound, every child's for an upper bound. At 8 empties a failed-low record holds its 7-empty
 * children's cuts (no 7-empty node has a record: the verifier searches their 6-empty children
 * itself). Of the needs on one position in a layer the strongest bound of each side is kept, with
 * its record. Every bound comes from a record that proved at least as much, so the file verifies.
 *
 * <p>The certificate is a function of the root: the search runs on one thread with a table of its
 * own of {@link #TABLE_MB} MiB, whatever {@code --threads} and {@code --tt-mb} say, and everything
 * after it is processed in key order. It is larger than the extraction's (FFO #40–#49: see
 * README), which shares proofs between needs where the search did not.
 */
public final class SearchProof {
    /** The search's table: fixed, so that the certificate does not depend on --tt-mb. */
    public static final int TABLE_MB = 256;
    /** What determines the certificate besides the game, root and mode. */
    public static final String RULES = "search proof 1: MTD(f) from 0, one thread, a " + TABLE_MB
            + " MiB table; in each layer the strongest bound of each side with its record; unknown 7-empty cuts: the lowest square that reaches";
    /** The leaves: positions with at most this many empty cells have no entry (the search's records start at 8). */
    public static final int LEAF_EMPTIES = 6;

    private final Othello game;
    private final PrintStream progress;
    private final long t0 = System.nanoTime();
    private ProofLog log;
    private OthelloSolver leafSolver;
    public long searchNodes, leafNodes, logLongs;
    public double searchSeconds;

    /** {@code progress}: one line per finished layer, or null. */
    public SearchProof(Othello game, PrintStream progress) {
        this.game = game;
        this.progress = progress;
    }

    /** Whether this proof can be made for a root: Othello, at least 8 empty cells (the search's records start there). */
    public static boolean applies(Game game, long m, long o) {
        return game instanceof Othello && game.cells - Long.bitCount(m | o) >= LEAF_EMPTIES + 2;
    }

    /** Searches the root, then hands each layer of the certificate to the store. */
    public Extractor.State run(long rootMover, long rootOpponent, Extractor.Store store) throws IOException {
        log = new ProofLog();
        OthelloSolver solver = new OthelloSolver(game, new TranspositionTable(TABLE_MB), log);
        int v = solver.value(rootMover, rootOpponent); // the root as given: a plain search's tree
        searchNodes = solver.nodes();
        searchSeconds = (System.nanoTime() - t0) / 1e9;
        logLongs = log.size();
        if (progress != null)
            progress.printf(Locale.ROOT, "[%6.1fs] the root's value %d: %d nodes; its proof log %d MB%n", searchSeconds, v,
                    searchNodes, logLongs * 8 >> 20);
        leafSolver = new OthelloSolver(game, new TranspositionTable(1));

        Extractor.State s = new Extractor.State();
        s.mode = Extractor.Mode.WEAK;
        s.rootLayer = game.discs(rootMover, rootOpponent);
        s.rootValue = v;
        int rows = game.cells - s.rootLayer + 1;
        s.region = new long[rows];
        s.aux = new long[rows];
        s.proofTerminals = new long[rows];
        long[] canon = new long[2];
        game.canonical(rootMover, rootOpponent, canon);
        s.rootCanonMover = canon[0];
        s.rootCanonOpponent = canon[1];
        Needs cur = new Needs(16);
        int i = cur.slot(canon[0], canon[1]);
        if (v > game.uMin) cur.lower(i, v, solver.proofOfLower());
        if (v < game.uMax) cur.upper(i, v, solver.proofOfUpper());
        for (int d = s.rootLayer; cur.size > 0; d++) {
            long l0 = System.nanoTime(), n0 = leafNodes;
            // the next layer is mostly below three times this one (FFO #45: 2.8 M positions at 8 empties, 7.8 M at 7): rarely a regrowth
            Needs next = new Needs((int) Math.min(1 << 27, Math.max(16L, 3L * cur.size)));
            LayerEntries e = layer(d, cur, next);
            s.aux[d - s.rootLayer] = e.count;
            s.entries += e.count;
            store.entries(e);
            store.layerEnd(d);
            if (progress != null)
                progress.printf(Locale.ROOT, "[%6.1fs] layer %d done: %d positions in %.1f s, %d nodes searched; entries so far %d%n",
                        (System.nanoTime() - t0) / 1e9, d, e.count, (System.nanoTime() - l0) / 1e9, leafNodes - n0, s.entries);
            cur = next;
            s.layer = d + 1;
        }
        log = null; // the log goes before the file is written
        return s;
    }

    /** The entries of one layer's needs, in key order; their children's needs go to {@code next}. */
    private LayerEntries layer(int d, Needs needs, Needs next) {
        int[] order = needs.sortedSlots();
        LayerEntries out = new LayerEntries(d, order.length);
        int empties = game.cells - d;
        long[] canon = new long[2];
        Game.Child child = new Game.Child();
        for (int k = 0; k < order.length; k++) {
            int i = order[k];
            long m = needs.s[i], o = needs.s[i + 1];
            out.mover[k] = m;
            out.opponent[k] = o;
            int kinds = 0;
            if (needs.lower(i) != Needs.NO_LOWER) {
                int b = needs.lower(i);
                kinds |= Kinds.C;
                out.value1[k] = (byte) b;
                out.move[k] = (byte) (empties == LEAF_EMPTIES + 1 ? leafParentCut(m, o, b, (int) needs.lowerRef(i), child)
                        : cut(needs.lowerRef(i), b, next, canon, child));
            }
            if (needs.upper(i) != Needs.NO_UPPER) {
                int b = needs.upper(i);
                kinds |= Kinds.A;
                out.value2[k] = (byte) b;
                if (empties > LEAF_EMPTIES + 1) allBelow(needs.upperRef(i), b, next, canon, child);
            }
            out.kinds[k] = (byte) kinds;
        }
        return out;
    }

    /**
     * A lower bound b from its record, which failed high with at least b: its cut, in the entry's
     * (canonical) frame; pushes the cut child's need.
     */
    private int cut(long h, int b, Needs next, long[] canon, Game.Child child) {
        if (h < 0 || h == ProofLog.NONE) throw new IllegalStateException("internal error: no record for a lower bound " + b);
        long header = log.get(h + 2);
        long rm = log.get(h), ro = log.get(h + 1);
        if (ProofLog.kind(header) != ProofLog.HIGH || ProofLog.value(header) < b)
            throw new IllegalStateException("internal error: the record does not prove the lower bound " + b);
        int g = game.canonical(rm, ro, canon);
        int move = ProofLog.move(header);
        long word = log.get(h + 3);
        game.child(rm, ro, move, child);
        if (child.sign == 0) {
            if (child.terminalValue < b) throw new IllegalStateException("internal error: a recorded terminal cut falls short");
        } else if (child.sign < 0) pushAtMost(next, child.mover, child.opponent, -b, ProofLog.childHandle(word), canon);
        else pushAtLeast(next, child.mover, child.opponent, b, ProofLog.childHandle(word), -1, canon);
        return game.transformMove(g, move);
    }

    /** An upper bound b from its record, which failed low with at most b: every child's need. */
    private void allBelow(long h, int b, Needs next, long[] canon, Game.Child child) {
        if (h < 0 || h == ProofLog.NONE) throw new IllegalStateException("internal error: no record for an upper bound " + b);
        long header = log.get(h + 2);
        if (ProofLog.kind(header) != ProofLog.LOW || ProofLog.value(header) > b)
            throw new IllegalStateException("internal error: the record does not prove the upper bound " + b);
        long rm = log.get(h), ro = log.get(h + 1);
        int n = ProofLog.children(header);
        long leafCuts = ProofLog.hasLeafCuts(header) ? log.get(h + 3 + n) : 0;
        long moves = game.moves(rm, ro);
        if (Long.bitCount(moves) != n) throw new IllegalStateException("internal error: a failed-low record misses children");
        for (int q = 0; q < n; q++) {
            long word = log.get(h + 3 + q);
            int move = ProofLog.childMove(word);
            game.child(rm, ro, move, child);
            if (child.sign == 0) {
                if (child.terminalValue > b) throw new IllegalStateException("internal error: a terminal move exceeds a recorded upper bound");
                continue;
            }
            if (child.sign > 0) { pushAtMost(next, child.mover, child.opponent, b, ProofLog.childHandle(word), canon); continue; }
            // The child's cut as the search met it (the record's frame), or -1.
            int cut = -1;
            if (leafCuts != 0) {
                int field = (int) (leafCuts >>> (7 * Long.bitCount(moves & ((1L << move) - 1))) & 0x7F);
                cut = field - 1;
            }
            pushAtLeast(next, child.mover, child.opponent, -b, ProofLog.childHandle(word), cut, canon);
        }
    }

    /**
     * The cut of a 7-empty C entry: the one its parent's record gave (already in this frame), else
     * the lowest square whose 6-empty child reaches b, by searching the leaves in square order.
     * Unknown only after a pass: an 8-empty record that failed high by a move leaving the opponent
     * no move names no cut for the 7-empty position after the pass.
     */
    private int leafParentCut(long m, long o, int b, int known, Game.Child child) {
        if (known >= 0) return known;
        for (long mv = game.moves(m, o); mv != 0; mv &= mv - 1) {
            int sq = Long.numberOfTrailingZeros(mv);
            game.child(m, o, sq, child);
            boolean reaches;
            if (child.sign == 0) reaches = child.terminalValue >= b;
            else {
                long n0 = leafSolver.nodes();
                int w = child.sign < 0 ? -leafSolver.search(child.mover, child.opponent, -b, -b + 1)
                        : leafSolver.search(child.mover, child.opponent, b - 1, b);
                leafNodes += leafSolver.nodes() - n0;
                reaches = w >= b;
            }
            if (reaches) return sq;
        }
        throw new IllegalStateException("internal error: no move reaches a recorded lower bound " + b);
    }

    /** Needs V(child) ≤ b, proved by record h (none below 8 empties). */
    private void pushAtMost(Needs next, long m, long o, int b, long h, long[] canon) {
        if (game.cells - Long.bitCount(m | o) <= LEAF_EMPTIES || b >= game.uMax) return;
        game.canonical(m, o, canon);
        next.upper(next.slot(canon[0], canon[1]), b, h);
    }

    /** Needs V(child) ≥ b, proved by record h, or at 7 empties by the cut {@code cut} in (m, o)'s frame (-1: unknown). */
    private void pushAtLeast(Needs next, long m, long o, int b, long h, int cut, long[] canon) {
        int empties = game.cells - Long.bitCount(m | o);
        if (empties <= LEAF_EMPTIES || b <= game.uMin) return;
        int g = game.canonical(m, o, canon);
        long ref = empties == LEAF_EMPTIES + 1 ? (cut < 0 ? -1 : game.transformMove(g, cut)) : h;
        next.lower(next.slot(canon[0], canon[1]), b, ref);
    }

    /**
     * One layer's needs by canonical position: the strongest lower bound with its reference (a
     * record, or at 7 empties a cut square) and the strongest upper bound with its record. Open
     * addressing, a slot's four longs in one aligned half cache line (an insert is one miss); the
     * first of equal bounds stays (the layer is processed in key order).
     */
    static final class Needs {
        static final int NO_LOWER = Integer.MIN_VALUE, NO_UPPER = Integer.MAX_VALUE;
        /** Per slot: mover, opponent, bounds (lower + 128 in bits 8-15, upper + 128 in bits 0-7, 0: none), refs (lower's low 32 bits, upper's high 32). */
        private static final int W = 4;
        /** Slots start 2 longs in: with the array's 16-byte header, each slot lies in one 64-byte line. */
        private static final int FIRST = 2;
        private static final long NO_REF = 0xFFFF_FFFFL;
        long[] s;
        int size, mask;

        Needs(int capacity) {
            int c = Integer.highestOneBit(Math.max(16, capacity - 1)) * 2;
            s = new long[FIRST + c * W];
            mask = c - 1;
        }

        /** The slot of a position (added with no bound when new); its base index in s. */
        int slot(long km, long ko) {
            if (2 * (size + 1) > mask + 1) grow();
            long h = km * 0x9E3779B97F4A7C15L ^ Long.rotateLeft(ko * 0xC2B2AE3D27D4EB4FL, 29);
            int i = (int) (h ^ h >>> 32) & mask;
            long[] t = s;
            while ((t[FIRST + i * W] | t[FIRST + i * W + 1]) != 0) { // no position has no disc: (0, 0) is an empty slot
                if (t[FIRST + i * W] == km && t[FIRST + i * W + 1] == ko) return FIRST + i * W;
                i = (i + 1) & mask;
            }
            int b = FIRST + i * W;
            t[b] = km; t[b + 1] = ko;
            t[b + 2] = 0;
            t[b + 3] = NO_REF | NO_REF << 32;
            size++;
            return b;
        }

        int lower(int b) { int x = (int) (s[b + 2] >>> 8 & 0xFF); return x == 0 ? NO_LOWER : x - 128; }
        int upper(int b) { int x = (int) (s[b + 2] & 0xFF); return x == 0 ? NO_UPPER : x - 128; }
        long lowerRef(int b) { long r = s[b + 3] & NO_REF; return r == NO_REF ? -1 : r; }
        long upperRef(int b) { long r = s[b + 3] >>> 32; return r == NO_REF ? -1 : r; }

        /** ref: a record's handle (below 2^32), a cut square, -1 or {@link ProofLog#NONE}. */
        void lower(int b, int v, long ref) {
            int l = lower(b);
            if (v > l || (v == l && lowerRef(b) < 0 && ref >= 0)) {
                s[b + 2] = (s[b + 2] & ~0xFF00L) | (long) (v + 128) << 8;
                s[b + 3] = (s[b + 3] & ~NO_REF) | ref(ref);
            }
        }

        void upper(int b, int v, long ref) {
            if (v < upper(b)) {
                s[b + 2] = (s[b + 2] & ~0xFFL) | (v + 128);
                s[b + 3] = (s[b + 3] & NO_REF) | ref(ref) << 32;
            }
        }

        /** A reference in 32 bits: none (-1, or a child without a record) is NO_REF. */
        private static long ref(long ref) { return ref < 0 || ref >= NO_REF ? NO_REF : ref; }

        private void grow() {
            long[] old = s;
            s = new long[FIRST + (old.length - FIRST) * 2];
            mask = (mask + 1) * 2 - 1;
            size = 0;
            for (int b = FIRST; b < old.length; b += W) {
                if ((old[b] | old[b + 1]) == 0) continue;
                int nb = slot(old[b], old[b + 1]);
                s[nb + 2] = old[b + 2];
                s[nb + 3] = old[b + 3];
            }
        }

        /** The used slots (their base indices) in key order (SPEC §7.3: occupancy, then the mover's discs, unsigned). */
        int[] sortedSlots() {
            int[] idx = new int[size];
            // signed order of x ^ MIN is the unsigned order of x
            long[] occ = new long[size], mov = new long[size];
            int n = 0;
            for (int b = FIRST; b < s.length; b += W) {
                long m = s[b], o = s[b + 1];
                if ((m | o) != 0) { idx[n] = b; occ[n] = (m | o) ^ Long.MIN_VALUE; mov[n] = m ^ Long.MIN_VALUE; n++; }
            }
            sort(occ, mov, idx, 0, n - 1);
            return idx;
        }

        /** Quicksort of [lo, hi] by (occ, mov), the three arrays together (no two keys are equal). */
        private static void sort(long[] occ, long[] mov, int[] idx, int lo, int hi) {
            while (hi - lo > 16) {
                int mid = (lo + hi) >>> 1;
                long po = occ[mid], pm = mov[mid];
                int i = lo, j = hi;
                while (i <= j) {
                    while (less(occ[i], mov[i], po, pm)) i++;
                    while (less(po, pm, occ[j], mov[j])) j--;
                    if (i <= j) { swap(occ, mov, idx, i, j); i++; j--; }
                }
                // the smaller side recursively, the larger in the loop: depth O(log n)
                if (j - lo < hi - i) { sort(occ, mov, idx, lo, j); lo = i; }
                else { sort(occ, mov, idx, i, hi); hi = j; }
            }
            for (int i = lo + 1; i <= hi; i++)
                for (int j = i; j > lo && less(occ[j], mov[j], occ[j - 1], mov[j - 1]); j--) swap(occ, mov, idx, j, j - 1);
        }

        private static boolean less(long o1, long m1, long o2, long m2) { return o1 < o2 || (o1 == o2 && m1 < m2); }

        private static void swap(long[] occ, long[] mov, int[] idx, int i, int j) {
            long t = occ[i]; occ[i] = occ[j]; occ[j] = t;
            t = mov[i]; mov[i] = mov[j]; mov[j] = t;
            int u = idx[i]; idx[i] = idx[j]; idx[j] = u;
        }
    }
}

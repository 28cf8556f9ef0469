package org.gamecert.producer.search;

import org.gamecert.producer.game.Loa;

/**
 * A ranked win proof for Lines of Action (SPEC §9.2): depth-first search of "the side to move
 * wins within d plies" / "loses within d plies", iterative deepening on d at the root, with a
 * transposition table that keeps, per position, the least rank proven (and the move) for a win
 * and for a loss, and the largest d at which each was refuted. A win proven within d has rank at
 * most d and every proof edge lowers the rank, so the proof never repeats a position: the
 * repetition rule of LOA cannot be reached inside it. Single-threaded and deterministic; the
 * table never forgets (the proof is extracted from it), so its size does not change the result.
 */
public final class LoaSolver implements RankedProof {
    /** Thrown when the node or time budget runs out. */
    public static final class OutOfBudget extends RuntimeException {
        public OutOfBudget(String m) { super(m, null, false, false); }
    }

    private final Loa loa;
    private final long deadlineNanos, maxEntries;
    public long nodes;
    /** The deepest root iteration finished (no proof within it). */
    public int depthDone;

    // the table: keys (mover, opponent), data packed: winRank | winFail<<8 | lossRank<<16 | lossFail<<24 | move<<32
    private long[] km, ko, data;
    private int size, mask;
    private static final int NEVER = 255;

    private final int[][] moveBuf = new int[256][64];
    private final long[] out = new long[3];

    public LoaSolver(Loa loa, long deadlineNanos, long maxEntries) {
        this.loa = loa;
        this.deadlineNanos = deadlineNanos;
        this.maxEntries = maxEntries;
        int cap = 1 << 16;
        km = new long[cap]; ko = new long[cap]; data = new long[cap];
        mask = cap - 1;
    }

    public int tableSize() { return size; }

    // ------------------------------------------------------------------ table

    private int slot(long m, long o) {
        long h = m * 0x9E3779B97F4A7C15L ^ Long.rotateLeft(o * 0xC2B2AE3D27D4EB4FL, 29);
        h ^= h >>> 31;
        int s = (int) h & mask;
        while (data[s] != 0 && (km[s] != m || ko[s] != o)) s = (s + 1) & mask;
        return s;
    }

    private long get(long m, long o) { return data[slot(m, o)]; }

    private void put(long m, long o, long d) {
        int s = slot(m, o);
        if (data[s] == 0) {
            if (++size > maxEntries) throw new OutOfBudget("transposition table full (" + maxEntries + " positions)");
            km[s] = m; ko[s] = o;
            data[s] = d;
            if (2L * size > data.length) grow();
        } else data[s] = d;
    }

    private void grow() {
        long[] om = km, oo = ko, od = data;
        int cap = data.length * 2;
        km = new long[cap]; ko = new long[cap]; data = new long[cap];
        mask = cap - 1;
        for (int i = 0; i < od.length; i++)
            if (od[i] != 0) { int s = slot(om[i], oo[i]); km[s] = om[i]; ko[s] = oo[i]; data[s] = od[i]; }
    }

    private static int field(long e, int shift) { return (int) (e >>> shift) & 0xFF; }
    private static long with(long e, int shift, int v) { return (e & ~(0xFFL << shift)) | ((long) v << shift) | (1L << 40); }

    /** Least rank of a proven win of the side to move (0: none), and its move code. */
    @Override public int winRank(long m, long o) { return field(get(m, o), 0); }
    @Override public int winMove(long m, long o) { return field(get(m, o), 32); }
    /** Least rank of a proven loss of the side to move (0: none). */
    @Override public int lossRank(long m, long o) { return field(get(m, o), 16); }

    private void tick() {
        if ((++nodes & 0xFFFF) == 0 && System.nanoTime() > deadlineNanos)
            throw new OutOfBudget("time limit");
    }

    // ------------------------------------------------------------------ search

    /** Iterative deepening at the root: the least d (up to maxDepth) at which the mover wins (+1) or loses (-1); 0: none. */
    public int solve(long m, long o, int maxDepth) {
        return solve(m, o, maxDepth, null);
    }

    /** As {@link #solve(long, long, int)}, telling {@code progress} of each depth refuted (it does not change the result). */
    public int solve(long m, long o, int maxDepth, java.util.function.IntConsumer progress) {
        for (int d = 1; d <= maxDepth; d++) {
            if (win(m, o, d, 0)) return 1;
            if (loss(m, o, d, 0)) return -1;
            depthDone = d;
            if (progress != null) progress.accept(d);
        }
        return 0;
    }

    /** The side to move wins within d plies (a ranked proof of rank <= d). */
    boolean win(long m, long o, int d, int ply) {
        long e = get(m, o);
        int wr = field(e, 0);
        if (wr != 0 && wr <= d) return true;
        if (field(e, 8) >= d) return false;
        tick();
        int[] mv = moveBuf[ply];
        int count = loa.moves(m, o, mv);
        long[] cm = new long[count], co = new long[count];
        int[] kind = new int[count], score = new int[count], code = new int[count];
        int k = 0;
        for (int i = 0; i < count; i++) {
            int t = loa.play(m, o, mv[i] >>> 8 & 0xFF, mv[i] & 0xFF, out);
            if (t == Loa.TERMINAL) {
                if (out[2] == 1) { store(m, o, 0, 1, mv[i] >>> 16); return true; }
                continue;
            }
            if (d < 2) continue;
            cm[k] = out[0]; co[k] = out[1]; kind[k] = t; code[k] = mv[i] >>> 16;
            // own groups after the move (fewer first), then the reply's mobility
            long own = t == Loa.CHILD ? out[1] : out[0];
            score[k] = loa.groups(own) * 128 + (t == Loa.CHILD ? loa.moves(out[0], out[1], moveBuf[ply + 1]) : 0);
            k++;
        }
        if (d >= 2) {
            Integer[] order = order(k, score);
            for (int j : order) {
                if (kind[j] == Loa.CHILD ? loss(cm[j], co[j], d - 1, ply + 1) : win(cm[j], co[j], d - 1, ply + 1)) {
                    int r = 1 + (kind[j] == Loa.CHILD ? lossRank(cm[j], co[j]) : winRank(cm[j], co[j]));
                    store(m, o, 0, r, code[j]);
                    return true;
                }
            }
        }
        long e2 = get(m, o);
        if (field(e2, 8) < d) put(m, o, with(e2, 8, d));
        return false;
    }

    /** The side to move loses within d plies: every move loses at once or leads to a win of the other side of lower rank. */
    boolean loss(long m, long o, int d, int ply) {
        long e = get(m, o);
        int lr = field(e, 16);
        if (lr != 0 && lr <= d) return true;
        if (field(e, 24) >= d) return false;
        tick();
        int[] mv = moveBuf[ply];
        int count = loa.moves(m, o, mv);
        long[] cm = new long[count], co = new long[count];
        int[] kind = new int[count], score = new int[count];
        int k = 0;
        for (int i = 0; i < count; i++) {
            int t = loa.play(m, o, mv[i] >>> 8 & 0xFF, mv[i] & 0xFF, out);
            if (t == Loa.TERMINAL) {
                if (out[2] >= 0) { refuteLoss(m, o, NEVER); return false; }
                continue;
            }
            cm[k] = out[0]; co[k] = out[1]; kind[k] = t;
            k++;
        }
        if (k > 0 && d < 2) { refuteLoss(m, o, d); return false; }
        // children already known to hold out first, then those whose attacker is most scattered
        for (int j = 0; j < k; j++) {
            long ce = get(cm[j], co[j]);
            boolean refuted = kind[j] == Loa.CHILD
                    ? field(ce, 0) == 0 && field(ce, 8) >= d - 1
                    : field(ce, 16) == 0 && field(ce, 24) >= d - 1;
            if (refuted) { refuteLoss(m, o, d); return false; }
            long attacker = kind[j] == Loa.CHILD ? cm[j] : co[j];
            score[j] = -loa.groups(attacker);
        }
        int maxRank = 0;
        for (int j : order(k, score)) {
            boolean holds = kind[j] == Loa.CHILD ? win(cm[j], co[j], d - 1, ply + 1) : loss(cm[j], co[j], d - 1, ply + 1);
            if (!holds) { refuteLoss(m, o, d); return false; }
            maxRank = Math.max(maxRank, kind[j] == Loa.CHILD ? winRank(cm[j], co[j]) : lossRank(cm[j], co[j]));
        }
        store(m, o, 16, 1 + maxRank, 0);
        return true;
    }

    private void refuteLoss(long m, long o, int d) {
        long e = get(m, o);
        if (field(e, 24) < d) put(m, o, with(e, 24, d));
    }

    /** Records a proven rank (kept if lower than the one known) and, for a win, its move. */
    private void store(long m, long o, int shift, int rank, int code) {
        long e = get(m, o);
        int old = field(e, shift);
        if (old != 0 && old <= rank) return;
        e = with(e, shift, rank);
        if (shift == 0) e = with(e, 32, code);
        put(m, o, e);
    }

    private static Integer[] order(int k, int[] score) {
        Integer[] idx = new Integer[k];
        for (int i = 0; i < k; i++) idx[i] = i;
        java.util.Arrays.sort(idx, (a, b) -> score[a] != score[b] ? Integer.compare(score[a], score[b]) : Integer.compare(a, b));
        return idx;
    }
}

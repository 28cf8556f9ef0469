package org.gamecert.producer.cert;

import org.gamecert.producer.game.Game;

import java.io.IOException;

/**
 * For each child position, how many moves of the cut needs (C, outside the region) of one layer
 * lead to it: a candidate cut child for each of them, whether or not that move reaches the bound
 * (finding out would cost a search per move). A C entry whose cut child many others pick too
 * shares one proof of that child with all of them, so cut moves go to the most wanted children
 * first. Measured on 7×6 Connect
 * Four after 44536: 20.9 M auxiliary entries with the static order alone, 15.4 M with this, at the
 * same number of search nodes.
 *
 * <p>The counts are exact, taken over the whole layer before any of it is processed, so every cut
 * choice made with them depends only on the layer's needs, never on chunks, threads, search order
 * or the memory budget. Children are known by a 64-bit fingerprint of their canonical key; a
 * collision (a fixed function of the positions, so still deterministic) can only change which
 * sufficient move is preferred, never soundness. Only children wanted by two or more needs are
 * kept (the rest count 1). When the counting table would outgrow {@code budgetBytes}, the
 * fingerprints are counted in several passes over the needs, one range of fingerprints per pass:
 * more passes, the same counts.
 */
final class CutPopularity {
    /** Counting may take this much even under a smaller needs budget (fewer passes over the needs). */
    static final long MIN_COUNTING_BYTES = 16L << 20;
    /** At most this many children counted in one pass, so its table's length stays below 2^30. */
    private static final long MAX_PASS_CHILDREN = 1L << 28;
    /** Popular children (count ≥ 2): open addressing on fingerprints (0 = empty slot). */
    private final long[] fps;
    private final byte[] counts;
    private final int mask;
    final int passes;

    private CutPopularity(long[] fps, byte[] counts, int passes) {
        this.fps = fps; this.counts = counts; this.mask = fps.length - 1; this.passes = passes;
    }

    /** Bytes held while the layer is processed. */
    long bytes() { return 9L * fps.length; }

    /** How many moves of the layer's cut needs lead to this (canonical) child: at least 1, at most 255. */
    int count(long m, long o) {
        long fp = fingerprint(m, o);
        for (int i = slot(fp, mask); fps[i] != 0; i = (i + 1) & mask)
            if (fps[i] == fp) return counts[i] & 0xFF;
        return 1;
    }

    /** Counts the children of every cut need of the layer (reading {@code needs} once a pass). */
    static CutPopularity count(Game game, NeedFiles.Source needs, long budgetBytes) throws IOException {
        // A first pass bounds the number of children to count, so the number of passes is known.
        long children = 0;
        NeedFiles.Chunk c = new NeedFiles.Chunk();
        try (NeedFiles.Source src = needs.reopen()) {
            while (src.next(c, 1 << 16)) {
                NeedMap.Sorted n = c.needs;
                for (int i = c.from; i < c.to; i++)
                    if (isCutNeed(n, i)) children += Long.bitCount(game.moves(n.mover[i], n.opponent[i]));
            }
        }
        // At worst every child is distinct: a pass's table holds at most 2 × its children slots of
        // 9 bytes (rounded up to a power of two), within the budget, and never more than
        // MAX_PASS_CHILDREN children (an array's length must stay an int).
        long tableBytes = 9L * 4 * Math.max(1024, children);
        long byBudget = budgetBytes >= tableBytes ? 1 : (tableBytes + budgetBytes - 1) / Math.max(1, budgetBytes);
        long byLength = (children + MAX_PASS_CHILDREN - 1) / MAX_PASS_CHILDREN;
        int passes = (int) Math.min(1 << 16, Math.max(1, Math.max(byBudget, byLength)));
        Table popular = new Table(16);
        Game.Child child = new Game.Child();
        long[] canon = new long[2];
        for (int pass = 0; pass < passes; pass++) {
            Table all = new Table(1024);
            try (NeedFiles.Source src = needs.reopen()) {
                while (src.next(c, 1 << 16)) {
                    NeedMap.Sorted n = c.needs;
                    for (int i = c.from; i < c.to; i++) {
                        if (isCutNeed(n, i)) countChildren(game, n.mover[i], n.opponent[i], n.lower[i], child, canon, all, pass, passes);
                    }
                }
            }
            for (int i = 0; i < all.fps.length; i++)
                if (all.fps[i] != 0 && (all.counts[i] & 0xFF) >= 2) popular.add(all.fps[i], all.counts[i] & 0xFF);
        }
        return new CutPopularity(popular.fps, popular.counts, passes);
    }

    /** A lower bound needed outside the region: the entry will be C and choose a cut move. */
    private static boolean isCutNeed(NeedMap.Sorted n, int i) {
        return (n.kinds[i] & Kinds.REGION) == 0 && n.lower[i] != NeedMap.NO_LOWER;
    }

    /** Counts a cut need's non-terminal children, unless a terminal move already reaches the bound. */
    private static void countChildren(Game game, long m, long o, int lower, Game.Child child, long[] canon,
                                      Table all, int pass, int passes) {
        long moves = game.moves(m, o);
        for (long mv = moves; mv != 0; mv &= mv - 1) {
            game.child(m, o, Long.numberOfTrailingZeros(mv), child);
            if (child.sign == 0 && child.terminalValue >= lower) return; // that move is the cut: no child proof
        }
        for (long mv = moves; mv != 0; mv &= mv - 1) {
            game.child(m, o, Long.numberOfTrailingZeros(mv), child);
            if (child.sign == 0) continue;
            game.canonical(child.mover, child.opponent, canon);
            long fp = fingerprint(canon[0], canon[1]);
            if (Long.remainderUnsigned(fp, passes) == pass) all.add(fp, 1);
        }
    }

    private static int slot(long fp, int mask) { return (int) (fp ^ (fp >>> 32)) & mask; }

    /** Never 0 (the empty slot). */
    private static long fingerprint(long m, long o) {
        long h = m * 0x9E3779B97F4A7C15L + Long.rotateLeft(o, 29) * 0xC2B2AE3D27D4EB4FL;
        h ^= h >>> 31;
        h *= 0xBF58476D1CE4E5B9L;
        h ^= h >>> 29;
        return h == 0 ? 1 : h;
    }

    /** Fingerprint → saturating count, open addressing; grows when half full. */
    private static final class Table {
        long[] fps;
        byte[] counts;
        int size, mask;

        Table(int capacity) { fps = new long[capacity]; counts = new byte[capacity]; mask = capacity - 1; }
        // (A pass counts at most MAX_PASS_CHILDREN children, so the table never doubles past 2^30.)

        void add(long fp, int n) {
            if (2 * size >= mask) grow();
            int i = slot(fp, mask);
            while (fps[i] != 0 && fps[i] != fp) i = (i + 1) & mask;
            if (fps[i] == 0) { fps[i] = fp; size++; }
            counts[i] = (byte) Math.min(255, (counts[i] & 0xFF) + n);
        }

        private void grow() {
            long[] of = fps;
            byte[] oc = counts;
            fps = new long[of.length * 2]; counts = new byte[of.length * 2]; mask = fps.length - 1; size = 0;
            for (int i = 0; i < of.length; i++) if (of[i] != 0) add(of[i], oc[i] & 0xFF);
        }
    }
}

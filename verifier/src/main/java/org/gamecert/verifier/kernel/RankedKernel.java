package org.gamecert.verifier.kernel;

import java.io.IOException;
import org.gamecert.verifier.kernel.format.BlockRecord;
import org.gamecert.verifier.kernel.format.Container;
import org.gamecert.verifier.kernel.format.FormatException;
import org.gamecert.verifier.kernel.format.Payload;
import org.gamecert.verifier.kernel.rules.Game;

/**
 * Mode 4, weak-ranked certificates (SPEC §9.2): a block's layer is the rank of its entries, an
 * upper bound on the plies the proof needs below them, and every proof edge goes to a lower rank.
 * The order of checks is §9.2's: the whole file is read first, block by block (framing, chain,
 * decoding, R-LAY-1 with ranks non-decreasing), and as each block is decoded its entries one by
 * one: R-LAY-3 (every key at most once in the file), then the rules that need no other entry
 * (R-POS-1, R-POS-3, R-POS-2, R-MOVE-1), so that junk is rejected in the block that holds it;
 * the entries are held; then the trailer and the root; then every entry's C and A obligations in
 * file order, its children looked up among all entries; then reachability. Plain and
 * single-threaded; the kernel's header and block readers are reused, the verdict is made here.
 */
public final class RankedKernel {
    static final int A = Payload.A, C = Payload.C;

    private final FileMap map;
    private final org.gamecert.verifier.kernel.format.Header h;
    private final Game game;
    private final int[] tb;
    private final boolean strict, all;
    private final int maxPerRule;
    private final long maxEntries;
    /** Every violation found (--all: at most maxPerRule kept a rule, the earliest), counted. */
    private final java.util.List<Violation> violations = new java.util.ArrayList<>();
    private final java.util.Map<String, Long> counts = new java.util.TreeMap<>();
    private final long salt = TrustedJdk.randomLong() | 1;

    // the entries, in file order
    private int n;
    private long[] occ = new long[1024], mover = new long[1024];
    private int[] rank = new int[1024], place = new int[1024], blockOf = new int[1024];
    private byte[] kind = new byte[1024], lo = new byte[1024], hi = new byte[1024];
    private byte[] move = new byte[1024];
    /** Open addressing: entry index + 1, 0 = free. */
    private int[] slots = new int[2048];
    private final long[] out = new long[3], scratch = new long[9];
    /** Entries that broke a rule of checkPosition (only with all violations asked for). */
    private final java.util.BitSet positionFailed = new java.util.BitSet();
    /** Conclude with a PartConclusion (Combiner.forComposition). */
    private boolean forComposition;
    /** run is taken once: its state is not reset, and one that threw is partial (FaultLatch). */
    private final FaultLatch latch = new FaultLatch();
    private boolean ran;

    /** A mode-4 file's map (FileMap); maxMemory bounds the entries held. */
    public RankedKernel(FileMap map, long maxMemory, boolean strict, boolean all, int maxPerRule) {
        map.requireWhole();
        this.map = map;
        h = map.header();
        if (h.mode != org.gamecert.verifier.kernel.format.Header.WEAK_RANKED)
            throw new EngineFault("RankedKernel given a file of mode " + h.mode);
        game = map.game();
        tb = h.tb.clone();
        this.strict = strict;
        this.all = all;
        this.maxPerRule = Math.max(1, maxPerRule);
        // about 48 bytes an entry, its table slots included; at most 2^28 entries (int indexes)
        maxEntries = Math.min(1L << 28, Math.max(1024, maxMemory / 48));
    }

    /**
     * The check is for a composite (SPEC §15.3): conclude with a PartConclusion, which only a
     * composite's engine needs (Combiner.forComposition). Before run.
     */
    public void forComposition() {
        latch.begin();
        forComposition = true;
        latch.done();
    }

    /** Ends the check at a violation (the first one, or a fatal one with all). */
    private static final class Stop extends RuntimeException {
        Stop() {
            super(null, null, false, false);
        }
    }

    private void violation(String rule, long block, long layer, long entry, boolean pos,
            long m, long o, String msg, boolean fatal) {
        long count = counts.merge(rule, 1L, Long::sum);
        if (count <= maxPerRule || violations.isEmpty())
            violations.add(new Violation(rule, block, layer, entry, pos, m, o, msg));
        if (fatal || !all) throw new Stop();
    }

    private void violation(Violation v) {
        violation(v.rule(), v.block(), v.layer(), v.entry(), v.hasPosition(), v.mover(),
                v.opponent(), v.message(), true);
    }

    /** Checks the file, reading its blocks from ct; the verdict's result. */
    public Result run(Container ct) throws IOException {
        latch.begin();
        if (ran) throw latch.fault("a RankedKernel run twice");
        ran = true;
        return latch.done(runOnce(ct));
    }

    private Result runOnce(Container ct) throws IOException {
        Result res = new Result();
        res.header = map.header(); // a copy: the engine's to keep
        res.entries = map.entries();
        res.blocks = map.blocks();
        try {
            return verdict(ct, res);
        } catch (Stop stop) {
            res.violations.addAll(violations);
            res.violationCounts.putAll(counts);
            return Result.withVerdict(res, Result.Verdict.REJECTED);
        }
    }

    private Result verdict(Container ct, Result res) throws IOException {
        read(ct);
        if (map.readingViolation() != null) violation(map.readingViolation());
        int root = find(map.rootOcc, map.rootMover);
        if (map.trailerViolation() != null) violation(map.trailerViolation());
        long rm = h.rootMover, ro = h.rootOpponent;
        int rootDiscs = Long.bitCount(rm | ro);
        if (root < 0)
            violation(Rule.ROOT_1, -1, rootDiscs, -1, true, rm, ro,
                    "no entry for the root's canonical form", true);
        int rootLo = bound(root, true), rootHi = bound(root, false);
        if (rootLo != h.rootValue || rootHi != h.rootValue)
            violation(Rule.ROOT_3, -1, rootDiscs, -1, true, rm, ro, "root entry bounds ["
                    + rootLo + ", " + rootHi + "] are not [" + h.rootValue + ", "
                    + h.rootValue + "]", true);
        if (map.trailerRows() != 0) // R-CENSUS-1: mode 4 has no census rows
            violation(Rule.CENSUS_1, -1, -1, -1, false, 0, 0, "trailer has "
                    + map.trailerRows() + " census rows; a weak-ranked certificate has none",
                    true);
        for (int i = 0; i < n; i++) check(i);
        boolean[] reached = reach(root);
        long unreached = 0;
        int firstUnreached = -1;
        for (int i = 0; i < n; i++)
            if (!reached[i] && unreached++ == 0) firstUnreached = i;
        res.unreached = unreached;
        if (strict && unreached > 0) report(Rule.REACH_1, firstUnreached, unreached
                + " entries are unreached (--strict)", true);
        if (!violations.isEmpty()) throw new Stop();
        int rootKind = kind[root] & 0xFF;
        res.rootKind = rootKind;
        // the cut move in the root's own orientation (SPEC §7.4)
        res.rootMove = (rootKind & C) == 0 ? -1 : game.moveAsGiven(move[root] & 0xFF,
                h.rootMover, h.rootOpponent, map.rootOcc, map.rootMover, map.group);
        byte[] commitment = map.commitment();
        PartConclusion c = !forComposition ? null : new PartConclusion(h, tb, commitment,
                map.rootOcc, map.rootMover, rootKind, map.entries(), new OpenEntries(), null, -1,
                new long[0][], null, map.cluster);
        return Result.verified(res, "sha256:" + Chain.hex(commitment), c, map.cluster);
    }

    // ------------------------------------------------------------------ reading

    private void read(Container ct) throws IOException {
        long lastLayer = -1;
        int inLayer = 0;
        // The work a file can cause stays in proportion to its size: FileMap refused a file
        // whose blocks declare more than 64 entries a byte, before any block is decompressed.
        for (int b = 0; b < map.blocks(); b++) {
            BlockRecord rec = map.record(b);
            Payload p;
            try {
                byte[] frame = ct.read(rec.frameOffset, Math.toIntExact(rec.compLen));
                if (!map.storedFrame(b, frame)) // the engine's container: another file
                    throw new EngineFault("block " + b + ": read as other bytes than the data"
                            + " frame of the file the map was read from");
                byte[] raw = SliceCheck.rawOf(map, b, frame); // R-CON-3, R-HASH-1
                p = Payload.decode(raw, Math.toIntExact(rec.count), true, false, 0, game.uMin,
                        game.uMax, null);
            } catch (FormatException e) {
                violation(SliceCheck.formatViolation(e, rec, rec.layer == lastLayer ? inLayer : 0));
                return;
            }
            if (rec.layer != lastLayer) inLayer = 0;
            lastLayer = rec.layer;
            for (int i = 0; i < p.count; i++) {
                add(rec, p, i, inLayer++);
                checkPosition(n - 1); // a violation is fatal here: the rest is not read
            }
        }
    }

    /** R-LAY-3: within a layer keys increase; no key is in two layers. Then the entry is held. */
    private void add(BlockRecord rec, Payload p, int i, int index) {
        long o = p.occ[i], m = p.mover[i];
        if (index > 0 && n > 0 && !SliceCheck.keyAfter(o, m, occ[n - 1], mover[n - 1])) {
            violation(Rule.LAY_3, rec.index, rec.layer, index, true, m, o & ~m,
                    "the key is not greater than the previous entry's", true);
        }
        int other = find(o, m);
        if (other >= 0)
            violation(Rule.LAY_3, rec.index, rec.layer, index, true, m, o & ~m,
                    "the position already has an entry at rank " + rank[other], true);
        if (n >= maxEntries)
            throw new FileMap.TooLarge("a weak-ranked certificate is held whole: more than "
                    + maxEntries + " entries do not fit in --max-memory");
        if (n == occ.length) grow();
        occ[n] = o;
        mover[n] = m;
        rank[n] = (int) rec.layer;
        place[n] = index;
        blockOf[n] = (int) rec.index;
        kind[n] = p.kind[i];
        lo[n] = p.lo[i];
        hi[n] = p.hi[i];
        move[n] = p.move[i];
        n++;
        if (2L * n > slots.length) rehash(slots.length * 2);
        else insert(n - 1);
    }

    private void grow() {
        int c = (int) Math.min(occ.length * 2L, maxEntries);
        occ = java.util.Arrays.copyOf(occ, c);
        mover = java.util.Arrays.copyOf(mover, c);
        rank = java.util.Arrays.copyOf(rank, c);
        place = java.util.Arrays.copyOf(place, c);
        blockOf = java.util.Arrays.copyOf(blockOf, c);
        kind = java.util.Arrays.copyOf(kind, c);
        lo = java.util.Arrays.copyOf(lo, c);
        hi = java.util.Arrays.copyOf(hi, c);
        move = java.util.Arrays.copyOf(move, c);
    }

    /** The key's first slot: the top bits of a salted hash, as many as the table needs. */
    private int slot(long o, long m) {
        long h = (o * salt + m) * salt;
        h ^= h >>> 29;
        h *= salt;
        return (int) (h >>> (64 - Integer.numberOfTrailingZeros(slots.length)));
    }

    private void rehash(int size) {
        slots = new int[size];
        for (int i = 0; i < n; i++) insert(i);
    }

    private void insert(int i) {
        int s = slot(occ[i], mover[i]);
        while (slots[s] != 0) s = (s + 1) & (slots.length - 1);
        slots[s] = i + 1;
    }

    /** The entry with this key, or -1. */
    private int find(long o, long m) {
        for (int s = slot(o, m); slots[s] != 0; s = (s + 1) & (slots.length - 1)) {
            int i = slots[s] - 1;
            if (occ[i] == o && mover[i] == m) return i;
        }
        return -1;
    }

    /** The entry's lower (or upper) bound, SPEC §5.4. */
    private int bound(int i, boolean lower) {
        int kd = kind[i] & 0xFF;
        if (lower) return (kd & C) != 0 ? lo[i] : game.uMin;
        return (kd & A) != 0 ? hi[i] : game.uMax;
    }

    // ------------------------------------------------------------------ the entries

    private void report(String rule, int i, String msg, boolean fatal) {
        violation(rule, blockOf[i], rank[i], place[i], true, mover[i], occ[i] & ~mover[i], msg,
                fatal);
    }

    /**
     * The rules of entry i that need no other entry, as its block is decoded: R-POS-1, R-POS-3
     * (every key: no fact sums vouch for one here), R-POS-2, R-MOVE-1, as SliceCheck checks them.
     * A violation ends the check (unless all violations are asked for: then the entry's
     * obligations are not checked, as its position is not a proper one).
     */
    private void checkPosition(int i) {
        Violation v = SliceCheck.positionRules(game, map.group, occ[i], mover[i], kind[i] & 0xFF,
                move[i] & 0xFF, false, out, scratch);
        if (v == null) return;
        positionFailed.set(i);
        report(v.rule(), i, v.message(), false);
    }

    /** C (R-RANK-1, R-CUT-1), then A (R-RANK-1, R-ALL-1): entry i's rules that look up children. */
    private void check(int i) {
        if (positionFailed.get(i)) return;
        long m = mover[i], o = occ[i] & ~m;
        long legal = game.legalMoveCodes(m, o);
        int kd = kind[i] & 0xFF, mv = move[i] & 0xFF;
        if ((kd & C) != 0) {
            int w = moveBound(i, m, o, mv, true);
            if (w != NO && w < lo[i])
                report(Rule.CUT_1, i, "cut move " + game.moveName(mv) + " achieves at least "
                        + w + " < lower bound " + lo[i], false);
        }
        if ((kd & A) == 0) return;
        for (int t = 0; t < tb.length; t++) {
            int code = tb[t];
            if (((legal >>> code) & 1) == 0) continue;
            int w = moveBound(i, m, o, code, false);
            if (w == NO) return;
            if (w > hi[i]) {
                report(Rule.ALL_1, i, "move " + game.moveName(code) + " may achieve " + w
                        + " > upper bound " + hi[i], false);
                return;
            }
        }
    }

    private static final int NO = Integer.MIN_VALUE; // a violation was reported

    /**
     * The move's lower (or upper) bound (SPEC §7.2): a terminal move's value; else the child's
     * entry's, which MUST have a lower rank (R-RANK-1); else, no entry, [U_min, U_max].
     */
    private int moveBound(int i, long m, long o, int code, boolean lower) {
        int type = game.child(m, o, code, out);
        if (type == Game.TERMINAL) return (int) out[2];
        int j = childEntry();
        if (j < 0) return lower ? game.uMin : game.uMax;
        if (rank[j] >= rank[i]) {
            report(Rule.RANK_1, i, "move " + game.moveName(code) + " leads to an entry of rank "
                    + rank[j] + ", not below the entry's rank " + rank[i], false);
            return NO;
        }
        if (type == Game.PASS_CHILD) return bound(j, lower);
        return -bound(j, !lower);
    }

    /** The entry of the child in out[0..1] (canonical key), or -1. */
    private int childEntry() {
        long co = game.canonical(out[0], out[1], map.group, scratch);
        return find(co, scratch[8]);
    }

    /**
     * SPEC §10.2 in mode 4: the root's entry is reached, and so is the child entry of every move
     * a reached entry's kinds consult (the cut move for C, every move for A). Children have lower
     * ranks (R-RANK-1 held), so one pass from the last entry to the first marks them all.
     */
    private boolean[] reach(int root) {
        boolean[] r = new boolean[n];
        if (root >= 0) r[root] = true;
        for (int i = n - 1; i >= 0; i--) {
            if (!r[i]) continue;
            long m = mover[i], o = occ[i] & ~m, legal = game.legalMoveCodes(m, o);
            int kd = kind[i] & 0xFF;
            for (int code = 0; code < game.moveCodes; code++) {
                boolean consulted = (kd & A) != 0 || ((kd & C) != 0 && code == (move[i] & 0xFF));
                if (!consulted || ((legal >>> code) & 1) == 0) continue;
                if (game.child(m, o, code, out) == Game.TERMINAL) continue;
                int j = childEntry();
                if (j >= 0) r[j] = true;
            }
        }
        return r;
    }
}

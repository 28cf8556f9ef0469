package org.gamecert.producer.cert;

import org.gamecert.producer.game.ConnectFour;
import org.gamecert.producer.game.NoGo;
import org.gamecert.producer.game.Game;
import org.gamecert.producer.game.Othello;
import org.gamecert.producer.search.Oracle;
import org.gamecert.producer.search.OthelloSolver;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

/**
 * Deterministic, layer-by-layer extraction of the certificate (the obligation-oriented form of
 * reopening alpha–beta). Layer d's needs are complete once layer d−1 is processed, because every
 * child is exactly one layer deeper. Each position's entry and the needs it pushes depend only
 * on the position, its needs and the oracle's answers (facts of the game), never on search order,
 * table contents or threads; pushes merge commutatively. Hence byte-identical output.
 */
public final class Extractor {
    /**
     * SEMI_STRONG_OPTIMAL: mode 5 (SPEC §9), semi-strong whose A' entries prove an optimal move,
     * not the earliest one: the earlier moves need no proof that they are strictly worse.
     */
    public enum Mode {
        SEMI_STRONG, WEAK, SEMI_STRONG_OPTIMAL;

        /** Modes 1 and 5: exact entries and a region. */
        public boolean semiStrong() { return this != WEAK; }

        /** As the producer's texts name it (--mode, info, summaries). */
        public String text() {
            return this == WEAK ? "weak" : this == SEMI_STRONG ? "semi-strong" : "semi-strong-optimal";
        }
    }

    /**
     * Names the rules by which entries, cut moves and bounds are chosen, and the form of what a
     * checkpoint holds (needs records with the PROOF_TERMINAL flag, the proof_terminals census): a
     * checkpoint made under other rules is not resumed (it would mix two certificates). Change it
     * with the rules.
     */
    public static final String CHOICE_RULES = "choice rules 4: cut = terminal, then layer popularity (none where every child is a leaf, or an Othello leaf's parent), then static order (Othello: the search's move order)";

    /** Everything the writer and the summary need. */
    public static final class Result {
        public int rootValue, rootLayer, rootMoveCanonical = -1;
        public final List<LayerEntries> layers = new ArrayList<>(); // root layer first
        public long[] region, aux; // per disc count from the root's
        /** Connect Four: terminal positions outside R that the proof reaches, per disc count (SPEC §10.3). */
        public long[] proofTerminals;
        public long entries;
    }

    /** Progress counters, readable from another thread. */
    public final AtomicLong entriesDone = new AtomicLong();
    public final AtomicLong positionsDone = new AtomicLong();
    public volatile int currentLayer;
    public volatile long currentLayerSize;

    private final Oracle oracle;
    private final Game game;
    private final ForkJoinPool pool;
    private final int threads;

    public Extractor(Oracle oracle, int threads) {
        this.oracle = oracle;
        this.game = oracle.game();
        this.threads = Math.max(1, threads);
        this.pool = new ForkJoinPool(this.threads);
    }

    public void shutdown() { pool.shutdownNow(); }

    /**
     * Where finished layers go, and where the state before each layer may be saved so that a killed
     * run can continue from there ({@link #resume}). Called from the extracting thread only.
     */
    public interface Store {
        /** The next entries of the layer being processed, in key order (a part of it; never empty). */
        void entries(LayerEntries part) throws java.io.IOException;

        /** The layer is finished (after all its entries, if it had any). */
        void layerEnd(int layer) throws java.io.IOException;

        /** Everything needed to continue from layer {@code s.layer} (its needs not yet processed). */
        default void beforeLayer(State s) throws java.io.IOException {}
    }

    /**
     * The extraction between two layers: the needs of layer {@link #layer} in key order and all that
     * the layers before it contributed. A pure function of the game, root and mode (no search order,
     * threads, table contents or memory budget), so resuming from it gives the same certificate.
     */
    public static final class State {
        public Mode mode;
        public int layer, rootLayer, rootValue, rootMoveCanonical = -1;
        public long rootCanonMover, rootCanonOpponent;
        public long[] region, aux, proofTerminals;
        public long entries;
        public NeedFiles.Source needs;
    }

    /** Mode 5 (set from the state's mode): an A' entry's other moves need only be at most v. */
    private boolean optimalMoves;

    /** Positions processed together: bounds the per-thread buffers of pushed needs. */
    private int chunk = 1 << 18;
    /** Where a layer's needs go when they outgrow {@link #needBudget} (sorted runs, merged). */
    private java.nio.file.Path spillDir;
    private long needBudget = Long.MAX_VALUE;
    private int runsSpilled;

    /**
     * Keeps the needs of the layer being processed and of the next within {@code budgetBytes}
     * together (half each): beyond that they go to {@code dir} as sorted runs and are merged into a
     * needs file read back in chunks. The certificate does not depend on it.
     */
    public void limitNeeds(java.nio.file.Path dir, long budgetBytes, int chunkPositions) {
        spillDir = dir;
        needBudget = Math.max(1, budgetBytes / 2);
        chunk = Math.max(1, chunkPositions);
    }

    /** Sorted runs written so far (a measure of how often the budget was reached). */
    public int runsSpilled() { return runsSpilled; }

    /** Weak mode 3: positions with at most this many empty cells are leaves, with no entry (SPEC §9.1). */
    private int leafEmpties;

    /** Makes positions with at most {@code l} empty cells leaves that the verifier searches (weak mode only). */
    public void endgameLeaves(int l) {
        leafEmpties = Math.max(0, l);
        recordsLeafCuts = leafEmpties > 0 && leafEmpties + 2 == oracle.leafCutRecordEmpties();
    }

    /** A position the verifier decides by its own search: it gets no entry and pushes nothing. */
    private boolean isLeaf(long m, long o) {
        return leafEmpties > 0 && game.cells - Long.bitCount(m | o) <= leafEmpties;
    }

    private int popularInFile;
    /** The root's value search alone (a plain solve), for the overhead of the rest; 0 after a resume. */
    public volatile long rootSearchNodes;
    public volatile double rootSearchSeconds;
    private long popularFilePeak;

    /** Layers whose cut-child counts outgrew their share of the budget and were read from a file. */
    public int cutCountsInFile() { return popularInFile; }

    /** The largest such file, in bytes (it lives while its layer is processed). */
    public long cutCountsFilePeakBytes() { return popularFilePeak; }

    /**
     * Positions with this many discs (more than the root's) get open entries (SPEC §15): their
     * claim, the needs of their parents, is left to a part of a composite. Their subtrees are not
     * extracted; the entries' values come from the search. -1: none.
     */
    private int splitDiscs = -1;

    /** Makes the positions with {@code discs} discs open entries, to be discharged by parts. */
    public void splitAt(int discs) { splitDiscs = discs; }

    /** Extracts everything in memory: the layers are kept in the result (small solves, tests). */
    public Result run(long rootMover, long rootOpponent, Mode mode) {
        return run(rootMover, rootOpponent, mode, (Claim) null);
    }

    /** In memory, for a part (SPEC §15.1) when {@code claim} is not null. */
    public Result run(long rootMover, long rootOpponent, Mode mode, Claim claim) {
        Result res = new Result();
        Store inMemory = new Store() {
            final List<LayerEntries> parts = new ArrayList<>();

            @Override public void entries(LayerEntries part) { parts.add(part); }

            @Override public void layerEnd(int layer) {
                if (parts.isEmpty()) return;
                res.layers.add(parts.size() == 1 ? parts.get(0) : LayerEntries.concat(layer, parts));
                parts.clear();
            }
        };
        try {
            State s = run(rootMover, rootOpponent, mode, claim, inMemory);
            res.rootValue = s.rootValue;
            res.rootLayer = s.rootLayer;
            res.rootMoveCanonical = s.rootMoveCanonical;
            res.region = s.region;
            res.aux = s.aux;
            res.proofTerminals = s.proofTerminals;
            res.entries = s.entries;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e); // the in-memory store does no I/O
        }
        return res;
    }

    /** Extracts from the root, handing each finished layer to the store; returns the final state. */
    public State run(long rootMover, long rootOpponent, Mode mode, Store store) throws java.io.IOException {
        return run(rootMover, rootOpponent, mode, (Claim) null, store);
    }

    /**
     * With a claim: a part's extraction (SPEC §15.1), from the needs the claim names on the root
     * (its exact value is the claim's, not searched again).
     */
    public State run(long rootMover, long rootOpponent, Mode mode, Claim claim, Store store) throws java.io.IOException {
        if (claim != null && claim.mode() != mode) throw new IllegalArgumentException("a " + claim + " claim needs a " + claim.mode() + " part");
        State s = new State();
        long[] canon = new long[2];
        game.canonical(rootMover, rootOpponent, canon);
        s.mode = mode;
        s.rootCanonMover = canon[0];
        s.rootCanonOpponent = canon[1];
        s.rootLayer = game.discs(rootMover, rootOpponent);
        s.layer = s.rootLayer;
        long t0 = System.nanoTime(), n0 = oracle.nodes();
        oracle.horizon(Integer.MAX_VALUE); // the root's search may ask about anything
        // The root as given, not its canonical form: the same value, and the very tree a plain
        // search of the position makes (the canonical form's tree differs in its ties of move
        // order: FFO #41 27 % more nodes). The extraction finds its positions under any symmetry.
        s.rootValue = claim != null ? claim.lo : oracle.value(rootMover, rootOpponent);
        rootSearchNodes = oracle.nodes() - n0;
        rootSearchSeconds = (System.nanoTime() - t0) / 1e9;
        int rows = game.cells - s.rootLayer + 1;
        s.region = new long[rows];
        s.aux = new long[rows];
        s.proofTerminals = new long[rows];
        NeedMap cur = new NeedMap();
        if (claim != null && claim.exact()) {
            cur.add(canon[0], canon[1], claim.kinds, NeedMap.NO_LOWER, NeedMap.NO_UPPER, claim.lo);
        } else if (claim != null) {
            int lower = (claim.kinds & Kinds.C) != 0 && claim.lo > game.uMin ? claim.lo : NeedMap.NO_LOWER;
            int upper = (claim.kinds & Kinds.A) != 0 && claim.hi < game.uMax ? claim.hi : NeedMap.NO_UPPER;
            if (lower == NeedMap.NO_LOWER && upper == NeedMap.NO_UPPER) throw new IllegalArgumentException("a claim of no bound");
            cur.add(canon[0], canon[1], 0, lower, upper, NeedMap.UNKNOWN);
        } else if (mode.semiStrong()) {
            cur.add(canon[0], canon[1], Kinds.P, NeedMap.NO_LOWER, NeedMap.NO_UPPER, s.rootValue);
        } else {
            int lower = s.rootValue > game.uMin ? s.rootValue : NeedMap.NO_LOWER;
            int upper = s.rootValue < game.uMax ? s.rootValue : NeedMap.NO_UPPER;
            cur.add(canon[0], canon[1], 0, lower, upper, s.rootValue);
        }
        s.needs = new NeedFiles.InMemory(cur.sorted());
        return resume(s, store);
    }

    /** Continues from a state saved by {@link Store#beforeLayer} (or made by {@link #run}). */
    public State resume(State s, Store store) throws java.io.IOException {
        optimalMoves = s.mode == Mode.SEMI_STRONG_OPTIMAL;
        oracle.probeSymmetries(); // the root's own search is done: questions now come canonical
        List<Worker> workers = new ArrayList<>();
        ThreadLocal<Worker> local = ThreadLocal.withInitial(() -> {
            Worker w = new Worker();
            synchronized (workers) { workers.add(w); }
            return w;
        });
        NeedFiles.Chunk c = new NeedFiles.Chunk();
        while (s.layer <= game.cells && s.needs.size() > 0) {
            store.beforeLayer(s);
            int d = s.layer;
            currentLayer = d;
            currentLayerSize = s.needs.size();
            positionsDone.set(0);
            oracle.horizon(game.cells - d); // this layer asks about its own positions and those below
            boolean parallelChildren = threads > 1 && s.needs.size() < 4L * threads;
            boolean open = splitDiscs > s.rootLayer && d == splitDiscs;
            int row = d - s.rootLayer;
            NeedMap next = new NeedMap();
            List<java.nio.file.Path> runs = new ArrayList<>();
            // The counts live as long as the layer: in memory they take at most half of the next
            // layer's share of the budget, beyond that they are read from a file in the spill directory.
            // No cut is chosen among counted children where every child is a leaf (it has one more
            // disc: the layer just above the leaves, the largest one) or in the open layer of a
            // split: counting there would cost a child and its canonical form per move for nothing.
            // Nor where every child is a leaf's parent (Othello, two layers above the leaves): such
            // a child's entry is a bound with no child of its own, so sharing it saves one small
            // entry, while counting takes a child and its canonical form per move of the layer's
            // cut needs and a table look-up each (FFO #48, 4.5 M cut needs there: without it the
            // extraction took 9-16 % less time and the certificate had 4 % more entries).
            boolean countNothing = open || (leafEmpties > 0 && game.cells - d <= leafEmpties + 1)
                    || (leafEmpties > 0 && leafParent(game.cells - d - 1));
            cutPopularity = countNothing ? CutPopularity.none()
                    : CutPopularity.count(game, s.needs, Math.max(needBudget, CutPopularity.MIN_COUNTING_BYTES),
                    spillDir == null ? Long.MAX_VALUE : needBudget / 2,
                    spillDir == null ? null : spillDir.resolve("popular-" + d + ".bin"));
            if (cutPopularity.inFile()) {
                popularInFile++;
                popularFilePeak = Math.max(popularFilePeak, cutPopularity.fileBytes());
            }
            long nextBudget = Math.max(needBudget / 2, needBudget - cutPopularity.bytes());
            try (NeedFiles.Source needs = s.needs) {
                while (needs.next(c, chunk)) {
                    LayerEntries entries = processChunk(d, c, local, parallelChildren, open);
                    for (int i = c.from; i < c.to; i++) {
                        int k = c.needs.kinds[i] & 0xFF;
                        // An open entry's position is counted by the part that proves it (SPEC §15.4).
                        if (((k & Kinds.REGION) != 0 && !open) || (k & Kinds.TERMINAL) != 0) s.region[row]++;
                        else if ((k & Kinds.PROOF_TERMINAL) != 0) s.proofTerminals[row]++;
                    }
                    for (int i = 0; i < entries.count; i++)
                        if (!Kinds.isExact(entries.kinds[i]) && !Kinds.isOpen(entries.kinds[i])) s.aux[row]++;
                    if (d == s.rootLayer) {
                        int r = entries.find(s.rootCanonMover, s.rootCanonOpponent);
                        if (r >= 0 && (entries.kinds[r] & (Kinds.REGION | Kinds.C)) != 0)
                            s.rootMoveCanonical = entries.move[r] & 0xFF;
                    }
                    s.entries += entries.count;
                    if (entries.count > 0) store.entries(entries);
                    // The pushes of this chunk go into the next layer's needs, which spill when full.
                    for (Worker w : workers) {
                        for (int j = 0; j < w.n; j++) {
                            if (next.fullBeforeGrowth() && next.bytesAfterGrowth() > nextBudget) spillRun(next, d + 1, runs);
                            next.add(w.m[j], w.o[j], w.kinds[j] & 0xFF, w.lower[j], w.upper[j], w.known[j]);
                        }
                        w.n = 0;
                    }
                }
            }
            store.layerEnd(d);
            cutPopularity.close();
            cutPopularity = null;
            s.needs = null; // this layer's needs are no longer needed: free them before the next sort
            // Sorting in memory takes 60 bytes a need more: beyond the budget the needs go to a
            // file.
            if (!runs.isEmpty() || next.bytes() + 60L * next.size() > needBudget) {
                if (next.size() > 0) spillRun(next, d + 1, runs);
                java.nio.file.Path merged = spillDir.resolve("needs-" + (d + 1) + ".bin");
                long n = NeedFiles.merge(runs, merged);
                for (java.nio.file.Path r : runs) java.nio.file.Files.deleteIfExists(r);
                s.needs = new NeedFiles.InFile(merged, n);
            } else {
                s.needs = new NeedFiles.InMemory(next.sorted());
            }
            s.layer = d + 1;
        }
        return s;
    }

    /** The layer's cut-child counts, read by every worker while the layer is processed. */
    private volatile CutPopularity cutPopularity;

    private void spillRun(NeedMap next, int layer, List<java.nio.file.Path> runs) throws java.io.IOException {
        if (spillDir == null) throw new IllegalStateException("needs over budget but no directory to spill them to");
        java.nio.file.Path run = spillDir.resolve("run-" + layer + "-" + runs.size() + ".bin");
        next.writeSortedRun(run);
        runs.add(run);
        runsSpilled++;
    }

    /** Per-thread scratch: the needs pushed into the next layer, and child buffers. */
    private static final class Worker {
        long[] m = new long[1024], o = new long[1024];
        byte[] kinds = new byte[1024], lower = new byte[1024], upper = new byte[1024], known = new byte[1024];
        int n;
        final Game.Child child = new Game.Child();
        final long[] canon = new long[2];
        /** A position's moves in TB order with their children (at most 64 move codes), reused. */
        final int[] code = new int[64], sign = new int[64], termV = new int[64], order = new int[64];
        final long[] cm = new long[64], co = new long[64], tm = new long[64], to = new long[64];
        final long[] score = new long[64];
        /** The symmetry that made each child canonical; and one found by {@link Oracle#leafCutRecord}. */
        final int[] sym = new int[64], found = new int[1];

        void push(long cm, long co, int k, int lo, int hi, int kn) {
            if (n == m.length) {
                int c = n * 2;
                m = java.util.Arrays.copyOf(m, c); o = java.util.Arrays.copyOf(o, c);
                kinds = java.util.Arrays.copyOf(kinds, c); lower = java.util.Arrays.copyOf(lower, c);
                upper = java.util.Arrays.copyOf(upper, c); known = java.util.Arrays.copyOf(known, c);
            }
            m[n] = cm; o[n] = co; kinds[n] = (byte) k; lower[n] = (byte) lo; upper[n] = (byte) hi; known[n] = (byte) kn;
            n++;
        }
    }

    /** Processes needs [c.from, c.to) of layer d: their entries; the needs they push stay in the workers. */
    private LayerEntries processChunk(int d, NeedFiles.Chunk c, ThreadLocal<Worker> local, boolean parallelChildren,
                                      boolean open) {
        NeedMap.Sorted needs = c.needs;
        int from = c.from, n = c.to - c.from;
        byte[] eKind = new byte[n], eV1 = new byte[n], eV2 = new byte[n], eMove = new byte[n];
        IntStream range = IntStream.range(0, n);
        Runnable body = () -> (threads > 1 ? range.parallel() : range).forEach(i -> {
            if (open) openEntry(needs, from + i, i, eKind, eV1, eV2);
            else processPosition(needs, from + i, i, local.get(), eKind, eV1, eV2, eMove, parallelChildren);
            positionsDone.incrementAndGet();
        });
        if (threads == 1) body.run();
        else {
            try { pool.submit(body).get(); }
            catch (InterruptedException e) { Thread.currentThread().interrupt(); throw new IllegalStateException(e); }
            catch (java.util.concurrent.ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof RuntimeException) throw (RuntimeException) cause;
                if (cause instanceof Error) throw (Error) cause;
                throw new IllegalStateException(cause);
            }
        }
        int count = 0;
        for (int i = 0; i < n; i++) if (eKind[i] != 0) count++;
        LayerEntries le = new LayerEntries(d, count);
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (eKind[i] == 0) continue;
            le.mover[k] = needs.mover[from + i]; le.opponent[k] = needs.opponent[from + i];
            le.kinds[k] = eKind[i]; le.value1[k] = eV1[i]; le.value2[k] = eV2[i]; le.move[k] = eMove[i];
            k++;
        }
        entriesDone.addAndGet(count);
        return le;
    }

    /**
     * The open entry of need i (SPEC §15): what its parents need of it, no move, nothing pushed.
     * An exact need gets its value (known from the parent, else searched); bounds are the needs'.
     */
    private void openEntry(NeedMap.Sorted needs, int i, int e, byte[] eKind, byte[] eV1, byte[] eV2) {
        long m = needs.mover[i], o = needs.opponent[i];
        int kinds = needs.kinds[i] & 0xFF;
        int region = kinds & Kinds.REGION;
        if (region == 0 && needs.lower[i] == NeedMap.NO_LOWER && needs.upper[i] == NeedMap.NO_UPPER)
            return; // a terminal position: counted in the census, no entry
        if (region != 0) {
            eKind[e] = (byte) (Kinds.OPEN | Kinds.reduce(region));
            eV1[e] = (byte) (needs.known[i] != NeedMap.UNKNOWN ? needs.known[i] : oracle.value(m, o));
            return;
        }
        int set = 0;
        if (needs.lower[i] != NeedMap.NO_LOWER) { set |= Kinds.C; eV1[e] = needs.lower[i]; }
        if (needs.upper[i] != NeedMap.NO_UPPER) { set |= Kinds.A; eV2[e] = needs.upper[i]; }
        eKind[e] = (byte) (Kinds.OPEN | set);
    }

    /** The entry of need i (written at index e of the outputs) and the needs it pushes. */
    private void processPosition(NeedMap.Sorted needs, int i, int e, Worker w, byte[] eKind, byte[] eV1,
                                 byte[] eV2, byte[] eMove, boolean parallelChildren) {
        long m = needs.mover[i], o = needs.opponent[i];
        int kinds = needs.kinds[i] & 0xFF;
        if ((kinds & ~(Kinds.TERMINAL | Kinds.PROOF_TERMINAL)) == 0 && needs.lower[i] == NeedMap.NO_LOWER
                && needs.upper[i] == NeedMap.NO_UPPER)
            return; // a terminal position: counted in the census, no entry
        int region = kinds & Kinds.REGION;
        // Moves in TB order with their children (SPEC §7.2).
        long mv = game.moves(m, o);
        int k = Long.bitCount(mv);
        if (k == 0) throw new IllegalStateException("internal error: a needed position has no move: " + game.boardText(m, o));
        if (region == 0 && leafParent(m, o)) {
            leafParentEntry(needs, i, e, m, o, mv, k, w, eKind, eV1, eV2, eMove);
            return;
        }
        // The worker's arrays, unless this position's children are valued in parallel: while it
        // waits for them its thread may run another position, which would reuse the arrays.
        boolean fresh = parallelChildren && (region & (Kinds.P | Kinds.PP)) != 0;
        int[] code = fresh ? new int[k] : w.code, sign = fresh ? new int[k] : w.sign;
        int[] termV = fresh ? new int[k] : w.termV;
        long[] cm = fresh ? new long[k] : w.cm, co = fresh ? new long[k] : w.co;
        long[] tm = fresh ? new long[k] : w.tm, to = fresh ? new long[k] : w.to;
        int j = 0;
        for (int t = 0; t < game.moveCodes; t++) {
            int c = game.tbAt(t);
            if ((mv >>> c & 1) == 0) continue;
            game.child(m, o, c, w.child);
            code[j] = c; sign[j] = w.child.sign;
            if (w.child.sign == 0) {
                termV[j] = w.child.terminalValue;
                game.canonical(w.child.termMover, w.child.termOpponent, w.canon);
                tm[j] = w.canon[0]; to[j] = w.canon[1];
            } else {
                w.sym[j] = game.canonical(w.child.mover, w.child.opponent, w.canon);
                cm[j] = w.canon[0]; co[j] = w.canon[1];
            }
            j++;
        }
        if (region != 0) {
            int v, canon = -1;
            int[] wv = null;
            if ((region & (Kinds.P | Kinds.PP)) != 0) {
                int[] vals = new int[k];
                IntStream idx = IntStream.range(0, k);
                (parallelChildren ? idx.parallel() : idx).forEach(q ->
                        vals[q] = sign[q] == 0 ? termV[q] : sign[q] * oracle.value(cm[q], co[q]));
                wv = vals;
                v = Integer.MIN_VALUE;
                for (int q = 0; q < k; q++) if (vals[q] > v) { v = vals[q]; canon = q; }
            } else {
                v = needs.known[i] != NeedMap.UNKNOWN ? needs.known[i] : oracle.value(m, o);
                for (int q = 0; q < k && canon < 0; q++)
                    if (moveAtLeast(sign[q], termV[q], cm[q], co[q], v)) canon = q;
                if (canon < 0) throw new IllegalStateException("internal error: no move achieves the value");
            }
            eKind[e] = (byte) Kinds.reduce(region);
            eV1[e] = (byte) v;
            eMove[e] = (byte) code[canon];
            if ((region & Kinds.P) != 0) {
                for (int q = 0; q < k; q++)
                    pushRegion(w, sign[q], cm[q], co[q], tm[q], to[q], q == canon ? Kinds.P : Kinds.AP, wv[q]);
            } else {
                if ((region & Kinds.AP) != 0) {
                    pushRegion(w, sign[canon], cm[canon], co[canon], tm[canon], to[canon], Kinds.PP, v);
                    if ((region & Kinds.PP) == 0)
                        for (int q = 0; q < k; q++)
                            if (q != canon) {
                                // R-TB-1 (mode 1): an earlier move strictly worse; mode 5: at most v
                                pushMoveAtMost(w, sign[q], cm[q], co[q], q < canon && !optimalMoves ? v - 1 : v);
                                // SPEC §10.3: in mode 5 a bound ≤ U_max reads no terminal move
                                if (!optimalMoves || v < game.uMax) pushProofTerminal(w, sign[q], tm[q], to[q]);
                            }
                }
                if ((region & Kinds.PP) != 0)
                    for (int q = 0; q < k; q++) pushRegion(w, sign[q], cm[q], co[q], tm[q], to[q], Kinds.AP, wv[q]);
            }
            return;
        }
        int lower = needs.lower[i], upper = needs.upper[i];
        int kindSet = 0;
        if (lower != NeedMap.NO_LOWER) {
            int cut = chooseCut(m, o, k, w, lower);
            kindSet |= Kinds.C;
            eV1[e] = (byte) lower;
            eMove[e] = (byte) code[cut];
            pushMoveAtLeast(w, sign[cut], cm[cut], co[cut], lower);
            pushProofTerminal(w, sign[cut], tm[cut], to[cut]);
        }
        if (upper != NeedMap.NO_UPPER) {
            kindSet |= Kinds.A;
            eV2[e] = (byte) upper;
            long record = recordsLeafCuts && game.cells - Long.bitCount(m | o) == leafEmpties + 2
                    ? oracle.leafCutRecord(m, o, upper, w.found) : 0;
            for (int q = 0; q < k; q++) {
                int cut = record != 0 && sign[q] < 0 ? recordedCut(m, o, mv, code[q], cm[q], co[q], w.sym[q], w.found[0], record)
                        : NeedMap.UNKNOWN;
                pushMoveAtMost(w, sign[q], cm[q], co[q], upper, cut);
                pushProofTerminal(w, sign[q], tm[q], to[q]);
            }
        }
        eKind[e] = (byte) kindSet;
    }

    /**
     * Weak mode with 6-empty leaves, Othello: the search records, at each 8-empty position that
     * failed low at α, the cut by which each 7-empty child failed high at −α ({@link
     * org.gamecert.producer.search.OthelloSolver#recordAlpha}). An A entry with bound α on such a
     * position pushes C needs −α on those children, whose cut the extraction would otherwise find
     * by searching their 6-empty children, the leaves, in the order of {@link #chooseCut}: the
     * terminal moves that reach the bound first, then the search's move score, ties by the lower
     * square. The recorded cut is the first move of the search's order that reaches −α, every move
     * before it refuted; it is the extraction's choice when the two orders agree on the moves
     * before it (they differ only among moves of equal score, when the search met the child in
     * another orientation: checked here) and no move that ends the game reaches the bound (checked
     * when the child's entry is made). FFO #42: 18 M of the extraction's 48 M nodes were the tests
     * of the layer above the leaves; 2 M are left.
     */
    private boolean recordsLeafCuts;

    /**
     * The known-cut code ({@link NeedMap#cutCode}) of the child by {@code move} of the canonical
     * (m, o), from the record word of its orientation {@code g}; {@link NeedMap#UNKNOWN} when the
     * record has none or the extraction's order could pick another move.
     */
    private int recordedCut(long m, long o, long mv, int move, long cm, long co, int h, int g, long record) {
        // The move and the child's cut in the orientation the search met (m, o) in.
        int moveS = game.transformMove(g, move);
        int rank = Long.bitCount(game.transform(g, mv) & ((1L << moveS) - 1));
        int cutS = org.gamecert.producer.search.OthelloSolver.recordCut(record, rank);
        if (cutS < 0) return NeedMap.UNKNOWN;
        // That square in the canonical child's frame: back to (m, o)'s frame, then the child's symmetry h.
        int gi = game.inverse(g), hi = game.inverse(h);
        int x = game.transformMove(h, game.transformMove(gi, cutS));
        long mv7 = game.moves(cm, co);
        if ((mv7 >>> x & 1) == 0)
            throw new IllegalStateException("internal error: a recorded cut is no move of " + game.boardText(cm, co));
        // The moves before x in the extraction's order are those of a higher score, before x in the
        // search's order too, and those of an equal score on a lower square: those must have come
        // before x where the search met the child, i.e. on a lower square there as well. Only a
        // lower square that lies higher there (none, when the two frames agree) needs the scores.
        int xs = game.transformMove(g, game.transformMove(hi, x)); // x where the search met the child
        long suspects = 0;
        for (long y = mv7 & ((1L << x) - 1); y != 0; y &= y - 1) {
            int sq = Long.numberOfTrailingZeros(y);
            if (game.transformMove(g, game.transformMove(hi, sq)) > xs) suspects |= 1L << sq;
        }
        if (suspects == 0) return NeedMap.cutCode(x);
        Othello oth = (Othello) game;
        long fx = oth.flips(cm, co, x);
        int sx = oracle.othelloMoveScore(cm | fx | (1L << x), co & ~fx, x);
        for (long y = suspects; y != 0; y &= y - 1) {
            int sq = Long.numberOfTrailingZeros(y);
            long f = oth.flips(cm, co, sq);
            if (oracle.othelloMoveScore(cm | f | (1L << sq), co & ~f, sq) == sx) return NeedMap.UNKNOWN;
        }
        return NeedMap.cutCode(x);
    }

    /**
     * Weak mode 3, Othello: a position one move above the leaves, whose every child is a leaf or
     * terminal. Such a position pushes nothing (a leaf gets no entry, and Othello counts no
     * terminal in the census), so its children need no canonical form: the cut tests search the
     * child as it is (the same value in any orientation) and the cut order's key is symmetric but
     * for the move's square, which is the (canonical) parent's. An A-only entry needs no child at
     * all. The layer just above the leaves is the largest (FFO #42: 460 k of 876 k entries).
     */
    private boolean leafParent(long m, long o) {
        return leafParent(game.cells - Long.bitCount(m | o));
    }

    /** {@link #leafParent(long, long)} of a position with {@code empties} empty cells. */
    private boolean leafParent(int empties) {
        return leafEmpties > 0 && !game.censusCountsTerminals() && empties - 1 <= leafEmpties;
    }

    /** The entry of a need just above the leaves ({@link #leafParent}): the same entry, fewer steps. */
    private void leafParentEntry(NeedMap.Sorted needs, int i, int e, long m, long o, long mv, int k, Worker w,
                                 byte[] eKind, byte[] eV1, byte[] eV2, byte[] eMove) {
        int lower = needs.lower[i], upper = needs.upper[i];
        int kindSet = 0;
        int known = NeedMap.cutSquare(needs.known[i]);
        if (known >= 0 && lower != NeedMap.NO_LOWER && reachingTerminal(m, o, mv, lower, w)) known = -1;
        if (lower != NeedMap.NO_LOWER && known >= 0) {
            // the cut a parent read from the search's record (see recordedCut): no test
            if ((mv >>> known & 1) == 0) throw new IllegalStateException("internal error: a known cut is no move of " + game.boardText(m, o));
            kindSet |= Kinds.C;
            eV1[e] = (byte) lower;
            eMove[e] = (byte) known;
        } else if (lower != NeedMap.NO_LOWER) {
            int[] code = w.code, sign = w.sign, termV = w.termV;
            long[] cm = w.cm, co = w.co;
            int j = 0;
            for (int t = 0; t < game.moveCodes; t++) {
                int c = game.tbAt(t);
                if ((mv >>> c & 1) == 0) continue;
                game.child(m, o, c, w.child);
                code[j] = c; sign[j] = w.child.sign;
                if (w.child.sign == 0) termV[j] = w.child.terminalValue;
                else { cm[j] = w.child.mover; co[j] = w.child.opponent; }
                j++;
            }
            int cut = chooseCut(m, o, k, w, lower);
            kindSet |= Kinds.C;
            eV1[e] = (byte) lower;
            eMove[e] = (byte) code[cut];
        }
        if (upper != NeedMap.NO_UPPER) {
            kindSet |= Kinds.A;
            eV2[e] = (byte) upper;
        }
        eKind[e] = (byte) kindSet;
    }

    /**
     * Whether a move of (m, o) ends the game with a value of at least {@code lower}: the cut order
     * puts such a move first ({@link #chooseCut}), where the search's order, from which a recorded
     * cut comes, does not.
     */
    private boolean reachingTerminal(long m, long o, long mv, int lower, Worker w) {
        for (long y = mv; y != 0; y &= y - 1) {
            game.child(m, o, Long.numberOfTrailingZeros(y), w.child);
            if (w.child.sign == 0 && w.child.terminalValue >= lower) return true;
        }
        return false;
    }

    /** Whether w_m ≥ b for a move described by its sign, terminal value and canonical child. */
    private boolean moveAtLeast(int sign, int termV, long cm, long co, int b) {
        if (sign == 0) return termV >= b;
        if (sign < 0) return !oracle.atLeast(cm, co, -b + 1); // −V(child) ≥ b ⇔ V(child) ≤ −b
        return oracle.atLeast(cm, co, b);
    }

    /**
     * The cut move for a lower bound: among the moves whose value reaches it, a terminal one if any;
     * else the one whose child the most cut needs of this layer could take too (so that one proof
     * of it serves them all: {@link CutPopularity}); ties by a static order of the position alone
     * (SPEC §13). Every input is a fact of the game or of the layer's needs.
     */
    private int chooseCut(long m, long o, int k, Worker w, int lower) {
        int[] code = w.code, sign = w.sign, termV = w.termV, order = w.order;
        long[] cm = w.cm, co = w.co, score = w.score;
        CutPopularity popularity = cutPopularity;
        for (int q = 0; q < k; q++) {
            long s;
            if (sign[q] == 0) s = termV[q] >= lower ? Long.MAX_VALUE : Long.MIN_VALUE; // a terminal move that reaches it needs no subtree
            else if (isLeaf(cm[q], co[q])) s = (256L << 32) + staticScore(m, o, code[q], sign[q], cm[q], co[q]); // no entry either
            else s = ((long) popularity.count(cm[q], co[q]) << 32) + staticScore(m, o, code[q], sign[q], cm[q], co[q]);
            int p = q;
            while (p > 0 && score[p - 1] < s) { score[p] = score[p - 1]; order[p] = order[p - 1]; p--; }
            score[p] = s; order[p] = q;
        }
        // What the search recorded when (m, o) failed high at this bound: the moves it found below
        // the bound and the one that reached it. Facts, so the first move of this order that
        // reaches the bound is the same; only the tests they answer are saved.
        long record = oracle.cutRecord(m, o, lower, w.found);
        int g = w.found[0];
        long movesThere = record != 0 ? game.transform(g, game.moves(m, o)) : 0;
        for (int p = 0; p < k; p++) {
            int q = order[p];
            if (record != 0 && sign[q] != 0) {
                int sq = game.transformMove(g, code[q]);
                if (sq == OthelloSolver.recordHighCut(record)) return q;
                int rank = Long.bitCount(movesThere & ((1L << sq) - 1));
                if (OthelloSolver.recordRefuted(record, rank)) continue;
            }
            if (moveAtLeast(sign[q], termV[q], cm[q], co[q], lower)) return q;
        }
        throw new IllegalStateException("internal error: no move reaches the needed lower bound " + lower
                + " in " + game.boardText(m, o));
    }

    private int staticScore(long m, long o, int move, int sign, long cm, long co) {
        if (game instanceof Othello) {
            // The search's own order (its cut is then mostly the one the search proved, so proving
            // it again is a table hit): the child's mover cm is the opponent after the move; ties
            // by the lower square, as in the search. Symmetric but for that tie, so a function of
            // the canonical position.
            long moverAfter = sign > 0 ? cm : co, opponentAfter = sign > 0 ? co : cm;
            return oracle.othelloMoveScore(moverAfter, opponentAfter, move) * 256 + (255 - move);
        }
        if (game instanceof NoGo) // leave the opponent few moves; then TB order
            return -Long.bitCount(game.moves(cm, co)) * 64 - game.tbRank(move);
        ConnectFour cf = (ConnectFour) game;
        // Threats the mover would own after the move (child's opponent is the mover).
        long occ = cm | co;
        return Long.bitCount(cf.winningCells(co, occ)) * 16 - game.tbRank(move);
    }

    private void pushRegion(Worker w, int sign, long cm, long co, long tm, long to, int need, int moveValue) {
        if (sign == 0) {
            if (game.censusCountsTerminals()) w.push(tm, to, Kinds.TERMINAL, NeedMap.NO_LOWER, NeedMap.NO_UPPER, NeedMap.UNKNOWN);
            return;
        }
        int k = sign > 0 ? Kinds.throughPass(need) : need;
        int known = moveValue == Integer.MIN_VALUE ? NeedMap.UNKNOWN : sign * moveValue;
        w.push(cm, co, k, NeedMap.NO_LOWER, NeedMap.NO_UPPER, known);
    }

    /**
     * A terminal move that a bound's evidence consults (outside R): its position is counted in the
     * census's proof-only terminal column unless R has it too (Connect Four, SPEC §10.3).
     */
    private void pushProofTerminal(Worker w, int sign, long tm, long to) {
        if (sign == 0 && game.censusCountsTerminals())
            w.push(tm, to, Kinds.PROOF_TERMINAL, NeedMap.NO_LOWER, NeedMap.NO_UPPER, NeedMap.UNKNOWN);
    }

    /** Needs w_m ≤ b on a move: on the child a lower bound −b (sign −1) or an upper bound b (pass). */
    private void pushMoveAtMost(Worker w, int sign, long cm, long co, int b) {
        pushMoveAtMost(w, sign, cm, co, b, NeedMap.UNKNOWN);
    }

    /** The same, with the child's cut for its lower bound when known ({@link NeedMap#cutCode}). */
    private void pushMoveAtMost(Worker w, int sign, long cm, long co, int b, int cut) {
        if (sign == 0 || isLeaf(cm, co)) return;
        if (sign < 0) { if (-b > game.uMin) w.push(cm, co, 0, -b, NeedMap.NO_UPPER, cut); }
        else if (b < game.uMax) w.push(cm, co, 0, NeedMap.NO_LOWER, b, NeedMap.UNKNOWN);
    }

    /** Needs w_m ≥ b on a move: on the child an upper bound −b (sign −1) or a lower bound b (pass). */
    private void pushMoveAtLeast(Worker w, int sign, long cm, long co, int b) {
        if (sign == 0 || isLeaf(cm, co)) return;
        if (sign < 0) { if (-b < game.uMax) w.push(cm, co, 0, NeedMap.NO_LOWER, -b, NeedMap.UNKNOWN); }
        else if (b > game.uMin) w.push(cm, co, 0, b, NeedMap.NO_UPPER, NeedMap.UNKNOWN);
    }
}

package org.gamecert.verifier.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.gamecert.verifier.kernel.Combiner;
import org.gamecert.verifier.kernel.FileMap;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.SliceCheck;
import org.gamecert.verifier.kernel.SliceReport;
import org.gamecert.verifier.kernel.TerminalCount;
import org.gamecert.verifier.kernel.format.BlockRecord;
import org.gamecert.verifier.kernel.format.Container;
import org.gamecert.verifier.kernel.format.DataFrame;
import org.gamecert.verifier.kernel.format.FormatException;
import org.gamecert.verifier.kernel.format.Header;
import org.gamecert.verifier.kernel.format.Payload;

/**
 * The one-machine engine of the sequential kernel (SPEC §11.1): the reading kernel maps the file
 * (FileMap); each layer, shallowest first, is cut into slices of consecutive blocks, each checked
 * by a SliceCheck that the Combiner makes (Combiner.slice, called on the thread that runs the
 * layers) and that runs on one of this engine's threads; the engine answers each slice's
 * requests from its own decoded copy of the layer below (a binary search by key) and routes the
 * marks each slice sends to the slices of the layer below, in memory; the Combiner takes the
 * reports. Untrusted: whatever it does wrong ends in a rejection or an engine fault.
 */
public final class SliceEngine {
    private final int threads;
    private final long sliceEntries;

    private final Faults faults;

    public SliceEngine(int threads, long sliceEntries) {
        this(threads, sliceEntries, Faults.NONE);
    }

    SliceEngine(int threads, long sliceEntries, Faults faults) {
        this(threads, sliceEntries, faults, false);
    }

    /** cluster: the map is read as for a check across JVMs (its reports can be serialized). */
    SliceEngine(int threads, long sliceEntries, Faults faults, boolean cluster) {
        this.threads = Math.max(1, threads);
        this.sliceEntries = Math.max(1, sliceEntries);
        this.faults = faults;
        this.cluster = cluster;
    }

    private final boolean cluster;

    /**
     * What a faulty engine would do at each step (tests: none of it may end in VERIFIED). Each
     * hook gets the honest data and returns what the engine hands over instead.
     */
    interface Faults {
        Faults NONE = new Faults() {};

        /** The answers for one slice's requests: index, kind, lo, hi (changed in place). */
        default void answers(int li, int first, long[][] requests, long[] index, byte[] kind,
                byte[] lo, byte[] hi) {}

        /** The counts for one slice: facts per entry, and per flag bit (changed in place). */
        default void counts(int li, int first, int[] facts, int[][] bits) {}

        /** The reports of one layer, as given to the Combiner. */
        default List<SliceReport> reports(int li, List<SliceReport> honest) {
            return honest;
        }

        /** The key the engine says precedes a slice: {hasPrevious (0/1), occ, mover}. */
        default long[] previous(int li, int first, long[] honest) {
            return honest;
        }

        /** The open entries the engine says precede a slice. */
        default long openBefore(int li, int first, long honest) {
            return honest;
        }
    }

    /** Whether this engine checks the file's kind: modes 1–3, first violation (else the old path). */
    public static boolean handles(Header h, Options o) {
        return h.mode != Header.WEAK_RANKED;
    }

    /** Salts the engine's hash index, so that no file can aim at its slots. */
    private static final long SALT = new java.security.SecureRandom().nextLong();

    /**
     * A run of entries of one layer as the engine decoded it (its own copy: the kernel trusts
     * none of it), in key order with a bucket index (Layer: 16 bytes an entry and about one of
     * index); base: the layer's index of its first entry.
     */
    private static final class Table {
        final Layer layer;
        final long base;
        /** The keys at the entries asked for up front (the entries before slices of the layer). */
        Table(Layer layer, long base) {
            this.layer = layer;
            this.base = base;
        }

        int n() {
            return layer.size;
        }
    }

    /** Bytes the engine's table holds per entry of the layer below (keys, fields and index). */
    private static Layer newLayer(FileMap map) {
        org.gamecert.verifier.kernel.rules.Game g = map.game();
        int width = 32 - Integer.numberOfLeadingZeros(g.uMax) + 1;
        int boardBits = 64 - Long.numberOfLeadingZeros(g.boardMask);
        int moveBits = 32 - Integer.numberOfLeadingZeros(g.moveCodes - 1);
        return new Layer(boardBits, width, moveBits, map.header().part);
    }

    /** The engine's memory for its tables is accounted here (SliceEngine's budget), not in Layer. */
    private static final Layer.Budget UNBOUNDED = new Layer.Budget(Long.MAX_VALUE, 0);

    /** A slice: blocks [first, end) of layer li, entries base .. base + count - 1. */
    private record Slice(int li, int first, int end, long base, long count) {}

    public Result verify(Path file, boolean strict) throws IOException {
        Options o = new Options();
        o.strict = strict;
        return verify(file, o);
    }

    public Result verify(Path file, Options options) throws IOException {
        return verify(file, options, new Figures());
    }

    /** As verify(file, options), the engine's memory figures put into figures. */
    public Result verify(Path file, Options options, Figures figures) throws IOException {
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "slice-check");
            t.setDaemon(true);
            return t;
        });
        try (Container ct = new Container(file)) {
            FileMap map;
            try {
                map = cluster ? FileMap.readForCluster(ct) : FileMap.read(ct);
            } catch (FileMap.TooLarge e) {
                Result res = new Result();
                res.errorMessage = e.getMessage();
                return Result.withVerdict(res, Result.Verdict.ERROR);
            } catch (FileMap.HeaderViolation hv) {
                return rejectedHeader(hv);
            }
            return run(ct, map, options, pool, figures);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } finally {
            pool.shutdownNow();
        }
    }

    /** The file needs more memory than --max-memory allows. */
    public static final class OutOfBudget extends RuntimeException {
        OutOfBudget(String message) {
            super(message, null, false, false);
        }
    }

    /** A header that breaks a rule: the verdict, as the Combiner would give it. */
    static Result rejectedHeader(FileMap.HeaderViolation hv) {
        Result res = new Result();
        res.violations.add(hv.violation);
        res.violationCounts.put(hv.violation.rule(), 1L);
        return Result.withVerdict(res, Result.Verdict.REJECTED);
    }

    /** Bytes the engine's table holds per entry of the layer below (columns and hash slots). */
    static final long TABLE_BYTES_PER_ENTRY = 20 + 2; // keys and fields (Othello 8x8: 20), index
    /** Bytes the counts of marks take per entry (facts, and facts per flag bit). */
    static final long COUNT_BYTES_PER_ENTRY = 20;
    /** Bytes a slice's kernel holds per entry and per request, about (columns, keys, answers). */
    static final long SLICE_BYTES_PER_ENTRY = 40, BYTES_PER_REQUEST = 28;

    private Result run(Container ct, FileMap map, Options o, ExecutorService pool,
            Figures figures) throws IOException, InterruptedException {
        Combiner combiner = new Combiner(map, o.strict, o.all, o.maxViolationsPerRule);
        if (o.forComposition || o.composite != null) combiner.forComposition();
        Header h = map.header();
        long[] openBefore = h.part ? openBefore(ct, map) : null;
        int regionKeyBudget = -1;
        if (h.part) {
            if (o.regionKeys != null) { // the union census's room, asked for once, up front
                long want = Math.min(Integer.MAX_VALUE / 2, 2 * map.entries() + 1024);
                regionKeyBudget = o.regionKeys.grant((int) want) ? (int) want : 0;
            }
            combiner.partOf(o.composite, o.compositePart, regionKeyBudget >= 0);
        }
        // terminal positions (counted for every game but Othello, SPEC §10.3) are counted by
        // TerminalCount kernels, one a partition of their keys, on the pool's threads
        int partitions = h.family == Header.OTHELLO ? 0 : terminalPartitions(map.entries());
        Setup setup = new Setup(openBefore, o.composite, o.compositePart, regionKeyBudget,
                partitions);
        boolean weak = !h.semiStrong;
        // blocks in flight: a frame and its decoded columns per thread
        long fixed = (threads + 1L) * (2L * h.maxBlockBytes + 1024 + 40L * h.maxBlockEntries);
        if (fixed > o.maxMemory)
            throw new OutOfBudget("the header's block limits need " + fixed + " bytes with "
                    + threads + " thread(s), more than --max-memory " + o.maxMemory);
        // a layer whose counts of marks leave no room for any of the layer below is refused here,
        // at once, not after the layers above it are checked (each layer's room, as below)
        for (int li = map.layers() - 1; li >= 0; li--) {
            int below = map.below(li);
            if (below < 0) continue;
            long counts = COUNT_BYTES_PER_ENTRY * (map.size(li) + map.size(below));
            entriesPerRun(map, below, (o.maxMemory - fixed - counts) / 2, o.maxHeldEntries);
        }
        long[][] previous = null; // per slice of the layer due: {has, occ, mover}
        int previousLi = -1;
        long entriesDone = 0, peak = 0;
        int splitLayers = 0, maxSegments = 0;
        int[] countsIn = null; // per entry of the layer due: facts, then facts per flag bit
        // arrays kept from layer to layer (allocated once, so that the collector does not copy
        // a layer's worth of them at each layer): the counts no layer uses now, and the table
        int[] spareCounts = null;
        Layer spareTable = newLayer(map);
        long[][] terminalRuns = Marks.runs(partitions);
        // Both made at the size of the largest layer below another, when every layer's table then
        // still fits whole in its room (below): grown layer by layer instead, each larger layer's
        // arrays were new, and the collector copied each one it met in the young generation.
        long largest = 0;
        for (int li = 0; li < map.layers(); li++)
            if (map.below(li) >= 0) largest = Math.max(largest, map.size(map.below(li)));
        boolean presized = largest > 0 && largest <= Layer.MAX_ENTRIES && fixed
                + 2 * (COUNT_BYTES_PER_ENTRY + TABLE_BYTES_PER_ENTRY) * largest <= o.maxMemory;
        if (presized) spareTable.ensure((int) largest, UNBOUNDED, true);
        for (int li = map.layers() - 1; li >= 0; li--) {
            Slice[] slices = plan(map, li);
            int below = map.below(li);
            Slice[] underSlices = below < 0 ? new Slice[0] : plan(map, below);
            // what this layer sends the layer below, counted per entry there as slices end
            long belowSize = below < 0 ? 0 : map.size(below);
            if (5 * belowSize > Integer.MAX_VALUE - 8)
                throw new OutOfBudget("layer " + map.discs(below) + " has more entries than this"
                        + " engine counts marks for (" + belowSize + ")");
            int[] nextCounts; // five ints a mark
            if (spareCounts != null && spareCounts.length >= 5 * belowSize) {
                nextCounts = spareCounts;
                java.util.Arrays.fill(nextCounts, 0, (int) (5 * belowSize), 0);
            } else {
                nextCounts = new int[(int) (5 * (presized ? largest : belowSize))];
            }
            spareCounts = null;
            // the counts held: this layer's and the next's (a reused array may be the longer)
            long counts = Math.max(COUNT_BYTES_PER_ENTRY * (map.size(li) + belowSize),
                    4L * ((countsIn == null ? 0 : countsIn.length) + nextCounts.length));
            long room = o.maxMemory - fixed - counts;
            long tableRoom = room / 2, waveRoom = room - tableRoom;
            long[][] segments = below < 0 ? new long[0][] : segments(map, below, tableRoom, o.maxHeldEntries);
            if (segments.length > 1) { // the most runs a layer below needed (0: none split)
                splitLayers++;
                maxSegments = Math.max(maxSegments, segments.length);
            }
            if (previousLi != li)
                previous = previousKeys(ct, map, li, slices, weak);
            long[][] underPrevious = new long[underSlices.length][];
            List<SliceReport> reports = new ArrayList<>();
            Marks marks = new Marks(nextCounts, reports, setup.partitions, terminalRuns);
            Inputs in = new Inputs(slices, countsIn, previous);
            if (segments.length <= 1) { // the layer below fits whole: each slice start to end
                Table under;
                if (segments.length == 0) {
                    under = new Table(newLayer(map), 0);
                } else {
                    if (spareTable.bytes() > tableRoom) spareTable.release(UNBOUNDED); // no room
                    under = decodeLayer(ct, map, below, weak, spareTable, pool);
                    notePrevious(underSlices, underPrevious, under);
                }
                peak = Math.max(peak, counts + TABLE_BYTES_PER_ENTRY * under.n());
                List<Future<Checked>> window = new ArrayList<>();
                for (int s = 0, k = 0; k < slices.length; ) {
                    if (s < slices.length && s - k < 2 * threads) { // a few ahead, in order
                        int q = s++;
                        Slice sl = slices[q];
                        int[] facts = in.facts(q);
                        int[][] bits = in.bits(q);
                        int[] layerCounts = in.layerCounts();
                        long[] prev = in.previous(q);
                        SliceCheck check = combiner.slice(sl.li, sl.first, sl.end,
                                sliceSetup(sl, prev, setup, faults));
                        window.add(pool.submit(() -> {
                            Held x = startSlice(ct, map, sl, check, facts, bits, layerCounts,
                                    faults, false);
                            answer(x, under);
                            return finishSlice(x, faults, setup.partitions > 0);
                        }));
                    } else {
                        marks.take(get(window.set(k++, null)));
                    }
                }
            } else {
                spareTable.release(UNBOUNDED); // the runs of the layer below take its room
                int s = 0;
                // slices started but past the last wave's room: they begin the next wave (in order)
                List<Held> carried = new ArrayList<>();
                long carriedBytes = 0;
                while (s < slices.length || !carried.isEmpty()) { // a wave: what waveRoom holds
                    List<Held> wave = carried;
                    long held = carriedBytes;
                    carried = new ArrayList<>();
                    carriedBytes = 0;
                    while (s < slices.length && carried.isEmpty()
                            && (wave.isEmpty() || held < waveRoom)) {
                        List<Future<Held>> started = new ArrayList<>();
                        for (int t = 0; t < threads && s < slices.length; t++, s++) {
                            Slice sl = slices[s];
                            int[] facts = in.facts(s);
                            int[][] bits = in.bits(s);
                            int[] layerCounts = in.layerCounts();
                            long[] prev = in.previous(s);
                            SliceCheck check = combiner.slice(sl.li, sl.first, sl.end,
                                    sliceSetup(sl, prev, setup, faults));
                            started.add(pool.submit(() -> startSlice(ct, map, sl, check,
                                    facts, bits, layerCounts, faults, true)));
                        }
                        // a slice's requests are known only once it is decoded: the first that
                        // would pass the room, and those after it, wait for the next wave (a
                        // wave holds at least one slice however large)
                        for (Future<Held> f : started) {
                            Held x = get(f);
                            long bytes = SLICE_BYTES_PER_ENTRY * x.slice.count
                                    + BYTES_PER_REQUEST * x.n;
                            if (carried.isEmpty() && (wave.isEmpty() || held + bytes <= waveRoom)) {
                                wave.add(x);
                                held += bytes;
                            } else {
                                carried.add(x);
                                carriedBytes += bytes;
                            }
                        }
                    }
                    long heldNow = held + carriedBytes;
                    for (long[] seg : segments) { // the layer below, one run of its blocks at a time
                        Table under = decodeRange(ct, map, below, seg[0], seg[1], weak);
                        peak = Math.max(peak, counts + heldNow + TABLE_BYTES_PER_ENTRY * under.n());
                        notePrevious(underSlices, underPrevious, under);
                        List<Future<?>> answering = new ArrayList<>();
                        for (Held x : wave) answering.add(pool.submit(() -> answer(x, under)));
                        for (Future<?> f : answering) get(f);
                    }
                    List<Future<Checked>> checking = new ArrayList<>();
                    for (Held x : wave) checking.add(pool.submit(() -> finishSlice(x, faults, setup.partitions > 0)));
                    wave = null;
                    for (int k = 0; k < checking.size(); k++) marks.take(get(checking.set(k, null)));
                }
            }
            combiner.layer(li, faults.reports(li, reports).toArray(new SliceReport[0]),
                    countTerminals(combiner, li, marks, pool));
            entriesDone += map.size(li);
            if (o.progress != null)
                o.progress.update(entriesDone, map.layers() - li, entriesDone,
                        Math.max(1, map.entries()), 1);
            boolean next = below >= 0 && below == li - 1;
            spareCounts = countsIn;
            countsIn = next ? nextCounts : null;
            for (int q = 0; q < underPrevious.length; q++) // blocks that failed to decode: none
                if (underPrevious[q] == null) underPrevious[q] = new long[3];
            previous = underPrevious; // the layer below is due next
            previousLi = below;
        }
        Result res = combiner.conclude();
        figures.peakTableBytes = peak; // the engine's tables, counts and held slices, estimated
        figures.bytesPerEntryHeld = TABLE_BYTES_PER_ENTRY;
        figures.splitLayers = splitLayers;
        figures.maxSegments = maxSegments;
        return res;
    }

    /** What the layer above sent each slice (copied out of its range), and the key before it. */
    private final class Inputs {
        final Slice[] slices;
        final int[] countsIn;
        final long[][] previous;
        private int[][] handedBits;

        Inputs(Slice[] slices, int[] countsIn, long[][] previous) {
            this.slices = slices;
            this.countsIn = countsIn;
            this.previous = previous;
        }

        /**
         * The layer's counts, which a slice's kernel copies its own from (then facts(q) and
         * bits(q) are null); null when there are none, or when a test's faults change them.
         */
        int[] layerCounts() {
            return faults == Faults.NONE ? countsIn : null;
        }

        /** Called before bits(q): the counts of facts, as the engine hands them to slice q. */
        int[] facts(int q) {
            handedBits = null;
            if (layerCounts() != null) return null;
            Slice sl = slices[q];
            int n = (int) sl.count;
            int[] facts = new int[n];
            int[][] bits = new int[4][n];
            if (countsIn != null)
                for (int i = 0, at = 5 * (int) sl.base; i < n; i++, at += 5) {
                    facts[i] = countsIn[at];
                    for (int b = 0; b < 4; b++) bits[b][i] = countsIn[at + 1 + b];
                }
            faults.counts(sl.li, sl.first, facts, bits);
            handedBits = bits;
            return facts;
        }

        int[][] bits(int q) {
            return handedBits;
        }

        long[] previous(int q) {
            return previous[q];
        }
    }

    /**
     * The marks of a layer's slices, counted per entry of the layer below (five ints each), and
     * their terminal keys, copied as each slice ends into one run per partition (occ, mover,
     * route: three longs a key). The runs are the engine's for the whole check, reused layer
     * after layer and grown by doubling: made new for each layer, or kept per slice until the
     * layer's end, they lived across collections and the collector copied them.
     */
    private static final class Marks {
        final int[] counts;
        final List<SliceReport> reports;
        final int partitions;
        /** Per partition: its keys (three longs each), how many, and how many read for a bound. */
        private final long[][] runs;
        private final int[] keys, proofKeys;

        Marks(int[] counts, List<SliceReport> reports, int partitions, long[][] runs) {
            this.counts = counts;
            this.reports = reports;
            this.partitions = partitions;
            this.runs = runs;
            keys = new int[partitions];
            proofKeys = new int[partitions];
        }

        private static final int MAX_RUN = (Integer.MAX_VALUE - 8) / 3 * 3;

        /** The runs a check's Marks reuse: one per partition, empty until a layer fills them. */
        static long[][] runs(int partitions) {
            long[][] runs = new long[partitions][];
            java.util.Arrays.fill(runs, new long[0]);
            return runs;
        }

        void take(Checked c) {
            reports.add(c.report);
            if (c.terminalKeys != null) {
                long[] occ = c.terminalKeys[0], mover = c.terminalKeys[1], route = c.terminalKeys[2];
                for (int j = 0; j < route.length; j++) {
                    int q = TerminalCount.partitionOf(route[j]);
                    long[] run = runs[q];
                    int at = 3 * keys[q];
                    if (at + 3 > run.length) {
                        if (at + 3 > MAX_RUN)
                            throw new OutOfBudget("a partition of " + keys[q] + " terminal keys");
                        runs[q] = run = java.util.Arrays.copyOf(run,
                                (int) Math.min(MAX_RUN, Math.max(3 * 64, 2L * run.length)));
                    }
                    run[at] = occ[j];
                    run[at + 1] = mover[j];
                    run[at + 2] = route[j];
                    keys[q]++;
                    if (TerminalCount.isProof(route[j])) proofKeys[q]++;
                }
            }
            for (int j = 0; j < c.marksIndex.length; j++) {
                int at = 5 * (int) c.marksIndex[j]; // the kernel checked it: in the layer below
                counts[at]++;
                int f = c.marksFlags[j];
                for (int b = 0; b < 4; b++) counts[at + 1 + b] += f >>> b & 1;
            }
        }
    }

    /** The layer's terminal keys counted, each partition by a TerminalCount on the pool. */
    private static TerminalCount.Report[] countTerminals(Combiner combiner, int li,
            Marks marks, ExecutorService pool) throws IOException, InterruptedException {
        int partitions = marks.partitions;
        List<Future<TerminalCount.Report>> counted = new ArrayList<>();
        for (int q = 0; q < partitions; q++) {
            int n = marks.keys[q], proof = marks.proofKeys[q];
            long[] run = marks.runs[q];
            TerminalCount count = combiner.terminalCount(li, q, partitions, n - proof, proof);
            counted.add(pool.submit(() -> {
                for (int j = 0; j < n; j++)
                    count.take(run[3 * j], run[3 * j + 1], run[3 * j + 2]);
                return count.report();
            }));
        }
        TerminalCount.Report[] out = new TerminalCount.Report[partitions];
        for (int q = 0; q < partitions; q++) out[q] = get(counted.get(q));
        return out;
    }

    private static <T> T get(Future<T> f) throws IOException, InterruptedException {
        try {
            return f.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) throw re;
            if (cause instanceof Error err) throw err;
            if (cause instanceof IOException io) throw io;
            throw new IOException(cause);
        }
    }

    /** The layer's entries cut into runs whose table fits in room: {first entry, end entry}. */
    private static long[][] segments(FileMap map, int li, long room, long maxHeld) {
        long size = map.size(li);
        long per = entriesPerRun(map, li, room, maxHeld);
        List<long[]> out = new ArrayList<>();
        for (long e = 0; e < size; e += per) out.add(new long[] {e, Math.min(size, e + per)});
        return out.toArray(new long[0][]);
    }

    /** The entries of layer li one run of its table holds in room (at least one, else refused). */
    private static long entriesPerRun(FileMap map, int li, long room, long maxHeld) {
        long per = Math.min(Math.min(maxHeld, room / TABLE_BYTES_PER_ENTRY), Integer.MAX_VALUE - 8);
        if (per < 1)
            throw new OutOfBudget("--max-memory is too little to hold any of layer "
                    + map.discs(li) + " beside the rest (raise --max-memory, or lower --threads)");
        return per;
    }

    /**
     * A slice between its third and fourth steps: its kernel and its requests' keys. The honest
     * engine gives each record to the kernel as it finds it (SliceCheck.answer); a test's faulty
     * engine collects them in arrays first (index .. hi, null otherwise), for Faults.answers.
     */
    private static final class Held {
        final Slice slice;
        final SliceCheck check;
        final int n;
        /** The requests' keys, [0, n): the thread's scratch when the slice holds its thread. */
        final long[] occ, mover;
        /** Requests found in an earlier run of the layer below (null: the layer is one run). */
        final long[] found;
        final long[][] requests;
        final long[] index;
        final byte[] kind, lo, hi;

        Held(Slice slice, SliceCheck check, boolean faulty, boolean runs) {
            this.slice = slice;
            this.check = check;
            if (faulty) {
                requests = requests(check);
                n = requests[0].length;
                occ = requests[0];
                mover = requests[1];
                index = new long[n];
                java.util.Arrays.fill(index, -1); // absent unless a run holds it
                kind = new byte[n];
                lo = new byte[n];
                hi = new byte[n];
            } else {
                n = check.makeRequests();
                long[][] keys = runs ? new long[][] {new long[n], new long[n]} : keyScratch(n);
                occ = keys[0];
                mover = keys[1];
                check.requestKeys(occ, mover);
                requests = null;
                index = null;
                kind = lo = hi = null;
            }
            found = runs ? new long[(n + 63) >>> 6] : null;
        }

        /** Request j's record: index i of the run under. */
        void answer(int j, Table under, int i) {
            Layer t = under.layer;
            if (found != null) found[j >>> 6] |= 1L << j;
            if (index == null) {
                check.answer(j, under.base + i, (byte) t.kind(i), (byte) t.lo(i), (byte) t.hi(i));
            } else {
                index[j] = under.base + i;
                kind[j] = (byte) t.kind(i);
                lo[j] = (byte) t.lo(i);
                hi[j] = (byte) t.hi(i);
            }
        }

        boolean found(int j) {
            return found != null && (found[j >>> 6] & 1L << j) != 0;
        }
    }

    /**
     * What slice s's kernel is set up with (SliceCheck.Setup): the key before it as the layer's
     * reading found it (honest), its layer's terminal partitions, a part's count of open entries
     * before it and the composite it is checked for.
     */
    private static SliceCheck.Setup sliceSetup(Slice s, long[] honest, Setup setup,
            Faults faults) {
        long[] previous = faults.previous(s.li, s.first, honest.clone());
        if (setup.openBefore == null)
            return new SliceCheck.Setup(previous[0] != 0, previous[1], previous[2],
                    setup.partitions);
        return new SliceCheck.Setup(previous[0] != 0, previous[1], previous[2], setup.partitions,
                faults.openBefore(s.li, s.first, setup.openBefore[s.first]), setup.composite,
                setup.part, setup.regionKeyBudget);
    }

    /**
     * Steps 1–3 of a slice's kernel: counts, decoding, requests. runs: the layer below is read in
     * runs, each after the slice's task, so its keys may not sit in its thread's scratch.
     */
    private static Held startSlice(Container ct, FileMap map, Slice s, SliceCheck check,
            int[] facts, int[][] bits, int[] layerCounts, Faults faults, boolean runs)
            throws IOException {
        for (int b = s.first; b < s.end; b++) {
            BlockRecord r = map.record(b);
            check.decode(b, ct.read(r.frameOffset, (int) r.compLen));
        }
        if (layerCounts != null) check.takeCounts(layerCounts, 5 * s.base);
        else check.takeCounts(interleaved(facts, bits), 0);
        return new Held(s, check, faults != Faults.NONE, runs);
    }

    /** A slice's counts as the kernel takes them: per entry, its facts, then its facts per bit. */
    static int[] interleaved(int[] facts, int[][] bits) {
        int[] out = new int[5 * facts.length];
        for (int i = 0; i < facts.length; i++) {
            out[5 * i] = facts[i];
            for (int b = 0; b < 4; b++) out[5 * i + 1 + b] = bits[b][i];
        }
        return out;
    }

    /** The requests of a held slice that one run of the layer below holds. */
    private static void answer(Held x, Table under) {
        long[] occ = x.occ, mover = x.mover;
        // looked up grouped by the top bits of their buckets (one counting pass): each group
        // reads one small stretch of the table, where lookups in the requests' order read it at
        // random, a cache miss each
        Layer t = under.layer;
        int n = x.n, shift = Math.max(0, t.bucketBits() - LOOKUP_GROUP_BITS);
        int[][] scratch = LOOKUP_SCRATCH.get();
        if (scratch[0].length < n) {
            scratch[0] = new int[n];
            scratch[1] = new int[n];
        }
        int[] bucket = scratch[0], order = scratch[1];
        int[] first = new int[(1 << LOOKUP_GROUP_BITS) + 1];
        for (int j = 0; j < n; j++) {
            int b = x.found(j) ? -1 : t.bucket(occ[j], mover[j]);
            bucket[j] = b;
            if (b >= 0) first[(b >>> shift) + 1]++;
        }
        for (int g = 1; g < first.length; g++) first[g] += first[g - 1];
        int lookups = first[first.length - 1];
        for (int j = 0; j < n; j++)
            if (bucket[j] >= 0) order[first[bucket[j] >>> shift]++] = j;
        for (int q = 0; q < lookups; q++) {
            int j = order[q];
            int i = t.findIn(bucket[j], occ[j], mover[j]);
            if (i >= 0) x.answer(j, under, i);
        }
    }

    /** Step 4 of a slice's kernel: the obligations, from the answers. */
    private static Checked finishSlice(Held x, Faults faults, boolean partitioned) {
        Slice s = x.slice;
        SliceReport report;
        if (x.index == null) {
            report = x.check.check();
        } else {
            faults.answers(s.li, s.first, x.requests, x.index, x.kind, x.lo, x.hi);
            report = check(x.check, x.index, x.kind, x.lo, x.hi);
        }
        return new Checked(report, x.check.marksIndex(), x.check.marksFlags(),
                partitioned ? x.check.terminalKeys() : null);
    }

    /** A slice's requests (SliceCheck.makeRequests) with their keys in new arrays: {occ, mover}. */
    static long[][] requests(SliceCheck check) {
        int n = check.makeRequests();
        long[][] keys = {new long[n], new long[n]};
        check.requestKeys(keys[0], keys[1]);
        return keys;
    }

    /** A slice's check with the records in arrays, request by request (index -1: absent). */
    static SliceReport check(SliceCheck check, long[] index, byte[] kind, byte[] lo, byte[] hi) {
        for (int j = 0; j < index.length; j++)
            if (index[j] >= 0) check.answer(j, index[j], kind[j], lo[j], hi[j]);
        return check.check();
    }

    /** terminalKeys: {occ, mover, route} of each terminal key, when counted in partitions. */
    private record Checked(SliceReport report, long[] marksIndex, byte[] marksFlags,
            long[][] terminalKeys) {}

    /** A part's setup for its slices (SliceCheck.Setup); openBefore null: not a part. */
    private record Setup(long[] openBefore, org.gamecert.verifier.kernel.format.Manifest composite,
            int part, int regionKeyBudget, int partitions) {}

    /**
     * Partitions of a layer's terminal keys: one per ENTRIES_PER_TERMINAL_PARTITION entries of
     * the file, from MIN_ to MAX_TERMINAL_PARTITIONS. Each TerminalCount's set stays a few MB or
     * less on the largest layers, where one set of the whole layer in the Combiner was a cache
     * miss a key on one thread. The whole 7×6 game (876 M entries, 2 threads): a median of 494
     * CPU-s with 64 partitions, 426 with 512 (docs/benchmarks.md); a small file keeps 64, for
     * 512 cost it 0.2 CPU-s more (their sets and reports, layer by layer).
     */
    static int terminalPartitions(long entries) {
        long byEntries = entries / ENTRIES_PER_TERMINAL_PARTITION;
        return (int) Math.max(MIN_TERMINAL_PARTITIONS,
                Math.min(MAX_TERMINAL_PARTITIONS, byEntries));
    }

    static final long ENTRIES_PER_TERMINAL_PARTITION = 1 << 20;
    static final int MIN_TERMINAL_PARTITIONS = 64, MAX_TERMINAL_PARTITIONS = 512;

    /** A slice's lookups in the layer below go in 2^this groups of buckets (answer). */
    private static final int LOOKUP_GROUP_BITS = 10;

    /**
     * answer's scratch on each thread, reused slice after slice (each request's bucket, then the
     * order of the lookups): engine memory, never handed to a kernel.
     */
    private static final ThreadLocal<int[][]> LOOKUP_SCRATCH =
            ThreadLocal.withInitial(() -> new int[][] {new int[0], new int[0]});

    /**
     * A slice's request keys on each thread, {occ, mover}, reused slice after slice while the
     * layer below is read whole (each slice's steps then run in one task): engine memory. Fresh
     * arrays a slice, as before, were about a tenth of all the whole 7×6 game allocated, and a
     * slice's in flight were much of what each young collection copied (docs/benchmarks.md).
     */
    private static final ThreadLocal<long[][]> KEY_SCRATCH =
            ThreadLocal.withInitial(() -> new long[][] {new long[0], new long[0]});

    private static long[][] keyScratch(int n) {
        long[][] keys = KEY_SCRATCH.get();
        if (keys[0].length < n) { // an eighth more: fewer regrowths as slices grow
            int room = (int) Math.min(Integer.MAX_VALUE - 8, n + (long) (n >>> 3));
            keys[0] = new long[room];
            keys[1] = new long[room];
        }
        return keys;
    }

    /** A part: the open entries before each block, by the engine's own decoding of the kinds. */
    private static long[] openBefore(Container ct, FileMap map) throws IOException {
        Header h = map.header();
        boolean weak = !h.semiStrong;
        long[] before = new long[map.blocks() + 1];
        for (int b = 0; b < map.blocks(); b++) {
            BlockRecord r = map.record(b);
            long n = 0;
            try {
                byte[] raw = DataFrame.decompress(ct.read(r.frameOffset, (int) r.compLen),
                        (int) r.rawLen, r.index);
                Payload p = Payload.decode(raw, (int) r.count, weak, true, Long.MIN_VALUE,
                        map.game().uMin, map.game().uMax, null); // counted, not capped
                for (int i = 0; i < p.count; i++) if (Payload.isOpen(p.kind[i])) n++;
            } catch (FormatException e) {
                n = 0; // that block's slice reports it; nothing after it counts
            }
            before[b + 1] = before[b] + n;
        }
        return before;
    }

    /** For each slice of layer li, the key of the entry before it: {1, occ, mover}, or 0s. */
    private static long[][] previousKeys(Container ct, FileMap map, int li, Slice[] slices,
            boolean weak) throws IOException {
        long[][] out = new long[slices.length][];
        for (int q = 0; q < slices.length; q++) {
            out[q] = new long[3];
            if (q == 0) continue;
            Table t = decodeRange(ct, map, li, slices[q].base - 1, slices[q].base, weak);
            int n = t.n();
            if (n > 0) out[q] = new long[] {1, t.layer.occ(n - 1), t.layer.mover(n - 1)};
        }
        return out;
    }

    /** The keys before the slices of the layer below that fall in a run of it (as above). */
    private static void notePrevious(Slice[] slices, long[][] out, Table run) {
        for (int q = 0; q < slices.length; q++) {
            if (q == 0) {
                out[q] = new long[3];
                continue;
            }
            long at = slices[q].base - 1 - run.base;
            if (at >= 0 && at < run.n())
                out[q] = new long[] {1, run.layer.occ((int) at), run.layer.mover((int) at)};
        }
    }

    /** Layer li cut into slices of about sliceEntries entries, at block boundaries. */
    private Slice[] plan(FileMap map, int li) {
        List<Slice> out = new ArrayList<>();
        int b = map.firstBlock(li);
        long base = 0;
        while (b < map.endBlock(li)) {
            int first = b;
            long count = 0;
            do count += map.record(b++).count;
            while (b < map.endBlock(li) && count + map.record(b).count <= sliceEntries);
            out.add(new Slice(li, first, b, base, count));
            base += count;
        }
        return out.toArray(new Slice[0]);
    }

    /**
     * The engine's own decoding of the whole of layer li into layer (emptied first), up to the
     * first block that fails to decode: the blocks are decompressed and decoded on the pool, as
     * many ahead as the block budget allows (threads + 1), and added here in order.
     */
    private Table decodeLayer(Container ct, FileMap map, int li, boolean weak, Layer layer,
            ExecutorService pool) throws IOException, InterruptedException {
        layer.reset(-1);
        int cap = (int) Math.min(map.size(li), Layer.MAX_ENTRIES);
        layer.ensure(cap, UNBOUNDED, true);
        int uMin = map.game().uMin, uMax = map.game().uMax;
        boolean part = map.header().part;
        int first = map.firstBlock(li), end = map.endBlock(li);
        List<Future<Payload>> window = new ArrayList<>();
        // the decoded blocks added to the table, their columns decoded into again
        java.util.concurrent.ConcurrentLinkedQueue<Payload> spare =
                new java.util.concurrent.ConcurrentLinkedQueue<>();
        for (int b = first, k = first; k < end; ) {
            if (b < end && b - k <= threads) {
                BlockRecord r = map.record(b++);
                window.add(pool.submit(() -> {
                    try {
                        byte[] raw = DataFrame.decompress(ct.read(r.frameOffset, (int) r.compLen),
                                (int) r.rawLen, r.index);
                        return Payload.decode(raw, (int) r.count, weak, part, Long.MIN_VALUE,
                                uMin, uMax, spare.poll());
                    } catch (FormatException e) {
                        return null; // the slice that holds the block reports it
                    }
                }));
                continue;
            }
            Payload p = get(window.set(k++ - first, null));
            if (p == null || p.count > cap - layer.size) {
                for (Future<Payload> f : window) if (f != null) f.cancel(false);
                break;
            }
            for (int j = 0; j < p.count; j++)
                layer.add(p.occ[j], p.mover[j], p.kind[j] & 0xFF, p.lo[j], p.hi[j],
                        Payload.hasMove(p.kind[j] & 0xFF) ? p.move[j] & 0xFF : 0);
            spare.add(p);
        }
        layer.index(UNBOUNDED);
        return new Table(layer, 0);
    }

    /**
     * The engine's own decoding of entries [from, to) of layer li, up to the first block that
     * fails to decode.
     */
    private static Table decodeRange(Container ct, FileMap map, int li, long from, long to,
            boolean weak) throws IOException {
        Layer layer = newLayer(map);
        int cap = (int) Math.min(to - from, Layer.MAX_ENTRIES);
        layer.ensure(cap, UNBOUNDED, true);
        int uMin = map.game().uMin, uMax = map.game().uMax;
        long base = 0; // the layer's index of the block's first entry
        Payload reuse = null;
        for (int b = map.firstBlock(li); b < map.endBlock(li) && base < to; b++) {
            BlockRecord r = map.record(b);
            long end = base + r.count;
            if (end > from) {
                try {
                    byte[] raw = DataFrame.decompress(ct.read(r.frameOffset, (int) r.compLen),
                            (int) r.rawLen, r.index);
                    Payload p = Payload.decode(raw, (int) r.count, weak, map.header().part,
                            Long.MIN_VALUE, uMin, uMax, reuse);
                    reuse = p;
                    int at = (int) (Math.max(from, base) - base);
                    int n = (int) Math.min(p.count - at, Math.min(to, end) - Math.max(from, base));
                    if (n < 0 || n > cap - layer.size) break;
                    for (int j = at; j < at + n; j++)
                        layer.add(p.occ[j], p.mover[j], p.kind[j] & 0xFF, p.lo[j], p.hi[j],
                                Payload.hasMove(p.kind[j] & 0xFF) ? p.move[j] & 0xFF : 0);
                } catch (FormatException e) {
                    break; // the slice that holds the block reports it
                }
            }
            base = end;
        }
        layer.index(UNBOUNDED);
        return new Table(layer, from);
    }
}

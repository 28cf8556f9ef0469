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
import org.gamecert.verifier.kernel.format.BlockRecord;
import org.gamecert.verifier.kernel.format.Container;
import org.gamecert.verifier.kernel.format.DataFrame;
import org.gamecert.verifier.kernel.format.FormatException;
import org.gamecert.verifier.kernel.format.Header;
import org.gamecert.verifier.kernel.format.Payload;

/**
 * The one-machine engine of the sequential kernel (SPEC §11.1): the reading kernel maps the file
 * (FileMap); each layer, shallowest first, is cut into slices of consecutive blocks, each checked
 * by a SliceCheck of its own on one of this engine's threads; the engine answers each slice's
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

    /** One layer as the engine decoded it (its own copy: the kernel trusts none of it). */
    private static final class Table {
        long[] occ = new long[0], mover = new long[0];
        byte[] kind = new byte[0], lo = new byte[0], hi = new byte[0];
        int n;

        /** Open addressing over the entries (index + 1; 0: empty): one random access a key. */
        int[] slots = new int[1];

        void index() {
            int size = Integer.highestOneBit(Math.max(2, 2 * n - 1)) << 1;
            slots = new int[size];
            int mask = size - 1;
            for (int i = 0; i < n; i++) {
                int j = hash(occ[i], mover[i]) & mask;
                while (slots[j] != 0) j = (j + 1) & mask;
                slots[j] = i + 1;
            }
        }

        int find(long o, long m) {
            int mask = slots.length - 1;
            for (int j = hash(o, m) & mask; slots[j] != 0; j = (j + 1) & mask) {
                int i = slots[j] - 1;
                if (occ[i] == o && mover[i] == m) return i;
            }
            return -1;
        }

        private static int hash(long o, long m) {
            long h = (o ^ SALT) * 0x9E3779B97F4A7C15L + m;
            h = (h ^ h >>> 32) * 0xD6E8FEB86659FD93L;
            return (int) (h ^ h >>> 29);
        }
    }

    /** A slice: blocks [first, end) of layer li, entries base .. base + count - 1. */
    private record Slice(int li, int first, int end, long base, long count) {}

    public Result verify(Path file, boolean strict) throws IOException {
        Options o = new Options();
        o.strict = strict;
        return verify(file, o);
    }

    public Result verify(Path file, Options options) throws IOException {
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
                Result res = new Result();
                res.violations.add(hv.violation);
                res.violationCounts.put(hv.violation.rule(), 1L);
                return Result.withVerdict(res, Result.Verdict.REJECTED);
            }
            return run(ct, map, options, pool);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } finally {
            pool.shutdownNow();
        }
    }

    private Result run(Container ct, FileMap map, Options o, ExecutorService pool)
            throws IOException, InterruptedException {
        Combiner combiner = new Combiner(map, o.strict, o.all, o.maxViolationsPerRule);
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
        Setup setup = new Setup(openBefore, o.composite, o.compositePart, regionKeyBudget, o.all,
                o.maxViolationsPerRule);
        int uMin = map.game().uMin, uMax = map.game().uMax;
        boolean weak = h.baseMode != Header.SEMI_STRONG;
        long[][] previous = null; // per slice of the layer due: {has, occ, mover}
        int previousLi = -1;
        long entriesDone = 0;
        int[][] factsIn = null; // per slice of the layer due: facts per entry
        int[][][] bitsIn = null; // and per flag bit
        for (int li = map.layers() - 1; li >= 0; li--) {
            Slice[] slices = plan(map, li);
            if (previousLi != li)
                previous = previousKeys(slices, decodeLayer(ct, map, li, weak, uMin, uMax));
            int below = map.below(li);
            Table under = below < 0 ? new Table() : decodeLayer(ct, map, below, weak, uMin, uMax);
            Slice[] underSlices = below < 0 ? new Slice[0] : plan(map, below);
            List<Future<Checked>> futures = new ArrayList<>();
            for (int s = 0; s < slices.length; s++) {
                Slice sl = slices[s];
                int[] facts = factsIn == null ? new int[(int) sl.count] : factsIn[s];
                int[][] bits = bitsIn == null ? new int[4][(int) sl.count] : bitsIn[s];
                faults.counts(sl.li, sl.first, facts, bits);
                long[] prev = previous[s];
                Table und = under;
                futures.add(pool.submit(() -> checkSlice(ct, map, sl, prev, und, facts, bits,
                        setup, faults)));
            }
            // what this layer sends the layer below, counted per entry there as slices end
            int[][] nextFacts = new int[underSlices.length][];
            int[][][] nextBits = new int[underSlices.length][4][];
            for (int q = 0; q < underSlices.length; q++) {
                nextFacts[q] = new int[(int) underSlices[q].count];
                for (int b = 0; b < 4; b++) nextBits[q][b] = new int[(int) underSlices[q].count];
            }
            List<SliceReport> reports = new ArrayList<>();
            for (int k = 0; k < futures.size(); k++) {
                Future<Checked> f = futures.get(k);
                futures.set(k, null); // its marks are counted below, then let go
                Checked c;
                try {
                    c = f.get();
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof RuntimeException re) throw re;
                    if (cause instanceof IOException io) throw io;
                    throw new IOException(cause);
                }
                reports.add(c.report);
                for (int j = 0; j < c.marksIndex.length; j++) {
                    long at = c.marksIndex[j];
                    int q = byIndex(underSlices, at);
                    int i = (int) (at - underSlices[q].base);
                    nextFacts[q][i]++;
                    for (int b = 0; b < 4; b++)
                        if ((c.marksFlags[j] >>> b & 1) != 0) nextBits[q][b][i]++;
                }
            }
            combiner.layer(li, faults.reports(li, reports));
            entriesDone += map.size(li);
            if (o.progress != null)
                o.progress.update(entriesDone, map.layers() - li, entriesDone,
                        Math.max(1, map.entries()), 2);
            boolean next = below >= 0 && below == li - 1;
            factsIn = next ? nextFacts : null;
            bitsIn = next ? nextBits : null;
            previous = previousKeys(underSlices, under); // the layer below is due next
            previousLi = below;
        }
        return combiner.conclude();
    }

    private record Checked(SliceReport report, long[] marksIndex, byte[] marksFlags) {}

    /** A part's setup for its slices (SliceCheck.partSetup); openBefore null: not a part. */
    private record Setup(long[] openBefore, org.gamecert.verifier.kernel.format.Manifest composite,
            int part, int regionKeyBudget, boolean all, int maxPerRule) {}

    /** A part: the open entries before each block, by the engine's own decoding of the kinds. */
    private static long[] openBefore(Container ct, FileMap map) throws IOException {
        Header h = map.header();
        boolean weak = h.baseMode != Header.SEMI_STRONG;
        long[] before = new long[map.blocks() + 1];
        for (int b = 0; b < map.blocks(); b++) {
            BlockRecord r = map.record(b);
            long n = 0;
            try {
                byte[] raw = DataFrame.decompress(ct.read(r.frameOffset, (int) r.compLen),
                        (int) r.rawLen, r.index);
                Payload p = Payload.decode(raw, (int) r.count, weak, true, map.game().uMin,
                        map.game().uMax, r.index, null);
                for (int i = 0; i < p.count; i++) if (Payload.isOpen(p.kind[i])) n++;
            } catch (FormatException e) {
                n = 0; // that block's slice reports it; nothing after it counts
            }
            before[b + 1] = before[b] + n;
        }
        return before;
    }

    /** One slice, the four steps of its kernel (on a thread of the pool). */
    /** For each slice, the key of the entry before it in its layer: {1, occ, mover}, or 0s. */
    private static long[][] previousKeys(Slice[] slices, Table layer) {
        long[][] out = new long[slices.length][];
        for (int q = 0; q < slices.length; q++) {
            long at = slices[q].base - 1;
            boolean has = at >= 0 && at < layer.n;
            out[q] = new long[] {has ? 1 : 0, has ? layer.occ[(int) at] : 0,
                has ? layer.mover[(int) at] : 0};
        }
        return out;
    }

    private static Checked checkSlice(Container ct, FileMap map, Slice s, long[] honest,
            Table under, int[] facts, int[][] bits, Setup setup, Faults faults)
            throws IOException {
        long[] previous = faults.previous(s.li, s.first, honest.clone());
        SliceCheck check = new SliceCheck(map, s.li, s.first, s.end, previous[0] != 0,
                previous[1], previous[2], setup.all, setup.maxPerRule);
        if (setup.openBefore != null)
            check.partSetup(faults.openBefore(s.li, s.first, setup.openBefore[s.first]),
                    setup.composite, setup.part, setup.regionKeyBudget);
        check.takeCounts(facts, bits);
        for (int b = s.first; b < s.end; b++) {
            BlockRecord r = map.record(b);
            check.decode(b, ct.read(r.frameOffset, (int) r.compLen));
        }
        long[][] req = check.requests();
        int n = req[0].length;
        long[] index = new long[n];
        byte[] kind = new byte[n], lo = new byte[n], hi = new byte[n];
        for (int j = 0; j < n; j++) {
            int i = under.find(req[0][j], req[1][j]);
            index[j] = i;
            if (i >= 0) {
                kind[j] = under.kind[i];
                lo[j] = under.lo[i];
                hi[j] = under.hi[i];
            }
        }
        faults.answers(s.li, s.first, req, index, kind, lo, hi);
        SliceReport report = check.check(index, kind, lo, hi);
        return new Checked(report, check.marksIndex(), check.marksFlags());
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

    /** The slice whose entries hold the index. */
    private static int byIndex(Slice[] slices, long index) {
        int a = 0, b = slices.length - 1;
        while (a < b) {
            int mid = (a + b + 1) >>> 1;
            if (slices[mid].base > index) b = mid - 1;
            else a = mid;
        }
        return a;
    }

    /** The engine's own decoding of layer li, up to its first block that fails to decode. */
    private static Table decodeLayer(Container ct, FileMap map, int li, boolean weak, int uMin,
            int uMax) throws IOException {
        Table t = new Table();
        int cap = (int) Math.min(map.size(li), Integer.MAX_VALUE - 8);
        t.occ = new long[cap];
        t.mover = new long[cap];
        t.kind = new byte[cap];
        t.lo = new byte[cap];
        t.hi = new byte[cap];
        for (int b = map.firstBlock(li); b < map.endBlock(li); b++) {
            BlockRecord r = map.record(b);
            try {
                byte[] raw = DataFrame.decompress(ct.read(r.frameOffset, (int) r.compLen),
                        (int) r.rawLen, r.index);
                Payload p = Payload.decode(raw, (int) r.count, weak, map.header().part, uMin,
                        uMax, r.index, null);
                System.arraycopy(p.occ, 0, t.occ, t.n, p.count);
                System.arraycopy(p.mover, 0, t.mover, t.n, p.count);
                System.arraycopy(p.kind, 0, t.kind, t.n, p.count);
                System.arraycopy(p.lo, 0, t.lo, t.n, p.count);
                System.arraycopy(p.hi, 0, t.hi, t.n, p.count);
                t.n += p.count;
            } catch (FormatException e) {
                break; // the slice that holds the block reports it
            }
        }
        t.index();
        return t;
    }
}

package org.gamecert.verifier.engine;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import org.gamecert.verifier.kernel.ChildLookup;
import org.gamecert.verifier.kernel.EntryChecker;
import org.gamecert.verifier.kernel.Kernel;
import org.gamecert.verifier.kernel.KeyRange;
import org.gamecert.verifier.kernel.LayerCheck;
import org.gamecert.verifier.kernel.LayerPass;
import org.gamecert.verifier.kernel.Result;
import org.gamecert.verifier.kernel.Stamp;
import org.gamecert.verifier.kernel.format.BlockRecord;
import org.gamecert.verifier.kernel.format.Container;
import org.gamecert.verifier.kernel.format.FormatException;
import org.gamecert.verifier.kernel.format.Payload;
import org.gamecert.verifier.kernel.rules.Game;

/**
 * The concurrent kernel's engine of 0.6.0, kept in the test tree only as a differential reference
 * for the sequential kernel (SliceEngineDifferentialTest). The single-machine engine: it feeds a certificate file to the kernel, which alone decides the
 * verdict (org.gamecert.verifier.kernel.Kernel). Pass 1 reads the file in order, the next blocks
 * decoded and hashed on --threads while one is handed over. Pass 2 goes over the layers
 * shallowest first; the layer below each is held in a table (Layer) that answers the kernel's
 * lookups, whole when it fits in --max-memory, else in key-range segments, each checked against
 * a re-read of the layer above (forSegments); a block's entries are checked on several threads.
 * Decoded blocks' columns are reused. Nothing here can make the kernel say VERIFIED: see SPEC
 * "Engine contract".
 */
public final class LegacyVerifier {
    /** Blocks with at least this many entries are checked on several threads (tests lower it). */
    public static int parallelMinEntries = 4096;

    private LegacyVerifier() {}

    /** Verifies the file; never throws: every failure ends in a verdict. */
    public static Result verify(Path path, Options options) {
        return verify(path, options, Faults.NONE);
    }

    /** As verify, with an engine that makes the given faults (tests: the kernel must catch them). */
    static Result verify(Path path, Options options, Faults faults) {
        Result res = new Result();
        long t0 = System.nanoTime();
        ExecutorService pool = options.threads > 1 ? Executors.newFixedThreadPool(options.threads, r -> {
            Thread t = new Thread(r, "verifier-decode");
            t.setDaemon(true);
            return t;
        }) : null;
        Result outcome;
        try (Container ct = new Container(path)) {
            if (!Verifier.isCertificate(ct))
                outcome = error(res, "not a certificate (no gamecert HEADER frame at the start of the file)");
            else outcome = new Run(path, ct, options, res, pool, faults).run();
        } catch (Kernel.Stop stop) {
            outcome = Result.withVerdict(res, Result.Verdict.REJECTED);
        } catch (Kernel.EngineFault e) {
            outcome = error(res, e.getMessage());
        } catch (NoSuchFileException e) {
            outcome = error(res, "no such file: " + e.getFile());
        } catch (IOException | java.io.UncheckedIOException e) {
            Throwable cause = e.getCause() instanceof IOException ? e.getCause() : e;
            outcome = error(res, "cannot read the input: " + cause.getMessage());
        } catch (org.gamecert.verifier.kernel.FileMap.TooLarge e) {
            outcome = error(res, e.getMessage());
        } catch (Layer.OutOfBudget e) {
            outcome = error(res, e.getMessage());
        } catch (OutOfMemoryError e) {
            outcome = error(res, "out of memory (raise the JVM heap, e.g. GAMECERT_JAVA_OPTS=-Xmx8g, or lower --threads)");
        } catch (Throwable e) {
            outcome = error(res, "internal error: " + e);
        } finally {
            if (pool != null) pool.shutdownNow();
        }
        return outcome;
    }

    private static Result error(Result res, String message) {
        res.errorMessage = message;
        return Result.withVerdict(res, Result.Verdict.ERROR);
    }

    /** A block read ahead: a framing failure, or a decode task, or (neither) the trailer's turn. */
    private static final class Item {
        BlockRecord rec;
        FormatException failure;
        Future<Payload> decoded;
    }

    private static final class Run {
        final Path path;
        final Container ct;
        final Options opt;
        final Result res;
        final ExecutorService pool;
        final Faults faults;
        final Kernel kernel;
        Game game;
        Layer.Budget budget;
        int layersDone;
        long done; // entries done in this pass (progress)

        // pass 2: the layer below (whole or a segment), and the layer being checked when it was
        // held whole as the layer below
        Layer table, upper;
        int tableLayer = -1, upperLayer = -1; // the layers they hold whole, -1: none

        EntryChecker main;
        EntryChecker[] workers; // a block's entries on several threads (--threads > 1, first violation only)

        Run(Path path, Container ct, Options opt, Result res, ExecutorService pool, Faults faults) {
            this.path = path;
            this.ct = ct;
            this.opt = opt;
            this.res = res;
            this.pool = pool;
            this.faults = faults;
            kernel = new Kernel(res, opt.all, opt.strict, opt.maxViolationsPerRule, this::checkReadSoFar);
        }

        Result run() throws IOException {
            kernel.header(ct);
            game = kernel.game();
            if (kernel.ranked()) { // mode 4: the whole file is held and checked by RankedKernel
                try (Container own = new Container(path)) {
                    org.gamecert.verifier.kernel.FileMap map = org.gamecert.verifier.kernel.FileMap.read(own);
                    return new org.gamecert.verifier.kernel.RankedKernel(map, opt.maxMemory, opt.strict, opt.all,
                            opt.maxViolationsPerRule).run(own);
                } catch (org.gamecert.verifier.kernel.FileMap.HeaderViolation e) {
                    throw new IllegalStateException("a header the kernel read", e);
                }
            }
            if (opt.regionKeys != null) kernel.keepRegionKeys(opt.regionKeys);
            if (opt.composite != null) kernel.partOf(opt.composite, opt.compositePart);
            prepareTables();
            main = kernel.newChecker(false);
            workers = new EntryChecker[Math.max(1, opt.threads)];
            for (int t = 0; t < workers.length; t++) workers[t] = kernel.newChecker(true);
            pass1();
            pass2();
            kernel.trailer(ct);
            kernel.census(ct);
            return kernel.conclude(res);
        }

        void prepareTables() {
            int width = 32 - Integer.numberOfLeadingZeros(game.uMax) + 1; // bits for a signed value in [-uMax, uMax]
            int boardBits = 64 - Long.numberOfLeadingZeros(game.boardMask);
            int moveBits = 32 - Integer.numberOfLeadingZeros(game.moveCodes - 1);
            boolean part = kernel.header().part; // kinds may carry the bit O
            table = new Layer(boardBits, width, moveBits, part);
            upper = new Layer(boardBits, width, moveBits, part);
            // Fixed overhead: blocks in flight (payload, frame, decoded columns) per decoding thread.
            long perBlock = 2L * kernel.header().maxBlockBytes + 1024 + 22L * kernel.header().maxBlockEntries;
            budget = new Layer.Budget(opt.maxMemory, perBlock * (Math.max(1, opt.threads) + 1));
            if (budget.used > budget.max)
                throw new Layer.OutOfBudget("the header's block limits need " + budget.used
                        + " bytes in flight, more than --max-memory " + budget.max);
        }

        /**
         * Called by the kernel before it reports a violation found while reading: the checks of
         * the entries read so far come earlier in the order of checks (SPEC §9).
         */
        void checkReadSoFar() {
            for (Item it : queue) if (it.decoded != null) it.decoded.cancel(false); // their memory is pass 2's now
            queue.clear();
            try {
                pass2();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        // ------------------------------------------------------------------ pass 1

        final ArrayDeque<Item> queue = new ArrayDeque<>(); // blocks read ahead in pass 1
        // Decoded blocks' columns once used, for the next ones: no garbage per block (GC pauses,
        // page faults of fresh memory). A decoding task takes one, the consumer gives it back.
        final Queue<Payload> spare = new ConcurrentLinkedQueue<>();
        Payload sliced; // the same for the blocks of the held layer (one thread)

        long entriesAdmitted; // pass 1's, against the file's size

        Item readItem() throws IOException {
            Item it = new Item();
            try {
                BlockRecord rec = ct.nextBlockRecord();
                if (rec == null) return it; // the trailer
                it.rec = rec;
                byte[] prevChain = kernel.admitBlockRecord(rec);
                // As in mode 4 (SPEC §9.2): before the block is decompressed, the entries stay in
                // proportion to the file's size, so the work a small file can cause is small.
                entriesAdmitted += rec.count;
                if (entriesAdmitted > org.gamecert.verifier.kernel.FileMap.ENTRIES_PER_FILE_BYTE * ct.size)
                    throw new Layer.OutOfBudget("block " + rec.index + " would bring the entries to " + entriesAdmitted
                            + ", more than " + org.gamecert.verifier.kernel.FileMap.ENTRIES_PER_FILE_BYTE
                            + " per byte of the " + ct.size + "-byte file (SPEC §2): refused as a decompression bomb");
                byte[] frame = ct.readDataFrame(rec);
                FutureTask<Payload> task = new FutureTask<>(() -> {
                    try {
                        return kernel.decode(rec, frame, prevChain, spare.poll());
                    } catch (FormatException e) {
                        it.failure = e; // seen by the reader after the task's get()
                        return null;
                    }
                });
                if (pool != null) pool.execute(task);
                else task.run();
                it.decoded = task;
            } catch (FormatException e) {
                it.failure = e;
            }
            return it;
        }

        /** Reads the blocks in file order and hands them to the kernel, the next ones decoding meanwhile. */
        void pass1() throws IOException {
            int depth = pool == null ? 1 : opt.threads + 1; // --threads decoding while one is used
            boolean readerDone = false;
            long handed = 0;
            while (true) {
                while (!readerDone && queue.size() < depth) {
                    Item it = readItem();
                    queue.add(it);
                    readerDone = it.rec == null || it.failure != null;
                }
                Item it = queue.poll();
                if (it.rec == null && it.failure == null) break; // the trailer
                Payload p = it.decoded == null ? null : await(it.decoded);
                if (it.failure != null) kernel.blockFailure(it.rec, it.failure);
                if (faults.skipBlock(handed++)) continue;
                if (p != null) faults.alterRead(p);
                int layer = kernel.startBlock(it.rec, p);
                budget.resize(0, 128, layer); // the record, its chain value, the list's slot
                kernel.acceptBlock(it.rec, p);
                progress(1, it.rec.frameOffset, ct.size, p.count);
                spare.add(p);
            }
            kernel.endPass1();
            layersDone = kernel.layers();
        }

        /** Progress: of `of`, `at` are done (pass 1: file offsets; pass 2: entries). */
        void progress(int pass, long at, long of, int m) {
            done += m;
            if (opt.progress != null) opt.progress.update(done, layersDone, at, of, pass);
        }

        // ------------------------------------------------------------------ pass 2

        /** The layers shallowest first, each against the layer below (see Kernel.beginPass2). */
        void pass2() throws IOException {
            kernel.endStreaming();
            done = 0;
            layersDone = 0;
            kernel.beginPass2();
            for (int li = kernel.layers() - 1; li >= 0; li--) {
                int d = kernel.discs(li), below = kernel.below(li);
                dropUpper();
                if (tableLayer == li && !kernel.reread(li)) { // held whole: no re-read
                    Layer t = upper;
                    upper = table;
                    upperLayer = li;
                    table = t;
                    tableLayer = -1;
                }
                dropTable();
                long n = kernel.size(li);
                long mine = kernel.hasFlagsFor(li) ? n * BYTES_PER_CHILD : n;
                if (!kernel.hasFlagsFor(li)) reserve(n, 1, d);
                if (below >= 0) reserve(kernel.size(below), BYTES_PER_CHILD, d + 1);
                LayerCheck lc = kernel.beginLayer(li);
                checkLayer(li, below, lc);
                lc.finish();
                budget.resize(mine, 0, d);
                layersDone++;
            }
            dropTable();
            dropUpper();
            kernel.endPass2();
        }

        void dropUpper() {
            upper.release(budget);
            upperLayer = -1;
        }

        void dropTable() {
            table.release(budget);
            tableLayer = -1;
        }

        /**
         * Layer li's entries, re-read from the file, against the layer below: held whole, or
         * loaded in key-range segments when it does not fit in memory. A child belongs to exactly
         * one segment, so each obligation is checked once; the kernel carries the maximum over
         * the moves from segment to segment (1 byte per entry).
         */
        void checkLayer(int li, int below, LayerCheck lc) throws IOException {
            int d = kernel.discs(li);
            long n = kernel.size(li);
            if (below >= 0 && kernel.size(below) > room()) dropUpper(); // the layer below whole rather than this one held
            boolean inSegments = below >= 0 && kernel.size(below) > room();
            if (inSegments) {
                reserve(n, 1, d);
                if (opt.all) budget.resize(0, n / 8 + 8, d);
                lc.inRanges();
            }
            forSegments(below, (range, lookup) -> {
                LayerPass pass = lc.pass(range, lookup);
                eachBlock(li, true, (block, p) -> {
                    faults.alter(p);
                    int m = pass.block(block, p);
                    if (m < 0) return false;
                    if (opt.all) {
                        pass.check(main, 0, m);
                        pass.endBlock(main);
                    } else {
                        inParallel(pass, m);
                    }
                    if (range.first()) progress(2, done + m, kernel.entriesRead(), m);
                    return true;
                });
                pass.end();
            });
            if (inSegments) budget.resize(n + (opt.all ? n / 8 + 8 : 0), 0, d);
            if (lc.needsRecheck()) {
                // the first violating entry once more with all its children known (gathered
                // segment by segment), so that the rule named is the first in the order of SPEC §9
                LayerCheck.Recheck recheck = lc.recheck(ct);
                forSegments(below, recheck::gather);
                recheck.conclude();
            }
        }

        /** The block's m entries, in ranges, one per worker, the first on this thread. */
        void inParallel(LayerPass pass, int m) throws IOException {
            int parts = pool == null || m < parallelMinEntries ? 1 : workers.length;
            int[][] ranges = faults.ranges(m, parts);
            EntryChecker[] used = faults.checkers(workers, ranges.length);
            FutureTask<?>[] tasks = new FutureTask<?>[ranges.length];
            for (int t = 0; t < ranges.length; t++) {
                int from = ranges[t][0], to = ranges[t][1];
                EntryChecker c = used[t];
                tasks[t] = new FutureTask<>(() -> pass.check(c, from, to), null);
                if (t > 0) pool.execute(tasks[t]);
            }
            tasks[0].run();
            for (FutureTask<?> t : tasks) await(t);
            pass.endBlock(used);
        }

        /** Entries of the layer below that fit in the memory left (with their index: under 3 bytes per entry). */
        long room() {
            long free = budget.max - budget.used - 64 + (tableLayer >= 0 ? table.bytes() : 0);
            return Math.min(Math.min(Layer.MAX_ENTRIES, opt.maxHeldEntries), free / (table.bytesPerEntry() + 3));
        }

        /**
         * Runs body on layer li (-1: none) as one segment when it fits in memory, else loads it
         * segment by segment, each as many entries as the memory left allows.
         */
        void forSegments(int li, SegmentBody body) throws IOException {
            if (li < 0) {
                body.scan(KeyRange.whole(0), ChildLookup.NONE);
                return;
            }
            if (tableLayer == li) {
                body.scan(KeyRange.whole(table.size), faults.lookup(table));
                return;
            }
            long room = room();
            dropTable();
            if (room < 1)
                throw new Layer.OutOfBudget("layer " + kernel.discs(li) + " does not fit in the memory left under --max-memory " + budget.max);
            table.reset(kernel.discs(li));
            table.ensure((int) Math.min(room, kernel.size(li)), budget, true);
            Kernel.Keep keep = new Kernel.Keep(kernel.discs(li));
            KeyRange[] seg = {null};
            int[] parts = {0};
            eachBlock(li, false, (b, p) -> {
                int m = keep.apply(p);
                for (int j = 0; j < m; j++) {
                    if (table.size == room) {
                        seg[0] = scanSegment(seg[0], false, body);
                        parts[0]++;
                    }
                    table.add(p.occ[j], p.mover[j], p.kind[j], p.lo[j], p.hi[j], p.move[j]);
                }
                return true;
            });
            if (parts[0] > 0) {
                scanSegment(seg[0], true, body);
                dropTable();
            } else { // held whole: kept for the recheck
                table.index(budget);
                tableLayer = li;
                body.scan(KeyRange.whole(table.size), faults.lookup(table));
            }
        }

        /** Indexes the table, runs body on it as the segment after previous, and empties it. */
        KeyRange scanSegment(KeyRange previous, boolean last, SegmentBody body) throws IOException {
            table.index(budget);
            boolean first = previous == null;
            long afterOcc = first ? 0 : previous.upOcc(), afterMover = first ? 0 : previous.upMover();
            long upOcc = table.size > 0 ? table.occ(table.size - 1) : afterOcc;
            long upMover = table.size > 0 ? table.mover(table.size - 1) : afterMover;
            long base = first ? 0 : previous.base() + previous.size();
            KeyRange range = new KeyRange(first, last, afterOcc, afterMover, upOcc, upMover, base, table.size);
            body.scan(faults.range(range), faults.lookup(table));
            table.reset(table.discs);
            return range;
        }

        /**
         * The kernel's bytes per entry of the layer below while a layer is checked: a byte of
         * flags, which also counts the answers (LayerCheck.childFlags).
         */
        static final int BYTES_PER_CHILD = 1;

        /**
         * Reserves bytesPerEntry bytes for each of n entries of layer d (the held layer is
         * dropped first when they would not fit).
         */
        void reserve(long n, int bytesPerEntry, int d) {
            if (n > Integer.MAX_VALUE - 16) throw new Layer.OutOfBudget("layer " + d + " has more than 2^31 entries");
            long bytes = n * bytesPerEntry;
            if (budget.used + bytes > budget.max) dropUpper(); // flags must be had; the held layer can be re-read
            budget.resize(0, bytes, d);
        }

        /**
         * Re-reads the blocks of layer li in order, the next ones decoded on the pool while one is
         * used; checked: the layer being checked (else the layer below, read into the table).
         */
        void eachBlock(int li, boolean checked, BlockBody body) throws IOException {
            int[] order = faults.blockOrder(kernel.firstBlock(li), kernel.endBlock(li), checked);
            if (upperLayer == li) { // held: no decoding
                long[] at = new long[kernel.endBlock(li) + 1];
                for (int b = kernel.firstBlock(li); b < kernel.endBlock(li); b++)
                    at[b + 1] = at[b] + kernel.block(b).count;
                for (int b : order) {
                    sliced = upper.slice((int) at[b], (int) kernel.block(b).count, sliced);
                    Stamp.of(sliced).block = b;
                    if (!body.use(b, sliced)) break;
                }
                return;
            }
            ArrayDeque<FutureTask<Payload>> ahead = new ArrayDeque<>(); // --threads blocks decoding while one is used
            int depth = pool == null ? 1 : opt.threads + 1;
            try {
                for (int i = 0, next = 0; i < order.length; i++) {
                    while (next < order.length && ahead.size() < depth) ahead.add(reloadTask(order[next++]));
                    Payload p = await(ahead.poll());
                    if (!body.use(order[i], p)) break;
                    spare.add(p);
                }
            } finally {
                for (FutureTask<Payload> t : ahead) t.cancel(false);
            }
        }

        FutureTask<Payload> reloadTask(int b) {
            FutureTask<Payload> task = new FutureTask<>(() -> kernel.reload(ct, b, spare.poll()));
            if (pool != null) pool.execute(task);
            else task.run();
            return task;
        }
    }

    interface BlockBody {
        /**
         * Uses block b; false: no more blocks are needed. p is lent: once use returns, its columns
         * are decoded over for a later block (Run.spare), so nothing may keep p or its arrays.
         */
        boolean use(int b, Payload p) throws IOException;
    }

    interface SegmentBody {
        void scan(KeyRange range, ChildLookup lookup) throws IOException;
    }

    /** The task's result; a failure of reading rethrown as such, a kernel's verdict as it was thrown. */
    static <T> T await(Future<T> f) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException) throw (IOException) e.getCause();
            if (e.getCause() instanceof Kernel.EngineFault) throw (Kernel.EngineFault) e.getCause();
            if (e.getCause() instanceof Kernel.Stop) throw (Kernel.Stop) e.getCause();
            throw new IllegalStateException("a task failed: " + e.getCause(), e.getCause());
        }
    }
}

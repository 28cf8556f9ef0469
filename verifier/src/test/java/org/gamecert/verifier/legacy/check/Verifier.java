package org.gamecert.verifier.legacy.check;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import org.gamecert.verifier.legacy.format.BlockRecord;
import org.gamecert.verifier.legacy.format.Bytes;
import org.gamecert.verifier.legacy.format.Container;
import org.gamecert.verifier.legacy.format.DataFrame;
import org.gamecert.verifier.legacy.format.FormatException;
import org.gamecert.verifier.legacy.format.Header;
import org.gamecert.verifier.legacy.format.Payload;
import org.gamecert.verifier.legacy.rules.ConnectFourRules;
import org.gamecert.verifier.legacy.rules.Game;
import org.gamecert.verifier.legacy.rules.OthelloRules;

/**
 * Checks a certificate file against SPEC v1. Pass 1 reads the file in order (deepest layer first):
 * framing, hash chain, decoding, key order. Pass 2 goes over the layers shallowest first, checks
 * every entry against the layer below it (SPEC §9) and, with the same lookups, passes the region's
 * needs and reachability down (SPEC §10). The layer below is held whole when it fits in
 * --max-memory, else it is loaded in key-range segments (forSegments); the outcome is the same
 * either way.
 */
public final class Verifier {
    private static final int P = Payload.P, AP = Payload.AP, PP = Payload.PP, A = Payload.A, C = Payload.C;
    private static final int REACHED = 0x08; // pass-2 flag beside the need bits P, A', P'
    private static final int TERMINAL_KIND = 0x100, MISSING = -1, ELSEWHERE = -2; // ELSEWHERE: in another segment

    /** Blocks with at least this many entries are checked on several threads (tests lower it). */
    public static int parallelMinEntries = 4096; // public: the one change to the copy (DifferentialTest)

    private Verifier() {}

    /** Verifies the file; never throws: every failure ends in a verdict. */
    public static Result verify(Path path, Options options) {
        Result res = new Result();
        long t0 = System.nanoTime();
        ExecutorService pool = options.threads > 1 ? Executors.newFixedThreadPool(options.threads, r -> {
            Thread t = new Thread(r, "verifier-decode");
            t.setDaemon(true);
            return t;
        }) : null;
        try (Container ct = new Container(path)) {
            if (ct.isCertificate()) new Verifier.Run(ct, options, res, pool).run();
            else res.errorMessage = "not a certificate (no gamecert HEADER frame at the start of the file)";
        } catch (Stop stop) {
            res.verdict = Result.Verdict.REJECTED;
        } catch (NoSuchFileException e) {
            error(res, "no such file: " + e.getFile());
        } catch (IOException | java.io.UncheckedIOException e) {
            error(res, "cannot read the input: " + (e.getCause() instanceof IOException ? e.getCause() : e).getMessage());
        } catch (Layer.OutOfBudget e) {
            error(res, e.getMessage());
        } catch (OutOfMemoryError e) {
            error(res, "out of memory (raise the JVM heap, e.g. GAMECERT_JAVA_OPTS=-Xmx8g, or lower --threads)");
        } catch (Throwable e) {
            error(res, "internal error: " + e);
        } finally {
            if (pool != null) pool.shutdownNow();
            res.nanos = System.nanoTime() - t0;
        }
        if (res.verdict != Result.Verdict.VERIFIED) res.commitment = null;
        return res;
    }

    private static void error(Result res, String message) {
        res.verdict = Result.Verdict.ERROR;
        res.errorMessage = message;
    }

    /** Thrown after a violation that ends the check (the first one, or a fatal one with --all). */
    static final class Stop extends RuntimeException {
        Stop() {
            super(null, null, false, false);
        }
    }

    /** A block read ahead: a framing failure, or a decode task, or (neither) the trailer's turn. */
    private static final class Item {
        BlockRecord rec;
        FormatException failure;
        Future<Payload> decoded;
    }

    private static final class Run {
        final Container ct;
        final Options opt;
        final Result res;
        final ExecutorService pool;
        Header h;
        Game game;
        int[] tb;
        final int[] tbPlace = new int[64];
        int group;
        boolean weak;
        int rootDiscs;
        long rootOcc, rootMover; // canonical
        byte[] headerContent;

        // pass 1: the file read in order (hash chain, decoding, R-LAY-*)
        Layer.Budget budget;
        long lastLayer = -1;
        byte[] lastStoredChain;
        long entries, blocks;
        int layersDone;
        final long[] layerAux = new long[65];
        boolean rootFound;
        int rootKind, rootLo, rootHi, rootStoredMove;
        long rootIndex;
        boolean streaming = true, hasLast, inBlock;
        int curDiscs = -1;
        long curCount, lastOcc, lastMover;
        // layers in file order: disc count, blocks [first, end), entries kept
        int nLayers;
        final int[] lDiscs = new int[67], lFirst = new int[67], lEnd = new int[67];
        final long[] lSize = new long[67];
        final boolean[] lReread = new boolean[67]; // entries skipped, or off the board, or a move code the table cuts
        final java.util.List<BlockRecord> blockList = new java.util.ArrayList<>(); // to re-read blocks
        byte[] lastComputedChain;
        boolean anyViolation;

        // pass 2: the layer below (whole or a segment), the flags of the layer below being marked
        Layer table, upper; // upper: the layer being checked, when it was held whole as the layer below
        int tableLayer = -1, upperLayer = -1; // the layers they hold whole, -1: none
        byte[] childFlags;

        final Checker main = new Checker(false);
        Checker[] workers; // parallel checking of a block's entries (--threads > 1, first violation only)

        Run(Container ct, Options opt, Result res, ExecutorService pool) {
            this.ct = ct;
            this.opt = opt;
            this.res = res;
            this.pool = pool;
        }

        void run() throws IOException {
            readHeader();
            pass1();
            streaming = false;
            pass2();
            trailerAndRoot();
            census();
            if (!anyViolation) res.verdict = Result.Verdict.VERIFIED;
            else throw new Stop();
        }

        // ------------------------------------------------------------------ reporting

        void violation(String rule, long block, long layer, long entry, boolean pos, long mover, long opp, String msg, boolean fatal) {
            if (streaming && (fatal || !opt.all)) checkReadSoFar();
            anyViolation = true;
            long n = res.violationCounts.merge(rule, 1L, Long::sum);
            Violation v = new Violation(rule, block, layer, entry, pos, mover, opp, msg);
            if (n <= opt.maxViolationsPerRule || res.violations.isEmpty()) {
                res.violations.add(v);
            } else if (block >= 0) { // over the cap: keep the first in the file (pass 2 finds shallow layers first)
                int last = -1;
                for (int i = 0; i < res.violations.size(); i++) {
                    Violation x = res.violations.get(i);
                    if (x.rule().equals(rule) && x.block() >= 0 && (last < 0 || before(res.violations.get(last), x))) last = i;
                }
                if (last >= 0 && before(v, res.violations.get(last))) res.violations.set(last, v);
            }
            if (fatal || !opt.all) throw new Stop();
        }

        /** x's entry comes before y's in the file (stable for violations of one entry). */
        static boolean before(Violation x, Violation y) {
            return x.block() != y.block() ? x.block() < y.block() : x.entry() < y.entry();
        }

        void fatal(String rule, String msg) {
            violation(rule, -1, -1, -1, false, 0, 0, msg, true);
        }

        /**
         * Before a violation found while reading is reported, the checks of the entries read so
         * far: they come earlier in the order of checks (SPEC §9).
         */
        void checkReadSoFar() {
            streaming = false;
            for (Item it : queue) if (it.decoded != null) it.decoded.cancel(false); // their memory is pass 2's now
            queue.clear();
            int li = nLayers - 1;
            if (li < 0) return;
            lEnd[li] = (int) blocks + (inBlock ? 1 : 0);
            lSize[li] = curCount;
            try {
                pass2();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        // ------------------------------------------------------------------ header

        void readHeader() throws IOException {
            try {
                headerContent = ct.readHeaderContent();
                h = Header.parse(headerContent);
            } catch (FormatException e) {
                fatal(e.rule(), e.getMessage());
            }
            res.header = h;
            game = h.family == Header.OTHELLO ? new OthelloRules(h.width) : new ConnectFourRules(h.width, h.height);
            tb = h.tb;
            for (int t = 0; t < tb.length; t++) tbPlace[tb[t]] = t;
            group = h.symmetry == 0 ? 1 : game.symmetryCount;
            weak = h.mode == Header.WEAK;
            long rm = h.rootMover, ro = h.rootOpponent;
            if ((rm & ro) != 0) violation(Rule.HDR_2, -1, -1, -1, false, rm, ro, "root_mover and root_opponent overlap", true);
            if (!game.isLegalPosition(rm, ro)) violation(Rule.HDR_2, -1, -1, -1, true, rm, ro, "the root is not a legal position (R-POS-1)", true);
            if (game.isTerminal(rm, ro)) violation(Rule.HDR_2, -1, -1, -1, true, rm, ro, "the root is terminal", true);
            if (game.legalMoveCodes(rm, ro) == 0) violation(Rule.HDR_2, -1, -1, -1, true, rm, ro, "the root's mover must pass", true);
            rootDiscs = Long.bitCount(rm | ro);
            rootOcc = main.canonical(rm, ro);
            rootMover = main.cMover;
            lastStoredChain = sha(new byte[] {0}, headerContent);
            int width = 32 - Integer.numberOfLeadingZeros(game.uMax) + 1; // bits for a signed value in [-uMax, uMax]
            int boardBits = 64 - Long.numberOfLeadingZeros(game.boardMask);
            int moveBits = 32 - Integer.numberOfLeadingZeros(game.moveCodes - 1);
            table = new Layer(boardBits, width, moveBits);
            upper = new Layer(boardBits, width, moveBits);
            res.bytesPerEntryHeld = table.bytesPerEntry();
            // Fixed overhead: blocks in flight (payload, frame, decoded columns) per decoding thread.
            long perBlock = 2L * h.maxBlockBytes + 1024 + 22L * h.maxBlockEntries;
            budget = new Layer.Budget(opt.maxMemory, perBlock * (Math.max(1, opt.threads) + 1));
            if (budget.used > budget.max)
                throw new Layer.OutOfBudget("the header's block limits need " + budget.used + " bytes in flight, more than --max-memory " + budget.max);
        }

        // ------------------------------------------------------------------ pass 1

        Item readItem() throws IOException {
            Item it = new Item();
            try {
                BlockRecord rec = ct.nextBlockRecord();
                if (rec == null) return it; // the trailer
                it.rec = rec;
                if (lastLayer >= 0 && rec.layer > lastLayer)
                    throw new FormatException(Rule.LAY_1, "block " + rec.index + " has layer " + rec.layer + " after a block of layer " + lastLayer);
                lastLayer = rec.layer;
                if (rec.count < 1 || rec.count > h.maxBlockEntries)
                    throw new FormatException(Rule.CON_2, "block " + rec.index + ": count " + rec.count + " outside 1.." + h.maxBlockEntries);
                if (rec.rawLen > h.maxBlockBytes)
                    throw new FormatException(Rule.CON_2, "block " + rec.index + ": raw_len " + rec.rawLen + " > max_block_bytes " + h.maxBlockBytes);
                if (rec.compLen > rec.rawLen + (rec.rawLen >> 8) + 128)
                    throw new FormatException(Rule.CON_2, "block " + rec.index + ": comp_len " + rec.compLen + " > raw_len + raw_len/256 + 128");
                byte[] frame = ct.readDataFrame(rec);
                byte[] prevChain = lastStoredChain;
                lastStoredChain = rec.chain;
                FutureTask<Payload> task = new FutureTask<>(() -> {
                    try {
                        return decodeBlock(rec, frame, prevChain);
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

        /** R-CON-3 (the frame), R-HASH-1, then the payload's encoding rules. */
        Payload decodeBlock(BlockRecord rec, byte[] frame, byte[] prevChain) throws FormatException {
            byte[] raw = DataFrame.decompress(frame, Math.toIntExact(rec.rawLen), rec.index); // R-CON-2 held: < 2^25
            byte[] chain = chain(prevChain, rec, raw);
            if (!Arrays.equals(chain, rec.chain))
                throw new FormatException(Rule.HASH_1, "block " + rec.index + ": stored chain value " + hex(rec.chain) + " != computed " + hex(chain));
            return Payload.decode(raw, Math.toIntExact(rec.count), weak, game.uMin, game.uMax, rec.index, spare.poll());
        }

        /** Reads the blocks in file order: framing, hash chain, decoding, R-LAY-*; the root's entry. */
        final ArrayDeque<Item> queue = new ArrayDeque<>(); // blocks read ahead in pass 1
        // Decoded blocks' columns once used, for the next ones: no garbage per block (GC pauses,
        // page faults of fresh memory). A decoding task takes one, the consumer gives it back.
        final java.util.Queue<Payload> spare = new java.util.concurrent.ConcurrentLinkedQueue<>();
        Payload sliced; // the same for the blocks of the held layer (one thread)

        void pass1() throws IOException {
            int depth = pool == null ? 1 : opt.threads + 1; // --threads decoding while one is used
            boolean readerDone = false;
            while (true) {
                while (!readerDone && queue.size() < depth) {
                    Item it = readItem();
                    queue.add(it);
                    readerDone = it.rec == null || it.failure != null;
                }
                Item it = queue.poll();
                if (it.rec == null && it.failure == null) break; // the trailer
                Payload p = it.decoded == null ? null : await(it.decoded);
                if (it.failure != null) blockFailure(it.rec, it.failure);
                consumeBlock(it.rec, p);
                spare.add(p);
            }
            if (nLayers > 0) endLayer();
        }

        void blockFailure(BlockRecord rec, FormatException e) {
            if (rec == null) fatal(e.rule(), e.getMessage());
            long entry = -1;
            if (e instanceof Payload.EntryFormatException && ((Payload.EntryFormatException) e).entry >= 0)
                entry = ((Payload.EntryFormatException) e).entry + (rec.layer == curDiscs ? curCount : 0);
            violation(e.rule(), rec.index, rec.layer, entry, false, 0, 0,
                    (entry >= 0 || e.getMessage().startsWith("block ") ? "" : "block " + rec.index + ": ") + e.getMessage(), true);
        }

        void consumeBlock(BlockRecord rec, Payload p) {
            // No entry has more discs than 64, so a block of a higher layer fails R-LAY-2 at its
            // first entry. It is the file's first block (R-LAY-1 held, and an earlier block of a
            // layer above 64 ended the check), so that entry is entry 0 of the layer. This is
            // decided before the layer is kept: the layers kept are 0..64, d + 1 cannot overflow.
            if (rec.layer > 64)
                violation(Rule.LAY_2, rec.index, rec.layer, 0, true, p.mover[0], p.occ[0] & ~p.mover[0],
                        "entry has " + Long.bitCount(p.occ[0]) + " discs in a block of layer " + rec.layer, true);
            int layer = (int) rec.layer;
            if (layer != curDiscs) {
                if (nLayers > 0) endLayer();
                lDiscs[nLayers] = curDiscs = layer;
                lFirst[nLayers++] = (int) blocks;
                curCount = 0;
                hasLast = false;
            }
            budget.resize(0, 128, layer); // the record, its chain value, the list's slot
            blockList.add(rec);
            lastComputedChain = rec.chain; // equal to the computed value: R-HASH-1 held
            inBlock = true;
            for (int i = 0; i < p.count; i++) checkEntry(rec, p, i);
            inBlock = false;
            entries += p.count;
            blocks++;
            res.entries = entries;
            res.blocks = blocks;
            progress(1, rec.frameOffset, ct.size, p.count);
        }

        void endLayer() {
            lEnd[nLayers - 1] = (int) blocks;
            lSize[nLayers - 1] = curCount;
            layersDone++;
        }

        long done; // entries done in this pass

        /** Progress: of `of`, `at` are done (pass 1: file offsets; pass 2: entries). */
        void progress(int pass, long at, long of, int m) {
            done += m;
            if (opt.progress != null) opt.progress.update(done, layersDone, at, of, pass);
        }

        /** R-LAY-2 and R-LAY-3 of entry i; its other rules are checked in pass 2. */
        void checkEntry(BlockRecord rec, Payload p, int i) {
            long occ = p.occ[i], mover = p.mover[i], opp = occ & ~mover;
            int k = p.kind[i] & 0xFF, d = (int) rec.layer; // <= 64: consumeBlock
            lReread[nLayers - 1] |= Long.bitCount(occ) != d || (hasLast && !after(occ, mover, lastOcc, lastMover))
                    || (occ & ~game.boardMask) != 0 || (Payload.hasMove(k) && (p.move[i] & 0xFF) >= game.moveCodes);
            if (Long.bitCount(occ) != d) {
                violation(Rule.LAY_2, rec.index, d, curCount, true, mover, opp,
                        "entry has " + Long.bitCount(occ) + " discs in a block of layer " + d, false);
                return;
            }
            if (hasLast && !after(occ, mover, lastOcc, lastMover)) {
                violation(Rule.LAY_3, rec.index, d, curCount, true, mover, opp,
                        occ == lastOcc && mover == lastMover ? "the key repeats the previous entry's" : "the key is smaller than the previous entry's", false);
                return;
            }
            hasLast = true;
            lastOcc = occ;
            lastMover = mover;
            long index = curCount++;
            if (!Payload.isExact(k)) layerAux[d]++;
            if (d == rootDiscs && occ == rootOcc && mover == rootMover) {
                rootFound = true;
                rootKind = k;
                rootLo = p.lo[i];
                rootHi = p.hi[i];
                rootIndex = index;
                rootStoredMove = Payload.hasMove(k) ? p.move[i] & 0xFF : -1;
            }
        }

        /** Runs task on ranges of [0, count), one per worker, the first on this thread. */
        void inParallel(int count, RangeTask task) throws IOException {
            int parts = pool == null || count < parallelMinEntries ? 1 : Math.max(1, opt.threads);
            if (workers == null) {
                workers = new Checker[Math.max(1, opt.threads)];
                for (int t = 0; t < workers.length; t++) workers[t] = new Checker(true);
            }
            FutureTask<?>[] tasks = new FutureTask<?>[parts];
            int chunk = (count + parts - 1) / parts;
            for (int t = 0; t < workers.length; t++) workers[t].first = null;
            for (int t = 0; t < parts; t++) {
                int from = t * chunk, to = Math.min(count, from + chunk);
                Checker c = workers[t];
                tasks[t] = new FutureTask<>(() -> {
                    try {
                        task.run(from, to, c);
                    } catch (Stop stop) {
                        // c.first holds the violation
                    }
                    return null;
                });
                if (t > 0) pool.execute(tasks[t]);
            }
            tasks[0].run();
            for (FutureTask<?> t : tasks) await(t);
        }

        /** The earliest violation the workers found, or best if that is earlier. */
        Violation earliest(Violation best) {
            for (Checker c : workers)
                if (c.first != null && (best == null || c.first.entry() < best.entry())) best = c.first;
            return best;
        }

        // ------------------------------------------------------------------ pass 2

        final long[] region = new long[67]; // layers above 64 are fatal in pass 1
        // Connect Four: terminal positions of R in the layer below (SPEC §10.3 counts them), any thread
        final java.util.Set<Key> terminals = java.util.concurrent.ConcurrentHashMap.newKeySet();
        // Connect Four: terminal positions that bound evidence reaches in the layer below, and per disc
        // count those of them outside R (SPEC §10.3 term_d: informative, not in the trailer)
        final java.util.Set<Key> proofTerminals = java.util.concurrent.ConcurrentHashMap.newKeySet();
        final long[] proofTerminalCount = new long[67];
        long unreached, fuIndex = -1;
        int fuLayer = -1;
        java.util.BitSet tbReported; // --all, layer below in segments: entries whose R-TB-1 was reported

        /**
         * Shallowest layer first, each layer's entries re-read and checked against the layer below
         * (SPEC §9), and their needs (R, SPEC §10.1) and reachability (§10.2) passed to their
         * children there, 1 byte of flags per entry: a layer's flags are final once the layer above
         * it has been checked. Layers come deepest first in the file, so a violation found in a
         * layer is earlier in the order of checks than any found before it: the last one found is
         * reported (after the checks of all layers, with --all every one is reported as found).
         */
        void pass2() throws IOException {
            done = 0;
            layersDone = 0;
            byte[] flags = null;
            Violation found = null;
            for (int li = nLayers - 1; li >= 0; li--) {
                int d = lDiscs[li], below = li > 0 && lDiscs[li - 1] == d + 1 ? li - 1 : -1;
                dropUpper();
                if (tableLayer == li && !lReread[li]) { // held whole: no re-read
                    Layer t = upper;
                    upper = table;
                    upperLayer = li;
                    table = t;
                    tableLayer = -1;
                }
                dropTable();
                byte[] fa = flags != null ? flags : newBytes(lSize[li], d);
                if (rootFound && d == rootDiscs && rootIndex < fa.length) fa[(int) rootIndex] |= REACHED | (weak ? 0 : P);
                childFlags = below >= 0 ? newBytes(lSize[below], d + 1) : null;
                terminals.clear();
                proofTerminals.clear();
                Violation v = checkLayer(li, below, fa);
                if (v != null) found = v;
                for (int i = 0; i < fa.length; i++) {
                    if ((fa[i] & (P | AP | PP)) != 0) region[d]++;
                    if ((fa[i] & REACHED) == 0 && unreached++ == 0) {
                        fuLayer = li;
                        fuIndex = i;
                    }
                }
                if (d + 1 < region.length) region[d + 1] += terminals.size();
                proofTerminals.removeAll(terminals);
                if (d + 1 < proofTerminalCount.length) proofTerminalCount[d + 1] += proofTerminals.size();
                budget.resize(fa.length, 0, d);
                flags = childFlags;
                layersDone++;
            }
            dropTable();
            dropUpper();
            res.violations.sort((x, y) -> before(x, y) ? -1 : before(y, x) ? 1 : 0); // --all: in the order of checks
            if (found != null) violation(found.rule(), found.block(), found.layer(), found.entry(), true, found.mover(), found.opponent(), found.message(), false);
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
         * The position rules and obligations of layer li's entries, re-read from the file, against
         * the layer below: held whole, or loaded in key-range segments when it does not fit in
         * memory. A child belongs to exactly one segment, so each obligation is checked once; the
         * maximum over the moves is carried from segment to segment (1 byte per entry). Returns
         * the first violation, the one a check with the layer below held whole finds.
         */
        Violation checkLayer(int li, int below, byte[] fa) throws IOException {
            int d = lDiscs[li];
            long n = lSize[li];
            Violation[] best = {null};
            if (below >= 0 && lSize[below] > room()) dropUpper(); // the layer below whole rather than this one held
            byte[] acc = below >= 0 && lSize[below] > room() ? newBytes(n, d) : null; // in segments
            if (acc != null) Arrays.fill(acc, Byte.MIN_VALUE);
            if (acc != null && opt.all) budget.resize(0, n / 8 + 8, d);
            tbReported = acc != null && opt.all ? new java.util.BitSet((int) n) : null;
            forSegments(below, seg -> {
                Keep keep = new Keep(d);
                long[] index = {0};
                eachBlock(li, (block, p) -> {
                    int m = keep.apply(p);
                    long base = index[0], limit = best[0] == null ? n : best[0].entry(); // n: read so far when flushed
                    index[0] += m;
                    if (base >= limit) return false;
                    if (opt.all) {
                        for (int i = 0; i < m; i++) main.checkPosition(block, d, p, i, base + i, seg, acc, fa);
                    } else {
                        inParallel(m, (from, to, c) -> {
                            for (int i = from; i < to && base + i < limit; i++) c.checkPosition(block, d, p, i, base + i, seg, acc, fa);
                        });
                        best[0] = earliest(best[0]);
                    }
                    if (seg.first()) progress(2, done + m, entries, m);
                    return true;
                });
            });
            if (acc != null) budget.resize(n + (tbReported != null ? n / 8 + 8 : 0), 0, d);
            tbReported = null;
            Violation v = best[0];
            // (a position rule needs no recheck: it is decided without the children, before the rest)
            if (v != null && !java.util.List.of(Rule.POS_1, Rule.POS_2, Rule.POS_3, Rule.MOVE_1).contains(v.rule())) v = recheck(li, below, v);
            return v;
        }

        /**
         * The first violating entry's checks once more with all its children known (gathered
         * segment by segment), so that the rule named is the first in the order of SPEC §9, as
         * when the layer below is held whole. Its position rules held: they come first.
         */
        Violation recheck(int li, int below, Violation found) throws IOException {
            int b = lFirst[li], d = lDiscs[li];
            long base = 0; // no entry of this layer was skipped: a skip ends the run first
            while (base + blockList.get(b).count <= found.entry()) base += blockList.get(b++).count;
            Payload p = reload(b);
            int i = (int) (found.entry() - base), k = p.kind[i] & 0xFF, mv = p.move[i] & 0xFF;
            long mover = p.mover[i], opp = p.occ[i] & ~mover, block = b;
            Checker c = workers[0];
            Checker.EntryCheck e = c.entryCheck;
            forSegments(below, seg -> e.set(block, d, found.entry(), mover, opp, k, p.lo[i], p.hi[i], mv, game.legalMoveCodes(mover, opp), seg, 0, 0)
                    .children(!seg.first()));
            e.seg = Segment.whole(null);
            e.best = Integer.MIN_VALUE;
            c.first = null;
            try {
                e.checks();
            } catch (Stop stop) {
                return c.first;
            }
            return found; // not expected: the checks found nothing this time
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
            if (li < 0 || tableLayer == li) {
                body.scan(Segment.whole(li < 0 ? null : table));
                return;
            }
            long room = room();
            dropTable();
            if (room < 1) throw new Layer.OutOfBudget("layer " + lDiscs[li] + " does not fit in the memory left under --max-memory " + budget.max);
            table.reset(lDiscs[li]);
            table.ensure((int) Math.min(room, lSize[li]), budget, true);
            Keep keep = new Keep(lDiscs[li]);
            Segment[] seg = {null};
            int[] parts = {0};
            eachBlock(li, (b, p) -> {
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
            res.peakEntriesHeld = Math.max(res.peakEntriesHeld, (long) table.size + (upperLayer >= 0 ? upper.size : 0));
            if (parts[0] > 0) {
                scanSegment(seg[0], true, body);
                dropTable();
                res.splitLayers++;
                res.maxSegments = Math.max(res.maxSegments, parts[0] + 1);
            } else { // held whole: kept for the recheck
                table.index(budget);
                tableLayer = li;
                body.scan(Segment.whole(table));
            }
            res.peakTableBytes = budget.peak - budget.fixed;
        }

        /** Indexes the table, runs body on it as the segment after previous, and empties it. */
        Segment scanSegment(Segment previous, boolean last, SegmentBody body) throws IOException {
            table.index(budget);
            boolean first = previous == null;
            long afterOcc = first ? 0 : previous.upOcc(), afterMover = first ? 0 : previous.upMover();
            long upOcc = table.size > 0 ? table.occ(table.size - 1) : afterOcc, upMover = table.size > 0 ? table.mover(table.size - 1) : afterMover;
            Segment seg = new Segment(table, first, last, afterOcc, afterMover, upOcc, upMover, first ? 0 : previous.base() + previous.size(), table.size);
            body.scan(seg);
            table.reset(table.discs);
            return seg;
        }

        byte[] newBytes(long n, int d) {
            if (n > Integer.MAX_VALUE - 16) throw new Layer.OutOfBudget("layer " + d + " has more than 2^31 entries");
            if (budget.used + n > budget.max) dropUpper(); // flags must be had; the held layer can be re-read
            budget.resize(0, n, d);
            return new byte[(int) n];
        }

        /** Re-reads the blocks of layer li in order, the next ones decoded on the pool while one is used. */
        void eachBlock(int li, BlockBody body) throws IOException {
            if (upperLayer == li) { // held: no decoding
                for (int b = lFirst[li], at = 0; b < lEnd[li] && body.use(b, sliced = upper.slice(at, (int) blockList.get(b).count, sliced)); b++) at += (int) blockList.get(b).count;
                return;
            }
            ArrayDeque<FutureTask<Payload>> ahead = new ArrayDeque<>(); // --threads blocks decoding while one is used
            int depth = pool == null ? 1 : opt.threads + 1;
            try {
                for (int b = lFirst[li], next = b; b < lEnd[li]; b++) {
                    while (next < lEnd[li] && ahead.size() < depth) ahead.add(reloadTask(next++));
                    Payload p = await(ahead.poll());
                    if (!body.use(b, p)) break;
                    spare.add(p);
                }
            } finally {
                for (FutureTask<Payload> t : ahead) t.cancel(false);
            }
        }

        FutureTask<Payload> reloadTask(int b) {
            FutureTask<Payload> task = new FutureTask<>(() -> reload(b));
            if (pool != null) pool.execute(task);
            else task.run();
            return task;
        }

        /** Re-reads block i (checked again against its chain value: the file must not change). */
        Payload reload(int i) throws IOException {
            BlockRecord r = blockList.get(i);
            try {
                return decodeBlock(r, ct.read(r.frameOffset, Math.toIntExact(r.compLen)), i == 0 ? sha(new byte[] {0}, headerContent) : blockList.get(i - 1).chain);
            } catch (FormatException e) {
                throw new IOException("the file changed while it was being read (block " + i + ")");
            }
        }

        /** Scratch and checks for one thread: position rules and obligations of entries. */
        final class Checker {
            final boolean worker;
            // scratch for one entry's moves, in TB order
            final int[] mCode = new int[64], mType = new int[64], mKind = new int[64], mLo = new int[64], mHi = new int[64];
            final long[] out = new long[3];
            long cOcc, cMover;
            Violation first; // worker: the first violation of its range

            Checker(boolean worker) {
                this.worker = worker;
            }

            void report(String rule, long block, int d, long index, long mover, long opp, String msg) {
                if (worker) { // the first of its range; the caller picks the earliest
                    first = new Violation(rule, block, d, index, true, mover, opp, msg);
                    throw new Stop();
                }
                violation(rule, block, d, index, true, mover, opp, msg, false);
            }

            final long[] occImages = new long[9]; // Game.canonical's scratch and mover
            final EntryCheck entryCheck = new EntryCheck();

            /** Sets (cOcc, cMover) to the canonical form of the position; returns cOcc. */
            long canonical(long mover, long opp) {
                cOcc = game.canonical(mover, opp, group, occImages);
                cMover = occImages[8];
                return cOcc;
            }

            /**
             * R-POS-1, R-POS-3, R-POS-2, R-MOVE-1 and the obligations of entry i against segment
             * seg of the layer below (a position rule that fails is reported in the first segment);
             * acc (segments only): the maximum over the moves of earlier segments, per entry; fa:
             * the flags of the entry's layer, passed on to its children in the layer below.
             */
            void checkPosition(long block, int d, Payload p, int i, long index, Segment seg, byte[] acc, byte[] fa) {
                boolean quiet = !seg.first();
                long occ = p.occ[i], mover = p.mover[i], opp = occ & ~mover;
                int k = p.kind[i] & 0xFF;
                if (!game.isLegalPosition(mover, opp)) {
                    if (!quiet) report(Rule.POS_1, block, d, index, mover, opp, "not a legal position");
                    return;
                }
                // A reached entry was found by its parent's lookup of a canonical form: it is one.
                if ((fa[(int) index] & REACHED) == 0 && (canonical(mover, opp) != occ || cMover != mover)) {
                    if (!quiet) report(Rule.POS_3, block, d, index, mover, opp, "the key is not the canonical form of its position");
                    return;
                }
                long legal = game.legalMoveCodes(mover, opp);
                if (!game.storable(mover, opp, legal)) {
                    if (!quiet) report(Rule.POS_2, block, d, index, mover, opp,
                            game.isTerminal(mover, opp) ? "the position is terminal" : "the mover must pass");
                    return;
                }
                int mv = p.move[i] & 0xFF;
                if (Payload.hasMove(k) && (mv >= game.moveCodes || ((legal >>> mv) & 1) == 0)) {
                    if (!quiet) report(Rule.MOVE_1, block, d, index, mover, opp,
                            "stored move " + (mv >= game.moveCodes ? "code " + mv : game.moveName(mv)) + " is not legal");
                    return;
                }
                int in = acc == null ? Integer.MIN_VALUE : acc[(int) index];
                EntryCheck e = entryCheck.set(block, d, index, mover, opp, k, p.lo[i], p.hi[i], mv, legal, seg, in, fa[(int) index]);
                e.run();
                if (acc != null) acc[(int) index] = (byte) Math.max(Byte.MIN_VALUE, e.best);
            }

            /** The obligations of one entry (SPEC §9), in the order P, A', P', C, A. */
            final class EntryCheck {
                long block;
                int d, lo, hi, mv, k, n, star, best, flags;
                long index, mover, opp, legal;
                Segment seg;

                /** Reused for every entry: no allocation per entry. */
                EntryCheck set(long block, int d, long index, long mover, long opp, int k, int lo, int hi, int mv, long legal, Segment seg, int best, int flags) {
                    this.flags = flags & 0xFF;
                    this.block = block;
                    this.d = d;
                    this.index = index;
                    this.mover = mover;
                    this.opp = opp;
                    this.k = k;
                    this.lo = lo;
                    this.hi = hi;
                    this.mv = mv;
                    this.legal = legal;
                    this.seg = seg;
                    this.best = best;
                    n = 0;
                    star = -1;
                    return this;
                }

                void fail(String rule, String msg) {
                    report(rule, block, d, index, mover, opp, msg);
                }

                /**
                 * The move's value is read for a bound (SPEC §10.3 term_d): every move of A, the cut
                 * move of C, and the refuted moves of an A' entry that is neither P nor P'.
                 */
                boolean consultedForBound(int code) {
                    return (k & A) != 0 || ((k & C) != 0 && code == mv) || ((k & AP) != 0 && (k & (P | PP)) == 0 && code != mv);
                }

                /** Move j's child is looked up in this segment (terminal children: the first). */
                boolean here(int j) {
                    return mKind[j] != ELSEWHERE;
                }

                void run() {
                    children(false);
                    checks();
                }

                /**
                 * What is known of each move's child in TB order: terminal value, the entry found
                 * in the segment, MISSING, or ELSEWHERE (another segment's). merge: keep what an
                 * earlier segment found (the same moves in the same order). The entry's flags go
                 * to the children it consults (SPEC §10.2) with the needs of §10.1.
                 */
                void children(boolean merge) {
                    long order = 0; // the moves' places in TB, lowest first; a lone C: only its cut move
                    for (long bits = k == C ? 1L << mv : legal; bits != 0; bits &= bits - 1) order |= 1L << tbPlace[Long.numberOfTrailingZeros(bits)];
                    Layer below = seg.table();
                    for (; order != 0; order &= order - 1) {
                        int code = tb[Long.numberOfTrailingZeros(order)];
                        int type = game.child(mover, opp, code, out);
                        mCode[n] = code;
                        mType[n] = type;
                        if (code == mv) star = n;
                        int need = (flags & P) != 0 ? (code == mv ? P : AP) : 0;
                        if ((flags & AP) != 0 && code == mv) need |= PP;
                        if ((flags & PP) != 0) need |= AP;
                        int kind = ELSEWHERE, clo = game.uMin, chi = game.uMax;
                        if (type == Game.TERMINAL) {
                            if (seg.first()) kind = TERMINAL_KIND;
                            clo = chi = (int) out[2];
                            if (seg.first() && h.family == Header.CONNECT_FOUR) {
                                if (need != 0) {
                                    canonical(out[0], out[1]);
                                    terminals.add(new Key(cOcc, cMover));
                                }
                                if (consultedForBound(code)) {
                                    canonical(out[0], out[1]);
                                    proofTerminals.add(new Key(cOcc, cMover));
                                }
                            }
                        } else {
                            canonical(out[0], out[1]);
                            if (seg.contains(cOcc, cMover)) {
                                int idx = below == null ? -1 : below.find(cOcc, cMover);
                                kind = idx < 0 ? MISSING : below.kind(idx);
                                if (idx >= 0) {
                                    clo = type == Game.CHILD ? -below.hi(idx) : below.lo(idx);
                                    chi = type == Game.CHILD ? -below.lo(idx) : below.hi(idx);
                                    int bits = (type == Game.PASS_CHILD ? passNeeds(need) : need) | (flags & REACHED);
                                    if (bits != 0) BYTES.getAndBitwiseOr(childFlags, (int) (seg.base() + idx), (byte) bits);
                                }
                            }
                        }
                        if (!merge || kind != ELSEWHERE) {
                            mKind[n] = kind;
                            mLo[n] = clo;
                            mHi[n] = chi;
                        }
                        n++;
                    }
                }

                void checks() {
                    if ((k & P) != 0) {
                        for (int j = 0; j < n; j++) serve(j, j == star ? P : AP, "P");
                        maxIs("P", Rule.P_1);
                        tieBreak("P");
                    }
                    if ((k & AP) != 0) {
                        serve(star, PP, "A'");
                        if (here(star) && (mLo[star] != lo || mHi[star] != lo))
                            fail(Rule.AP_1, "A' value " + lo + " but its move " + game.moveName(mv) + " is worth " + range(star));
                        for (int j = 0; j < star; j++)
                            if (here(j) && mHi[j] >= lo)
                                fail(Rule.TB_1, "A' move " + game.moveName(mv) + ": the earlier move " + game.moveName(mCode[j]) + " may be worth " + mHi[j] + " >= " + lo);
                        for (int j = star + 1; j < n; j++)
                            if (here(j) && mHi[j] > lo)
                                fail(Rule.AP_2, "A' value " + lo + ": the later move " + game.moveName(mCode[j]) + " is not refuted, it may be worth " + mHi[j]);
                    }
                    if ((k & PP) != 0) {
                        for (int j = 0; j < n; j++) serve(j, AP, "P'");
                        maxIs("P'", Rule.PP_1);
                        tieBreak("P'");
                    }
                    if ((k & C) != 0 && here(star) && mLo[star] < lo)
                        fail(Rule.CUT_1, "lower bound " + lo + " but the cut move " + game.moveName(mv) + " is only known to be worth " + range(star));
                    if ((k & A) != 0) {
                        for (int j = 0; j < n; j++)
                            if (here(j) && mHi[j] > hi)
                                fail(Rule.ALL_1, "upper bound " + hi + " but move " + game.moveName(mCode[j]) + " may be worth " + mHi[j]);
                    }
                }

                String range(int j) {
                    return !here(j) ? "?" : mLo[j] == mHi[j] ? Integer.toString(mLo[j]) : "[" + mLo[j] + ", " + mHi[j] + "]";
                }

                /** The exact value is the maximum over the moves, known once the last segment is seen. */
                void maxIs(String claim, String rule) {
                    for (int j = 0; j < n; j++)
                        if (here(j)) best = Math.max(best, mLo[j]);
                    if (seg.last() && best != lo) {
                        StringBuilder sb = new StringBuilder(claim + " value " + lo + " is not the maximum over the moves, " + best + "; found move values");
                        for (int j = 0; j < n; j++) sb.append(' ').append(game.moveName(mCode[j])).append('=').append(range(j));
                        fail(rule, sb.toString());
                    }
                }

                /** The first failure only, once per entry also when its moves are split over segments. */
                void tieBreak(String claim) {
                    if (tbReported != null && tbReported.get((int) index)) return;
                    String why = null;
                    if (here(star) && (mLo[star] != lo || mHi[star] != lo))
                        why = claim + " move " + game.moveName(mv) + " is worth " + range(star) + ", not the value " + lo;
                    for (int j = 0; why == null && j < star; j++)
                        if (here(j) && mLo[j] == lo && mHi[j] == lo)
                            why = claim + " move " + game.moveName(mv) + " is not canonical: the earlier move " + game.moveName(mCode[j]) + " is also worth " + lo;
                    if (why == null) return;
                    if (tbReported != null) tbReported.set((int) index);
                    fail(Rule.TB_1, why);
                }

                void serve(int j, int need, String claim) {
                    int ck = mKind[j];
                    if (ck == TERMINAL_KIND || ck == ELSEWHERE) return;
                    int eff = mType[j] == Game.PASS_CHILD ? passNeed(need) : need;
                    boolean ok = ck != MISSING && (eff == P ? (ck & P) != 0 : eff == AP ? (ck & (P | AP)) != 0 : (ck & (P | PP)) != 0);
                    if (!ok)
                        fail(Rule.SERVE_1, claim + " entry: the child after " + game.moveName(mCode[j]) + (mType[j] == Game.PASS_CHILD ? " (and a pass)" : "")
                                + " needs " + kindName(eff) + ", found " + (ck == MISSING ? "no entry" : "kinds " + kindName(ck)));
                }
            }

        }
        // ------------------------------------------------------------------ trailer and root

        void trailerAndRoot() throws IOException {
            long size;
            try {
                size = ct.trailerContentSize();
            } catch (FormatException e) {
                fatal(e.rule(), e.getMessage());
                return;
            }
            long start = ct.position();
            byte[] head = ct.read(start, 20);
            long blockCount = Bytes.u64(head, 0), entryCount = Bytes.u64(head, 8), rows = Bytes.u32(head, 16);
            if (rows != (size - 52) / 20) fatal(Rule.CON_1, "TRAILER rows " + rows + " but its size holds " + (size - 52) / 20);
            MessageDigest md = sha256();
            md.update((byte) 2);
            md.update(lastComputedChain == null ? lastStoredChain : lastComputedChain);
            md.update(head);
            long[][] census = rows <= 65 ? new long[(int) rows][3] : null;
            long off = start + 20, end = start + size - 32;
            int row = 0;
            while (off < end) {
                int len = (int) Math.min(20 * 4096, end - off);
                byte[] chunk = ct.read(off, len);
                md.update(chunk);
                if (census != null)
                    for (int q = 0; q + 20 <= len; q += 20, row++) {
                        census[row][0] = Bytes.u32(chunk, q);
                        census[row][1] = Bytes.u64(chunk, q + 4);
                        census[row][2] = Bytes.u64(chunk, q + 12);
                    }
                off += len;
            }
            byte[] stored = ct.read(end, 32);
            byte[] commitment = md.digest();
            if (blockCount != blocks || entryCount != entries)
                fatal(Rule.HASH_2, "trailer counts " + Long.toUnsignedString(blockCount) + " blocks, " + Long.toUnsignedString(entryCount)
                        + " entries; read " + blocks + " blocks, " + entries + " entries");
            if (!Arrays.equals(stored, commitment))
                fatal(Rule.HASH_3, "stored commitment " + hex(stored) + " != computed " + hex(commitment));
            long rm = h.rootMover, ro = h.rootOpponent;
            if (!rootFound) violation(Rule.ROOT_1, -1, rootDiscs, -1, true, rm, ro, "no entry for the root's canonical form", true);
            if (!weak && ((rootKind & P) == 0 || rootLo != h.rootValue))
                violation(Rule.ROOT_2, -1, rootDiscs, -1, true, rm, ro, "root entry has kinds " + kindName(rootKind) + " and value "
                        + rootLo + "; the header claims P with value " + h.rootValue, true);
            if (weak && (rootLo != h.rootValue || rootHi != h.rootValue))
                violation(Rule.ROOT_3, -1, rootDiscs, -1, true, rm, ro, "root entry bounds [" + rootLo + ", " + rootHi
                        + "] are not [" + h.rootValue + ", " + h.rootValue + "]", true);
            trailerCensus = census;
            trailerRows = rows;
            commitmentHex = "sha256:" + hex(commitment);
        }

        long[][] trailerCensus;
        long trailerRows;
        String commitmentHex;

        /** R-CENSUS-1 and R-REACH-1 (SPEC §10) from pass 2's counts. */
        void census() throws IOException {
            res.unreached = unreached;
            int rowsExpected = game.cells - rootDiscs + 1;
            long total = 0;
            for (int dd = rootDiscs; dd <= game.cells; dd++) {
                long aux = dd < layerAux.length ? layerAux[dd] : 0;
                res.census.add(new long[] {dd, region[dd], aux, proofTerminalCount[dd]});
                total += region[dd];
            }
            res.region = total;
            if (trailerRows != rowsExpected)
                fatal(Rule.CENSUS_1, "trailer has " + trailerRows + " census rows, expected " + rowsExpected + " (discs " + rootDiscs + ".." + game.cells + ")");
            for (int r = 0; r < rowsExpected; r++) {
                long[] mine = res.census.get(r), theirs = trailerCensus[r];
                if (mine[0] != theirs[0] || mine[1] != theirs[1] || mine[2] != theirs[2]) {
                    violation(Rule.CENSUS_1, -1, (int) mine[0], -1, false, 0, 0, "census row " + r + ": trailer says discs " + theirs[0] + " region "
                            + Long.toUnsignedString(theirs[1]) + " auxiliary " + Long.toUnsignedString(theirs[2]) + "; counted region " + mine[1] + " auxiliary " + mine[2], true);
                }
            }
            if (opt.strict && unreached > 0)
                reportUnreached();
            res.peakTableBytes = budget.peak - budget.fixed; // layer tables, flags, block list
            if (anyViolation) return; // (--all) then nothing below is established
            res.commitment = commitmentHex;
            res.rootKind = rootKind;
            // The stored move, stated in the root's own orientation (SPEC §7.4).
            int g = 0;
            for (; g < group; g++)
                if (game.transform(h.rootMover | h.rootOpponent, g) == rootOcc && game.transform(h.rootMover, g) == rootMover) break;
            res.rootMove = rootStoredMove < 0 ? -1 : game.mapMove(rootStoredMove, game.inverse(g));
        }

        /** R-REACH-1 at the first unreached entry (shallowest layer first). */
        void reportUnreached() throws IOException {
            int b = lFirst[fuLayer];
            long base = 0;
            Keep keep = new Keep(lDiscs[fuLayer]);
            while (true) {
                Payload p = reload(b++);
                int m = keep.apply(p);
                if (fuIndex < base + m) {
                    int i = (int) (fuIndex - base);
                    violation(Rule.REACH_1, -1, lDiscs[fuLayer], fuIndex, true, p.mover[i], p.occ[i] & ~p.mover[i], unreached + " entries are unreached (--strict)", true);
                }
                base += m;
            }
        }
    }

    private static final java.lang.invoke.VarHandle BYTES = java.lang.invoke.MethodHandles.arrayElementVarHandle(byte[].class);

    interface RangeTask {
        void run(int from, int to, Run.Checker c);
    }

    interface BlockBody {
        /**
         * Uses block b; false: no more blocks are needed. p is lent: once use returns, its columns
         * are decoded over for a later block (Run.spare), so nothing may keep p or its arrays.
         */
        boolean use(int b, Payload p) throws IOException;
    }

    interface SegmentBody {
        void scan(Segment seg) throws IOException;
    }

    /**
     * A key range of the layer below with its table (the layer's entries base.. base+size-1):
     * keys after (afterOcc, afterMover) unless first, up to (upOcc, upMover) unless last.
     */
    record Segment(Layer table, boolean first, boolean last, long afterOcc, long afterMover, long upOcc, long upMover, long base, long size) {
        /** All of the table (null: no layer below). */
        static Segment whole(Layer table) {
            return new Segment(table, true, true, 0, 0, 0, 0, 0, table == null ? 0 : table.size);
        }

        boolean contains(long occ, long mover) {
            return (first || after(occ, mover, afterOcc, afterMover)) && (last || !after(occ, mover, upOcc, upMover));
        }
    }

    /** Key (occ, mover) comes strictly after key (o, m): unsigned occ, then unsigned mover. */
    static boolean after(long occ, long mover, long o, long m) {
        return occ == o ? Long.compareUnsigned(mover, m) > 0 : Long.compareUnsigned(occ, o) > 0;
    }

    /**
     * The entries of a layer that pass 1 kept (R-LAY-2 and R-LAY-3 held: with --all the others are
     * skipped), so that a re-read numbers the entries as pass 1 did.
     */
    static final class Keep {
        final int discs;
        boolean any;
        long occ, mover;

        Keep(int discs) {
            this.discs = discs;
        }

        /** Moves the kept entries of p to its front; returns how many. */
        int apply(Payload p) {
            int m = 0;
            for (int i = 0; i < p.count; i++) {
                long o = p.occ[i], mv = p.mover[i];
                if (Long.bitCount(o) != discs || (any && !after(o, mv, occ, mover))) continue;
                any = true;
                occ = o;
                mover = mv;
                p.occ[m] = o;
                p.mover[m] = mv;
                p.kind[m] = p.kind[i];
                p.lo[m] = p.lo[i];
                p.hi[m] = p.hi[i];
                p.move[m] = p.move[i];
                m++;
            }
            return m;
        }
    }
    /** The task's result; a failure of reading rethrown as such, any other as an internal error. */
    static <T> T await(java.util.concurrent.Future<T> f) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException) throw (IOException) e.getCause();
            throw new IllegalStateException("a task failed: " + e.getCause(), e.getCause());
        }
    }

    /** f of SPEC §7.2 on one need: P stays, A' and P' swap. */
    static int passNeed(int need) {
        return need == AP ? PP : need == PP ? AP : need;
    }

    static int passNeeds(int needs) {
        return (needs & P) | ((needs & AP) != 0 ? PP : 0) | ((needs & PP) != 0 ? AP : 0);
    }

    public static String kindName(int k) {
        java.util.StringJoiner names = new java.util.StringJoiner(", ", "{", "}");
        for (int i = 0; i < 5 && k > 0; i++) if ((k & (1 << i)) != 0) names.add(new String[] {"P", "A'", "P'", "A", "C"}[i]);
        return names.toString();
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] sha(byte[] prefix, byte[] data) {
        MessageDigest md = sha256();
        md.update(prefix);
        md.update(data);
        return md.digest();
    }

    /** h_i of SPEC §3. */
    static byte[] chain(byte[] prev, BlockRecord rec, byte[] raw) {
        MessageDigest md = sha256();
        byte[] head = new byte[1 + 32 + 8 + 12];
        head[0] = 1;
        System.arraycopy(prev, 0, head, 1, 32);
        Bytes.putU64(head, 33, rec.index);
        Bytes.putU32(head, 41, rec.layer);
        Bytes.putU32(head, 45, rec.count);
        Bytes.putU32(head, 49, rec.rawLen);
        md.update(head);
        md.update(raw);
        return md.digest();
    }

    public static String hex(byte[] b) {
        return java.util.HexFormat.of().formatHex(b);
    }

    /** A position's key. */
    record Key(long occ, long mover) {}
}

package org.gamecert.spark.verify;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.HashPartitioner;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.Optional;
import org.apache.spark.storage.StorageLevel;
import org.gamecert.verifier.engine.Options;
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
import scala.Tuple2;

/**
 * A certificate checked across Spark executors by the sequential kernel (SPEC §11.1,
 * docs/kernel-redesign.md), fed as engine/SliceEngine feeds it on one machine. The driver reads
 * the file's map (FileMap.readForCluster: header, block records, trailer; it travels to the
 * executors) and then, layer by layer from the root's down, cuts the layer into slices of
 * consecutive blocks, each checked by a SliceCheck of its own in an executor, which reads its
 * blocks' bytes from the file:
 * <ol>
 * <li>the records of the layer below (key → index, kind, bounds), decoded by the executors;
 * <li>each slice's requests (its kernel run up to makeRequests()), joined by key against those
 * records: both sent as blocks of primitive arrays, one per join partition (a hash of the key),
 * and joined there through a table of the records; the answers grouped back by slice;
 * <li>each slice's kernel again, from the start with the same data, given its answers (answer)
 * through check(): its report, its marks, and (for a game that counts terminal positions) its
 * terminal keys;
 * <li>the marks, routed as counts per child entry (facts, and facts per flag bit) to the slices
 * of the layer below (a shuffle), for their takeCounts;
 * <li>the terminal keys, routed in blocks to the partition the kernel named for each, where a
 * TerminalCount kernel counts the distinct ones (SPEC §10.3) and reports what it took.
 * </ol>
 * The driver gives each layer's slice reports and partition counts to the Combiner, shallowest
 * layer first, and concludes. Its memory is O(layers + slices + partitions + blocks): no key, no
 * entry, no mark passes through it. Nothing here is trusted: whatever it does wrong ends in an
 * engine fault (an error) or a rejection.
 *
 * <p>Spark moves blocks (a slice's rows of one partition in primitive arrays), never one object
 * per entry: its cost per object (serialization, shuffle, garbage) was nearly all of the time.
 */
public final class SparkSliced implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Entries per slice by default: a slice's requests and answers take ~0.3-1 KB per entry. */
    public static final long DEFAULT_SLICE_ENTRIES = 1L << 18;

    private final transient JavaSparkContext sc;
    private final long sliceEntries;
    private final transient PrintStream progress;
    private final int terminalPartitions;
    private final transient Faults faults;

    /**
     * terminalPartitions: partitions the terminal keys are counted in (0: by the file's size,
     * defaultTerminalPartitions).
     */
    public SparkSliced(JavaSparkContext sc, long sliceEntries, int terminalPartitions,
            PrintStream progress) {
        this(sc, sliceEntries, terminalPartitions, progress, Faults.NONE);
    }

    SparkSliced(JavaSparkContext sc, long sliceEntries, int terminalPartitions,
            PrintStream progress, Faults faults) {
        this.sc = sc;
        this.sliceEntries = sliceEntries > 0 ? sliceEntries : DEFAULT_SLICE_ENTRIES;
        this.terminalPartitions = Math.min(TerminalCount.MAX_PARTITIONS, Math.max(0,
                terminalPartitions)); // 0: by the file (defaultTerminalPartitions)
        this.progress = progress;
        this.faults = faults;
    }

    /**
     * What a faulty engine would do (tests: none of it may end in VERIFIED). Applied in the
     * driver to the honest data (an RDD's functions must be serializable).
     */
    interface Faults {
        Faults NONE = new Faults() {};

        /** The terminal keys of layer li as routed: partition → a block of keys. */
        default JavaPairRDD<Integer, Terminals> terminalKeys(int li,
                JavaPairRDD<Integer, Terminals> honest) {
            return honest;
        }

        /** The partition counts of layer li as given to the Combiner. */
        default List<TerminalCount.Report> counts(int li, List<TerminalCount.Report> honest) {
            return honest;
        }

        /** The counts per entry routed to the slices of the layer below layer li. */
        default JavaPairRDD<Integer, Counts> marks(int li, JavaPairRDD<Integer, Counts> honest) {
            return honest;
        }
    }

    /** A slice: blocks [first, end) of layer li, entries base .. base + count - 1 of it. */
    record Slice(int id, int li, int first, int end, long base, int count)
            implements Serializable {}

    /** A slice's requests of one join partition: request j[k] asks for (occ[k], mover[k]). */
    static final class Requests implements Serializable {
        private static final long serialVersionUID = 1L;
        final int slice;
        final int[] j;
        final long[] occ, mover;

        Requests(int slice, int n) {
            this.slice = slice;
            j = new int[n];
            occ = new long[n];
            mover = new long[n];
        }
    }

    /** Records of the layer below of one join partition (from one slice of it). */
    static final class Records implements Serializable {
        private static final long serialVersionUID = 1L;
        final long[] occ, mover, index;
        final byte[] kind, lo, hi;

        Records(int n) {
            occ = new long[n];
            mover = new long[n];
            index = new long[n];
            kind = new byte[n];
            lo = new byte[n];
            hi = new byte[n];
        }
    }

    /** One join partition's answers to one slice's requests: request j[k]'s record. */
    static final class Answers implements Serializable {
        private static final long serialVersionUID = 1L;
        final int[] j;
        final long[] index;
        final byte[] kind, lo, hi;

        Answers(int n) {
            j = new int[n];
            index = new long[n];
            kind = new byte[n];
            lo = new byte[n];
            hi = new byte[n];
        }

        /** The first n answers (a block is made for all its requests, fewer are found). */
        Answers first(int n) {
            return new Answers(Arrays.copyOf(j, n), Arrays.copyOf(index, n),
                    Arrays.copyOf(kind, n), Arrays.copyOf(lo, n), Arrays.copyOf(hi, n));
        }

        private Answers(int[] j, long[] index, byte[] kind, byte[] lo, byte[] hi) {
            this.j = j;
            this.index = index;
            this.kind = kind;
            this.lo = lo;
            this.hi = hi;
        }
    }

    /** Terminal keys of one slice routed to one terminal partition (key k: occ, mover, route). */
    static final class Terminals implements Serializable {
        private static final long serialVersionUID = 1L;
        final long[] occ, mover, route;

        Terminals(long[] occ, long[] mover, long[] route) {
            this.occ = occ;
            this.mover = mover;
            this.route = route;
        }

        int size() {
            return occ.length;
        }
    }

    /** What a slice's entries were sent: facts per entry and per flag bit (dense or sparse). */
    static final class Counts implements Serializable {
        private static final long serialVersionUID = 1L;
        /** Sparse: the entries (local indices) counted; null when dense (every entry). */
        int[] at;
        int size;
        int[] facts;
        int[][] bits = new int[4][];

        static Counts dense(int size) {
            Counts c = new Counts();
            c.size = size;
            c.facts = new int[size];
            for (int b = 0; b < 4; b++) c.bits[b] = new int[size];
            return c;
        }

        /** Per entry (dense), as a slice's kernel takes them: its facts, then its facts per bit. */
        int[] interleaved() {
            int[] out = new int[5 * size];
            for (int k = 0; k < facts.length; k++) {
                int i = at == null ? k : at[k];
                out[5 * i] += facts[k];
                for (int b = 0; b < 4; b++) out[5 * i + 1 + b] += bits[b][k];
            }
            return out;
        }

        Counts add(Counts o) {
            for (int k = 0; k < o.facts.length; k++) {
                int i = o.at == null ? k : o.at[k];
                facts[i] += o.facts[k];
                for (int b = 0; b < 4; b++) bits[b][i] += o.bits[b][k];
            }
            return this;
        }
    }

    /** A slice's kernel's output: its report, its marks per slice below, its terminal keys. */
    record Checked(SliceReport report, List<Tuple2<Integer, Counts>> marks, long[][] terminals)
            implements Serializable {}

    /**
     * What every task of one check needs (shipped with the closures). joinSalt: drawn for the
     * check, so that no file can aim its keys at one join partition (it would load one task
     * with a layer's rows; the answers do not depend on it).
     */
    record Job(String path, FileMap map, boolean strict, boolean all, int maxPerRule,
            long[] openBefore, int partitions, long joinSalt) implements Serializable {}

    /** Verifies the certificate (modes 1–3); an error for a failure, never an exception. */
    public Result verify(Path file, Options o) {
        Result out;
        try (Container ct = new Container(file)) {
            FileMap map;
            try {
                map = FileMap.readForCluster(ct);
            } catch (FileMap.TooLarge e) {
                return error(e.getMessage());
            } catch (FileMap.HeaderViolation hv) {
                Result res = new Result();
                res.violations.add(hv.violation);
                res.violationCounts.put(hv.violation.rule(), 1L);
                return Result.withVerdict(res, Result.Verdict.REJECTED);
            }
            out = run(file.toAbsolutePath().toString(), map, o);
        } catch (IOException | java.io.UncheckedIOException e) {
            Throwable cause = e.getCause() instanceof IOException ? e.getCause() : e;
            return error("cannot read the input: " + cause.getMessage());
        } catch (Exception e) { // SparkException is thrown unchecked by Scala
            if (isEngineFault(e)) return error(e.getMessage()); // the driver's Combiner's
            return error("the Spark job failed: " + rootMessage(e)); // a task's, or Spark's
        } catch (OutOfMemoryError e) {
            return error("out of memory in the Spark driver");
        }
        return out;
    }

    private static Result error(String message) {
        Result res = new Result();
        res.errorMessage = message;
        return Result.withVerdict(res, Result.Verdict.ERROR);
    }

    /** The kernel's engine fault (its class is the kernel's; its message names it). */
    static boolean isEngineFault(Throwable e) {
        return e.getClass().getSimpleName().equals("EngineFault");
    }

    private Result run(String path, FileMap map, Options o) throws IOException {
        Combiner combiner = new Combiner(map, o.strict, o.all, o.maxViolationsPerRule);
        Header h = map.header();
        long[] openBefore = null;
        if (h.part) {
            openBefore = openBefore(path, map);
            combiner.partOf(null, 0, false);
        }
        int partitions = h.family == Header.OTHELLO ? 0 // no terminals
                : terminalPartitions > 0 ? terminalPartitions
                : defaultTerminalPartitions(map.entries(), sc.defaultParallelism());
        Job job = new Job(path, map, o.strict, o.all, Math.max(1, o.maxViolationsPerRule),
                openBefore, partitions, new java.security.SecureRandom().nextLong());
        JavaPairRDD<Integer, Counts> countsIn = null; // for the slices of the layer due
        long done = 0, total = Math.max(1, map.entries());
        try {
            for (int li = map.layers() - 1; li >= 0; li--) {
                long t0 = System.nanoTime();
                Slice[] slices = plan(map, li, sliceEntries);
                int below = map.below(li);
                Slice[] under = below < 0 ? new Slice[0] : plan(map, below, sliceEntries);
                long[][] previous = previousKeys(job, slices);
                JavaPairRDD<Integer, Tuple2<Slice, Optional<Counts>>> sl = withCounts(slices,
                        countsIn);
                int joinParts = joinPartitions(map, li, below, slices.length, under.length);
                // 1. the records of the layer below, in blocks by join partition
                JavaPairRDD<Integer, Records> records = records(job, under, joinParts);
                // 2. the requests, in blocks by join partition, joined against them there; the
                // answers back by slice
                JavaPairRDD<Integer, Requests> requests = sl.flatMapToPair(t -> inMemory(() -> {
                    SliceCheck c = start(job, t._2()._1(), previous, t._2()._2());
                    int n = c.makeRequests();
                    long[][] keys = {new long[n], new long[n]};
                    c.requestKeys(keys[0], keys[1]);
                    return requestBlocks(t._1(), keys, joinParts, job.joinSalt()).iterator();
                }));
                JavaPairRDD<Integer, Answers> answers = requests
                        .cogroup(records, new Exact(joinParts))
                        .flatMapToPair(t -> inMemory(() -> join(t._2()._1(), t._2()._2())
                                .iterator()));
                // 3. each slice's kernel through check
                JavaRDD<Checked> checked = sl
                        .cogroup(answers, new HashPartitioner(slicePartitions(slices)))
                        .flatMap(t -> inMemory(() -> {
                            List<Checked> outs = new ArrayList<>(1);
                            for (Tuple2<Slice, Optional<Counts>> s : t._2()._1())
                                outs.add(check(job, s._1(), previous, s._2(), t._2()._2(), under));
                            return outs.iterator();
                        }));
                checked.persist(StorageLevel.MEMORY_AND_DISK_SER());
                try {
                    List<SliceReport> reports = checked.map(Checked::report).collect();
                    // 5. the terminal keys, counted in their partitions
                    List<TerminalCount.Report> counts = partitions == 0 ? List.of()
                            : terminalCounts(job, li, checked);
                    combiner.layer(li, reports.toArray(new SliceReport[0]),
                            faults.counts(li, counts).toArray(new TerminalCount.Report[0]));
                    // 4. the marks, as counts per entry of the layer below's slices
                    JavaPairRDD<Integer, Counts> next = null;
                    if (below >= 0 && below == li - 1) {
                        next = faults.marks(li, checked.flatMapToPair(c -> c.marks().iterator())
                                .combineByKey(s -> Counts.dense(s.size).add(s),
                                        Counts::add, Counts::add,
                                        new HashPartitioner(slicePartitions(under)), false,
                                        null));
                        next.persist(StorageLevel.MEMORY_AND_DISK_SER());
                        next.count(); // made before the slices' outputs are let go
                    }
                    if (countsIn != null) countsIn.unpersist(false);
                    countsIn = next;
                } finally {
                    checked.unpersist(false);
                }
                done += map.size(li);
                if (progress != null)
                    progress.printf("layer %d (%d entries, %d slices) in %.1f s; %.1f%% of the"
                            + " entries%n", map.discs(li), map.size(li), slices.length,
                            (System.nanoTime() - t0) / 1e9, 100.0 * done / total);
            }
        } finally {
            if (countsIn != null) countsIn.unpersist(false);
        }
        return combiner.conclude();
    }

    /** The layer's slices with the counts their entries were sent (none: zeros). */
    private JavaPairRDD<Integer, Tuple2<Slice, Optional<Counts>>> withCounts(Slice[] slices,
            JavaPairRDD<Integer, Counts> countsIn) {
        List<Tuple2<Integer, Slice>> ids = new ArrayList<>();
        for (Slice s : slices) ids.add(new Tuple2<>(s.id(), s));
        HashPartitioner p = new HashPartitioner(slicePartitions(slices));
        JavaPairRDD<Integer, Slice> sl = sc.parallelizePairs(ids, slicePartitions(slices));
        if (countsIn == null) return sl.mapValues(s -> new Tuple2<>(s, Optional.<Counts>empty()));
        return sl.leftOuterJoin(countsIn, p);
    }

    /**
     * The records of the layer below (its slices' blocks decoded in the executors): per slice,
     * one block per join partition.
     */
    private JavaPairRDD<Integer, Records> records(Job job, Slice[] under, int parts) {
        if (under.length == 0)
            return JavaPairRDD.fromJavaRDD(sc.<Tuple2<Integer, Records>>emptyRDD());
        return sc.parallelize(Arrays.asList(under), partitions(under.length))
                .flatMapToPair(s -> inMemory(() -> records(job, s, parts)));
    }

    /** A slice of the layer below decoded into records, in blocks by join partition. */
    private static Iterator<Tuple2<Integer, Records>> records(Job job, Slice s, int parts)
            throws IOException {
        FileMap map = job.map();
        boolean weak = !map.header().semiStrong;
        Records all = new Records(s.count());
        int n = 0;
        try (Container ct = new Container(Path.of(job.path()))) {
            long index = s.base();
            for (int b = s.first(); b < s.end(); b++) {
                BlockRecord r = map.record(b);
                try {
                    Payload p = decodeBlock(ct, map, r, weak);
                    if (n + p.count > s.count())
                        throw new IllegalStateException("a slice of more entries than planned");
                    System.arraycopy(p.occ, 0, all.occ, n, p.count);
                    System.arraycopy(p.mover, 0, all.mover, n, p.count);
                    System.arraycopy(p.kind, 0, all.kind, n, p.count);
                    System.arraycopy(p.lo, 0, all.lo, n, p.count);
                    System.arraycopy(p.hi, 0, all.hi, n, p.count);
                    for (int i = 0; i < p.count; i++) all.index[n + i] = index + i;
                    n += p.count;
                } catch (FormatException e) {
                    break; // the slice that holds the block reports it
                }
                index += r.count;
            }
        }
        int[] order = new int[n];
        int[] start = bucket(all.occ, all.mover, n, parts, job.joinSalt(), order);
        List<Tuple2<Integer, Records>> outs = new ArrayList<>();
        for (int q = 0; q < parts; q++) {
            int from = start[q], m = start[q + 1] - from;
            if (m == 0) continue;
            Records r = new Records(m);
            for (int k = 0; k < m; k++) {
                int i = order[from + k];
                r.occ[k] = all.occ[i];
                r.mover[k] = all.mover[i];
                r.index[k] = all.index[i];
                r.kind[k] = all.kind[i];
                r.lo[k] = all.lo[i];
                r.hi[k] = all.hi[i];
            }
            outs.add(new Tuple2<>(q, r));
        }
        return outs.iterator();
    }

    /** A slice's requests {occ[], mover[]}: one block per join partition they fall in. */
    static List<Tuple2<Integer, Requests>> requestBlocks(int slice, long[][] req, int parts,
            long salt) {
        long[] occ = req[0], mover = req[1];
        int n = occ.length;
        int[] order = new int[n];
        int[] start = bucket(occ, mover, n, parts, salt, order);
        List<Tuple2<Integer, Requests>> outs = new ArrayList<>();
        for (int q = 0; q < parts; q++) {
            int from = start[q], m = start[q + 1] - from;
            if (m == 0) continue;
            Requests r = new Requests(slice, m);
            for (int k = 0; k < m; k++) {
                int j = order[from + k];
                r.j[k] = j;
                r.occ[k] = occ[j];
                r.mover[k] = mover[j];
            }
            outs.add(new Tuple2<>(q, r));
        }
        return outs;
    }

    /**
     * One join partition: its records in a table by key (open addressing), each request looked
     * up there; per slice, one block of the answers found (absent keys: none, the default). A
     * key held twice answers with its smaller index (R-LAY-3 fails there).
     */
    static List<Tuple2<Integer, Answers>> join(Iterable<Requests> requests,
            Iterable<Records> records) {
        int n = 0;
        for (Records r : records) n += r.occ.length;
        Records all = new Records(n);
        int at = 0;
        for (Records r : records) {
            int m = r.occ.length;
            System.arraycopy(r.occ, 0, all.occ, at, m);
            System.arraycopy(r.mover, 0, all.mover, at, m);
            System.arraycopy(r.index, 0, all.index, at, m);
            System.arraycopy(r.kind, 0, all.kind, at, m);
            System.arraycopy(r.lo, 0, all.lo, at, m);
            System.arraycopy(r.hi, 0, all.hi, at, m);
            at += m;
        }
        // a table of at least 2n slots (a power of two, at least 2), slot: the hash's top bits,
        // salted for this table: the keys are the file's, and a file whose keys shared a slot
        // would make the probing quadratic (the answers do not depend on the salt)
        long salt = java.util.concurrent.ThreadLocalRandom.current().nextLong();
        int bits = Math.max(1, 64 - Long.numberOfLeadingZeros(2L * n));
        int mask = (1 << bits) - 1, shift = 64 - bits;
        int[] slot = new int[1 << bits];
        Arrays.fill(slot, -1);
        long[] occ = all.occ, mover = all.mover, index = all.index;
        for (int r = 0; r < n; r++) {
            int s = (int) (mix(occ[r] ^ salt, mover[r]) >>> shift);
            while (true) {
                int q = slot[s];
                if (q < 0) {
                    slot[s] = r;
                    break;
                }
                if (occ[q] == occ[r] && mover[q] == mover[r]) {
                    if (index[r] < index[q]) slot[s] = r;
                    break;
                }
                s = (s + 1) & mask;
            }
        }
        List<Tuple2<Integer, Answers>> outs = new ArrayList<>();
        for (Requests req : requests) {
            int m = req.j.length, found = 0;
            Answers a = new Answers(m);
            for (int k = 0; k < m; k++) {
                long o = req.occ[k], v = req.mover[k];
                int s = (int) (mix(o ^ salt, v) >>> shift);
                int q;
                while ((q = slot[s]) >= 0 && (occ[q] != o || mover[q] != v)) s = (s + 1) & mask;
                if (q < 0) continue; // absent: the default
                a.j[found] = req.j[k];
                a.index[found] = index[q];
                a.kind[found] = all.kind[q];
                a.lo[found] = all.lo[q];
                a.hi[found] = all.hi[q];
                found++;
            }
            if (found > 0) outs.add(new Tuple2<>(req.slice, found == m ? a : a.first(found)));
        }
        return outs;
    }

    /** A 64-bit hash of a key (SplitMix64's finalizer): its low half picks the join partition. */
    static long mix(long occ, long mover) {
        long h = occ * 0x9E3779B97F4A7C15L ^ mover;
        h = (h ^ h >>> 30) * 0xBF58476D1CE4E5B9L;
        h = (h ^ h >>> 27) * 0x94D049BB133111EBL;
        return h ^ h >>> 31;
    }

    /**
     * The join partition of a key under the check's salt, 0 .. parts - 1 (the table in it uses
     * the top bits, under a salt of its own).
     */
    static int joinPartition(long occ, long mover, int parts, long salt) {
        return (int) ((mix(occ ^ salt, mover) & 0xFFFFFFFFL) * parts >>> 32);
    }

    /**
     * Keys 0 .. n - 1 ordered by join partition (a counting sort into order); returns where each
     * partition's keys start in order (parts + 1 offsets).
     */
    static int[] bucket(long[] occ, long[] mover, int n, int parts, long salt, int[] order) {
        int[] part = new int[n];
        int[] start = new int[parts + 1];
        for (int i = 0; i < n; i++) {
            part[i] = joinPartition(occ[i], mover[i], parts, salt);
            start[part[i] + 1]++;
        }
        for (int q = 0; q < parts; q++) start[q + 1] += start[q];
        int[] next = Arrays.copyOf(start, parts);
        for (int i = 0; i < n; i++) order[next[part[i]]++] = i;
        return start;
    }

    private static Payload decodeBlock(Container ct, FileMap map, BlockRecord r, boolean weak)
            throws IOException, FormatException {
        byte[] raw = DataFrame.decompress(ct.read(r.frameOffset, (int) r.compLen),
                (int) r.rawLen, r.index);
        return Payload.decode(raw, (int) r.count, weak, map.header().part, Long.MIN_VALUE,
                map.game().uMin, map.game().uMax, null);
    }

    /** A slice's kernel, set up and given its counts and blocks, up to its requests. */
    private static SliceCheck start(Job job, Slice s, long[][] previous, Optional<Counts> in)
            throws IOException {
        FileMap map = job.map();
        long[] prev = previous[s.id()];
        SliceCheck.Setup setup = job.openBefore() == null
                ? new SliceCheck.Setup(prev[0] != 0, prev[1], prev[2], job.partitions())
                : new SliceCheck.Setup(prev[0] != 0, prev[1], prev[2], job.partitions(),
                        job.openBefore()[s.first()], null, 0, -1);
        SliceCheck check = new SliceCheck(map, s.li(), s.first(), s.end(), job.all(),
                job.maxPerRule(), setup);
        try (Container ct = new Container(Path.of(job.path()))) {
            for (int b = s.first(); b < s.end(); b++) {
                BlockRecord r = map.record(b);
                check.decode(b, ct.read(r.frameOffset, (int) r.compLen));
            }
        }
        Counts c = in.isPresent() ? in.get() : Counts.dense(s.count());
        check.takeCounts(c.interleaved(), 0); // after the blocks (SPEC §11.1)
        return check;
    }

    /** A slice's kernel through check, given the answers to its requests (the others absent). */
    private static Checked check(Job job, Slice s, long[][] previous, Optional<Counts> in,
            Iterable<Answers> given, Slice[] under) throws IOException {
        SliceCheck c = start(job, s, previous, in);
        int n = c.makeRequests(); // the records go straight to the kernel (SPEC §11.1, f)
        for (Answers a : given) {
            for (int k = 0; k < a.j.length; k++) {
                int j = a.j[k];
                if (j < 0 || j >= n)
                    throw new IllegalStateException("an answer for request " + j + " of " + n);
                if (a.index[k] >= 0) c.answer(j, a.index[k], a.kind[k], a.lo[k], a.hi[k]);
            }
        }
        SliceReport report = c.check();
        long[][] terminals = job.partitions() > 0 ? c.terminalKeys() : null;
        return new Checked(report, marks(c.marksIndex(), c.marksFlags(), under), terminals);
    }

    /** The marks as sparse counts per slice of the layer below (sorted by child index). */
    private static List<Tuple2<Integer, Counts>> marks(long[] index, byte[] flags, Slice[] under) {
        List<Tuple2<Integer, Counts>> out = new ArrayList<>();
        int m = index.length;
        if (m == 0) return out;
        long[] packed = new long[m]; // index << 4 | flags (four flag bits)
        for (int j = 0; j < m; j++) packed[j] = index[j] << 4 | (flags[j] & 0x0F);
        Arrays.sort(packed);
        int j = 0;
        while (j < m) {
            int q = byIndex(under, packed[j] >>> 4);
            Slice u = under[q];
            long end = u.base() + u.count();
            int k = j, distinct = 0;
            for (long last = -1; k < m && packed[k] >>> 4 < end; k++)
                if (packed[k] >>> 4 != last) {
                    distinct++;
                    last = packed[k] >>> 4;
                }
            Counts c = new Counts();
            c.size = u.count();
            c.at = new int[distinct];
            c.facts = new int[distinct];
            for (int b = 0; b < 4; b++) c.bits[b] = new int[distinct];
            int d = -1;
            for (long last = -1; j < k; j++) {
                long at = packed[j] >>> 4;
                if (at != last) {
                    c.at[++d] = (int) (at - u.base());
                    last = at;
                }
                c.facts[d]++;
                for (int b = 0; b < 4; b++) if ((packed[j] >>> b & 1) != 0) c.bits[b][d]++;
            }
            out.add(new Tuple2<>(q, c));
        }
        return out;
    }

    /** Layer li's terminal keys sent to their partitions, each counted by a TerminalCount. */
    private List<TerminalCount.Report> terminalCounts(Job job, int li, JavaRDD<Checked> checked) {
        int parts = job.partitions();
        JavaPairRDD<Integer, Terminals> keys = checked.flatMapToPair(
                c -> terminalBlocks(c.terminals(), parts).iterator());
        return faults.terminalKeys(li, keys).partitionBy(new Exact(parts))
                .mapPartitionsWithIndex((p, it) -> inMemory(() -> {
                    List<Terminals> got = new ArrayList<>();
                    long n = 0, proof = 0; // keys, and of those read for a bound only
                    while (it.hasNext()) {
                        Terminals t = it.next()._2();
                        got.add(t);
                        n += t.size();
                        for (int k = 0; k < t.size(); k++)
                            if (TerminalCount.isProof(t.route[k])) proof++;
                    }
                    TerminalCount count = new TerminalCount(job.map(), li, p, parts,
                            (int) Math.min(n - proof, Integer.MAX_VALUE),
                            (int) Math.min(proof, Integer.MAX_VALUE));
                    for (Terminals t : got)
                        for (int k = 0; k < t.size(); k++)
                            count.take(t.occ[k], t.mover[k], t.route[k]);
                    Iterator<TerminalCount.Report> one = List.of(count.report()).iterator();
                    return one;
                }), true).collect();
    }

    /**
     * A slice's terminal keys {occ[], mover[], route[]}: one block per partition their routes
     * name (a route's partition outside 0 .. parts - 1: a block keyed by it alone, which the
     * count of the partition it lands in refuses).
     */
    static List<Tuple2<Integer, Terminals>> terminalBlocks(long[][] t, int parts) {
        long[] occ = t[0], mover = t[1], route = t[2];
        int n = occ.length;
        int[] start = new int[parts + 2]; // bucket parts: routes outside, one block each
        for (int k = 0; k < n; k++) start[bucketOf(route[k], parts) + 1]++;
        for (int q = 0; q <= parts; q++) start[q + 1] += start[q];
        int[] next = Arrays.copyOf(start, parts + 1);
        int[] order = new int[n];
        for (int k = 0; k < n; k++) order[next[bucketOf(route[k], parts)]++] = k;
        List<Tuple2<Integer, Terminals>> outs = new ArrayList<>();
        for (int q = 0; q < parts; q++) {
            int from = start[q], m = start[q + 1] - from;
            if (m == 0) continue;
            Terminals b = new Terminals(new long[m], new long[m], new long[m]);
            for (int i = 0; i < m; i++) {
                int k = order[from + i];
                b.occ[i] = occ[k];
                b.mover[i] = mover[k];
                b.route[i] = route[k];
            }
            outs.add(new Tuple2<>(q, b));
        }
        for (int i = start[parts]; i < n; i++) {
            int k = order[i];
            outs.add(new Tuple2<>(TerminalCount.partitionOf(route[k]), new Terminals(
                    new long[] {occ[k]}, new long[] {mover[k]}, new long[] {route[k]})));
        }
        return outs;
    }

    private static int bucketOf(long route, int parts) {
        int q = TerminalCount.partitionOf(route);
        return q >= 0 && q < parts ? q : parts;
    }

    /**
     * Partition p holds the blocks keyed p (an Integer key, 0 .. n - 1): a join partition's
     * blocks, or the terminal keys routed to partition p.
     */
    static final class Exact extends Partitioner {
        private static final long serialVersionUID = 1L;
        private final int n;

        Exact(int n) {
            this.n = n;
        }

        @Override
        public int numPartitions() {
            return n;
        }

        @Override
        public int getPartition(Object key) {
            return Math.floorMod((Integer) key, n);
        }
    }

    /** For each slice, the key of the entry before it in its layer: {1, occ, mover}, or 0s. */
    private long[][] previousKeys(Job job, Slice[] slices) {
        List<Slice> before = new ArrayList<>(Arrays.asList(slices).subList(0,
                Math.max(0, slices.length - 1)));
        long[][] out = new long[slices.length][];
        if (slices.length > 0) out[0] = new long[3];
        if (before.isEmpty()) return out;
        List<long[]> last = sc.parallelize(before, partitions(before.size())).map(s -> {
            FileMap map = job.map();
            BlockRecord r = map.record(s.end() - 1);
            try (Container ct = new Container(Path.of(job.path()))) {
                Payload p = decodeBlock(ct, map, r,
                        !map.header().semiStrong);
                if (p.count == 0) return new long[3];
                return new long[] {1, p.occ[p.count - 1], p.mover[p.count - 1]};
            } catch (FormatException e) {
                return new long[3]; // the slice that holds it reports it; the layer is cut
            }
        }).collect();
        for (int q = 1; q < slices.length; q++) out[q] = last.get(q - 1);
        return out;
    }

    /** A part: the open entries before each block, by the executors' decoding of the kinds. */
    private long[] openBefore(String path, FileMap map) {
        List<Integer> blocks = new ArrayList<>();
        for (int b = 0; b < map.blocks(); b++) blocks.add(b);
        List<Long> open = sc.parallelize(blocks, partitions(blocks.size())).map(b -> {
            BlockRecord r = map.record(b);
            try (Container ct = new Container(Path.of(path))) {
                Payload p = decodeBlock(ct, map, r,
                        !map.header().semiStrong);
                long n = 0;
                for (int i = 0; i < p.count; i++) if (Payload.isOpen(p.kind[i])) n++;
                return n;
            } catch (FormatException e) {
                return 0L; // that block's slice reports it; nothing after it counts
            }
        }).collect();
        long[] before = new long[map.blocks() + 1];
        for (int b = 0; b < map.blocks(); b++) before[b + 1] = before[b] + open.get(b);
        return before;
    }

    /** Layer li cut into slices of about sliceEntries entries, at block boundaries. */
    static Slice[] plan(FileMap map, int li, long sliceEntries) {
        List<Slice> out = new ArrayList<>();
        int b = map.firstBlock(li);
        long base = 0;
        while (b < map.endBlock(li)) {
            int first = b;
            long count = 0;
            do count += map.record(b++).count;
            while (b < map.endBlock(li) && count + map.record(b).count <= sliceEntries);
            out.add(new Slice(out.size(), li, first, b, base, (int) count));
            base += count;
        }
        return out.toArray(new Slice[0]);
    }

    /** The slice whose entries hold the index. */
    private static int byIndex(Slice[] slices, long index) {
        int a = 0, b = slices.length - 1;
        while (a < b) {
            int mid = (a + b + 1) >>> 1;
            if (slices[mid].base() > index) b = mid - 1;
            else a = mid;
        }
        return a;
    }

    /**
     * A task's work, with an OutOfMemoryError turned into a plain task failure: the job then ends
     * in an error report (exit 2) that says what to change. Left as it is, Spark's executor takes
     * it as fatal and ends the whole process (exit 52, a stack trace on stderr). The error is not
     * kept as the cause: Spark looks for a fatal one down the chain of causes.
     */
    static <T> T inMemory(java.util.concurrent.Callable<T> work) throws Exception {
        try {
            return work.call();
        } catch (OutOfMemoryError e) {
            throw new TaskOutOfMemory();
        }
    }

    /** A Spark task of the check ran out of memory (inMemory). */
    static final class TaskOutOfMemory extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TaskOutOfMemory() {
            super("a task ran out of memory: give Spark more (spark.driver.memory in local mode,"
                    + " spark.executor.memory on a cluster) or check smaller slices"
                    + " (--slice-entries)", null, false, false);
        }
    }

    private int partitions(int n) {
        return Math.max(1, Math.min(n, 4 * sc.defaultParallelism()));
    }

    /** Entries of a layer whose slices a task checks, at most, about: one default slice. */
    static final long CHECK_ENTRIES_PER_PARTITION = DEFAULT_SLICE_ENTRIES;

    /**
     * The partitions a layer's slices are checked in (and its counts routed to): as many as the
     * slices (at most 4 a core), and more when the entries would pass CHECK_ENTRIES_PER_PARTITION
     * a task, up to one slice a task. A task of the check holds the answers of its partition's
     * slices at once (Spark's cogroup), and each slice's kernel about 100 bytes an entry: with 8
     * partitions, the whole 7×6 game's layer of 28 discs (43 M entries, 21 slices a task) ran
     * out of a 2 GiB heap.
     */
    private int slicePartitions(Slice[] slices) {
        return slicePartitions(slices, sc.defaultParallelism());
    }

    static int slicePartitions(Slice[] slices, int parallelism) {
        long entries = 0;
        for (Slice s : slices) entries += s.count();
        long byEntries = (entries + CHECK_ENTRIES_PER_PARTITION - 1) / CHECK_ENTRIES_PER_PARTITION;
        int fewest = Math.max(1, Math.min(slices.length, 4 * parallelism));
        return (int) Math.max(fewest, Math.min(byEntries, slices.length));
    }

    /** Entries of the file a terminal partition is made for, by default. */
    static final long ENTRIES_PER_TERMINAL_PARTITION = 1 << 20;

    /**
     * The terminal partitions when none are asked for: one per ENTRIES_PER_TERMINAL_PARTITION
     * entries of the file, at least Spark's parallelism. Each partition's TerminalCount holds the
     * distinct terminal keys routed to it of one layer: with the parallelism alone (2 in
     * local[2]), the whole 7×6 game's layer of 31 discs held millions of keys in each, and a
     * 2 GiB heap ran out.
     */
    static int defaultTerminalPartitions(long entries, int parallelism) {
        long per = ENTRIES_PER_TERMINAL_PARTITION, byEntries = (entries + per - 1) / per;
        return (int) Math.min(TerminalCount.MAX_PARTITIONS,
                Math.max(Math.max(1, parallelism), byEntries));
    }

    /** Rows (requests and records) a task of the join by key groups at most, about. */
    static final long JOIN_ROWS_PER_PARTITION = 1 << 20;
    /** Requests an entry makes at most, about (a consulted child each; Connect Four 7). */
    static final long REQUESTS_PER_ENTRY = 8;

    /**
     * The join's partitions: as many as the slices (at most 4 a core), and more when the rows
     * would pass JOIN_ROWS_PER_PARTITION a task: a task holds its partition's records in one
     * table, and its requests and answers, about 60 bytes a row. (When the rows were objects,
     * the whole 7×6 game's layers of millions of entries, in 8 partitions, spilled and sorted
     * Spark's map of them again and again in a 2 GiB heap: 3.5 M entries in 240 s, GC a third.)
     */
    private int joinPartitions(FileMap map, int li, int below, int slices, int under) {
        long rows = REQUESTS_PER_ENTRY * map.size(li) + (below < 0 ? 0 : map.size(below));
        long byRows = (rows + JOIN_ROWS_PER_PARTITION - 1) / JOIN_ROWS_PER_PARTITION;
        return (int) Math.max(partitions(Math.max(slices, under)), Math.min(byRows, 1 << 16));
    }

    /** The innermost cause's message (a kernel's engine fault in an executor names itself). */
    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) t = t.getCause();
        String m = t.getMessage();
        return m != null ? m : t.toString();
    }
}

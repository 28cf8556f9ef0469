package org.gamecert.verifier.peer;

import static org.gamecert.verifier.peer.PeerCodec.RECORD_BYTES;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.gamecert.verifier.peer.kernel.Chunk;
import org.gamecert.verifier.peer.kernel.ChildLookup;
import org.gamecert.verifier.peer.kernel.ChildRange;
import org.gamecert.verifier.peer.kernel.ChildTable;
import org.gamecert.verifier.peer.kernel.ParentPass;
import org.gamecert.verifier.peer.kernel.PeerFinding;
import org.gamecert.verifier.peer.kernel.TableCheck;

/**
 * The engine of one table check (untrusted): reads table n and table n+1, partitions table n+1 into
 * key ranges that fit the memory budget, holds each range for lookups, streams table n once per
 * range in chunks on the pool's threads, and keeps each record's state in a sequential file
 * between passes. The rules are the peer kernel's (peer.kernel: TableCheck and what it hands out),
 * which also checks this engine: the ranges it cuts tile table n+1, every pass sees every record,
 * the states come back unchanged and every lookup answers the key asked for.
 *
 * <p>Table n+1 is split into consecutive key ranges of at most {@code rangeRecords} records, each
 * held as one sorted {@code long} per record (8 bytes): the order key's bytes below a bucket index
 * on its leading base-3 bytes, and 16 bits of what a parent needs from a child. For each range,
 * table n is streamed once and every record's children are regenerated (CPU is cheaper than the
 * disk a materialized child list would take); children whose key falls in the range are looked up.
 * What a parent learnt so far is one byte (existential obligations met, open frontier), kept in a
 * sequential file from pass to pass.
 */
final class PairChecker {
    /** Records of table n a chunk holds, checked on one thread (tests lower it). */
    static int chunkRecords = 16384;
    /** Child tables above this many records get the 3-byte bucket index (tests lower it). */
    static long wideIndexAbove = 1 << 20;

    private final TableCheck check;
    private final int n;
    private final PeerSource parents;
    private final PeerSource children; // null when table n+1 is not given
    private final long rangeRecords;
    private final ExecutorService pool;
    private final int threads;
    private final Path tmp;
    private final PrintStream progress;
    /** The records of table n read: from readBase, readLimit of them (−1: to the table's end). */
    private long readBase, readLimit = -1;

    // The child range of the current pass.
    /** Per child: (order key without its bucket bytes) << 16 | child info; sorted. */
    private long[] entries;
    private int count;
    private int[] bucketStart;
    private int bucketBytes;
    private long suffixMask;
    /** The engine's answers for the range it holds (read-only while a pass runs). */
    private final ChildLookup lookup = this::answer;

    /** children: the source of table n+1 when check.childGiven, else ignored. */
    PairChecker(TableCheck check, PeerSource parents, PeerSource children, long rangeRecords,
            ExecutorService pool, int threads, Path tmp, PrintStream progress) {
        this.check = check;
        this.n = check.n;
        this.parents = parents;
        this.children = check.childGiven ? children : null;
        this.rangeRecords = Math.max(1, rangeRecords);
        this.pool = pool;
        this.threads = threads;
        this.tmp = tmp;
        this.progress = progress;
        if (check.slice() != null) {
            readBase = check.slice().base();
            readLimit = check.slice().last() ? -1 : check.slice().count();
        }
    }

    /** Reads other records of table n than its slice's (tests of a faulty engine). */
    PairChecker reading(long base, long limit) {
        readBase = base;
        readLimit = limit;
        return this;
    }

    TableResult run() throws IOException, InterruptedException {
        long start = System.nanoTime();
        TableResult res = new TableResult(n);
        boolean childGiven = children != null;
        long childCount = 0;
        if (childGiven) {
            long sz = children.byteSize(n + 1);
            childCount = sz < 0 ? -1 : sz / RECORD_BYTES;
        }
        int passes = !childGiven ? 1 : (int) Math.max(1, (childCount + rangeRecords - 1) / rangeRecords);
        long parentSize = parents.byteSize(n);
        long parentCount = parentSize < 0 ? -1 : parentSize / RECORD_BYTES - readBase;
        if (readLimit >= 0) parentCount = readLimit;

        InputStream childIn = childGiven ? children.open(n + 1) : null;
        ChildCursor cursor = childGiven ? new ChildCursor(childIn, check.children()) : null;
        Path stateIn = null;
        try {
            for (int pass = 0; ; pass++) {
                ChildRange range = null;
                if (childGiven) {
                    range = loadRange(cursor, pass == 0);
                    if (range == null) { // table n+1 broke a rule (the kernel has it)
                        res.passes = pass + 1;
                        break;
                    }
                    res.childRecords += count;
                }
                boolean last = range == null || range.last;
                boolean multi = !(pass == 0 && last);
                Path stateOut = multi && !last ? Files.createTempFile(tmp, "peer-state-" + n + "-", ".bin") : null;
                int passesShown = Math.max(passes, pass + 1);
                runPass(check.pass(range, childGiven ? lookup : null), stateIn, stateOut, parentCount, passesShown);
                if (stateIn != null) Files.deleteIfExists(stateIn);
                stateIn = stateOut;
                res.passes = pass + 1;
                if (last) break;
            }
        } finally {
            if (childIn != null) childIn.close();
            if (stateIn != null) Files.deleteIfExists(stateIn);
            entries = null;
            bucketStart = null;
        }
        check.end();
        res.records = check.records();
        res.region = check.region();
        res.auxiliary = check.auxiliary();
        res.frontierRecords = check.frontierRecords();
        res.frontierChildren = check.frontierChildren();
        res.violation = violation(check.finding());
        res.seconds = (System.nanoTime() - start) / 1e9;
        return res;
    }

    /** A kernel finding as the report shows it. */
    static PeerViolation violation(PeerFinding f) {
        if (f == null) return null;
        String where = f.hasPosition() ? PeerCodec.obf(f.mover(), f.opp()) : null;
        return new PeerViolation(f.rule(), f.table(), f.record(), where, f.message());
    }

    // ---- child ranges ----------------------------------------------------------------------

    /** Streams table n+1 once over all passes, each record admitted by the kernel. */
    private static final class ChildCursor {
        final InputStream in;
        final ChildTable table;
        final byte[] rec = new byte[RECORD_BYTES];
        boolean pending; // rec was admitted but not yet placed (first of the next range)
        long pendingKey;
        int pendingInfo;
        boolean eof, failed;

        ChildCursor(InputStream in, ChildTable table) {
            this.in = in;
            this.table = table;
        }

        /** Reads and admits the next record; false at the end or when it broke a rule. */
        boolean next() throws IOException {
            int got = readFully(in, rec, 0, RECORD_BYTES);
            if (got == 0) {
                eof = true;
                return false;
            }
            if (!table.admit(rec, 0, got)) {
                failed = eof = true;
                return false;
            }
            pendingKey = table.key();
            pendingInfo = table.info();
            pending = true;
            return true;
        }
    }

    /** Loads the next range of table n+1; null when a record of it broke a rule. */
    private ChildRange loadRange(ChildCursor c, boolean first) throws IOException {
        int cap = (int) Math.min(rangeRecords, Integer.MAX_VALUE - 16);
        if (entries == null) {
            long sz = children.byteSize(n + 1);
            int initial = sz < 0 ? Math.min(cap, 1 << 16) : (int) Math.min(cap, sz / RECORD_BYTES + 1);
            entries = new long[Math.max(1, initial)];
            // The bucket width fixes how many key bits each entry keeps, so it is chosen up front.
            bucketBytes = sz < 0 || sz / RECORD_BYTES > wideIndexAbove ? 3 : 2;
            suffixMask = bucketBytes == 3 ? (1L << 40) - 1 : (1L << 48) - 1;
        }
        count = 0;
        int buckets = bucketBytes == 3 ? 243 * 243 * 243 : 243 * 243;
        if (bucketStart == null || bucketStart.length != buckets + 1) bucketStart = new int[buckets + 1];
        int nextBucket = 0;
        if (first && !c.pending && !c.eof) c.next();
        while (c.pending) {
            if (count == cap) break;
            if (count == entries.length) {
                int grow = (int) Math.min(cap, (long) entries.length * 2);
                entries = java.util.Arrays.copyOf(entries, grow);
            }
            // Keys arrive sorted, so the bucket index is filled as they come.
            int bi = bucketOf(c.pendingKey);
            while (nextBucket <= bi) bucketStart[nextBucket++] = count;
            entries[count] = (c.pendingKey & suffixMask) << 16 | (c.pendingInfo & 0xFFFF);
            count++;
            c.pending = false;
            if (!c.eof) c.next();
            if (c.failed) return null;
        }
        if (c.failed) return null;
        while (nextBucket <= buckets) bucketStart[nextBucket++] = count;
        // A record read but not placed starts the next range: this one is not the last.
        return c.table.range(!c.pending);
    }

    /** Buckets by the leading base-3 bytes of the key: a short binary search within a bucket. */
    private int bucketOf(long key) {
        int b0 = (int) (key >>> 56), b1 = (int) (key >>> 48) & 0xFF;
        if (bucketBytes == 2) return b0 * 243 + b1;
        return (b0 * 243 + b1) * 243 + ((int) (key >>> 40) & 0xFF);
    }

    /**
     * The engine's answer for key: the record of the range it holds with that key, its key
     * rebuilt from the bucket and the suffix kept, what a parent needs of it, its index.
     */
    private boolean answer(long key, ChildLookup.Answer a) {
        int b = bucketOf(key);
        int at = find(b, key);
        if (at < 0) return false;
        long prefix = bucketBytes == 2 ? (long) (b / 243) << 56 | (long) (b % 243) << 48
                : (long) (b / (243 * 243)) << 56 | (long) (b / 243 % 243) << 48 | (long) (b % 243) << 40;
        a.key = prefix | entries[at] >>> 16;
        a.info = (int) (entries[at] & 0xFFFF);
        a.index = at;
        return true;
    }

    /** Index of key in the loaded range, or −1. */
    private int find(int b, long key) {
        long suffix = key & suffixMask;
        int lo = bucketStart[b], hi = bucketStart[b + 1] - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = Long.compare(entries[mid] >>> 16, suffix);
            if (c < 0) lo = mid + 1;
            else if (c > 0) hi = mid - 1;
            else return mid;
        }
        return -1;
    }

    // ---- passes over the parents -----------------------------------------------------------

    private void runPass(ParentPass pass, Path stateIn, Path stateOut, long parentCount, int passes)
            throws IOException, InterruptedException {
        try (InputStream in = parents.openAt(n, readBase);
             InputStream sin = stateIn == null ? null : new BufferedInputStream(Files.newInputStream(stateIn), 1 << 16);
             OutputStream sout = stateOut == null ? null : new BufferedOutputStream(Files.newOutputStream(stateOut), 1 << 16)) {
            ArrayDeque<Future<Chunk>> inFlight = new ArrayDeque<>();
            long index = 0;
            long lastReport = System.nanoTime(), startNs = lastReport;
            int trailing = 0;
            long left = readLimit < 0 ? Long.MAX_VALUE : readLimit * RECORD_BYTES;
            while (left > 0) {
                byte[] buf = new byte[chunkRecords * RECORD_BYTES];
                int want = (int) Math.min(buf.length, left);
                int got = readFully(in, buf, 0, want);
                left -= got;
                if (got == 0) break;
                int recs = got / RECORD_BYTES;
                trailing = got % RECORD_BYTES;
                byte[] state = new byte[recs];
                if (sin != null && readFully(sin, state, 0, recs) != recs) throw new IOException("state file shorter than table " + n);
                if (recs > 0) {
                    Chunk chunk = pass.chunk(buf, recs, state);
                    inFlight.add(pool.submit(() -> {
                        chunk.run();
                        return chunk;
                    }));
                }
                index += recs;
                while (inFlight.size() >= threads * 2 || (!inFlight.isEmpty() && inFlight.peek().isDone())) {
                    collect(pass, inFlight.poll(), sout);
                }
                if (progress != null && System.nanoTime() - lastReport > 2_000_000_000L) {
                    lastReport = System.nanoTime();
                    reportProgress(pass.index(), passes, index, parentCount, (lastReport - startNs) / 1e9);
                }
                if (trailing != 0 || got < want) break;
            }
            while (!inFlight.isEmpty()) collect(pass, inFlight.poll(), sout);
            pass.end(trailing);
        }
    }

    private void reportProgress(int pass, int passes, long done, long total, double secs) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("table %d: pass %d/%d, %,d", n, pass + 1, passes, done));
        if (total > 0) {
            double frac = (double) done / total;
            double overall = (pass + frac) / passes;
            sb.append(String.format(" of %,d records (%.1f%%)", total, 100 * frac));
            double rate = done / Math.max(secs, 1e-9);
            double remaining = ((passes - pass) * (double) total - done) / Math.max(rate, 1e-9);
            sb.append(String.format(", %.0f records/s, table %.0f%% done, ETA %s", rate, 100 * overall, eta(remaining)));
        }
        progress.println(sb);
    }

    static String eta(double s) {
        long t = Math.round(s);
        if (t >= 3600) return String.format("%dh%02dm", t / 3600, t / 60 % 60);
        if (t >= 60) return String.format("%dm%02ds", t / 60, t % 60);
        return t + "s";
    }

    private void collect(ParentPass pass, Future<Chunk> f, OutputStream sout) throws IOException, InterruptedException {
        Chunk c;
        try {
            c = f.get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IOException("internal failure while checking table " + n + ": " + e.getCause(), e.getCause());
        }
        pass.endChunk(c);
        if (sout != null) sout.write(c.state());
    }

    static int readFully(InputStream in, byte[] b, int off, int len) throws IOException {
        int total = 0;
        while (total < len) {
            int r = in.read(b, off + total, len - total);
            if (r < 0) break;
            total += r;
        }
        return total;
    }
}

package org.gamecert.verifier.peer;

import static org.gamecert.verifier.peer.PeerCodec.ALL;
import static org.gamecert.verifier.peer.PeerCodec.ALLP;
import static org.gamecert.verifier.peer.PeerCodec.CUT;
import static org.gamecert.verifier.peer.PeerCodec.EXACT_KINDS;
import static org.gamecert.verifier.peer.PeerCodec.MAX_VALUE;
import static org.gamecert.verifier.peer.PeerCodec.PV;
import static org.gamecert.verifier.peer.PeerCodec.PVP;
import static org.gamecert.verifier.peer.PeerCodec.RECORD_BYTES;
import static org.gamecert.verifier.peer.LegacyPeerObligations.BAD;
import static org.gamecert.verifier.peer.LegacyPeerObligations.OPEN;
import static org.gamecert.verifier.peer.LegacyPeerObligations.OPEN_EX;

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
import org.gamecert.verifier.kernel.rules.OthelloRules;

/**
 * The checker as it was before the peer kernel (issue 17), kept for PeerDifferentialTest.
 *
 * <p>Checks every record of table n against table n+1 in bounded memory.
 *
 * <p>Table n+1 is split into consecutive key ranges of at most {@code rangeRecords} records, each
 * held as one sorted {@code long} per record (8 bytes): the order key's bytes below a bucket index
 * on its leading base-3 bytes, and 16 bits of what a parent needs from a child. For each range, table n is streamed once and every record's
 * children are regenerated (CPU is cheaper than the disk a materialized child list would take);
 * children whose key falls in the range are looked up. What a parent learnt so far is one byte
 * (existential obligations met, open frontier), kept in a sequential file from pass to pass.
 * Universal obligations fail on the move that breaks them, so they need no state. The rules
 * themselves are LegacyPeerObligations' pure functions; this class reads, partitions and looks up.
 */
final class LegacyPairChecker {
    static final int CHUNK = 16384;
    /** Child tables above this many records get the 3-byte bucket index (tests lower it). */
    static long wideIndexAbove = 1 << 20;

    private final OthelloRules rules = new OthelloRules(6);
    private final int n;
    private final PeerSource parents;
    private final PeerSource children; // null when table n+1 is not given
    private final long rangeRecords;
    private final ExecutorService pool;
    private final int threads;
    private final Path tmp;
    private final PrintStream progress;

    // The child range of the current pass.
    /** Per child: (order key without its bucket bytes) << 16 | child info; sorted. */
    private long[] entries;
    private int count;
    private int[] bucketStart;
    private int bucketBytes;
    private long suffixMask;
    private long rangeLo, rangeHi; // [lo, hi) unsigned; hasHi false for the last range
    private boolean hasLo, hasHi;

    LegacyPairChecker(int n, PeerSource parents, PeerSource children, long rangeRecords, ExecutorService pool, int threads,
            Path tmp, PrintStream progress) {
        this.n = n;
        this.parents = parents;
        this.children = children;
        this.rangeRecords = Math.max(1, rangeRecords);
        this.pool = pool;
        this.threads = threads;
        this.tmp = tmp;
        this.progress = progress;
    }

    TableResult run() throws IOException, InterruptedException {
        long start = System.nanoTime();
        TableResult res = new TableResult(n);
        boolean terminalNext = n + 1 >= PeerCodec.CELLS;
        boolean childGiven = children != null && !terminalNext;
        long childCount = 0;
        if (childGiven) {
            long sz = children.byteSize(n + 1);
            childCount = sz < 0 ? -1 : sz / RECORD_BYTES;
        }
        int passes = !childGiven ? 1 : (int) Math.max(1, (childCount + rangeRecords - 1) / rangeRecords);
        long parentSize = parents.byteSize(n);
        long parentCount = parentSize < 0 ? -1 : parentSize / RECORD_BYTES;
        res.passes = 0;

        InputStream childIn = childGiven ? children.open(n + 1) : null;
        ChildCursor cursor = childGiven ? new ChildCursor(childIn, n + 1) : null;
        Path stateIn = null;
        try {
            for (int pass = 0; ; pass++) {
                boolean last;
                if (childGiven) {
                    if (!loadRange(cursor, pass == 0)) {
                        res.violation = PeerViolation.first(res.violation, cursor.violation);
                        res.passes = pass + 1;
                        return res;
                    }
                    res.childRecords += count;
                    last = !hasHi;
                } else {
                    count = 0;
                    last = true;
                }
                if (cursor != null && cursor.violation != null) res.violation = PeerViolation.first(res.violation, cursor.violation);
                boolean multi = !(pass == 0 && last);
                Path stateOut = multi && !last ? Files.createTempFile(tmp, "peer-state-" + n + "-", ".bin") : null;
                int passesShown = Math.max(passes, pass + 1);
                runPass(res, pass, last, childGiven, terminalNext, stateIn, stateOut, parentCount, passesShown);
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
        res.seconds = (System.nanoTime() - start) / 1e9;
        return res;
    }

    // ---- child ranges ----------------------------------------------------------------------

    /** Streams table n+1 once over all passes, handing out consecutive ranges of records. */
    private final class ChildCursor {
        final InputStream in;
        final int layer;
        final byte[] rec = new byte[RECORD_BYTES];
        final long[] pos = new long[2];
        long index; // records consumed
        boolean pending; // rec holds a record read but not yet placed (first of the next range)
        long pendingKey;
        short pendingInfo;
        boolean eof;
        long prevKey;
        boolean hasPrev;
        PeerViolation violation;

        ChildCursor(InputStream in, int layer) {
            this.in = in;
            this.layer = layer;
        }

        /** Reads the next record into pendingKey/pendingInfo; false at the end or on a fatal error. */
        boolean next() throws IOException {
            int got = readFully(in, rec, 0, RECORD_BYTES);
            if (got == 0) {
                eof = true;
                return false;
            }
            long i = index++;
            if (got < RECORD_BYTES || rec[12] != '\n') {
                fail(PeerRules.REC_1, i, null, got < RECORD_BYTES ? "table ends inside a record (size not a multiple of 13)" : "record does not end with a newline");
                return false;
            }
            if (!PeerCodec.decodeKey(rec, 0, pos)) {
                fail(PeerRules.REC_2, i, null, "key characters do not encode a 6×6 position");
                return false;
            }
            long key = PeerCodec.orderKey(pos[0], pos[1]);
            if (hasPrev && Long.compareUnsigned(key, prevKey) <= 0) {
                fail(PeerRules.ORDER_1, i, PeerCodec.obf(pos[0], pos[1]), "encode_bb not greater than the previous record's");
                return false;
            }
            hasPrev = true;
            prevKey = key;
            int kind = PeerCodec.symbol(rec[9]), lb = PeerCodec.symbol(rec[10]) - MAX_VALUE, ub = PeerCodec.symbol(rec[11]) - MAX_VALUE;
            if (kind < 1 || kind > 31 || lb < -MAX_VALUE || lb > MAX_VALUE || ub < -MAX_VALUE || ub > MAX_VALUE) {
                fail(PeerRules.REC_3, i, PeerCodec.obf(pos[0], pos[1]), "kind or bound character out of range");
                return false;
            }
            if (lb > ub || ((kind & EXACT_KINDS) != 0 && lb != ub)) {
                fail(PeerRules.REC_4, i, PeerCodec.obf(pos[0], pos[1]), "bounds [" + lb + ", " + ub + "] for kind " + PeerCodec.kindText(kind));
                return false;
            }
            pendingKey = key;
            pendingInfo = childInfo(kind, lb, ub);
            pending = true;
            return true;
        }

        void fail(String rule, long i, String position, String msg) {
            violation = PeerViolation.first(violation, new PeerViolation(rule, layer, i, position, msg + " (found while loading it as the child table of " + n + ")"));
            eof = true;
        }
    }

    /** What a parent needs of a child: exact flag, value or bounds, and its P/A'/P' bits. */
    static short childInfo(int kind, int lb, int ub) {
        if ((kind & EXACT_KINDS) != 0) return (short) (0x8000 | (kind & EXACT_KINDS) << 7 | (lb + MAX_VALUE));
        // A stored bound is evidence only when a kind bit obliges the child to prove it: CUT proves
        // the lower bound, ALL the upper one. The other field of a CUT-only or ALL-only record is
        // never checked, so a parent must not lean on it (it counts as the utility's range).
        int provenLb = (kind & CUT) != 0 ? lb : -MAX_VALUE;
        int provenUb = (kind & ALL) != 0 ? ub : MAX_VALUE;
        return (short) ((provenUb + MAX_VALUE) << 7 | (provenLb + MAX_VALUE));
    }

    private boolean loadRange(ChildCursor c, boolean first) throws IOException {
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
        hasLo = !first;
        int buckets = bucketBytes == 3 ? 243 * 243 * 243 : 243 * 243;
        if (bucketStart == null || bucketStart.length != buckets + 1) bucketStart = new int[buckets + 1];
        int nextBucket = 0;
        if (first && !c.pending && !c.eof) c.next();
        if (c.pending) rangeLo = c.pendingKey;
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
            if (c.violation != null) return false;
        }
        if (c.violation != null) return false;
        hasHi = c.pending;
        if (hasHi) rangeHi = c.pendingKey;
        while (nextBucket <= buckets) bucketStart[nextBucket++] = count;
        return true;
    }

    /** Buckets by the leading base-3 bytes of the key: a short binary search within a bucket. */
    private int bucketOf(long key) {
        int b0 = (int) (key >>> 56), b1 = (int) (key >>> 48) & 0xFF;
        if (bucketBytes == 2) return b0 * 243 + b1;
        return (b0 * 243 + b1) * 243 + ((int) (key >>> 40) & 0xFF);
    }

    private boolean inRange(long key) {
        if (hasLo && Long.compareUnsigned(key, rangeLo) < 0) return false;
        return !hasHi || Long.compareUnsigned(key, rangeHi) < 0;
    }

    /** Index of key in the loaded range, or −1. */
    private int find(long key) {
        int b = bucketOf(key);
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

    /** The record being checked, where LegacyPeerObligations reports a broken rule (one per chunk). */
    private final class RecordFailures implements LegacyPeerObligations.Failures {
        final ChunkResult out;
        long index, mover, opp;

        RecordFailures(ChunkResult out) {
            this.out = out;
        }

        RecordFailures at(long index, long mover, long opp) {
            this.index = index;
            this.mover = mover;
            this.opp = opp;
            return this;
        }

        @Override
        public void fail(String rule, String message) {
            PeerViolation v = new PeerViolation(rule, n, index, PeerCodec.obf(mover, opp), message);
            out.violation = PeerViolation.first(out.violation, v);
        }
    }

    private final class ChunkResult {
        byte[] state;
        long region, aux, frontierRecords, frontierChildren;
        PeerViolation violation;
        byte[] lastRecord;
    }

    private void runPass(TableResult res, int pass, boolean last, boolean childGiven, boolean terminalNext, Path stateIn,
            Path stateOut, long parentCount, int passes) throws IOException, InterruptedException {
        try (InputStream in = parents.open(n);
             InputStream sin = stateIn == null ? null : new BufferedInputStream(Files.newInputStream(stateIn), 1 << 16);
             OutputStream sout = stateOut == null ? null : new BufferedOutputStream(Files.newOutputStream(stateOut), 1 << 16)) {
            ArrayDeque<Future<ChunkResult>> inFlight = new ArrayDeque<>();
            long index = 0;
            byte[] prevRecord = null;
            long lastReport = System.nanoTime(), startNs = lastReport;
            boolean truncated = false;
            while (true) {
                byte[] buf = new byte[CHUNK * RECORD_BYTES];
                int got = readFully(in, buf, 0, buf.length);
                if (got == 0) break;
                int recs = got / RECORD_BYTES;
                if (got % RECORD_BYTES != 0) truncated = true;
                byte[] state = new byte[recs];
                if (sin != null && readFully(sin, state, 0, recs) != recs) throw new IOException("state file shorter than table " + n);
                final long firstIndex = index;
                final byte[] prev = prevRecord;
                final int recCount = recs;
                if (recs > 0) {
                    prevRecord = java.util.Arrays.copyOfRange(buf, (recs - 1) * RECORD_BYTES, recs * RECORD_BYTES);
                    inFlight.add(pool.submit(() -> checkChunk(buf, recCount, state, firstIndex, prev, pass, last, childGiven, terminalNext)));
                }
                index += recs;
                while (inFlight.size() >= threads * 2 || (!inFlight.isEmpty() && inFlight.peek().isDone())) {
                    collect(res, inFlight.poll(), pass, sout);
                }
                if (progress != null && System.nanoTime() - lastReport > 2_000_000_000L) {
                    lastReport = System.nanoTime();
                    reportProgress(pass, passes, index, parentCount, (lastReport - startNs) / 1e9);
                }
                if (truncated || got < buf.length) break;
            }
            while (!inFlight.isEmpty()) collect(res, inFlight.poll(), pass, sout);
            if (pass == 0) {
                res.records = index;
                if (truncated) {
                    res.violation = PeerViolation.first(res.violation,
                            new PeerViolation(PeerRules.REC_1, n, index, null, "table ends inside a record (size not a multiple of 13)"));
                }
            }
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

    private void collect(TableResult res, Future<ChunkResult> f, int pass, OutputStream sout) throws IOException, InterruptedException {
        ChunkResult r;
        try {
            r = f.get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IOException("internal failure while checking table " + n + ": " + e.getCause(), e.getCause());
        }
        if (sout != null) sout.write(r.state);
        if (pass == 0) {
            res.region += r.region;
            res.auxiliary += r.aux;
        }
        res.frontierRecords += r.frontierRecords;
        res.frontierChildren += r.frontierChildren;
        res.violation = PeerViolation.first(res.violation, r.violation);
    }

    // ---- one chunk of parent records -------------------------------------------------------

    private ChunkResult checkChunk(byte[] buf, int recs, byte[] state, long firstIndex, byte[] prevRecord, int pass, boolean last,
            boolean childGiven, boolean terminalNext) {
        ChunkResult out = new ChunkResult();
        RecordFailures failures = new RecordFailures(out);
        out.state = state;
        long[] pos = new long[2];
        long[] can = new long[2];
        long prevKey = 0;
        boolean hasPrev = false;
        if (prevRecord != null && prevRecord[12] == '\n' && PeerCodec.decodeKey(prevRecord, 0, pos)) {
            prevKey = PeerCodec.orderKey(pos[0], pos[1]);
            hasPrev = true;
        }
        for (int r = 0; r < recs; r++) {
            int off = r * RECORD_BYTES;
            long index = firstIndex + r;
            if (pass > 0) {
                // The record's own form was checked in pass 0; only its claims matter now.
                int st = state[r] & 0xFF;
                if ((st & BAD) != 0) continue;
                PeerCodec.decodeKey(buf, off, pos);
                int kind = PeerCodec.symbol(buf[off + 9]), lb = PeerCodec.symbol(buf[off + 10]) - MAX_VALUE, ub = PeerCodec.symbol(buf[off + 11]) - MAX_VALUE;
                st = checkMoves(pos[0], pos[1], kind, lb, ub, st, pass, childGiven, terminalNext,
                        failures.at(index, pos[0], pos[1]), can);
                if (last && (st & BAD) == 0) st = finish(pos[0], pos[1], kind, lb, ub, st, index, out);
                state[r] = (byte) st;
                continue;
            }
            // Decode and check the record's own form; a malformed record is reported once (pass 0).
            String bad = null, badRule = null;
            int kind = 0, lb = 0, ub = 0;
            long mover = 0, opp = 0, key = 0;
            if (buf[off + 12] != '\n') {
                badRule = PeerRules.REC_1;
                bad = "record does not end with a newline";
            } else if (!PeerCodec.decodeKey(buf, off, pos)) {
                badRule = PeerRules.REC_2;
                bad = "key characters do not encode a 6×6 position";
            } else {
                mover = pos[0];
                opp = pos[1];
                key = PeerCodec.orderKey(mover, opp);
                kind = PeerCodec.symbol(buf[off + 9]);
                lb = PeerCodec.symbol(buf[off + 10]) - MAX_VALUE;
                ub = PeerCodec.symbol(buf[off + 11]) - MAX_VALUE;
                if (kind < 1 || kind > 31 || lb < -MAX_VALUE || lb > MAX_VALUE || ub < -MAX_VALUE || ub > MAX_VALUE) {
                    badRule = PeerRules.REC_3;
                    bad = "kind or bound character out of range";
                } else if (lb > ub || ((kind & EXACT_KINDS) != 0 && lb != ub)) {
                    badRule = PeerRules.REC_4;
                    bad = "bounds [" + lb + ", " + ub + "] for kind " + PeerCodec.kindText(kind);
                } else if (Long.bitCount(mover | opp) != n) {
                    badRule = PeerRules.LAY_1;
                    bad = "position has " + Long.bitCount(mover | opp) + " discs, table " + n;
                } else if (hasPrev && Long.compareUnsigned(key, prevKey) <= 0) {
                    badRule = PeerRules.ORDER_1;
                    bad = key == prevKey ? "same position as the previous record" : "encode_bb not greater than the previous record's";
                } else if (!PeerCodec.isCanonical(mover, opp)) {
                    badRule = PeerRules.KEY_1;
                    PeerCodec.canonical(mover, opp, can);
                    bad = "key " + PeerCodec.keyText(mover, opp) + " is not canonical (canonical: " + PeerCodec.keyText(can[0], can[1]) + ")";
                } else if (((mover | opp) & CENTRE) != CENTRE) {
                    badRule = PeerRules.POS_1;
                    bad = "a centre square is empty";
                } else if (rules.legalMoves(mover, opp) == 0) {
                    badRule = PeerRules.POS_2;
                    bad = rules.legalMoves(opp, mover) == 0 ? "terminal position stored" : "side to move must pass (should be contracted)";
                }
            }
            if (!PeerRules.REC_1.equals(badRule) && !PeerRules.REC_2.equals(badRule)) {
                hasPrev = true;
                prevKey = key;
            }
            if (bad != null) {
                if (pass == 0) {
                    String where = PeerRules.REC_1.equals(badRule) || PeerRules.REC_2.equals(badRule) ? null : PeerCodec.obf(mover, opp);
                    out.violation = PeerViolation.first(out.violation, new PeerViolation(badRule, n, index, where, bad));
                }
                state[r] = (byte) BAD;
                continue;
            }
            if (pass == 0) {
                if ((kind & EXACT_KINDS) != 0) out.region++;
                else out.aux++;
            }
            int st = state[r] & 0xFF;
            if ((st & BAD) != 0) continue;
            st = checkMoves(mover, opp, kind, lb, ub, st, pass, childGiven, terminalNext,
                    failures.at(index, mover, opp), can);
            if (last && (st & BAD) == 0) st = finish(mover, opp, kind, lb, ub, st, index, out);
            state[r] = (byte) st;
        }
        return out;
    }

    private static final long CENTRE = (1L << 14) | (1L << 15) | (1L << 20) | (1L << 21);

    /** Applies every move of the record whose child this pass can answer. */
    private int checkMoves(long mover, long opp, int kind, int lb, int ub, int st, int pass, boolean childGiven,
            boolean terminalNext, RecordFailures failures, long[] can) {
        int v = lb; // exact kinds have lb = ub
        long moves = rules.legalMoves(mover, opp);
        int frontierMoves = 0;
        while (moves != 0) {
            int sq = Long.numberOfTrailingZeros(moves);
            moves &= moves - 1;
            long f = rules.flips(mover, opp, sq);
            long m2 = mover | f | (1L << sq), o2 = opp & ~f;
            int lo, hi, serveA, serveP, servePp;
            boolean frontier = false;
            int sign;
            long cm, co;
            if (!terminalNext && rules.legalMoves(o2, m2) != 0) {
                sign = -1;
                cm = o2;
                co = m2;
            } else if (!terminalNext && rules.legalMoves(m2, o2) != 0) {
                sign = 1;
                cm = m2;
                co = o2;
            } else {
                if (pass != 0) continue;
                lo = hi = rules.terminalValue(m2, o2);
                serveA = serveP = servePp = 1;
                st = LegacyPeerObligations.apply(kind, v, lb, ub, lo, hi, 1, 1, 1, false, st, sq, failures);
                continue;
            }
            int childKind = 0, clb = -MAX_VALUE, cub = MAX_VALUE;
            if (!childGiven) {
                if (pass != 0) continue;
                frontier = true;
                frontierMoves++;
            } else {
                PeerCodec.canonical(cm, co, can);
                long key = PeerCodec.orderKey(can[0], can[1]);
                if (!inRange(key)) continue;
                int at = find(key);
                if (at >= 0) {
                    int inf = (int) (entries[at] & 0xFFFF);
                    if ((inf & 0x8000) != 0) {
                        childKind = (inf >>> 7) & 7;
                        clb = cub = (inf & 0x7F) - MAX_VALUE;
                    } else {
                        clb = (inf & 0x7F) - MAX_VALUE;
                        cub = ((inf >>> 7) & 0x7F) - MAX_VALUE;
                    }
                }
            }
            if (sign < 0) {
                lo = -cub;
                hi = -clb;
                serveA = (childKind & (PV | ALLP)) != 0 ? 1 : 0;
                servePp = (childKind & (PV | PVP)) != 0 ? 1 : 0;
            } else {
                // Through a contracted pass the needs map P→P, A'→P', P'→A'.
                lo = clb;
                hi = cub;
                serveA = (childKind & (PV | PVP)) != 0 ? 1 : 0;
                servePp = (childKind & (PV | ALLP)) != 0 ? 1 : 0;
            }
            serveP = (childKind & PV) != 0 ? 1 : 0;
            st = LegacyPeerObligations.apply(kind, v, lb, ub, lo, hi, serveA, serveP, servePp, frontier, st, sq, failures);
        }
        if (frontierMoves > 0) st |= frontierMoves << 8; // carried only within this call (pass 0 of a frontier table)
        return st;
    }

    /** After the last pass: existential obligations met, or open on the frontier, or broken. */
    private int finish(long mover, long opp, int kind, int lb, int ub, int st, long index, ChunkResult out) {
        boolean open = (st & OPEN) != 0, mayOpen = (st & OPEN_EX) != 0;
        int frontierMoves = st >>> 8;
        st &= 0xFF;
        String[] unmet = LegacyPeerObligations.unmet(kind, lb, st);
        if (unmet != null) {
            if (mayOpen) open = true;
            else {
                out.violation = PeerViolation.first(out.violation, new PeerViolation(unmet[0], n, index, PeerCodec.obf(mover, opp), unmet[1]));
                return st | BAD;
            }
        }
        if (open) {
            out.frontierRecords++;
            out.frontierChildren += frontierMoves;
        }
        return st;
    }

    static String squareName(int sq) {
        // The peer's 8×8 naming: compact (r, c) is at file B + c, rank 2 + r.
        return "" + (char) ('b' + sq % 6) + (char) ('2' + sq / 6);
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

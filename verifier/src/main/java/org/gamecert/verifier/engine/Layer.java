package org.gamecert.verifier.engine;

import org.gamecert.verifier.kernel.format.Payload;

/**
 * One layer's entries in key order, in primitive arrays (no object per entry). The key (occ,
 * mover) is two adjacent longs; the kind, the bounds lo, hi and the move go into the mover's
 * unused high bits when the board leaves room (16 bytes per entry: Othello 4×4 and 6×6, Connect
 * Four up to W·(H+1) = 53), else into an int[] (20 bytes per entry: Othello 8×8).
 */
final class Layer {
    static final int MAX_ENTRIES = (Integer.MAX_VALUE >> 1) - 16; // keys of one table in one long[]
    int discs = -1;
    int size;
    private long[] keys = new long[0]; // occ, mover (| packed fields) of entry i at 2i, 2i+1
    private int[] data;                // kind | lo << 8 | hi << 16 | move << 24, when not packed
    private final int shiftData, width, moveBits; // packed: fields from bit shiftData, lo and hi are width bits
    /** Packed: bits of the kind, 5 (P, A', P', A, C), or 6 in a part (O, SPEC §5.4, as bit 5). */
    private final int kindBits;
    private final long moverMask, fieldMask;

    /** boardBits: 64 - leading zeros of the board mask; width: bits for a signed bound; moveBits: for a move code. */
    Layer(int boardBits, int width, int moveBits) {
        this(boardBits, width, moveBits, false);
    }

    /** openKinds: the certificate is a part, whose kinds may have the bit O. */
    Layer(int boardBits, int width, int moveBits, boolean openKinds) {
        this.width = width;
        this.moveBits = moveBits;
        kindBits = openKinds ? 6 : 5;
        boolean packed = boardBits + kindBits + 2 * width + moveBits <= 64;
        shiftData = packed ? boardBits : -1;
        moverMask = packed ? (1L << boardBits) - 1 : -1L;
        fieldMask = (1L << width) - 1;
        data = packed ? null : new int[0];
    }

    int bytesPerEntry() {
        return data == null ? 16 : 20;
    }

    long occ(int i) {
        return keys[2 * i];
    }

    long mover(int i) {
        return keys[2 * i + 1] & moverMask;
    }

    private long fields(int i) {
        return data == null ? keys[2 * i + 1] >>> shiftData : data[i] & 0xFFFFFFL;
    }

    int kind(int i) {
        if (data != null) return data[i] & 0xFF;
        int f = (int) fields(i);
        return (f & 0x1F) | (kindBits == 6 ? (f & 0x20) << 1 : 0); // bit 5 holds O (0x40)
    }

    int lo(int i) {
        return data == null ? signed(fields(i) >>> kindBits) : (byte) (data[i] >>> 8);
    }

    int hi(int i) {
        return data == null ? signed(fields(i) >>> (kindBits + width)) : (byte) (data[i] >>> 16);
    }

    /** The stored move (meaningful for kinds with a move). */
    int move(int i) {
        return data == null ? (int) (fields(i) >>> (kindBits + 2 * width) & ((1 << moveBits) - 1)) : data[i] >>> 24;
    }

    /** Entries [from, from + n) as a decoded block (into reuse when it is long enough). */
    Payload slice(int from, int n, Payload reuse) {
        Payload p = reuse != null && reuse.occ.length >= n ? reuse : new Payload(n);
        p.count = n;
        for (int j = 0; j < n; j++) {
            int i = from + j, k = kind(i);
            p.occ[j] = occ(i);
            p.mover[j] = mover(i);
            p.kind[j] = (byte) k;
            p.lo[j] = (byte) lo(i);
            p.hi[j] = (byte) hi(i);
            p.move[j] = (byte) (Payload.hasMove(k) ? move(i) : -1);
        }
        return p;
    }

    private int signed(long f) {
        long v = f & fieldMask;
        return (int) (v << (64 - width) >> (64 - width));
    }

    void add(long occ, long mover, int kind, int lo, int hi, int move) {
        int i = size++;
        keys[2 * i] = occ;
        if (data == null) {
            long k = (kind & 0x1F) | (kindBits == 6 ? (kind & 0x40) >>> 1 : 0); // O as bit 5
            long f = k | (lo & fieldMask) << kindBits | (hi & fieldMask) << (kindBits + width)
                    | (move & ((1L << moveBits) - 1)) << (kindBits + 2 * width);
            keys[2 * i + 1] = mover | f << shiftData;
        } else {
            keys[2 * i + 1] = mover;
            data[i] = (kind & 0xFF) | (lo & 0xFF) << 8 | (hi & 0xFF) << 16 | move << 24;
        }
    }

    // Bucket index over the sorted keys: bucket(key) = (project(key) - min) >>> shift is monotone,
    // so bucket b's entries are [start[b], start[b+1]); about 4 entries per bucket, 1 byte per
    // entry. project is the occupancy, except in a layer of few distinct occupancies (at most one
    // in 16 entries: Connect Four's layers, deep Othello layers), where it is the occupancy's rank
    // among them, then the mover's bits at the occupied cells (moverPart).
    private int[] start = new int[0];
    // the distinct occupancies' ranks, when few: a hash table (open addressing, at most half full)
    // by a multiplier drawn per run, so that no input can be made to collide
    private static final long RUN_HASH = new java.security.SecureRandom().nextLong() | 1;
    // slot h: the occupancy at 2h, its rank + 1 at 2h + 1 (0: empty), one cache line a probe
    private long[] runTable = new long[0];
    private int runs, runBits; // runs = 0: project by the occupancy
    private boolean indexed;
    private long minKey, span;
    private int shift;
    private int bucketBits; // the index has 2^bucketBits buckets

    void reset(int discs) {
        this.discs = discs;
        size = 0;
        indexed = false;
    }

    /** Builds the bucket index once the layer is complete. */
    void index(Budget budget) {
        indexed = false;
        if (size < 64) return;
        // Keys out of order break R-LAY-3, which the layer's own slices report; the engine reads
        // the layer before they do (to answer the layer above), and the bucket index holds only
        // for increasing keys: without one, find is a binary search that may miss, never fails.
        for (int i = 1; i < size; i++)
            if (!increases(i)) return;
        int bits = 64 - Long.numberOfLeadingZeros(size / 4);
        int buckets = 1 << bits;
        bucketBits = bits;
        if (start.length < buckets + 1) {
            budget.resize(start.length * 4L, (buckets + 1) * 4L, discs);
            start = new int[buckets + 1];
        }
        int distinct = 1;
        for (int i = 1; i < size && distinct <= size >> RUN_ENTRIES_BITS; i++)
            if (keys[2 * i] != keys[2 * i - 2]) distinct++;
        runs = 0;
        if (distinct <= size >> RUN_ENTRIES_BITS) {
            runBits = 65 - Long.numberOfLeadingZeros(distinct);
            budget.resize(runTable.length * 8L, 16L << runBits, discs);
            runTable = new long[2 << runBits];
            for (int i = 0; i < size; i++) {
                if (i > 0 && keys[2 * i] == keys[2 * i - 2]) continue;
                int h = runSlot(keys[2 * i]);
                while (runTable[2 * h + 1] != 0) h = (h + 1) & ((1 << runBits) - 1);
                runTable[2 * h] = keys[2 * i];
                runTable[2 * h + 1] = ++runs;
            }
        }
        minKey = project(0, 0);
        span = project(size - 1, runs - 1) - minKey;
        shift = Math.max(0, 64 - Long.numberOfLeadingZeros(span) - bits);
        int b = 0;
        for (int i = 0, r = 0; i < size; i++) {
            if (runs > 0 && i > 0 && keys[2 * i] != keys[2 * i - 2]) r++;
            int bi = (int) ((project(i, r) - minKey) >>> shift);
            // a mover with a bit outside its occupancy (a broken entry; its slice reports it) can
            // make moverPart decrease: no index then, as for keys out of order
            if (bi < b - 1) return;
            while (b <= bi) start[b++] = i;
        }
        while (b <= buckets) start[b++] = size;
        indexed = true;
    }

    /** Entry i's key comes strictly after entry i - 1's: unsigned occ, then unsigned mover. */
    private boolean increases(int i) {
        long o = keys[2 * i], before = keys[2 * i - 2];
        return o != before ? Long.compareUnsigned(o, before) > 0
                : Long.compareUnsigned(mover(i), mover(i - 1)) > 0;
    }

    private int runSlot(long occ) {
        return (int) ((occ * RUN_HASH) >>> (64 - runBits));
    }

    /** The projection of entry i, whose occupancy is the r-th distinct one. */
    private long project(int i, int r) {
        return runs == 0 ? keys[2 * i] : (long) r << MOVER_BITS | moverPart(keys[2 * i], mover(i));
    }

    /** Ranks take the top 64 - MOVER_BITS bits of a projection, moverPart the rest. */
    private static final int MOVER_BITS = 37;

    /** Occupancies ranked when the layer has at least 2^this entries an occupancy. */
    private static final int RUN_ENTRIES_BITS = 4;

    /**
     * The mover's bits at the top PART_BITS occupied cells of o (all when fewer), in order (a
     * parallel bits extract, cut), at the top of MOVER_BITS bits. Monotone in the mover among
     * movers within o, and dense where the mover's own top bits are not: those are a few cells of
     * the board (Connect Four's last column), which many positions of one occupancy share, and
     * buckets by them held about 3,000 entries a lookup on `44` (8.8 probes a lookup); by these,
     * about 160 (5.3; docs/benchmarks.md). A bucket of a rank needs only its top bits (a run of
     * 2^k entries spreads over about 2^(k-2) buckets), so the extract stops at PART_BITS.
     */
    static long moverPart(long o, long m) {
        long bits = 0;
        int have = 0;
        for (int shift = 56; shift >= 0 && have < PART_BITS; shift -= 8) {
            int occupied = (int) (o >>> shift) & 0xFF;
            if (occupied == 0) continue;
            int n = Integer.bitCount(occupied);
            bits = bits << n | EXTRACT[occupied << 8 | (int) (m >>> shift) & 0xFF] & 0xFF;
            have += n;
        }
        return have <= PART_BITS ? bits << (MOVER_BITS - have)
                : bits >>> (have - PART_BITS) << (MOVER_BITS - PART_BITS);
    }

    /** The occupied cells whose bits moverPart keeps, at most. */
    static final int PART_BITS = 20;

    /** EXTRACT[o << 8 | m]: the bits of byte m at the set bits of byte o, packed low. */
    private static final byte[] EXTRACT = new byte[1 << 16];

    static { // m's lowest bit b goes where o's bits below b end, if o has b; the rest as m - b
        for (int o = 0; o < 256; o++)
            for (int m = 1; m < 256; m++) {
                int low = m & -m, bit = (o & low) == 0 ? 0 : 1 << Integer.bitCount(o & (low - 1));
                EXTRACT[o << 8 | m] = (byte) (EXTRACT[o << 8 | (m & (m - 1))] | bit);
            }
    }

    /** Room for needed entries; grows by half again unless exact (a segment of known size). */
    void ensure(int needed, Budget budget, boolean exact) {
        int have = keys.length / 2;
        if (needed <= have) return;
        long grown = exact ? needed : Math.max((long) needed, have + (have >> 1));
        long cap = Math.max(exact ? needed : 1024, Math.min(MAX_ENTRIES, grown));
        budget.resize(have * (long) bytesPerEntry(), cap * bytesPerEntry(), discs);
        int c = (int) cap;
        keys = java.util.Arrays.copyOf(keys, 2 * c);
        if (data != null) data = java.util.Arrays.copyOf(data, c);
    }

    /** The bytes this table's arrays take. */
    long bytes() {
        return keys.length / 2 * (long) bytesPerEntry() + start.length * 4L + runTable.length * 8L;
    }

    /** Gives the table's memory back (a layer too big to hold, or a segment no longer needed). */
    void release(Budget budget) {
        budget.resize(bytes(), 0, discs);
        keys = new long[0];
        if (data != null) data = new int[0];
        start = new int[0];
        runTable = new long[0];
        size = 0;
        indexed = false;
    }

    /** Index of the key, or -1. Keys are strictly increasing (unsigned occ, then mover). */
    int find(long o, long m) {
        int b = bucket(o, m);
        return b < 0 ? -1 : findIn(b, o, m);
    }

    /**
     * The bucket of the index the key would be in (find's first step), or -1 when it surely is
     * not in the table; 0 when the table has no index. Buckets increase with the key, so lookups
     * made in the order of their buckets walk the table forward (SliceEngine.answer).
     */
    int bucket(long o, long m) {
        if (!indexed) return 0;
        long key = o;
        if (runs > 0) {
            int h = runSlot(o);
            long rank;
            while ((rank = runTable[2 * h + 1]) != 0 && runTable[2 * h] != o)
                h = (h + 1) & ((1 << runBits) - 1);
            if (rank == 0) return -1;
            key = (rank - 1) << MOVER_BITS | moverPart(o, m);
        }
        if (Long.compareUnsigned(key - minKey, span) > 0) return -1;
        return (int) ((key - minKey) >>> shift);
    }

    /** Buckets are below 2^bucketBits() (0 when the table has no index). */
    int bucketBits() {
        return indexed ? bucketBits : 0;
    }

    /** Index of the key, or -1, searched in bucket b (from bucket). */
    int findIn(int b, long o, long m) {
        int lo = 0, hi = size - 1;
        if (indexed) {
            lo = start[b];
            hi = start[b + 1] - 1;
        }
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long mo = keys[2 * mid];
            int cmp = mo == o ? Long.compareUnsigned(keys[2 * mid + 1] & moverMask, m) : Long.compareUnsigned(mo, o);
            if (cmp < 0) lo = mid + 1;
            else if (cmp > 0) hi = mid - 1;
            else return mid;
        }
        return -1;
    }

    /** Memory accounting for the tables against --max-memory. */
    static final class Budget {
        final long max, fixed;
        long used, peak;

        Budget(long max, long fixed) {
            this.max = max;
            this.fixed = this.used = this.peak = fixed;
        }

        void resize(long oldBytes, long newBytes, int discs) {
            long next = used - oldBytes + newBytes;
            if (next > max)
                throw new OutOfBudget("layer " + discs + " needs more than the memory limit of " + max
                        + " bytes (at least " + next + " bytes for the tables); raise --max-memory");
            used = next;
            peak = Math.max(peak, used);
        }
    }

    /** The tables would exceed --max-memory: the verdict is error, never a partial verified. */
    static final class OutOfBudget extends RuntimeException {
        OutOfBudget(String message) {
            super(message, null, false, false);
        }
    }
}

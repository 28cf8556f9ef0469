package org.gamecert.producer.search;

/**
 * Shared, lock-free transposition table of proven bounds [lo, hi] on V(position). Every stored
 * bound is a fact of the game, so what the table happens to hold changes speed, never results.
 * Torn concurrent writes are detected by storing the keys xor-ed with the data word.
 * Two-slot buckets: a slot beyond the {@link #horizon} goes first, then the one with fewer empties
 * (cheaper subtree).
 */
public final class TranspositionTable {
    public static final int NO_MOVE = 255;
    private final long[] slots; // per slot: mover^data, opponent^data, data
    private final int bucketMask;
    /**
     * Buckets are 8 longs (2 slots of 3 and their 2 record words), starting at index 6: a large array's elements
     * start 16 bytes into its block, which the JVM aligns, so each bucket is one 64-byte cache
     * line and a probe costs at most one miss (with 6-long buckets, half of them straddled two).
     */
    private static final int BUCKET = 8, FIRST = 6;

    public TranspositionTable(long megabytes) {
        long bytes = Math.max(1, megabytes) << 20;
        int buckets = Integer.highestOneBit((int) Math.min(bytes / 64, 1 << 27));
        if (buckets < 1024) buckets = 1024;
        slots = new long[FIRST + buckets * BUCKET];
        bucketMask = buckets - 1;
    }

    /**
     * Slots of positions with more empties than this are replaced first: no question will ask
     * about them again. The extraction moves it down layer by layer (it asks about positions of
     * its current layer and below, never above); while the search is alone, nothing is beyond it.
     * A plain field: it changes between layers, before their tasks are handed to the threads.
     */
    private int horizon = Integer.MAX_VALUE;

    /** From now on, positions with more than {@code empties} empties are the first to be replaced. */
    public void horizon(int empties) { horizon = empties; }

    static long pack(int lo, int hi, int move, int empties) {
        return (lo + 128) | ((long) (hi + 128) << 8) | ((long) move << 16) | ((long) empties << 24) | (1L << 40);
    }
    public static int lo(long d) { return (int) (d & 0xFF) - 128; }
    public static int hi(long d) { return (int) (d >>> 8 & 0xFF) - 128; }
    public static int move(long d) { return (int) (d >>> 16 & 0xFF); }
    static int empties(long d) { return (int) (d >>> 24 & 0xFF); }

    private int bucket(long m, long o) {
        long h = m * 0x9E3779B97F4A7C15L ^ Long.rotateLeft(o * 0xC2B2AE3D27D4EB4FL, 29);
        h ^= h >>> 31;
        return FIRST + (int) (h & bucketMask) * BUCKET;
    }

    /**
     * A slot's record word (the bucket's 7th and 8th longs, one a slot, in the same cache line): 0
     * or a fact its search wrote beside the bounds ({@link OthelloSolver}: the cut moves of the
     * children of an 8-empty position that failed low; for a search that keeps its proof, the low
     * 32 bits of its two proof handles, see {@link #probeProof}). The slot's first key word is stored xor-ed
     * with it too, so a record torn by a concurrent write to the slot fails the key check like a
     * torn data word.
     */
    private static int recordIndex(int b, int slot) { return slot == b ? b + 6 : b + 7; }

    /** The data word for (m, o), or 0 if absent. */
    public long probe(long m, long o) {
        int b = bucket(m, o);
        long[] s = slots;
        for (int i = b; i < b + 6; i += 3) {
            long d = s[i + 2];
            if (d != 0 && (s[i] ^ d ^ s[recordIndex(b, i)]) == m && (s[i + 1] ^ d) == o) return d;
        }
        return 0;
    }

    /** The record word of (m, o) (see {@link #recordIndex}), or 0 if absent or none. */
    public long record(long m, long o) {
        int b = bucket(m, o);
        long[] s = slots;
        for (int i = b; i < b + 6; i += 3) {
            long d = s[i + 2];
            long r = s[recordIndex(b, i)];
            if (d != 0 && (s[i] ^ d ^ r) == m && (s[i + 1] ^ d) == o) return r;
        }
        return 0;
    }

    /**
     * Which of the first n positions (ms[i], os[i]) the table holds: bit i set when it holds
     * position i, its data word then in data[i] and its record word in record[i]. Every bucket is
     * read before any key is compared, so that the n cache misses overlap instead of following one
     * another (the extraction asks under the 8 symmetries; one probe after the other, those misses
     * were a third of its time on the layer above the leaves' parents). idx: n ints of scratch.
     */
    public int lookUp(long[] ms, long[] os, int n, int[] idx, long[] data, long[] record) {
        long[] s = slots;
        for (int i = 0; i < n; i++) {
            int b = bucket(ms[i], os[i]);
            idx[i] = b;
            data[i] = s[b + 2]; // independent loads: their misses overlap
        }
        int held = 0;
        for (int i = 0; i < n; i++) {
            int b = idx[i];
            long m = ms[i], o = os[i];
            for (int j = b; j < b + 6; j += 3) {
                long d = s[j + 2], r = s[recordIndex(b, j)];
                if (d != 0 && (s[j] ^ d ^ r) == m && (s[j + 1] ^ d) == o) {
                    data[i] = d; record[i] = r; held |= 1 << i;
                    break;
                }
            }
        }
        return held;
    }

    /**
     * Proof handles (offsets in a {@link ProofLog}, below 2^40; {@link ProofLog#NONE}: none) as a
     * slot of a search that keeps its proof holds them: the low 32 bits of the lower bound's and
     * of the upper bound's in the slot's record word, their high 8 bits in its data word (bits
     * 48-55 and 56-63, beside the bounds; the key check covers both words).
     */
    private static final int HANDLE_HIGH = 48;
    private static final long LOW32 = 0xFFFF_FFFFL;
    /** The record word and the handles' high bits of the slot the last {@link #probeProof} found. */
    private long lastProofWord, lastProofHigh;

    /**
     * For a search that keeps its proof ({@link ProofLog}): the data word of (m, o), or 0; the
     * handles of the records that proved its bounds are then {@link #lowerProof} and
     * {@link #upperProof}.
     */
    public long probeProof(long m, long o) {
        int b = bucket(m, o);
        long[] s = slots;
        for (int i = b; i < b + 6; i += 3) {
            long d = s[i + 2], r = s[recordIndex(b, i)];
            if (d != 0 && (s[i] ^ d ^ r) == m && (s[i + 1] ^ d) == o) {
                lastProofWord = r;
                lastProofHigh = d >>> HANDLE_HIGH;
                return d;
            }
        }
        return 0;
    }

    /** The handle of the record that proved the lower bound of the last {@link #probeProof}'s position. */
    public long lowerProof() { return (lastProofWord & LOW32) | (lastProofHigh & 0xFF) << 32; }

    /** The handle of the record that proved its upper bound. */
    public long upperProof() { return lastProofWord >>> 32 | (lastProofHigh >>> 8 & 0xFF) << 32; }

    /**
     * {@link #store} for a search that keeps its proof: each bound kept goes with the handle of
     * the record that proved it ({@link ProofLog#NONE} with no bound).
     */
    public void storeProof(long m, long o, int lo, int hi, int move, int empties, long loHandle, long hiHandle) {
        if (loHandle < 0 || loHandle > ProofLog.NONE || hiHandle < 0 || hiHandle > ProofLog.NONE)
            throw new IllegalStateException("a proof handle beyond 40 bits");
        int b = bucket(m, o);
        long[] s = slots;
        for (int i = b; i < b + 6; i += 3) {
            long d = s[i + 2], r = s[recordIndex(b, i)];
            if (d != 0 && (s[i] ^ d ^ r) == m && (s[i + 1] ^ d) == o) {
                if (lo(d) > lo) { lo = lo(d); loHandle = (r & LOW32) | (d >>> HANDLE_HIGH & 0xFF) << 32; }
                if (hi(d) < hi) { hi = hi(d); hiHandle = r >>> 32 | (d >>> HANDLE_HIGH + 8 & 0xFF) << 32; }
                break;
            }
        }
        put(m, o, lo, hi, move, empties, (loHandle & LOW32) | (hiHandle & LOW32) << 32,
                (loHandle >>> 32) << HANDLE_HIGH | (hiHandle >>> 32) << HANDLE_HIGH + 8, true);
    }

    /** Records the proven bounds lo ≤ V ≤ hi, intersected with what the slot already knows. */
    public void store(long m, long o, int lo, int hi, int move, int empties) {
        store(m, o, lo, hi, move, empties, 0);
    }

    /**
     * The same with a record word: a non-zero {@code record} replaces the slot's, 0 keeps the one
     * the position already had (a new position starts with none).
     */
    public void store(long m, long o, int lo, int hi, int move, int empties, long record) {
        put(m, o, lo, hi, move, empties, record, 0, false);
    }

    /**
     * The store: high, bits OR-ed into the data word above its bounds (a proof's handles' high
     * bits); proof: the record word given replaces the slot's whatever it is (with handles it may
     * be 0), else 0 keeps the slot's.
     */
    private void put(long m, long o, int lo, int hi, int move, int empties, long record, long high, boolean proof) {
        int b = bucket(m, o);
        long[] s = slots;
        int victim = -1;
        for (int i = b; i < b + 6; i += 3) {
            long d = s[i + 2];
            long r = s[recordIndex(b, i)];
            if (d != 0 && (s[i] ^ d ^ r) == m && (s[i + 1] ^ d) == o) {
                lo = Math.max(lo, lo(d));
                hi = Math.min(hi, hi(d));
                if (move == NO_MOVE) move = move(d);
                if (record == 0 && !proof) record = r;
                victim = i;
                break;
            }
        }
        if (victim < 0) {
            long d0 = s[b + 2], d1 = s[b + 5];
            int e0 = empties(d0), e1 = empties(d1);
            boolean past0 = e0 > horizon, past1 = e1 > horizon;
            victim = d0 == 0 ? b : d1 == 0 ? b + 3 : past0 != past1 ? (past0 ? b : b + 3) : e0 <= e1 ? b : b + 3;
        }
        long d = pack(lo, hi, move, empties) | high;
        s[victim + 2] = 0;
        s[victim] = m ^ d ^ record;
        s[victim + 1] = o ^ d;
        s[recordIndex(b, victim)] = record;
        s[victim + 2] = d;
    }
}

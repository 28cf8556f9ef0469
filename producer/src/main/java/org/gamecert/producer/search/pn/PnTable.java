package org.gamecert.producer.search.pn;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * The transposition table of {@link LoaPn}: open addressing with linear probing over primitive
 * arrays, 36 bytes a slot, doubling when 3/4 full up to the largest capacity (a power of two) that
 * the memory it is given allows. A key is the position (mover, opponent) and the node's role (bit 63 of the second word:
 * set when the defender is to move, an AND node).
 *
 * <p>Per slot: proof and disproof numbers; {@code info} = rank or loop depth (bits 0..23), the
 * proving move code (bits 24..29), LOOP (a disproof that rests on a repetition of the path, bit
 * 30), ON_PATH (bit 31); {@code aux} = the work below the entry (MID calls, for the replacement
 * rule) or, for a LOOP disproof, the hash of the path (root to parent) it holds under.
 *
 * <p><b>Replacement rule.</b> Nothing is replaced while the table can still grow. When an
 * insertion would take it past 3/4 of its largest capacity, a collection removes entries that are neither proven (they
 * are the proof, never removed) nor on the current search path: those of least work first, whole
 * classes of ⌊log2(work + 1)⌋ at a time, until at most half the capacity is used; the survivors
 * are rehashed in place. When proven and path entries alone hold more than 70 % of the capacity,
 * {@link Full} is thrown: the proof needs more memory. The rule looks only at the table's content
 * and capacity, so a run is deterministic for a given capacity; with no collection at all the
 * search does not depend on the capacity.
 */
public final class PnTable {
    /** The proof alone does not fit. */
    public static final class Full extends RuntimeException {
        Full(String m) { super(m, null, false, false); }
    }

    public static final int BYTES_PER_SLOT = 36;
    static final long AND = 1L << 63;
    static final int RANK_MASK = 0xFFFFFF, LOOP = 1 << 30, ON_PATH = 1 << 31;

    /** The capacity the table may grow to, and the one it has (both powers of two). */
    int maxCapacity;
    int capacity, mask;
    long[] km, ko, aux;
    int[] pn, dn, info;
    private int count, proven;
    /** Collections run, entries they removed, entries ever made. */
    public long collections, removed, made;

    /**
     * A table of at most maxBytes, growing to it by doubling (the largest power of two of slots
     * whose 36 bytes, times 1.5 for the moment of the last doubling, fit; at least 2^10 slots).
     */
    public PnTable(long maxBytes) {
        this(maxCapacityFor(maxBytes), Math.min(1 << 16, maxCapacityFor(maxBytes)));
    }

    private PnTable(int maxCapacity, int capacity) {
        this.maxCapacity = maxCapacity;
        allocate(capacity);
    }

    /** Lets the table grow twice as far (the other search's table is gone). */
    public void widen() {
        if (maxCapacity < 1 << 30) maxCapacity *= 2;
    }

    /** An empty table that may grow as far as {@code other}. */
    public static PnTable sameLimit(PnTable other) {
        return new PnTable(other.maxCapacity, Math.min(1 << 16, other.maxCapacity));
    }

    static int maxCapacityFor(long maxBytes) {
        long slots = Math.max(1 << 10, maxBytes * 2 / 3 / BYTES_PER_SLOT);
        return Integer.highestOneBit((int) Math.min(1 << 30, slots));
    }

    private void allocate(int cap) {
        capacity = cap;
        mask = cap - 1;
        km = new long[cap];
        ko = new long[cap];
        aux = new long[cap];
        pn = new int[cap];
        dn = new int[cap];
        info = new int[cap];
    }

    /** Doubles the capacity (the entries keep their content: the search does not see it). */
    private void grow() {
        long[] om = km, oo = ko, oa = aux;
        int[] op = pn, od = dn, oi = info;
        allocate(capacity * 2);
        for (int i = 0; i < om.length; i++) {
            if (om[i] == 0) continue;
            int t = home(om[i], oo[i], mask);
            while (km[t] != 0) t = (t + 1) & mask;
            km[t] = om[i]; ko[t] = oo[i]; aux[t] = oa[i]; pn[t] = op[i]; dn[t] = od[i]; info[t] = oi[i];
        }
    }

    public int size() { return count; }
    public int capacity() { return capacity; }
    public int maxCapacity() { return maxCapacity; }
    public int provenCount() { return proven; }

    private static int home(long m, long o, int mask) {
        long h = m * 0x9E3779B97F4A7C15L ^ Long.rotateLeft(o * 0xC2B2AE3D27D4EB4FL, 29);
        h ^= h >>> 32;
        h *= 0xD6E8FEB86659FD93L;
        h ^= h >>> 29;
        return (int) h & mask;
    }

    /** The slot of the key, or -1. */
    int find(long m, long o) {
        int s = home(m, o, mask);
        while (km[s] != 0) {
            if (km[s] == m && ko[s] == o) return s;
            s = (s + 1) & mask;
        }
        return -1;
    }

    /**
     * The slot of the key, made when missing (pn, dn given; info 0, aux 0). May run a collection
     * first: slots found before this call are no longer valid.
     */
    int findOrAdd(long m, long o, int p, int d) {
        int s = find(m, o);
        if (s >= 0) return s;
        if (count + 1 > capacity - (capacity >>> 2)) {
            if (capacity < maxCapacity) grow();
            else collect();
        }
        s = home(m, o, mask);
        while (km[s] != 0) s = (s + 1) & mask;
        km[s] = m;
        ko[s] = o;
        pn[s] = p;
        dn[s] = d;
        info[s] = 0;
        aux[s] = 0;
        count++;
        made++;
        return s;
    }

    /** Marks the slot's entry proven (counted: proven entries are never removed). */
    void markProven(int s) {
        if (pn[s] != 0) proven++;
    }

    private static int workClass(long w) {
        return 64 - Long.numberOfLeadingZeros(w + 1);
    }

    private boolean removable(int s) {
        return pn[s] != 0 && (info[s] & ON_PATH) == 0;
    }

    private long workOf(int s) {
        return (info[s] & LOOP) != 0 ? 0 : aux[s];
    }

    /** The replacement rule (class comment). */
    private void collect() {
        long[] hist = new long[66];
        long candidates = 0;
        for (int s = 0; s < capacity; s++)
            if (km[s] != 0 && removable(s)) { hist[workClass(workOf(s))]++; candidates++; }
        long keep = count - candidates;
        if (keep > (long) capacity * 7 / 10)
            throw new Full("the table of " + capacity + " entries is more than 70 % proven or on the path (" + keep
                    + " entries): give more --max-memory");
        long toRemove = count - capacity / 2, acc = 0;
        int limit = -1;
        while (acc < toRemove && limit < 65) acc += hist[++limit];
        for (int s = 0; s < capacity; s++)
            if (km[s] != 0 && removable(s) && workClass(workOf(s)) <= limit) {
                km[s] = 0;
                count--;
                removed++;
            }
        rehash();
        collections++;
    }

    /** Reinserts every entry after removals (in place; linear probing needs no tombstones then). */
    private void rehash() {
        int start = 0;
        while (km[start] != 0) start++; // there is a free slot: count < capacity
        for (int i = 1; i <= capacity; i++) {
            int s = (start + i) & mask;
            if (km[s] == 0) continue;
            long m = km[s], o = ko[s];
            int t = home(m, o, mask);
            while (km[t] != 0 && t != s) t = (t + 1) & mask;
            if (t == s) continue;
            km[t] = m; ko[t] = o; pn[t] = pn[s]; dn[t] = dn[s]; info[t] = info[s]; aux[t] = aux[s];
            km[s] = 0;
        }
    }

    // ------------------------------------------------------------------ checkpoints

    /** The entries (not the empty slots), in slot order. */
    void write(DataOutputStream out) throws IOException {
        out.writeInt(maxCapacity);
        out.writeInt(capacity);
        out.writeInt(count);
        out.writeInt(proven);
        out.writeLong(collections);
        out.writeLong(removed);
        out.writeLong(made);
        for (int s = 0; s < capacity; s++) {
            if (km[s] == 0) continue;
            out.writeInt(s);
            out.writeLong(km[s]);
            out.writeLong(ko[s]);
            out.writeInt(pn[s]);
            out.writeInt(dn[s]);
            out.writeInt(info[s]);
            out.writeLong(aux[s]);
        }
    }

    /** A table as written by {@link #write} (same capacity, same slots). */
    static PnTable read(DataInputStream in) throws IOException {
        int maxCap = in.readInt(), cap = in.readInt();
        if (Integer.bitCount(maxCap) != 1 || Integer.bitCount(cap) != 1 || cap > maxCap || maxCap > 1 << 30)
            throw new IOException("checkpoint table capacities " + cap + " / " + maxCap + " are not powers of two");
        PnTable t = new PnTable(maxCap, cap);
        int n = in.readInt();
        t.proven = in.readInt();
        t.collections = in.readLong();
        t.removed = in.readLong();
        t.made = in.readLong();
        for (int i = 0; i < n; i++) {
            int s = in.readInt();
            if (s < 0 || s >= cap) throw new IOException("checkpoint slot " + s + " out of range");
            t.km[s] = in.readLong();
            t.ko[s] = in.readLong();
            t.pn[s] = in.readInt();
            t.dn[s] = in.readInt();
            t.info[s] = in.readInt();
            t.aux[s] = in.readLong();
        }
        t.count = n;
        return t;
    }
}

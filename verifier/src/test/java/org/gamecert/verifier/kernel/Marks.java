package org.gamecert.verifier.kernel;

/**
 * The marks a slice of a layer sends to the layer below when a cluster engine checks layers in
 * slices (SPEC §11.1): for every child record an answer gave, its index in the layer below, a
 * digest of the record as answered, and the flags (§10.1 needs, §10.2 reached) it passes down.
 * The slice of the layer below that holds the index takes the mark only if the digest is that
 * of its own record (so a wrong answer is caught there), and the kernel requires the marks taken
 * to be the marks sent, by a sum of a hash of each mark kept on both sides (so that none is
 * dropped, repeated, moved or altered on the way). The hash detects faults, not an adversary that
 * knows it: an engine runs in the kernel's own JVMs.
 */
public final class Marks {
    private long[] index = new long[64], digest = new long[64];
    private byte[] flags = new byte[64];
    private int size;
    /** Two sums, modulo 2^64, of two hashes of each mark. */
    long sumA, sumB;

    /** The digest of a record as an answer carries it: key, kind, bounds. */
    static long digest(long occ, long mover, int kind, int lo, int hi) {
        long h = mix(0x243F6A8885A308D3L, occ);
        h = mix(h, mover);
        return mix(h, ((long) (kind & 0xFF) << 48) ^ ((long) (lo & 0xFFFF) << 16) ^ (hi & 0xFFFF));
    }

    private static long mix(long h, long v) {
        h = (h ^ v) * 0x9E3779B97F4A7C15L;
        h = (h ^ (h >>> 32)) * 0xD6E8FEB86659FD93L;
        return h ^ (h >>> 32);
    }

    /** Counts one mark in the sums (sent or taken). */
    void count(long at, long dig, int bits) {
        sumA += mix(mix(0x13198A2E03707344L, at), dig ^ bits);
        sumB += mix(mix(0xA4093822299F31D0L, dig), at ^ ((long) bits << 56));
    }

    void add(long at, long dig, int bits) {
        if (size == index.length) {
            index = java.util.Arrays.copyOf(index, 2 * size);
            digest = java.util.Arrays.copyOf(digest, 2 * size);
            flags = java.util.Arrays.copyOf(flags, 2 * size);
        }
        index[size] = at;
        digest[size] = dig;
        flags[size++] = (byte) bits;
        count(at, dig, bits);
    }

    public int size() {
        return size;
    }

    public long index(int i) {
        return index[i];
    }

    public long digest(int i) {
        return digest[i];
    }

    public byte flags(int i) {
        return flags[i];
    }
}

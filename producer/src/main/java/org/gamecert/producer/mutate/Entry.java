package org.gamecert.producer.mutate;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/** One decoded entry (SPEC §5): canonical position, kind set, values, stored move. */
final class Entry {
    static final int P = 0x01, AP = 0x02, PP = 0x04, A = 0x08, C = 0x10;
    static final int EXACT = P | AP | PP;

    long mover, opponent;
    int kinds;
    /** Exact value; or the lower bound of C (v1) and the upper bound of A (v2). */
    int v1, v2;
    int move;

    Entry copy() {
        Entry e = new Entry();
        e.mover = mover; e.opponent = opponent; e.kinds = kinds; e.v1 = v1; e.v2 = v2; e.move = move;
        return e;
    }

    long occ() { return mover | opponent; }
    int discs() { return Long.bitCount(occ()); }
    boolean exact() { return (kinds & EXACT) != 0; }
    boolean hasMove() { return kinds != A; }

    /** Decodes a valid payload of {@code count} entries. */
    static List<Entry> decode(byte[] raw, int count) {
        List<Entry> list = new ArrayList<>(count);
        int[] pos = {0};
        long occ = 0, c = 0;
        for (int i = 0; i < count; i++) {
            long d = varint(raw, pos), x = varint(raw, pos);
            occ += d;
            c = (i > 0 && d == 0) ? c + 1 + x : x;
            Entry e = new Entry();
            e.mover = pdep(c, occ);
            e.opponent = occ & ~e.mover;
            list.add(e);
        }
        int p = pos[0];
        for (Entry e : list) e.kinds = raw[p++] & 0xFF;
        for (Entry e : list) {
            if (e.exact()) e.v1 = raw[p++];
            else {
                if ((e.kinds & C) != 0) e.v1 = raw[p++];
                if ((e.kinds & A) != 0) e.v2 = raw[p++];
            }
        }
        for (Entry e : list) if (e.hasMove()) e.move = raw[p++] & 0xFF;
        return list;
    }

    /**
     * Encodes entries as a payload (SPEC §5.2). Keys must be non-decreasing in occ, and strictly
     * increasing in c for equal occ, or the delta code cannot express them.
     */
    static byte[] encode(List<Entry> list) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long prevOcc = 0, prevC = 0;
        for (int i = 0; i < list.size(); i++) {
            Entry e = list.get(i);
            long occ = e.occ(), c = pext(e.mover, occ), d = occ - prevOcc;
            varint(out, d);
            varint(out, (i > 0 && d == 0) ? c - prevC - 1 : c);
            prevOcc = occ; prevC = c;
        }
        for (Entry e : list) out.write(e.kinds);
        for (Entry e : list) {
            if (e.exact()) out.write(e.v1);
            else {
                if ((e.kinds & C) != 0) out.write(e.v1);
                if ((e.kinds & A) != 0) out.write(e.v2);
            }
        }
        for (Entry e : list) if (e.hasMove()) out.write(e.move);
        return out.toByteArray();
    }

    /** Byte length of the keys section, so that mutations can edit its varints. */
    static int keysLength(byte[] raw, int count) {
        int[] pos = {0};
        for (int i = 0; i < 2 * count; i++) varint(raw, pos);
        return pos[0];
    }

    static long pdep(long c, long mask) {
        long r = 0;
        int k = 0;
        for (long m = mask; m != 0; m &= m - 1, k++) if ((c >>> k & 1) != 0) r |= m & -m;
        return r;
    }

    static long pext(long x, long mask) {
        long r = 0;
        int k = 0;
        for (long m = mask; m != 0; m &= m - 1, k++) if ((x & m & -m) != 0) r |= 1L << k;
        return r;
    }

    static long varint(byte[] raw, int[] pos) {
        long v = 0;
        for (int s = 0; ; s += 7) {
            int x = raw[pos[0]++] & 0xFF;
            v |= (long) (x & 0x7F) << s;
            if ((x & 0x80) == 0) return v;
        }
    }

    static void varint(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7FL) != 0) { out.write((int) (v & 0x7F) | 0x80); v >>>= 7; }
        out.write((int) v);
    }
}

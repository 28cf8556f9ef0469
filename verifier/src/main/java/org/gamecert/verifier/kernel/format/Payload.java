package org.gamecert.verifier.kernel.format;

import org.gamecert.verifier.kernel.Rule;

/**
 * Decodes a block payload (SPEC §5.2–5.4) into primitive columns, checking the encoding rules in
 * the order of SPEC §9: keys (R-ENC-1/2/3), kinds (R-KIND-1/2), values (R-VAL-0, R-ENC-2), moves,
 * leftover bytes. The cap on open entries (R-OPEN-2) spans blocks: it is checked here with each
 * kind, from the caller's count of the part's open entries before the block.
 */
public final class Payload {
    public static final int P = 0x01, AP = 0x02, PP = 0x04, A = 0x08, C = 0x10;
    /** The bit O of an open entry (SPEC §5.4, parts only): a kind set plus O. */
    public static final int O = 0x40;
    /** R-OPEN-2 (SPEC §15.1): a part holds at most 2^24 open entries. */
    public static final int MAX_OPEN = 1 << 24;

    public int count; // the columns may be longer: a buffer reused for another block
    public final long[] occ, mover;
    // kind: the kind byte (with O for an open entry); move = -1 (0xFF) for {A} and open entries
    public final byte[] kind, lo, hi, move;

    public Payload(int n) {
        count = n;
        occ = new long[n];
        mover = new long[n];
        kind = new byte[n];
        lo = new byte[n];
        hi = new byte[n];
        move = new byte[n];
    }

    public static boolean validKind(int k) {
        return k == P || k == AP || k == PP || k == (AP | PP) || k == A || k == C || k == (C | A);
    }

    public static boolean isExact(int k) {
        return (k & (P | AP | PP)) != 0;
    }

    /** An open entry has no move (SPEC §5.2). */
    public static boolean hasMove(int k) {
        return (k & O) == 0 && (k & (P | AP | PP | C)) != 0;
    }

    public static boolean isOpen(int k) {
        return (k & O) != 0;
    }

    /**
     * Decodes count entries of raw; weak: the base mode is 2 or 3; part: the header's mode is a
     * part's (open entries allowed); open: the part's open entries before this block, for
     * R-OPEN-2 (Long.MIN_VALUE: no cap, for a caller that only counts them); values must lie in
     * [uMin, uMax]. The caller has bounded count by the header's max_block_entries. reuse: columns
     * to decode into when long enough (else null, or too short: new ones).
     */
    public static Payload decode(byte[] raw, int count, boolean weak, boolean part, long open,
            int uMin, int uMax, Payload reuse) throws FormatException {
        Payload e = reuse != null && reuse.occ.length >= count ? reuse : new Payload(count);
        e.count = count;
        decodeAt(raw, count, weak, part, open, uMin, uMax, e, 0);
        return e;
    }

    /**
     * As decode, into columns e at entries [at, at + count) (a slice's own columns, which then
     * need no copy); e's count is left as it is. The entry of a FormatException is the block's.
     */
    public static void decodeAt(byte[] raw, int count, boolean weak, boolean part, long open,
            int uMin, int uMax, Payload e, int at) throws FormatException {
        int[] pos = {0};
        long occ = 0, c = 0;
        for (int i = 0; i < count; i++) {
            long d = varint(raw, pos, i), x = varint(raw, pos, i);
            long next = occ + d;
            if (Long.compareUnsigned(next, occ) < 0)
                throw fail(Rule.ENC_3, i, "occ overflows 2^64");
            occ = next;
            if (i > 0 && d == 0) {
                long t = c + 1, u = t + x;
                if (t == 0 || Long.compareUnsigned(u, t) < 0)
                    throw fail(Rule.ENC_3, i, "c overflows 2^64");
                c = u;
            } else {
                c = x;
            }
            int bits = Long.bitCount(occ);
            if (bits < 64 && Long.compareUnsigned(c, 1L << bits) >= 0)
                throw fail(Rule.ENC_3, i, "c = " + Long.toUnsignedString(c)
                        + " is not below 2^" + bits);
            e.occ[at + i] = occ;
            e.mover[at + i] = pdep(c, occ);
        }
        int p = pos[0];
        // Kinds are validated as far as they are present, then the section's end is R-ENC-2.
        for (int i = 0; i < count && p + i < raw.length; i++) {
            int k = raw[p + i] & 0xFF;
            checkKind(k, weak, part, i);
            if (isOpen(k) && ++open > MAX_OPEN)
                throw fail(Rule.OPEN_2, i, "more than 2^24 = " + MAX_OPEN + " open entries in the"
                        + " part");
            e.kind[at + i] = (byte) k;
        }
        if (p + count > raw.length)
            throw fail(Rule.ENC_2, -1, "kinds section runs past raw_len");
        p += count;
        for (int i = 0; i < count; i++) {
            int k = e.kind[at + i] & ~O; // an open entry's values are its set's
            int lo = uMin, hi = uMax;
            if (isExact(k)) {
                lo = hi = value(raw, p++, uMin, uMax, i);
            } else {
                if ((k & C) != 0) lo = value(raw, p++, uMin, uMax, i);
                if ((k & A) != 0) hi = value(raw, p++, uMin, uMax, i);
                if (lo > hi)
                    throw fail(Rule.VAL_0, i, "lower bound " + lo + " > upper bound " + hi);
            }
            e.lo[at + i] = (byte) lo;
            e.hi[at + i] = (byte) hi;
        }
        for (int i = 0; i < count; i++) {
            if (hasMove(e.kind[at + i])) {
                if (p + 1 > raw.length)
                    throw fail(Rule.ENC_2, i, "moves section runs past raw_len");
                e.move[at + i] = raw[p++];
            } else {
                e.move[at + i] = -1;
            }
        }
        if (p != raw.length)
            throw fail(Rule.ENC_2, -1, (raw.length - p)
                    + " bytes left over after the moves section");
    }

    /** R-KIND-1, then R-KIND-2 on the set without O (SPEC §5.4). */
    private static void checkKind(int k, boolean weak, boolean part, int i) throws FormatException {
        if (isOpen(k) && !part)
            throw fail(Rule.KIND_1, i, String.format(
                    "kind byte 0x%02X is open (bit O) in a certificate that is not a part", k));
        if (!validKind(k & ~O))
            throw fail(Rule.KIND_1, i,
                    String.format("kind byte 0x%02X is not a valid kind set", k));
        if (weak && isExact(k))
            throw fail(Rule.KIND_2, i,
                    String.format("kind 0x%02X holds an exact kind in a weak certificate", k));
    }

    /** The value byte at p: within the section (R-ENC-2) and the utility range (R-VAL-0). */
    private static int value(byte[] raw, int p, int uMin, int uMax, int i) throws FormatException {
        if (p >= raw.length) throw fail(Rule.ENC_2, i, "values section runs past raw_len");
        int v = raw[p];
        if (v < uMin || v > uMax)
            throw fail(Rule.VAL_0, i, "value " + v + " outside [" + uMin + ", " + uMax + "]");
        return v;
    }

    /** Unsigned LEB128, at most 10 bytes, < 2^64, minimal (R-ENC-1); past the end is R-ENC-2. */
    static long varint(byte[] raw, int[] pos, int entry) throws FormatException {
        long v = 0;
        int p = pos[0];
        for (int i = 0; ; i++) {
            if (p >= raw.length)
                throw fail(Rule.ENC_2, entry, "keys section runs past raw_len");
            int b = raw[p++] & 0xFF;
            if (i == 9 && b > 1)
                throw fail(Rule.ENC_1, entry, "varint does not fit 64 bits");
            v |= (long) (b & 0x7F) << (7 * i);
            if ((b & 0x80) == 0) {
                if (i > 0 && b == 0) throw fail(Rule.ENC_1, entry, "varint is not minimal");
                pos[0] = p;
                return v;
            }
        }
    }

    // PDEP_BYTE[m << 8 | v]: the low bits of v placed onto the set bits of the byte m.
    private static final byte[] PDEP_BYTE = new byte[1 << 16];

    static {
        for (int m = 0; m < 256; m++)
            for (int v = 0; v < 256; v++) PDEP_BYTE[m << 8 | v] = (byte) pdepLoop(v, m);
    }

    private static long pdepLoop(long c, long mask) {
        long out = 0;
        for (long m = mask; m != 0 && c != 0; m &= m - 1, c >>>= 1) {
            if ((c & 1) != 0) out |= m & -m;
        }
        return out;
    }

    /** Places the bits of c, lowest first, onto the set bits of mask (a byte of mask at a time). */
    public static long pdep(long c, long mask) {
        long out = 0;
        for (int shift = 0; shift < 64 && c != 0; shift += 8) {
            int m = (int) (mask >>> shift) & 0xFF;
            out |= (PDEP_BYTE[m << 8 | (int) c & 0xFF] & 0xFFL) << shift;
            c >>>= Integer.bitCount(m);
        }
        return out;
    }

    private static FormatException fail(String rule, int entry, String message) {
        return new EntryFormatException(rule, message, entry);
    }

    /** A decoding failure at a known entry index within the block (-1 when not tied to one). */
    public static final class EntryFormatException extends FormatException {
        public final int entry;

        EntryFormatException(String rule, String message, int entry) {
            super(rule, message);
            this.entry = entry;
        }
    }
}

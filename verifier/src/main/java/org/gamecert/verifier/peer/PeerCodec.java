package org.gamecert.verifier.peer;

import org.gamecert.verifier.peer.kernel.PeerFormat;

/**
 * The published 6×6 tablebase's encodings: its 81-symbol alphabet, 13-byte records, the
 * base-3 key, the {@code encode_bb} sort order and its canonical form. What the peer kernel reads
 * is kernel.PeerFormat (delegated to here); the text forms and the 8×8 embedding are this class's.
 *
 * <p>Positions are held in the verifier's compact 6×6 layout (bit r·6 + c). The peer embeds the
 * board at B2..G7 of an 8×8 board; that embedding is strictly increasing in bit position, so the
 * peer's unsigned comparison of embedded boards equals the unsigned comparison of compact boards,
 * and its key squares (B2, C2, …, G7) are exactly compact squares 0..35.
 */
public final class PeerCodec {
    private PeerCodec() {}

    public static final int N = PeerFormat.N;
    public static final int CELLS = PeerFormat.CELLS;
    public static final int RECORD_BYTES = PeerFormat.RECORD_BYTES;
    public static final int KEY_CHARS = PeerFormat.KEY_CHARS;
    public static final int MAX_VALUE = PeerFormat.MAX_VALUE;

    /** Kind bits as in the format. */
    public static final int PV = PeerFormat.PV, ALLP = PeerFormat.ALLP, PVP = PeerFormat.PVP, ALL = PeerFormat.ALL, CUT = PeerFormat.CUT;
    public static final int EXACT_KINDS = PeerFormat.EXACT_KINDS;

    public static final String ALPHABET = PeerFormat.ALPHABET;

    /** Alphabet index of a byte, or −1 when the byte is not in the alphabet. */
    public static int symbol(byte b) {
        return PeerFormat.symbol(b);
    }

    public static byte symbolChar(int index) {
        return PeerFormat.symbolChar(index);
    }

    // ---- embedding -------------------------------------------------------------------------

    /** Compact 6×6 bits to the peer's 8×8 embedding (B2..G7, A1 = bit 0). */
    public static long embed(long compact) {
        long e = 0;
        for (int r = 0; r < N; r++) e |= ((compact >>> (N * r)) & 0x3FL) << ((r + 1) * 8 + 1);
        return e;
    }

    /** The 8×8 embedding back to compact; bits outside B2..G7 are dropped (check them first). */
    public static long unembed(long embedded) {
        long c = 0;
        for (int r = 0; r < N; r++) c |= ((embedded >>> ((r + 1) * 8 + 1)) & 0x3FL) << (N * r);
        return c;
    }

    /** Mask of the 6×6 area in the 8×8 embedding. */
    public static final long EMBEDDED_AREA = ~0xFF818181818181FFL;

    // ---- symmetries and canonical form -----------------------------------------------------

    /** Square image under symmetry s (the 8 maps of a square, in SPEC §7.4's order). */
    static int mapSquare(int s, int sq) {
        return PeerFormat.mapSquare(s, sq);
    }

    public static long transform(long bits, int s) {
        return PeerFormat.transform(bits, s);
    }

    /** The peer's canonical form (PeerFormat.canonical): out[0] = mover, out[1] = opponent. */
    public static void canonical(long mover, long opp, long[] out) {
        PeerFormat.canonical(mover, opp, out);
    }

    public static boolean isCanonical(long mover, long opp) {
        return PeerFormat.isCanonical(mover, opp);
    }

    // ---- encode_bb order -------------------------------------------------------------------

    /** The format's integer sort key {@code encode_bb} (PeerFormat.orderKey). Compare unsigned. */
    public static long orderKey(long mover, long opp) {
        return PeerFormat.orderKey(mover, opp);
    }

    /** Inverse of {@link #orderKey}: out[0] = mover, out[1] = opponent; false when malformed. */
    public static boolean fromOrderKey(long key, long[] out) {
        long m = 0, o = 0;
        for (int j = 0; j < 7; j++) {
            int g = (int) ((key >>> (8 * (7 - j))) & 0xFF);
            if (g > 242) return false;
            for (int t = 0; t < 5; t++) {
                int d = g % 3;
                g /= 3;
                if (d == 1) m |= 1L << (5 * j + t);
                else if (d == 2) o |= 1L << (5 * j + t);
            }
        }
        int last = (int) (key & 0xFF);
        if (last > 2) return false;
        if (last == 1) m |= 1L << 35;
        else if (last == 2) o |= 1L << 35;
        out[0] = m;
        out[1] = o;
        return true;
    }

    // ---- records ---------------------------------------------------------------------------

    /** Decodes the 9 key characters at buf[off..off+9) (PeerFormat.decodeKey); false: malformed. */
    public static boolean decodeKey(byte[] buf, int off, long[] out) {
        return PeerFormat.decodeKey(buf, off, out);
    }

    public static void encodeKey(long mover, long opp, byte[] buf, int off) {
        PeerFormat.encodeKey(mover, opp, buf, off);
    }

    /** Writes one 13-byte record. */
    public static void encodeRecord(long mover, long opp, int kind, int lb, int ub, byte[] buf, int off) {
        encodeKey(mover, opp, buf, off);
        buf[off + 9] = symbolChar(kind);
        buf[off + 10] = symbolChar(lb + MAX_VALUE);
        buf[off + 11] = symbolChar(ub + MAX_VALUE);
        buf[off + 12] = '\n';
    }

    public static String keyText(long mover, long opp) {
        return PeerFormat.keyText(mover, opp);
    }

    // ---- text ------------------------------------------------------------------------------

    /** The peer's obf text: 64 characters A1..H8 (X mover, O opponent, - empty), then " X;". */
    public static String obf(long mover, long opp) {
        long em = embed(mover), eo = embed(opp);
        StringBuilder sb = new StringBuilder(67);
        for (int i = 0; i < 64; i++) sb.append((em >>> i & 1) != 0 ? 'X' : (eo >>> i & 1) != 0 ? 'O' : '-');
        return sb.append(" X;").toString();
    }

    /** 6×6 board text, row by row from a1, X = side to move. */
    public static String board(long mover, long opp) {
        StringBuilder sb = new StringBuilder(38);
        for (int i = 0; i < CELLS; i++) sb.append((mover >>> i & 1) != 0 ? 'X' : (opp >>> i & 1) != 0 ? 'O' : '-');
        return sb.append(" X").toString();
    }

    /**
     * Parses a position: the peer's 64-character obf form (X = mover, then optional " X;"), or a
     * 36-character 6×6 board text followed by the side to move (X or O, SPEC §7.5).
     * Returns {mover, opponent}; throws IllegalArgumentException with a one-line reason.
     */
    public static long[] parsePosition(String text) {
        String t = text.trim();
        if (t.endsWith(";")) t = t.substring(0, t.length() - 1).trim();
        String cells = t, side = "X";
        int sp = t.indexOf(' ');
        if (sp >= 0) {
            cells = t.substring(0, sp);
            side = t.substring(sp + 1).trim();
        }
        if (!side.equals("X") && !side.equals("O")) throw new IllegalArgumentException("side to move must be X or O: " + text);
        long x = 0, o = 0;
        if (cells.length() == 64) {
            long ex = 0, eo = 0;
            for (int i = 0; i < 64; i++) {
                char ch = cells.charAt(i);
                if (ch == 'X' || ch == 'x') ex |= 1L << i;
                else if (ch == 'O' || ch == 'o') eo |= 1L << i;
                else if (ch != '-' && ch != '.') throw new IllegalArgumentException("bad square character '" + ch + "'");
            }
            if (((ex | eo) & ~EMBEDDED_AREA) != 0) throw new IllegalArgumentException("disc outside the 6×6 area B2..G7");
            x = unembed(ex);
            o = unembed(eo);
        } else if (cells.length() == CELLS) {
            for (int i = 0; i < CELLS; i++) {
                char ch = cells.charAt(i);
                if (ch == 'X' || ch == 'x') x |= 1L << i;
                else if (ch == 'O' || ch == 'o') o |= 1L << i;
                else if (ch != '-' && ch != '.') throw new IllegalArgumentException("bad square character '" + ch + "'");
            }
        } else {
            throw new IllegalArgumentException("expected 64 (8×8 obf) or 36 (6×6) squares, got " + cells.length());
        }
        return side.equals("X") ? new long[] {x, o} : new long[] {o, x};
    }

    public static String kindText(int kind) {
        return PeerFormat.kindText(kind);
    }
}

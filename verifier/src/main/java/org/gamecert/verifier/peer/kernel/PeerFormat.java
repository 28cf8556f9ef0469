package org.gamecert.verifier.peer.kernel;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * What the peer kernel reads of the published 6×6 tablebase's encodings: its 81-symbol alphabet,
 * the 13-byte record, the base-3 key, the {@code encode_bb} sort order and the canonical form.
 * (PeerCodec, outside the kernel, adds the text forms: obf, board, parsing, the 8×8 embedding.)
 *
 * <p>Positions are held in the verifier's compact 6×6 layout (bit r·6 + c). The peer embeds the
 * board at B2..G7 of an 8×8 board; that embedding is strictly increasing in bit position, so the
 * peer's unsigned comparison of embedded boards equals the unsigned comparison of compact boards,
 * and its key squares (B2, C2, …, G7) are exactly compact squares 0..35.
 */
public final class PeerFormat {
    private PeerFormat() {}

    public static final int N = 6;
    public static final int CELLS = 36;
    public static final int RECORD_BYTES = 13;
    public static final int KEY_CHARS = 9;
    public static final int MAX_VALUE = 36;

    /** Kind bits as in the format. */
    public static final int PV = 1, ALLP = 2, PVP = 4, ALL = 8, CUT = 16;
    public static final int EXACT_KINDS = PV | ALLP | PVP;

    public static final String ALPHABET =
            "56789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#_";
    private static final byte[] INDEX = new byte[256];

    static {
        Arrays.fill(INDEX, (byte) -1);
        for (int i = 0; i < ALPHABET.length(); i++) INDEX[ALPHABET.charAt(i)] = (byte) i;
    }

    /** Alphabet index of a byte, or −1 when the byte is not in the alphabet. */
    public static int symbol(byte b) {
        return INDEX[b & 0xFF];
    }

    public static byte symbolChar(int index) {
        return (byte) ALPHABET.charAt(index);
    }

    // ---- symmetries and canonical form -----------------------------------------------------

    /** SYM[s][byteIndex][byteValue]: image of those compact bits under symmetry s. */
    private static final long[][][] SYM = new long[8][5][256];

    static {
        for (int s = 0; s < 8; s++) {
            for (int bi = 0; bi < 5; bi++) {
                for (int v = 0; v < 256; v++) {
                    long img = 0;
                    for (int b = 0; b < 8; b++) {
                        int sq = bi * 8 + b;
                        if ((v >>> b & 1) == 0 || sq >= CELLS) continue;
                        img |= 1L << mapSquare(s, sq);
                    }
                    SYM[s][bi][v] = img;
                }
            }
        }
    }

    /** Square image under symmetry s (the 8 maps of a square, in SPEC §7.4's order). */
    public static int mapSquare(int s, int sq) {
        int r = sq / N, c = sq % N, m = N - 1;
        int nr, nc;
        switch (s) {
            case 0: nr = r; nc = c; break;
            case 1: nr = r; nc = m - c; break;
            case 2: nr = m - r; nc = c; break;
            case 3: nr = m - r; nc = m - c; break;
            case 4: nr = c; nc = r; break;
            case 5: nr = c; nc = m - r; break;
            case 6: nr = m - c; nc = r; break;
            default: nr = m - c; nc = m - r; break;
        }
        return nr * N + nc;
    }

    public static long transform(long bits, int s) {
        long[][] t = SYM[s];
        return t[0][(int) (bits & 0xFF)] | t[1][(int) (bits >>> 8 & 0xFF)]
                | t[2][(int) (bits >>> 16 & 0xFF)] | t[3][(int) (bits >>> 24 & 0xFF)]
                | t[4][(int) (bits >>> 32 & 0xFF)];
    }

    /**
     * The peer's canonical form: the minimum over the 8 symmetries of (mover, opponent),
     * unsigned, mover first. Writes the canonical mover and opponent to out[0], out[1].
     */
    public static void canonical(long mover, long opp, long[] out) {
        long bm = mover, bo = opp;
        for (int s = 1; s < 8; s++) {
            long m = transform(mover, s);
            int c = Long.compareUnsigned(m, bm);
            if (c < 0) {
                bm = m;
                bo = transform(opp, s);
            } else if (c == 0) {
                long o = transform(opp, s);
                if (Long.compareUnsigned(o, bo) < 0) bo = o;
            }
        }
        out[0] = bm;
        out[1] = bo;
    }

    public static boolean isCanonical(long mover, long opp) {
        for (int s = 1; s < 8; s++) {
            long m = transform(mover, s);
            int c = Long.compareUnsigned(m, mover);
            if (c < 0) return false;
            if (c == 0 && Long.compareUnsigned(transform(opp, s), opp) < 0) return false;
        }
        return true;
    }

    // ---- encode_bb order -------------------------------------------------------------------

    /** GROUP[m5][o5]: the base-3 value of five squares, square 5j+0 least significant. */
    private static final short[] GROUP = new short[32 * 32];

    static {
        for (int m = 0; m < 32; m++) {
            for (int o = 0; o < 32; o++) {
                if ((m & o) != 0) continue;
                int v = 0, p = 1;
                for (int t = 0; t < 5; t++) {
                    v += p * (((m >>> t) & 1) + 2 * ((o >>> t) & 1));
                    p *= 3;
                }
                GROUP[m << 5 | o] = (short) v;
            }
        }
    }

    /**
     * The format's integer sort key {@code encode_bb}: squares in groups of five, each group a
     * base-3 number 0..242 in one byte, squares 0–4 in the most significant byte, square 35 alone
     * in the least significant byte. Compare unsigned.
     */
    public static long orderKey(long mover, long opp) {
        long k = 0;
        for (int j = 0; j < 7; j++) {
            int sh = 5 * j;
            k = (k << 8) | GROUP[(int) ((mover >>> sh) & 31) << 5 | (int) ((opp >>> sh) & 31)];
        }
        return (k << 8) | ((mover >>> 35) & 1) | (((opp >>> 35) & 1) << 1);
    }

    // ---- records ---------------------------------------------------------------------------

    /**
     * Decodes the 9 key characters at buf[off..off+9) into out[0] = mover, out[1] = opponent.
     * Returns false when a character is outside the alphabet. (Each character is 4 squares in
     * base 3, 9 characters are exactly the 36 squares: no key can name a square beyond them.)
     */
    public static boolean decodeKey(byte[] buf, int off, long[] out) {
        long m = 0, o = 0;
        for (int i = 0; i < KEY_CHARS; i++) {
            int nib = KEY_NIBBLES[buf[off + i] & 0xFF];
            if (nib < 0) return false;
            m |= (long) (nib & 15) << (4 * i);
            o |= (long) (nib >>> 4) << (4 * i);
        }
        out[0] = m;
        out[1] = o;
        return true;
    }

    /** Per key character: mover squares in bits 0..3, opponent in bits 4..7; −1: no symbol. */
    private static final int[] KEY_NIBBLES = new int[256];

    static {
        Arrays.fill(KEY_NIBBLES, -1);
        for (int v = 0; v < ALPHABET.length(); v++) {
            int m = 0, o = 0, x = v;
            for (int t = 0; t < 4; t++) {
                int d = x % 3;
                x /= 3;
                if (d == 1) m |= 1 << t;
                else if (d == 2) o |= 1 << t;
            }
            KEY_NIBBLES[ALPHABET.charAt(v)] = m | o << 4;
        }
    }

    public static void encodeKey(long mover, long opp, byte[] buf, int off) {
        for (int i = 0; i < KEY_CHARS; i++) {
            int v = 0, p = 1;
            for (int t = 0; t < 4; t++) {
                int sq = 4 * i + t;
                int d = sq >= CELLS ? 0
                        : (int) ((mover >>> sq) & 1) + 2 * (int) ((opp >>> sq) & 1);
                v += p * d;
                p *= 3;
            }
            buf[off + i] = symbolChar(v);
        }
    }

    public static String keyText(long mover, long opp) {
        byte[] b = new byte[KEY_CHARS];
        encodeKey(mover, opp, b, 0);
        return new String(b, StandardCharsets.US_ASCII);
    }

    public static String kindText(int kind) {
        StringBuilder sb = new StringBuilder();
        if ((kind & PV) != 0) sb.append("PV,");
        if ((kind & ALLP) != 0) sb.append("ALL',");
        if ((kind & PVP) != 0) sb.append("PV',");
        if ((kind & ALL) != 0) sb.append("ALL,");
        if ((kind & CUT) != 0) sb.append("CUT,");
        if (sb.length() == 0) return "none";
        return sb.substring(0, sb.length() - 1);
    }

    /** The peer's 8×8 naming of a square: compact (r, c) is at file B + c, rank 2 + r. */
    public static String squareName(int sq) {
        return "" + (char) ('b' + sq % 6) + (char) ('2' + sq / 6);
    }
}

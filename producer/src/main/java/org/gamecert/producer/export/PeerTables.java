package org.gamecert.producer.export;

import org.gamecert.producer.cert.CertificateReader;
import org.gamecert.producer.cert.LayerEntries;
import org.gamecert.producer.game.Game;


/**
 * Writes a 6×6 Othello certificate as the tables of the published semi-strong 6×6 tablebase
 * (Zenodo record 18843225), as described in shared/docs/peer-6x6-tablebase-format.md: one file
 * {@code optimal_reopening_ab_table_all_{n}.txt} per disc count, 13-byte records (9 key characters,
 * kind, lower bound, upper bound, newline), sorted by the format's {@code encode_bb} integer.
 *
 * <p>The obligations are the same as ours (the kind bits are even the same), passes are contracted
 * the same way and terminal positions are not stored in either, so the translation is per entry:
 * re-canonicalize under the peer's form (minimum over the 8 symmetries of (mover, opponent), mover
 * first) and re-encode. Only the stored move is lost: the peer format has none.
 */
public final class PeerTables {
    /** The format's 81-symbol alphabet. */
    public static final byte[] ALPHABET =
            "56789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#_".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    public static final int RECORD = 13;

    private PeerTables() {}

    public static String fileName(int discs) { return "optimal_reopening_ab_table_all_" + discs + ".txt"; }

    /** One table: the records of one disc count, sorted, as bytes. */
    public static byte[] table(CertificateReader cert, LayerEntries layer) {
        Game g = cert.game;
        int n = layer.count;
        long[] order = new long[n];
        long[] movers = new long[n], opps = new long[n];
        long[] t = new long[2];
        for (int i = 0; i < n; i++) {
            peerCanonical(g, layer.mover[i], layer.opponent[i], t);
            movers[i] = t[0];
            opps[i] = t[1];
            order[i] = encodeBb(t[0], t[1]);
        }
        int[] idx = sortedByUnsignedKey(order);
        byte[] out = new byte[n * RECORD];
        long prev = 0;
        for (int r = 0; r < n; r++) {
            int i = idx[r];
            if (r > 0 && Long.compareUnsigned(order[i], prev) <= 0)
                throw new IllegalStateException("two entries map to one peer key in layer " + layer.layer);
            prev = order[i];
            int o = r * RECORD;
            writeKey(movers[i], opps[i], out, o);
            out[o + 9] = ALPHABET[layer.kinds[i] & 0x1F];
            out[o + 10] = ALPHABET[36 + layer.lowerBound(i, g.uMin)];
            out[o + 11] = ALPHABET[36 + layer.upperBound(i, g.uMax)];
            out[o + 12] = '\n';
        }
        return out;
    }

    /** The peer's canonical form: minimum of (mover, opponent) over the 8 symmetries, mover first. */
    public static void peerCanonical(Game g, long mover, long opp, long[] out) {
        // The compact layout (bit r*6+c) embeds in the peer's 8x8 word (bit (r+1)*8+c+1) in the
        // same bit order, so comparing compact words compares the embedded ones.
        long bm = mover, bo = opp;
        for (int s = 1; s < 8; s++) {
            long tm = g.transform(s, mover), to = g.transform(s, opp);
            int c = Long.compareUnsigned(tm, bm);
            if (c < 0 || (c == 0 && Long.compareUnsigned(to, bo) < 0)) { bm = tm; bo = to; }
        }
        out[0] = bm;
        out[1] = bo;
    }

    /** The 36 squares in order, digit 0 empty / 1 mover / 2 opponent, four squares a character. */
    public static void writeKey(long mover, long opp, byte[] out, int at) {
        for (int ch = 0; ch < 9; ch++) {
            int v = 0, p = 1;
            for (int k = 0; k < 4; k++) {
                int sq = 4 * ch + k;
                v += p * (int) (((mover >>> sq) & 1) + 2 * ((opp >>> sq) & 1));
                p *= 3;
            }
            out[at + ch] = ALPHABET[v];
        }
    }

    /**
     * The format's sort integer: squares in groups of five, each group a base-3 number (square
     * 5j+0 least significant) in one byte, squares 0–4 in the most significant byte, square 35
     * alone in the least significant byte.
     */
    public static long encodeBb(long mover, long opp) {
        long k = 0;
        for (int j = 0; j < 7; j++) {
            int v = 0, p = 1;
            for (int t = 0; t < 5; t++) {
                int sq = 5 * j + t;
                v += p * (int) (((mover >>> sq) & 1) + 2 * ((opp >>> sq) & 1));
                p *= 3;
            }
            k = (k << 8) | v;
        }
        return (k << 8) | ((mover >>> 35) & 1) | (((opp >>> 35) & 1) << 1);
    }

    /** Indices 0..n-1 ordered by keys[i], unsigned (bottom-up merge sort on primitives, no boxing). */
    static int[] sortedByUnsignedKey(long[] keys) {
        int n = keys.length;
        int[] idx = new int[n];
        for (int i = 0; i < n; i++) idx[i] = i;
        int[] tmp = new int[n];
        for (int w = 1; w < n; w <<= 1) {
            for (int lo = 0; lo < n - w; lo += 2 * w) {
                int mid = lo + w, hi = Math.min(lo + 2 * w, n), a = lo, b = mid, k = lo;
                while (a < mid && b < hi) tmp[k++] = Long.compareUnsigned(keys[idx[a]], keys[idx[b]]) <= 0 ? idx[a++] : idx[b++];
                while (a < mid) tmp[k++] = idx[a++];
                while (b < hi) tmp[k++] = idx[b++];
                System.arraycopy(tmp, lo, idx, lo, hi - lo);
            }
        }
        return idx;
    }
}

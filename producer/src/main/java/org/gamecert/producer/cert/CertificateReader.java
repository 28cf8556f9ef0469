package org.gamecert.producer.cert;

import com.github.luben.zstd.Zstd;
import org.gamecert.producer.game.Game;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads a certificate back for `query` and for tests: checks the frame sequence and the hash
 * chain (block chain values and the commitment), then decodes every entry. This is the
 * producer's own reader, not a verifier: it does not check the obligations.
 */
public final class CertificateReader {
    public Game game;
    public int family, width, height, symmetry, mode, rootValue, leafEmpties;
    /** A part of a composite (SPEC §15.1): mode has the bit 0x80, and the root's claim. */
    public boolean part;
    public int rootKinds, rootUpper;
    public long rootMover, rootOpponent;
    public String info;
    public String commitmentId;
    public final TreeMap<Integer, LayerEntries> layers = new TreeMap<>();
    public long[][] census; // rows of {discs, region, aux}
    public long entries, blocks;

    /** The HEADER frame's content, as read. */
    public byte[] headerBytes;

    public static CertificateReader read(Path file) throws IOException {
        return read(Files.readAllBytes(file));
    }

    public static CertificateReader read(byte[] all) throws IOException {
        CertificateReader r = new CertificateReader();
        r.parse(ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN));
        return r;
    }

    /**
     * The file is not a certificate this reader accepts. {@link #rule} is the SPEC rule id it
     * breaks, named as the verifier names it (R-HASH-1, not "hash chain mismatch"); null when it
     * is not a certificate at all (no gamecert header), which the verifier calls an error, not a
     * rejection.
     */
    public static final class FormatException extends IOException {
        public final String rule;
        FormatException(String msg) { this(null, msg); }
        FormatException(String rule, String msg) { super(rule == null ? msg : rule + ": " + msg); this.rule = rule; }
    }

    private void parse(ByteBuffer b) throws IOException {
        if (b.remaining() == 0) throw new FormatException("an empty file (0 bytes), not a certificate");
        if (b.remaining() < 12 || b.getInt(0) != CertificateWriter.MAGIC_HEADER || b.get(8) != 'G' || b.get(9) != 'S'
                || b.get(10) != 'C' || b.get(11) != 'F') throw new FormatException("not a certificate (no gamecert HEADER frame at the start of the file)");
        byte[] header = frame(b, CertificateWriter.MAGIC_HEADER);
        headerBytes = header;
        ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        h.position(4);
        if (h.getShort() != 1) throw new FormatException("R-HDR-1", "unsupported certificate version");
        family = h.get(); width = h.get(); height = h.get();
        h.get(); // utility
        symmetry = h.get(); mode = h.get() & 0xFF;
        part = (mode & 0x80) != 0;
        mode &= 0x7F; // the base mode: 1 semi-strong, 2 weak, 3 weak with leaves, 4 weak-ranked
        if (mode == 3) leafEmpties = h.get(); // weak with endgame leaves (SPEC §9.1)
        int tbLen = h.get() & 0xFF;
        int[] tb = new int[tbLen];
        for (int i = 0; i < tbLen; i++) tb[i] = h.get() & 0xFF;
        rootMover = h.getLong(); rootOpponent = h.getLong(); rootValue = h.get();
        if (part) { rootKinds = h.get() & 0xFF; rootUpper = h.get(); }
        h.getInt(); h.getInt();
        int infoLen = h.getShort() & 0xFFFF;
        byte[] inf = new byte[infoLen];
        h.get(inf);
        info = new String(inf, java.nio.charset.StandardCharsets.UTF_8);
        try { game = Game.fromHeader(family, width, height, tb); }
        catch (IllegalArgumentException e) { throw new FormatException("R-HDR-1", e.getMessage()); }
        if (game.symmetry != symmetry) throw new FormatException("R-HDR-1", "symmetry " + symmetry + " is not supported by this reader");
        MessageDigest md = CertificateWriter.sha256();
        md.update((byte) 0);
        md.update(header);
        byte[] chain = md.digest();
        Map<Integer, ArrayList<LayerEntries>> parts = new TreeMap<>();
        while (b.remaining() >= 8 && b.getInt(b.position()) == CertificateWriter.MAGIC_BLOCK) {
            ByteBuffer rec = ByteBuffer.wrap(frame(b, CertificateWriter.MAGIC_BLOCK)).order(ByteOrder.LITTLE_ENDIAN);
            int layer = rec.getInt(), count = rec.getInt(), rawLen = rec.getInt(), compLen = rec.getInt();
            byte[] stored = new byte[32];
            rec.get(stored);
            if (compLen < 0 || compLen > b.remaining()) throw new FormatException("R-CON-1", "block " + blocks + " is truncated");
            byte[] comp = new byte[compLen];
            b.get(comp);
            byte[] raw;
            try { raw = Zstd.decompress(comp, rawLen); }
            catch (RuntimeException e) { throw new FormatException("R-CON-3", "block " + blocks + "'s data frame: " + e.getMessage()); }
            if (raw.length != rawLen) throw new FormatException("R-CON-3", "block " + blocks + "'s data frame holds " + raw.length + " bytes, not " + rawLen);
            ByteBuffer hb = ByteBuffer.allocate(53).order(ByteOrder.LITTLE_ENDIAN);
            hb.put((byte) 1).put(chain).putLong(blocks).putInt(layer).putInt(count).putInt(rawLen);
            md.reset();
            md.update(hb.array());
            md.update(raw);
            chain = md.digest();
            if (!Arrays.equals(chain, stored)) throw new FormatException("R-HASH-1", "block " + blocks + "'s stored chain value is not the computed one");
            parts.computeIfAbsent(layer, x -> new ArrayList<>()).add(decode(layer, count, raw));
            blocks++;
            entries += count;
        }
        byte[] trailer = frame(b, CertificateWriter.MAGIC_TRAILER);
        if (b.hasRemaining()) throw new FormatException("R-CON-1", "bytes after the trailer");
        ByteBuffer t = ByteBuffer.wrap(trailer).order(ByteOrder.LITTLE_ENDIAN);
        long bc = t.getLong(), ec = t.getLong();
        int rows = t.getInt();
        if (bc != blocks || ec != entries) throw new FormatException("R-HASH-2", "the trailer's block and entry counts are not those read");
        census = new long[rows][3];
        for (int r = 0; r < rows; r++) { census[r][0] = t.getInt(); census[r][1] = t.getLong(); census[r][2] = t.getLong(); }
        md.reset();
        md.update((byte) 2);
        md.update(chain);
        md.update(trailer, 0, trailer.length - 32);
        byte[] commitment = md.digest();
        if (!Arrays.equals(commitment, Arrays.copyOfRange(trailer, trailer.length - 32, trailer.length)))
            throw new FormatException("R-HASH-3", "the trailer's commitment is not the computed one");
        commitmentId = "sha256:" + CertificateWriter.hex(commitment);
        for (Map.Entry<Integer, ArrayList<LayerEntries>> e : parts.entrySet()) layers.put(e.getKey(), concat(e.getKey(), e.getValue()));
    }

    private static byte[] frame(ByteBuffer b, int magic) throws FormatException {
        if (b.remaining() < 8 || b.getInt() != magic) throw new FormatException("R-CON-1", "frame sequence: header, blocks, trailer, end of file");
        int size = b.getInt();
        if (size < 0 || size > b.remaining()) throw new FormatException("R-CON-1", "a frame is truncated");
        byte[] c = new byte[size];
        b.get(c);
        return c;
    }

    private static LayerEntries decode(int layer, int count, byte[] raw) throws FormatException {
        LayerEntries e = new LayerEntries(layer, count);
        int[] pos = {0};
        long occ = 0, c = 0;
        for (int i = 0; i < count; i++) {
            long d = varint(raw, pos), x = varint(raw, pos);
            occ += d;
            c = (i > 0 && d == 0) ? c + 1 + x : x;
            long mover = pdep(c, occ);
            e.mover[i] = mover; e.opponent[i] = occ & ~mover;
        }
        int p = pos[0];
        for (int i = 0; i < count; i++) e.kinds[i] = raw[p++];
        for (int i = 0; i < count; i++) {
            int k = e.kinds[i];
            if (Kinds.isExact(k)) e.value1[i] = raw[p++];
            else {
                if ((k & Kinds.C) != 0) e.value1[i] = raw[p++];
                if ((k & Kinds.A) != 0) e.value2[i] = raw[p++];
            }
        }
        for (int i = 0; i < count; i++) if (Kinds.hasMove(e.kinds[i])) e.move[i] = raw[p++];
        if (p != raw.length) throw new FormatException("R-ENC-2", "the payload is not consumed exactly");
        return e;
    }

    static long pdep(long c, long mask) {
        long r = 0;
        int k = 0;
        for (long m = mask; m != 0; m &= m - 1, k++) if ((c >>> k & 1) != 0) r |= m & -m;
        return r;
    }

    private static long varint(byte[] raw, int[] pos) throws FormatException {
        long v = 0;
        for (int s = 0; s < 70; s += 7) {
            if (pos[0] >= raw.length) throw new FormatException("R-ENC-2", "a varint runs past the payload");
            int x = raw[pos[0]++] & 0xFF;
            v |= (long) (x & 0x7F) << s;
            if ((x & 0x80) == 0) return v;
        }
        throw new FormatException("R-ENC-1", "a varint is too long");
    }

    private static LayerEntries concat(int layer, ArrayList<LayerEntries> parts) {
        int n = 0;
        for (LayerEntries p : parts) n += p.count;
        LayerEntries e = new LayerEntries(layer, n);
        int k = 0;
        for (LayerEntries p : parts) {
            System.arraycopy(p.mover, 0, e.mover, k, p.count);
            System.arraycopy(p.opponent, 0, e.opponent, k, p.count);
            System.arraycopy(p.kinds, 0, e.kinds, k, p.count);
            System.arraycopy(p.value1, 0, e.value1, k, p.count);
            System.arraycopy(p.value2, 0, e.value2, k, p.count);
            System.arraycopy(p.move, 0, e.move, k, p.count);
            k += p.count;
        }
        return e;
    }

    /**
     * A weak-ranked certificate (mode 4, SPEC §9.2): its layers are ranks, and a position's entry
     * may be in any of them (at most one), not in the layer of its disc count.
     */
    public boolean ranked() { return mode == 4; }

    /** The mode as text: semi-strong, semi-strong-optimal, weak, weak with leaves (L empties), weak-ranked. */
    public String modeName() {
        switch (mode) {
            case 1: return "semi-strong";
            case 5: return "semi-strong-optimal";
            case 3: return "weak with leaves (" + leafEmpties + " empties)";
            case 4: return "weak-ranked";
            default: return "weak";
        }
    }

    /** The entry index of a canonical position in its layer ({@link #layerOf}), or -1. */
    public int find(long m, long o) {
        LayerEntries e = layerOf(m, o);
        return e == null ? -1 : e.find(m, o);
    }

    /**
     * The layer that holds the entry of a canonical position: the layer of its disc count, which
     * may lack it (then the caller's find gives -1); in a weak-ranked certificate the rank whose
     * entries hold its key (looked up by key in every rank), or null.
     */
    public LayerEntries layerOf(long m, long o) {
        if (!ranked()) return layers.get(Long.bitCount(m | o));
        for (LayerEntries e : layers.values()) if (e.find(m, o) >= 0) return e;
        return null;
    }
}

package org.gamecert.producer.mutate;

import com.github.luben.zstd.Zstd;
import org.gamecert.producer.game.Game;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A certificate held as its frames (SPEC §2), editable, and written back either exactly as held
 * ({@link #writeAsIs}: a broken chain stays broken) or re-sealed ({@link #seal}: block chain values,
 * trailer counts and commitment recomputed per SPEC §3, so that only the semantic lie remains).
 * This is the mutation tool's own container code: it must read only valid certificates, but it
 * must be able to write invalid ones, which the producer's writer rightly refuses to do.
 */
final class Cert {
    static final int MAGIC_HEADER = 0x184D2A50, MAGIC_BLOCK = 0x184D2A51, MAGIC_TRAILER = 0x184D2A52;
    static final int ZSTD_MAGIC = 0xFD2FB528;
    /** Level for re-compressed blocks; any valid frame will do, so a fast one. */
    static final int ZSTD_LEVEL = 3;

    /** One block: its record fields, the compressed frame, and the payload (decoded on demand). */
    static final class Block {
        int layer, count, rawLen, compLen;
        byte[] chain = new byte[32];
        byte[] comp;
        byte[] raw;
        /** Decoded entries, when an entry-level mutation edits them; re-encoded by {@link #seal}. */
        List<Entry> entries;

        Block copy() {
            Block b = new Block();
            b.layer = layer; b.count = count; b.rawLen = rawLen; b.compLen = compLen;
            b.chain = chain.clone(); b.comp = comp.clone(); b.raw = raw.clone();
            if (entries != null) { b.entries = new ArrayList<>(); for (Entry e : entries) b.entries.add(e.copy()); }
            return b;
        }
    }

    byte[] header;
    final List<Block> blocks = new ArrayList<>();
    byte[] trailer;

    // ---- parsing (valid certificates only) ----

    static Cert parse(byte[] file) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        Cert c = new Cert();
        c.header = frame(b, MAGIC_HEADER);
        if (c.header.length < 40 || c.header[0] != 'G' || c.header[1] != 'S' || c.header[2] != 'C' || c.header[3] != 'F')
            throw new IOException("not a gamecert certificate");
        while (b.remaining() >= 8 && b.getInt(b.position()) == MAGIC_BLOCK) {
            ByteBuffer rec = ByteBuffer.wrap(frame(b, MAGIC_BLOCK)).order(ByteOrder.LITTLE_ENDIAN);
            Block k = new Block();
            k.layer = rec.getInt(); k.count = rec.getInt(); k.rawLen = rec.getInt(); k.compLen = rec.getInt();
            rec.get(k.chain);
            if (k.compLen < 0 || k.compLen > b.remaining() || k.rawLen < 0 || k.rawLen > (1 << 24))
                throw new IOException("block " + c.blocks.size() + " is malformed");
            k.comp = new byte[k.compLen];
            b.get(k.comp);
            k.raw = Zstd.decompress(k.comp, k.rawLen);
            if (k.raw.length != k.rawLen) throw new IOException("block " + c.blocks.size() + " does not decompress");
            c.blocks.add(k);
        }
        c.trailer = frame(b, MAGIC_TRAILER);
        if (b.hasRemaining()) throw new IOException("bytes after the trailer");
        if (c.trailer.length < 52) throw new IOException("trailer too short");
        return c;
    }

    private static byte[] frame(ByteBuffer b, int magic) throws IOException {
        if (b.remaining() < 8 || b.getInt() != magic) throw new IOException("not a well-formed certificate (frame sequence)");
        int size = b.getInt();
        if (size < 0 || size > b.remaining()) throw new IOException("not a well-formed certificate (truncated frame)");
        byte[] c = new byte[size];
        b.get(c);
        return c;
    }

    Cert copy() {
        Cert c = new Cert();
        c.header = header.clone();
        for (Block k : blocks) c.blocks.add(k.copy());
        c.trailer = trailer.clone();
        return c;
    }

    // ---- header fields (SPEC §4) ----

    int family() { return header[6]; }
    int width() { return header[7]; }
    int height() { return header[8]; }
    int mode() { return header[11]; }
    /** Mode 3 (SPEC 1.1 §9.1) has leaf_empties after the mode byte: later fields move by one. */
    int leafEmpties() { return mode() == 3 ? header[12] : 0; }
    int tbOffset() { return mode() == 3 ? 14 : 13; }
    int tbLen() { return header[tbOffset() - 1] & 0xFF; }
    int[] tb() { int[] t = new int[tbLen()]; for (int i = 0; i < t.length; i++) t[i] = header[tbOffset() + i] & 0xFF; return t; }
    int rootMoverOffset() { return tbOffset() + tbLen(); }
    long rootMover() { return le(header).getLong(rootMoverOffset()); }
    long rootOpponent() { return le(header).getLong(rootMoverOffset() + 8); }
    int rootValueOffset() { return rootMoverOffset() + 16; }
    int rootValue() { return header[rootValueOffset()]; }
    boolean weak() { return mode() == 2 || mode() == 3; }

    Game game() { return Game.fromHeader(family(), width(), height(), tb()); }

    // ---- trailer fields (SPEC §10.4) ----

    int censusRows() { return le(trailer).getInt(16); }

    static ByteBuffer le(byte[] a) { return ByteBuffer.wrap(a).order(ByteOrder.LITTLE_ENDIAN); }

    // ---- entries ----

    /** Decodes every block's entries (idempotent). */
    void decodeAll() {
        for (Block k : blocks) if (k.entries == null) k.entries = Entry.decode(k.raw, k.count);
    }

    /** Blocks of one layer, in file order. */
    List<Block> blocksOf(int layer) {
        List<Block> r = new ArrayList<>();
        for (Block k : blocks) if (k.layer == layer) r.add(k);
        return r;
    }

    // ---- writing ----

    /** The file exactly as held: stored chain values, counts and commitment, whatever they are. */
    byte[] writeAsIs() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writeFrame(out, MAGIC_HEADER, header);
        for (Block k : blocks) {
            ByteBuffer rec = ByteBuffer.allocate(48).order(ByteOrder.LITTLE_ENDIAN);
            rec.putInt(k.layer).putInt(k.count).putInt(k.rawLen).putInt(k.compLen).put(k.chain);
            writeFrame(out, MAGIC_BLOCK, rec.array());
            out.write(k.comp, 0, k.comp.length);
        }
        writeFrame(out, MAGIC_TRAILER, trailer);
        return out.toByteArray();
    }

    /**
     * Re-seals: re-encodes edited entries, re-compresses changed payloads, recomputes every chain
     * value; then, unless {@code keepCounts}, the trailer's block and entry counts; and always the
     * commitment. The result has a consistent hash chain whatever lie it carries.
     */
    byte[] seal(boolean keepCounts) {
        MessageDigest md = sha256();
        md.update((byte) 0);
        md.update(header);
        byte[] chain = md.digest();
        long entries = 0;
        for (int i = 0; i < blocks.size(); i++) {
            Block k = blocks.get(i);
            if (k.entries != null) {
                byte[] raw = Entry.encode(k.entries);
                k.count = k.entries.size();
                if (!Arrays.equals(raw, k.raw)) setRaw(k, raw);
            }
            ByteBuffer hb = ByteBuffer.allocate(53).order(ByteOrder.LITTLE_ENDIAN);
            hb.put((byte) 1).put(chain).putLong(i).putInt(k.layer).putInt(k.count).putInt(k.rawLen);
            md.reset();
            md.update(hb.array());
            md.update(k.raw);
            chain = md.digest();
            k.chain = chain;
            entries += k.count;
        }
        if (!keepCounts) le(trailer).putLong(0, blocks.size()).putLong(8, entries);
        md.reset();
        md.update((byte) 2);
        md.update(chain);
        md.update(trailer, 0, trailer.length - 32);
        System.arraycopy(md.digest(), 0, trailer, trailer.length - 32, 32);
        return writeAsIs();
    }

    /** Replaces a block's payload (compressing it afresh) without touching its chain value. */
    static void setRaw(Block k, byte[] raw) {
        k.raw = raw;
        k.rawLen = raw.length;
        k.comp = Zstd.compress(raw, ZSTD_LEVEL);
        k.compLen = k.comp.length;
    }

    private static void writeFrame(ByteArrayOutputStream out, int magic, byte[] content) {
        ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(magic).putInt(content.length);
        out.write(b.array(), 0, 8);
        out.write(content, 0, content.length);
    }

    static MessageDigest sha256() {
        try { return MessageDigest.getInstance("SHA-256"); }
        catch (NoSuchAlgorithmException e) { throw new IllegalStateException(e); }
    }
}

package org.gamecert.producer.cert;

import com.github.luben.zstd.Zstd;
import org.gamecert.producer.game.Game;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * Writes a SPEC v1 certificate: HEADER, then the layers deepest first, each in blocks of exactly
 * {@link #MAX_BLOCK_ENTRIES} entries but the last, then the TRAILER with the census and the
 * commitment. The file is written under a temporary name in the target directory and renamed
 * atomically, so a failed run never leaves a half-written file under the final name.
 */
public final class CertificateWriter {
    public static final int MAX_BLOCK_ENTRIES = 1 << 18;
    public static final int MAX_BLOCK_BYTES = 1 << 24;
    /** Fixed compression level (SPEC §13): part of what makes the bytes reproducible. */
    public static final int ZSTD_LEVEL = 9;
    static final int MAGIC_HEADER = 0x184D2A50, MAGIC_BLOCK = 0x184D2A51, MAGIC_TRAILER = 0x184D2A52;

    /** Outcome of a write. */
    public static final class Written {
        public String commitmentId;
        public long fileBytes, blocks, entries;
    }

    private CertificateWriter() {}

    public static byte[] header(Game game, Extractor.Mode mode, long rootMover, long rootOpponent, int rootValue, String info) {
        byte[] inf = info.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(40 + game.moveCodes + inf.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put("GSCF".getBytes(StandardCharsets.US_ASCII));
        b.putShort((short) 1);
        b.put((byte) game.family).put((byte) game.width).put((byte) game.height);
        b.put((byte) (game.family == Game.FAMILY_OTHELLO ? 1 : 2));
        b.put((byte) game.symmetry);
        b.put((byte) (mode == Extractor.Mode.SEMI_STRONG ? 1 : 2));
        b.put((byte) game.moveCodes);
        for (int i = 0; i < game.moveCodes; i++) b.put((byte) game.tbAt(i));
        b.putLong(rootMover).putLong(rootOpponent);
        b.put((byte) rootValue);
        b.putInt(MAX_BLOCK_BYTES).putInt(MAX_BLOCK_ENTRIES);
        b.putShort((short) inf.length).put(inf);
        return b.array();
    }

    /** Uncompressed payload of entries [from, to) of a layer (SPEC §5.2). */
    static byte[] payload(LayerEntries e, int from, int to) {
        ByteArrayOutputStream keys = new ByteArrayOutputStream((to - from) * 6);
        long prevOcc = 0, prevC = 0;
        for (int i = from; i < to; i++) {
            long occ = e.mover[i] | e.opponent[i];
            long c = pext(e.mover[i], occ);
            long d = occ - prevOcc;
            long x = (i > from && d == 0) ? c - prevC - 1 : c;
            varint(keys, d);
            varint(keys, x);
            prevOcc = occ; prevC = c;
        }
        for (int i = from; i < to; i++) keys.write(e.kinds[i]);
        for (int i = from; i < to; i++) {
            int k = e.kinds[i];
            if (Kinds.isExact(k)) keys.write(e.value1[i]);
            else {
                if ((k & Kinds.C) != 0) keys.write(e.value1[i]);
                if ((k & Kinds.A) != 0) keys.write(e.value2[i]);
            }
        }
        for (int i = from; i < to; i++) if (e.kinds[i] != Kinds.A) keys.write(e.move[i]);
        return keys.toByteArray();
    }

    static long pext(long x, long mask) {
        long r = 0;
        int k = 0;
        for (long m = mask; m != 0; m &= m - 1, k++) if ((x & m & -m) != 0) r |= 1L << k;
        return r;
    }

    static void varint(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7FL) != 0) { out.write((int) (v & 0x7F) | 0x80); v >>>= 7; }
        out.write((int) v);
    }

    static MessageDigest sha256() {
        try { return MessageDigest.getInstance("SHA-256"); }
        catch (NoSuchAlgorithmException e) { throw new IllegalStateException(e); }
    }

    public static Written write(Path out, byte[] header, List<LayerEntries> layersRootFirst, long[] region, long[] aux,
                                int rootLayer) throws IOException {
        return write(out, header, layersRootFirst, region, aux, rootLayer, 1);
    }

    /** A block to write: its layer, entry range, payload and compressed frame. */
    private static final class Block {
        final LayerEntries layer; final int from, to;
        byte[] raw, comp;
        Block(LayerEntries layer, int from, int to) { this.layer = layer; this.from = from; this.to = to; }
        Block encode() {
            raw = payload(layer, from, to);
            if (raw.length > MAX_BLOCK_BYTES) throw new IllegalStateException("block too large");
            comp = Zstd.compress(raw, ZSTD_LEVEL);
            return this;
        }
    }

    /**
     * As {@link #write(Path, byte[], List, long[], long[], int)}, encoding and compressing up to
     * {@code threads} blocks at a time; the bytes do not depend on it.
     */
    public static Written write(Path out, byte[] header, List<LayerEntries> layersRootFirst, long[] region, long[] aux,
                                int rootLayer, int threads) throws IOException {
        List<Block> plan = new java.util.ArrayList<>();
        for (int li = layersRootFirst.size() - 1; li >= 0; li--) {
            LayerEntries e = layersRootFirst.get(li);
            for (int from = 0; from < e.count; from += MAX_BLOCK_ENTRIES)
                plan.add(new Block(e, from, Math.min(e.count, from + MAX_BLOCK_ENTRIES)));
        }
        java.util.concurrent.ExecutorService pool = threads > 1 ? java.util.concurrent.Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "compress");
            t.setDaemon(true);
            return t;
        }) : null;
        try {
            return writePlan(out, header, plan, region, aux, rootLayer, pool, Math.max(1, threads));
        } finally {
            if (pool != null) pool.shutdownNow();
        }
    }

    private static Written writePlan(Path out, byte[] header, List<Block> plan, long[] region, long[] aux, int rootLayer,
                                     java.util.concurrent.ExecutorService pool, int window) throws IOException {
        Path dir = out.toAbsolutePath().getParent();
        Path tmp = Files.createTempFile(dir, "." + out.getFileName() + ".", ".tmp");
        Written w = new Written();
        try {
            try (OutputStream os = new java.io.BufferedOutputStream(Files.newOutputStream(tmp), 1 << 20)) {
                frame(os, MAGIC_HEADER, header);
                MessageDigest md = sha256();
                md.update((byte) 0);
                md.update(header);
                byte[] chain = md.digest();
                long blockIndex = 0, entries = 0;
                java.util.ArrayDeque<java.util.concurrent.Future<Block>> inFlight = new java.util.ArrayDeque<>();
                int next = 0;
                for (int bi = 0; bi < plan.size(); bi++) {
                    Block blk;
                    if (pool == null) blk = plan.get(bi).encode();
                    else {
                        while (next < plan.size() && inFlight.size() < 2 * window) {
                            Block todo = plan.get(next++);
                            inFlight.add(pool.submit(todo::encode));
                        }
                        try { blk = inFlight.poll().get(); }
                        catch (InterruptedException ie) { Thread.currentThread().interrupt(); throw new IOException("interrupted", ie); }
                        catch (java.util.concurrent.ExecutionException ee) {
                            if (ee.getCause() instanceof RuntimeException) throw (RuntimeException) ee.getCause();
                            throw new IOException(ee.getCause());
                        }
                    }
                    byte[] raw = blk.raw, comp = blk.comp;
                    int count = blk.to - blk.from, layer = blk.layer.layer;
                    ByteBuffer hb = ByteBuffer.allocate(1 + 32 + 8 + 12).order(ByteOrder.LITTLE_ENDIAN);
                    hb.put((byte) 1).put(chain).putLong(blockIndex).putInt(layer).putInt(count).putInt(raw.length);
                    md.reset();
                    md.update(hb.array());
                    md.update(raw);
                    chain = md.digest();
                    ByteBuffer rec = ByteBuffer.allocate(48).order(ByteOrder.LITTLE_ENDIAN);
                    rec.putInt(layer).putInt(count).putInt(raw.length).putInt(comp.length).put(chain);
                    frame(os, MAGIC_BLOCK, rec.array());
                    os.write(comp);
                    blk.raw = null; blk.comp = null;
                    blockIndex++;
                    entries += count;
                }
                int rows = region.length;
                ByteBuffer t = ByteBuffer.allocate(52 + 20 * rows).order(ByteOrder.LITTLE_ENDIAN);
                t.putLong(blockIndex).putLong(entries).putInt(rows);
                for (int r = 0; r < rows; r++) t.putInt(rootLayer + r).putLong(region[r]).putLong(aux[r]);
                md.reset();
                md.update((byte) 2);
                md.update(chain);
                md.update(t.array(), 0, t.position());
                byte[] commitment = md.digest();
                t.put(commitment);
                frame(os, MAGIC_TRAILER, t.array());
                w.commitmentId = "sha256:" + hex(commitment);
                w.blocks = blockIndex;
                w.entries = entries;
            }
            Files.move(tmp, out, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        w.fileBytes = Files.size(out);
        return w;
    }

    private static void frame(OutputStream os, int magic, byte[] content) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(magic).putInt(content.length);
        os.write(b.array());
        os.write(content);
    }

    public static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) sb.append(String.format("%02x", x & 0xFF));
        return sb.toString();
    }
}

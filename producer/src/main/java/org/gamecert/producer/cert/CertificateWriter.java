package org.gamecert.producer.cert;

import com.github.luben.zstd.Zstd;
import org.gamecert.producer.game.Game;

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
    /**
     * Fixed compression level (SPEC §13): part of what makes the bytes reproducible. A search's own
     * proof ({@link SearchProof#ZSTD_LEVEL}) has a level of its own.
     */
    public static final int ZSTD_LEVEL = 9;
    static final int MAGIC_HEADER = 0x184D2A50, MAGIC_BLOCK = 0x184D2A51, MAGIC_TRAILER = 0x184D2A52;

    /** Outcome of a write. */
    public static final class Written {
        public String commitmentId;
        public long fileBytes, blocks, entries;
    }

    private CertificateWriter() {}

    /**
     * How the info text of every certificate the producer writes begins (SPEC §4: free text, never
     * trusted). It is a fixed name, not the producer's version (which --version and a release's
     * bag-info.txt give with its commit): the text is part of the header, so a version in it would
     * change every certificate's bytes and commitment at each release, although the proof is the
     * same, and with them the producer-made spec vectors (ProducerVectorsTest, and the composite
     * vectors built from them) and the header a --state checkpoint is bound to. It still reads
     * "0.1.0", the version the producer had when the vectors were made; to change it, make the
     * vectors again (-Dgamecert.writeVectors=true) and give their new names in vectors.tsv.
     */
    public static final String INFO_PRODUCER = "gamecert producer 0.1.0";

    public static byte[] header(Game game, Extractor.Mode mode, long rootMover, long rootOpponent, int rootValue, String info) {
        return header(game, mode, 0, rootMover, rootOpponent, rootValue, info);
    }

    /** leafEmpties > 0 (weak only): mode 3, positions with at most that many empty cells are leaves (SPEC §9.1). */
    public static byte[] header(Game game, Extractor.Mode mode, int leafEmpties, long rootMover, long rootOpponent, int rootValue,
                                String info) {
        return header(game, mode, leafEmpties, rootMover, rootOpponent, null, rootValue, info);
    }

    /**
     * With {@code claim} not null: the header of a part (SPEC §15.1, mode | 0x80) whose root claim
     * is that; rootValue is then ignored (root_value is the claim's lower end).
     */
    public static byte[] header(Game game, Extractor.Mode mode, int leafEmpties, long rootMover, long rootOpponent,
                                Claim claim, int rootValue, String info) {
        if (leafEmpties > 0 && mode != Extractor.Mode.WEAK) throw new IllegalArgumentException("endgame leaves are for weak certificates");
        byte[] inf = info.getBytes(StandardCharsets.UTF_8);
        int fixed = (leafEmpties > 0 ? 41 : 40) + (claim != null ? 2 : 0);
        ByteBuffer b = ByteBuffer.allocate(fixed + game.moveCodes + inf.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put("GSCF".getBytes(StandardCharsets.US_ASCII));
        b.putShort((short) 1);
        b.put((byte) game.family).put((byte) game.width).put((byte) game.height);
        b.put((byte) (game.family == Game.FAMILY_OTHELLO ? 1 : 2));
        b.put((byte) game.symmetry);
        if (claim != null && mode == Extractor.Mode.SEMI_STRONG_OPTIMAL) throw new IllegalArgumentException("mode 5 is never a part (SPEC §4)");
        int base = mode == Extractor.Mode.SEMI_STRONG ? 1 : mode == Extractor.Mode.SEMI_STRONG_OPTIMAL ? 5 : leafEmpties > 0 ? 3 : 2;
        b.put((byte) (base | (claim != null ? 0x80 : 0)));
        if (leafEmpties > 0) b.put((byte) leafEmpties);
        b.put((byte) game.moveCodes);
        for (int i = 0; i < game.moveCodes; i++) b.put((byte) game.tbAt(i));
        b.putLong(rootMover).putLong(rootOpponent);
        if (claim == null) b.put((byte) rootValue);
        else b.put((byte) claim.lo).put((byte) claim.kinds).put((byte) claim.hi);
        b.putInt(MAX_BLOCK_BYTES).putInt(MAX_BLOCK_ENTRIES);
        b.putShort((short) inf.length).put(inf);
        return b.array();
    }

    /** At most 10 bytes a varint, two varints, a kind, two values and a move: an entry's payload at most. */
    static final int MAX_ENTRY_BYTES = 24;

    /** Uncompressed payload of entries [from, to) of a layer (SPEC §5.2). */
    static byte[] payload(LayerEntries e, int from, int to) {
        byte[] out = new byte[(to - from) * MAX_ENTRY_BYTES];
        return java.util.Arrays.copyOf(out, payload(e, from, to, out));
    }

    /** As {@link #payload(LayerEntries, int, int)}, into {@code out} (at least 24 bytes an entry); returns its length. */
    static int payload(LayerEntries e, int from, int to, byte[] out) {
        int p = 0;
        long prevOcc = 0, prevC = 0;
        for (int i = from; i < to; i++) {
            long occ = e.mover[i] | e.opponent[i];
            long c = pext(e.mover[i], occ);
            long d = occ - prevOcc;
            long x = (i > from && d == 0) ? c - prevC - 1 : c;
            p = varint(out, p, d);
            p = varint(out, p, x);
            prevOcc = occ; prevC = c;
        }
        for (int i = from; i < to; i++) out[p++] = e.kinds[i];
        for (int i = from; i < to; i++) {
            int k = e.kinds[i];
            if (Kinds.isExact(k)) out[p++] = e.value1[i];
            else {
                if ((k & Kinds.C) != 0) out[p++] = e.value1[i];
                if ((k & Kinds.A) != 0) out[p++] = e.value2[i];
            }
        }
        for (int i = from; i < to; i++) if (Kinds.hasMove(e.kinds[i])) out[p++] = e.move[i];
        return p;
    }

    /**
     * PEXT of one byte: entry (mask byte << 8 | x byte) holds the bits of x under the mask, packed
     * low. Built from smaller masks (the bit of x under the mask's lowest bit, then the rest one
     * place up): one step an entry, as every start runs it in the interpreter.
     */
    private static final byte[] PEXT8 = new byte[1 << 16];
    static {
        for (int mask = 1; mask < 256; mask++) {
            int low = Integer.numberOfTrailingZeros(mask), rest = (mask & (mask - 1)) << 8;
            for (int x = 0; x < 256; x++)
                PEXT8[mask << 8 | x] = (byte) (x >>> low & 1 | PEXT8[rest | x] << 1);
        }
    }

    /** The bits of x under mask, packed to the low end in order (the PEXT instruction), a byte at a time. */
    static long pext(long x, long mask) {
        long r = 0;
        int k = 0;
        for (int s = 0; s < 64 && (mask >>> s) != 0; s += 8) {
            int mb = (int) (mask >>> s) & 0xFF;
            if (mb == 0) continue;
            r |= (long) (PEXT8[mb << 8 | ((int) (x >>> s) & 0xFF)] & 0xFF) << k;
            k += Integer.bitCount(mb);
        }
        return r;
    }

    /** Appends v as a LEB128 varint at out[p]; returns the position after it. */
    static int varint(byte[] out, int p, long v) {
        while ((v & ~0x7FL) != 0) { out[p++] = (byte) ((v & 0x7F) | 0x80); v >>>= 7; }
        out[p++] = (byte) v;
        return p;
    }

    static MessageDigest sha256() {
        try { return MessageDigest.getInstance("SHA-256"); }
        catch (NoSuchAlgorithmException e) { throw new IllegalStateException(e); }
    }

    public static Written write(Path out, byte[] header, List<LayerEntries> layersRootFirst, long[] region, long[] aux,
                                int rootLayer) throws IOException {
        return write(out, header, layersRootFirst, region, aux, rootLayer, 1);
    }

    /**
     * A block to write: its layer, entry count, payload and compressed frame, the first rawLength
     * and compLength bytes of raw and comp (raw may be null where only its length is needed).
     */
    private static final class Block {
        final int layer, count, rawLength, compLength;
        final byte[] raw, comp;
        Block(int layer, int count, byte[] raw, int rawLength, byte[] comp, int compLength) {
            this.layer = layer; this.count = count; this.raw = raw; this.rawLength = rawLength; this.comp = comp; this.compLength = compLength;
        }
    }

    /**
     * What encoding a block takes besides its result, kept from one block to the next: room for the
     * payload and the compressed frame (6.3 MB each for a whole block) and zstd's context. Made
     * afresh for every block, they were most of a weak Othello solve's new memory after its search
     * (FFO #43: arrays of that size are G1's humongous objects, each in regions of its own, and
     * this machine zeroes a fresh page at about 2.5 s a GB). One user at a time.
     */
    static final class BlockEncoder implements AutoCloseable {
        private final byte[] raw = new byte[MAX_BLOCK_ENTRIES * MAX_ENTRY_BYTES];
        private final byte[] comp = new byte[(int) Zstd.compressBound(raw.length)];
        private final com.github.luben.zstd.ZstdCompressCtx ctx = new com.github.luben.zstd.ZstdCompressCtx();
        private int level = Integer.MIN_VALUE;

        /**
         * Entries [from, to) of e as layer {@code layer}'s block, compressed at {@code level}: the
         * frame copied out; the payload copied out too if {@code keepPayload}, else only its
         * length (what a layer file records). The same bytes as zstd's one-shot compression.
         */
        Block encode(int layer, LayerEntries e, int from, int to, int level, boolean keepPayload) {
            if (to - from > MAX_BLOCK_ENTRIES) throw new IllegalStateException("block too large");
            int n = payload(e, from, to, raw);
            if (n > MAX_BLOCK_BYTES) throw new IllegalStateException("block too large");
            if (level != this.level) { ctx.setLevel(level); this.level = level; }
            int c = ctx.compressByteArray(comp, 0, comp.length, raw, 0, n);
            return new Block(layer, to - from, keepPayload ? java.util.Arrays.copyOf(raw, n) : null, n,
                    java.util.Arrays.copyOf(comp, c), c);
        }

        @Override public void close() { ctx.close(); }
    }

    /**
     * Encoders and whole blocks' entry buffers to reuse, shared by the process's writers (the
     * layers of a solve follow each other): each taken by one task at a time, and at most a few
     * kept, so what stays is bounded (4 encoders of about 13 MB, 8 blocks of 5.2 MB; an
     * encoder's zstd context holds its own workspace besides, outside the heap); one given back
     * beyond that is let go (an encoder's context freed: no one uses it).
     */
    static final class Scratch {
        static final Scratch SHARED = new Scratch();
        private static final int KEPT_ENCODERS = 4, KEPT_BLOCKS = 8;
        private final java.util.concurrent.ConcurrentLinkedQueue<BlockEncoder> encoders = new java.util.concurrent.ConcurrentLinkedQueue<>();
        private final java.util.concurrent.ConcurrentLinkedQueue<LayerEntries> blocks = new java.util.concurrent.ConcurrentLinkedQueue<>();

        BlockEncoder encoder() {
            BlockEncoder b = encoders.poll();
            return b != null ? b : new BlockEncoder();
        }

        void give(BlockEncoder b) {
            if (encoders.size() < KEPT_ENCODERS) encoders.add(b);
            else b.close();
        }

        /** Room for a whole block's entries, of whatever contents (of any layer: the encoder is told the layer). */
        LayerEntries block() {
            LayerEntries e = blocks.poll();
            return e != null ? e : new LayerEntries(-1, MAX_BLOCK_ENTRIES);
        }

        void give(LayerEntries wholeBlock) {
            if (wholeBlock.count == MAX_BLOCK_ENTRIES && blocks.size() < KEPT_BLOCKS) blocks.add(wholeBlock);
        }
    }

    /** The blocks of a certificate in file order (deepest layer first), one at a time. */
    private interface BlockSource extends AutoCloseable {
        /** The next block, or null after the last (a block may be read only until the next call). */
        Block next() throws IOException;

        /** Lets go of what it reads from (after the last block, or a failure). */
        @Override default void close() throws IOException {}
    }

    /** Up to {@code threads} blocks compressed at a time (daemon threads); null for one thread. */
    private static java.util.concurrent.ExecutorService compressPool(int threads) {
        return threads > 1 ? java.util.concurrent.Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "compress");
            t.setDaemon(true);
            return t;
        }) : null;
    }

    /** A compressed block once it is ready; its failure rethrown as the caller's. */
    private static Block await(java.util.concurrent.Future<Block> f) throws IOException {
        try { return f.get(); }
        catch (InterruptedException ie) { Thread.currentThread().interrupt(); throw new IOException("interrupted", ie); }
        catch (java.util.concurrent.ExecutionException ee) {
            if (ee.getCause() instanceof RuntimeException) throw (RuntimeException) ee.getCause();
            throw new IOException(ee.getCause());
        }
    }

    /** Encodes entries [from, to) of a layer: its payload (SPEC §5.2) and the frame compressed at {@code level}, both kept. */
    private static Block encode(LayerEntries e, int from, int to, int level) {
        BlockEncoder b = Scratch.SHARED.encoder();
        try {
            return b.encode(e.layer, e, from, to, level, true);
        } finally {
            Scratch.SHARED.give(b);
        }
    }

    /**
     * Encodes the blocks of some layers (in the order given), up to {@code threads} at a time, and
     * hands them on in order; the bytes do not depend on {@code threads}.
     */
    private static final class Encoder implements BlockSource, AutoCloseable {
        private final List<int[]> plan = new java.util.ArrayList<>(); // {layer index, from, to}
        private final List<LayerEntries> layers;
        private final java.util.concurrent.ExecutorService pool;
        private final java.util.ArrayDeque<java.util.concurrent.Future<Block>> inFlight = new java.util.ArrayDeque<>();
        private final int window, level;
        private int next, handed;

        Encoder(List<LayerEntries> layersInFileOrder, int threads, int level) {
            layers = layersInFileOrder;
            this.level = level;
            for (int li = 0; li < layers.size(); li++) {
                LayerEntries e = layers.get(li);
                for (int from = 0; from < e.count; from += MAX_BLOCK_ENTRIES)
                    plan.add(new int[] {li, from, Math.min(e.count, from + MAX_BLOCK_ENTRIES)});
            }
            window = 2 * Math.max(1, threads);
            pool = compressPool(threads);
        }

        @Override public Block next() throws IOException {
            if (handed == plan.size()) return null;
            if (pool == null) {
                int[] b = plan.get(handed++);
                return encode(layers.get(b[0]), b[1], b[2], level);
            }
            while (next < plan.size() && inFlight.size() < window) {
                int[] b = plan.get(next++);
                inFlight.add(pool.submit(() -> encode(layers.get(b[0]), b[1], b[2], level)));
            }
            handed++;
            return await(inFlight.poll());
        }

        @Override public void close() { if (pool != null) pool.shutdownNow(); }
    }

    /**
     * As {@link #write(Path, byte[], List, long[], long[], int)}, encoding and compressing up to
     * {@code threads} blocks at a time; the bytes do not depend on it.
     */
    public static Written write(Path out, byte[] header, List<LayerEntries> layersRootFirst, long[] region, long[] aux,
                                int rootLayer, int threads) throws IOException {
        return write(out, header, layersRootFirst, region, aux, rootLayer, threads, ZSTD_LEVEL);
    }

    /** As {@link #write(Path, byte[], List, long[], long[], int, int)}, compressing at {@code level}. */
    public static Written write(Path out, byte[] header, List<LayerEntries> layersRootFirst, long[] region, long[] aux,
                                int rootLayer, int threads, int level) throws IOException {
        List<LayerEntries> deepestFirst = new java.util.ArrayList<>(layersRootFirst);
        java.util.Collections.reverse(deepestFirst);
        try (Encoder blocks = new Encoder(deepestFirst, threads, level)) {
            return writeBlocks(out, header, blocks, region, aux, rootLayer);
        }
    }

    /** A finished layer in its final encoding, kept in a file until the certificate is written. */
    public static final class LayerFile {
        public final int layer;
        public final long entries, blocks, bytes;
        public final Path path;
        public LayerFile(int layer, long entries, long blocks, long bytes, Path path) {
            this.layer = layer; this.entries = entries; this.blocks = blocks; this.bytes = bytes; this.path = path;
        }
    }

    /**
     * Writes a layer's blocks, exactly as they will stand in the certificate, to a file as its entries
     * arrive (in blocks of exactly {@link #MAX_BLOCK_ENTRIES} but the last, whatever the parts):
     * per block u32 entry count, u32 payload length, u32 compressed length, the compressed frame
     * (little-endian). Up to {@code threads} blocks are compressed at a time. Written under a
     * temporary name, forced to disk and renamed by {@link #finish}, so a file under its final name
     * is always whole.
     */
    public static final class LayerFileWriter implements AutoCloseable {
        private final Path file, tmp;
        private final int layer;
        private final java.nio.channels.FileChannel ch;
        private final OutputStream os;
        private final java.util.concurrent.ExecutorService pool;
        private final java.util.ArrayDeque<java.util.concurrent.Future<Block>> inFlight = new java.util.ArrayDeque<>();
        private final int window, level;
        private LayerEntries buffer;
        private int buffered;
        private long entries, blocks;
        private boolean finished;

        public LayerFileWriter(Path file, int layer, int threads) throws IOException {
            this(file, layer, threads, ZSTD_LEVEL);
        }

        /** As above, compressing at {@code level}. */
        public LayerFileWriter(Path file, int layer, int threads, int level) throws IOException {
            this.file = file;
            this.level = level;
            this.layer = layer;
            this.tmp = file.resolveSibling(file.getFileName() + ".tmp");
            ch = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.TRUNCATE_EXISTING, java.nio.file.StandardOpenOption.WRITE);
            // 64 KiB: a frame longer than the buffer is written straight through
            os = new java.io.BufferedOutputStream(java.nio.channels.Channels.newOutputStream(ch), 1 << 16);
            window = 2 * Math.max(1, threads);
            pool = compressPool(threads);
        }

        /** The next entries of the layer, in key order. */
        public void append(LayerEntries part) throws IOException {
            for (int at = 0; at < part.count; ) {
                int n = Math.min(part.count - at, MAX_BLOCK_ENTRIES - buffered);
                if (buffer == null || buffer.count < buffered + n) grow(buffered + n);
                buffer.copyFrom(part, at, buffered, n);
                buffered += n;
                at += n;
                if (buffered == MAX_BLOCK_ENTRIES) emit();
            }
        }

        /**
         * Room for at least {@code need} entries in the block being filled: doubling up to a block's
         * entries, so that a small layer (a 4x4 game's are tens of entries) does not take a whole
         * block's 5 MB, which made a trivial solve's three collections.
         */
        private void grow(int need) {
            // a layer past its first block is a large one: a whole block at once
            int size = entries > 0 ? MAX_BLOCK_ENTRIES
                    : buffer == null ? need : Math.min(MAX_BLOCK_ENTRIES, Math.max(need, 2 * buffer.count));
            LayerEntries bigger = size == MAX_BLOCK_ENTRIES ? Scratch.SHARED.block() : new LayerEntries(layer, size);
            if (buffer != null) bigger.copyFrom(buffer, 0, 0, buffered);
            buffer = bigger;
        }

        private void emit() throws IOException {
            LayerEntries full = buffer;
            int n = buffered;
            buffer = null;
            buffered = 0;
            entries += n;
            if (pool == null) { write(encode(full, n)); return; }
            inFlight.add(pool.submit(() -> encode(full, n)));
            while (inFlight.size() >= window) write(take());
        }

        /** The block of the first n entries of {@code full} (only its payload's length kept); full and the encoder given back. */
        private Block encode(LayerEntries full, int n) {
            BlockEncoder b = Scratch.SHARED.encoder();
            try {
                return b.encode(layer, full, 0, n, level, false);
            } finally {
                Scratch.SHARED.give(b);
                Scratch.SHARED.give(full);
            }
        }

        private Block take() throws IOException { return await(inFlight.poll()); }

        private void write(Block b) throws IOException {
            ByteBuffer h = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
            h.putInt(b.count).putInt(b.rawLength).putInt(b.compLength);
            os.write(h.array());
            os.write(b.comp, 0, b.compLength);
            blocks++;
        }

        /** Writes the last block and puts the file in place; null when the layer had no entry. */
        public LayerFile finish() throws IOException {
            if (buffered > 0) emit();
            while (!inFlight.isEmpty()) write(take());
            os.flush();
            ch.force(true);
            os.close();
            finished = true;
            if (entries == 0) { Files.deleteIfExists(tmp); return null; }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return new LayerFile(layer, entries, blocks, Files.size(file), file);
        }

        /** Stops; without {@link #finish} the partial file is removed. */
        @Override public void close() throws IOException {
            if (pool != null) pool.shutdownNow();
            if (!finished) {
                os.close();
                Files.deleteIfExists(tmp);
            }
        }
    }

    /** Writes a finished layer's blocks to a file at once ({@link LayerFileWriter}). */
    public static LayerFile spill(LayerEntries e, Path file, int threads) throws IOException {
        try (LayerFileWriter w = new LayerFileWriter(file, e.layer, threads)) {
            w.append(e);
            return w.finish();
        }
    }

    /**
     * Writes the certificate from finished layers kept in files ({@link #spill}), streaming them
     * deepest first: one block in memory at a time. The same bytes as {@link #write} of the same
     * layers; each block's payload is recovered by decompression for the hash chain, and its length
     * checked against the one recorded.
     */
    public static Written writeFromFiles(Path out, byte[] header, List<LayerFile> layersRootFirst, long[] region, long[] aux,
                                         int rootLayer) throws IOException {
        try (com.github.luben.zstd.ZstdDecompressCtx unzstd = new com.github.luben.zstd.ZstdDecompressCtx()) {
            BlockSource blocks = new BlockSource() {
                int li = layersRootFirst.size() - 1;
                java.io.DataInputStream in;
                LayerFile current;
                long left;
                // one block at a time: its frame and payload in arrays reused, not a whole block's afresh each
                byte[] comp = new byte[1 << 16], raw = new byte[1 << 16];

                @Override public Block next() throws IOException {
                    while (left == 0) {
                        if (in != null) { in.close(); in = null; }
                        if (li < 0) return null;
                        LayerFile f = layersRootFirst.get(li--);
                        in = new java.io.DataInputStream(new java.io.BufferedInputStream(Files.newInputStream(f.path), 1 << 16));
                        left = f.blocks;
                        current = f;
                    }
                    left--;
                    byte[] h = in.readNBytes(12);
                    if (h.length != 12) throw new IOException("layer file " + current.path + " is truncated");
                    ByteBuffer hb = ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN);
                    int count = hb.getInt(), rawLen = hb.getInt(), compLen = hb.getInt();
                    if (count <= 0 || count > MAX_BLOCK_ENTRIES || rawLen < 0 || rawLen > MAX_BLOCK_BYTES || compLen < 0
                            || compLen > Zstd.compressBound(MAX_BLOCK_BYTES))
                        throw new IOException("layer file " + current.path + " is damaged (block sizes)");
                    if (comp.length < compLen) comp = new byte[compLen];
                    if (in.readNBytes(comp, 0, compLen) != compLen) throw new IOException("layer file " + current.path + " is truncated");
                    // one byte of room beyond the recorded length: a frame that holds more does not fit (zstd refuses it), and
                    // one that holds less comes out short; either is damage, as a frame zstd cannot read is
                    if (raw.length < rawLen + 1) raw = new byte[rawLen + 1];
                    int got;
                    try {
                        got = unzstd.decompressByteArray(raw, 0, rawLen + 1, comp, 0, compLen);
                    } catch (com.github.luben.zstd.ZstdException e) {
                        throw new IOException("layer file " + current.path + " is damaged (its frame: " + e.getMessage() + ")", e);
                    }
                    if (got != rawLen) throw new IOException("layer file " + current.path + " is damaged (payload length)");
                    if (left == 0) { in.close(); in = null; }
                    return new Block(current.layer, count, raw, rawLen, comp, compLen);
                }

                @Override public void close() throws IOException { if (in != null) { in.close(); in = null; } }
            };
            try (blocks) {
                return writeBlocks(out, header, blocks, region, aux, rootLayer);
            }
        }
    }

    private static Written writeBlocks(Path out, byte[] header, BlockSource blocks, long[] region, long[] aux, int rootLayer)
            throws IOException {
        Path dir = out.toAbsolutePath().getParent();
        Path tmp = org.gamecert.producer.command.OutputFiles.createTemp(dir, "." + out.getFileName() + ".", ".tmp");
        Written w = new Written();
        try {
            try (OutputStream os = new java.io.BufferedOutputStream(Files.newOutputStream(tmp), 1 << 20)) {
                frame(os, MAGIC_HEADER, header);
                MessageDigest md = sha256();
                md.update((byte) 0);
                md.update(header);
                byte[] chain = md.digest();
                long blockIndex = 0, entries = 0;
                for (Block blk; (blk = blocks.next()) != null; ) {
                    int count = blk.count, layer = blk.layer;
                    ByteBuffer hb = ByteBuffer.allocate(1 + 32 + 8 + 12).order(ByteOrder.LITTLE_ENDIAN);
                    hb.put((byte) 1).put(chain).putLong(blockIndex).putInt(layer).putInt(count).putInt(blk.rawLength);
                    md.reset();
                    md.update(hb.array());
                    md.update(blk.raw, 0, blk.rawLength);
                    chain = md.digest();
                    ByteBuffer rec = ByteBuffer.allocate(48).order(ByteOrder.LITTLE_ENDIAN);
                    rec.putInt(layer).putInt(count).putInt(blk.rawLength).putInt(blk.compLength).put(chain);
                    frame(os, MAGIC_BLOCK, rec.array());
                    os.write(blk.comp, 0, blk.compLength);
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

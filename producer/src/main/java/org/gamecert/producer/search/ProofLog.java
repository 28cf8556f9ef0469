package org.gamecert.producer.search;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The proof a search keeps: one record for every node with at least {@code TT_MIN} empties that
 * the search completed, appended when it completes, so every record comes after those of the
 * children it names. A record is
 * <pre>
 *   header, then n child words, then the leaf-cut word if the header says so
 *   header: kind (1: failed high, V ≥ value; 2: failed low, V ≤ value) | (value + 128) &lt;&lt; 8
 *           | move &lt;&lt; 16 (the cut, when failed high) | empties &lt;&lt; 24 | n &lt;&lt; 32
 *           | 1 &lt;&lt; 48 when a leaf-cut word follows the child words
 *   child word: the child's record ({@link #NONE} when it has none: fewer than TT_MIN empties, or
 *               the game over) | move &lt;&lt; 56
 * </pre>
 * A failed-high record names its cut child only, a failed-low one every child. A record's handle
 * is its offset in longs. It does not hold its position (two longs, 37-41 % of the log on FFO
 * #43-#44): a reader that starts at the root knows it, since a record named by a child word is
 * of that child (after the pass, if the child must pass), exactly as the search met it (the
 * table is keyed by the exact position, not a symmetric one). A child named by a table cutoff is the record that proved the table's
 * bound, made earlier by another search of the same position, so the records reachable from the
 * root's two last tests (MTD(f): "V ≥ v" and "V ≤ v") form a complete proof of its value.
 * Pages allocated as the log grows; handles stay below 2^40 ({@link #NONE}; 8 TiB of log), which
 * the table and the needs keep in 40 bits (at 32 bits, a log of 32 GiB, FFO #55 would have
 * reached the limit at about 60 G nodes).
 *
 * <p>Within a memory budget ({@link #ProofLog(Path, long)}): when the pages held would pass it,
 * the oldest is appended to a file and dropped. The log is only ever appended to and a handle is
 * its offset, so the file is one run sorted by handle, made by writing it out in order: no sort
 * and no merge. The file is a sequence of Zstd frames (level 1), each of 2^{@link #FRAME_BITS}
 * longs, little-endian: the log compresses about 3.3× that way (FFO #55's ran to tens of GB
 * uncompressed, more than the disk had), and a frame is what a read decompresses. Their ends are
 * kept in memory ({@link #frameEnds}, a long per frame: 0.1 % of the log) and, once
 * {@link #persist}ed, in a trailer (below). The file is read back by {@link #get} a frame at a
 * time, which costs a read per frame touched when the handles come in increasing order (as
 * {@code SearchProof} asks for them) and one per record otherwise. What
 * {@link #get} returns is the same either way, so nothing read from the log depends on the
 * budget. Once the appends are done, {@link #holdAtMost} lowers the budget (the layers read from
 * the log take the memory).
 *
 * <p>A persisted file ends with its trailer: the frames' end offsets (a long each), then the
 * number of frames, the frame's bits and {@link #TRAILER_MAGIC}, all little-endian longs.
 */
public final class ProofLog implements AutoCloseable {
    public static final long NONE = (1L << 40) - 1;
    public static final int HIGH = 1, LOW = 2;
    private static final int MAX_PAGE_BITS = 20, MIN_PAGE_BITS = 10;
    /**
     * A frame of the file holds 2^FRAME_BITS longs (8 KiB): a read of a record costs its frame's
     * decompression, and the reading asks for records scattered over the log. FFO #45 with
     * {@code --max-memory 256m} (0.29 GB of its log spilled), the certificate read from it in:
     * 2^16-long frames 111 s, 2^12 37 s, 2^10 29 s (the log uncompressed: 19 s); compressed 3.2-3.4×.
     */
    static final int FRAME_BITS = MIN_PAGE_BITS;
    /** Zstd's level for the frames: the fastest of the positive levels (the log is written once, read a few times). */
    private static final int LEVEL = 1;
    static final long TRAILER_MAGIC = 0x676f6c6672706367L; // the bytes "gcprflog", little-endian
    private final int pageBits, page;
    /** A frame's longs: 2^{@link #FRAME_BITS} (a page holds a whole number of them); a persisted file's trailer says its own. */
    private int frameBits;
    private long[][] pages = new long[64][];
    private long size;

    /** Spilling: the file (null: all in memory), pages held at most, pages written to it (the oldest). */
    private final Path file;
    private FileChannel channel;
    private final int maxHeld;
    private int held, spilled;
    /** Longs in the file: the spilled pages', or after {@link #persist} all. */
    private long fileLongs;
    /** Raw longs of a frame, and a frame compressed (direct buffers, as Zstd's direct calls take). */
    private ByteBuffer raw, packed;
    /** Frame f of the file ends at byte frameEnds[f] (and starts where f - 1 ends, or at 0). */
    private long[] frameEnds = new long[64];
    private int frames;
    private long fileBytes;
    /** The file's longs [winStart, winStart + winLength) last read. */
    private long[] win;
    private long winStart;
    private int winLength;
    private long fileReads;

    /** Offset 0 holds nothing, so that no handle is 0. */
    public ProofLog() {
        pageBits = MAX_PAGE_BITS;
        page = 1 << pageBits;
        frameBits = FRAME_BITS;
        file = null;
        maxHeld = Integer.MAX_VALUE;
        put(0);
    }

    /**
     * A log that holds at most about {@code memoryBytes} of its pages in memory (at least two
     * pages; pages of 8 MiB, smaller for a budget under 32 MiB) and writes the others, oldest
     * first, to {@code file} (created, or truncated, when the first page goes).
     */
    public ProofLog(Path file, long memoryBytes) {
        int bits = MAX_PAGE_BITS;
        while (bits > MIN_PAGE_BITS && (8L << bits) * 4 > memoryBytes) bits--;
        pageBits = bits;
        page = 1 << bits;
        frameBits = FRAME_BITS;
        this.file = file;
        maxHeld = (int) Math.max(2, Math.min(Integer.MAX_VALUE, memoryBytes / (8L << bits)));
        put(0);
    }

    /** Longs written so far. */
    public long size() { return size; }

    /** Longs spilled to the file (0 while nothing was); after {@link #persist}, those spilled before it. */
    public long spilledLongs() { return (long) spilled << pageBits; }

    /** Bytes of the spill file so far (its frames, compressed; the trailer not counted). */
    public long spilledFileBytes() { return fileBytes; }

    /** Reads of the spill file so far (a frame each). */
    public long fileReads() { return fileReads; }

    /** Bytes of the pages held in memory now (a page held is counted whole). */
    public long heldBytes() { return (long) held << pageBits << 3; }

    /** Pages dropped from memory by {@link #holdAtMost}, and their bytes. */
    private long releasedBytes;

    /** Bytes of the pages {@link #holdAtMost} dropped from memory (written to the file first where it lacked them). */
    public long releasedBytes() { return releasedBytes; }

    /**
     * Once the appends are done: keeps at most {@code bytes} of pages in memory (none if it is 0
     * or less), dropping the oldest first; a page the file does not hold yet is appended to it
     * before it goes. Nothing may be appended after it. What {@link #get} returns is the same:
     * memory taken from the log for the layers read from it, never a change to what they read.
     */
    public void holdAtMost(long bytes) {
        long pageBytes = 8L << pageBits;
        if ((long) held * pageBytes <= bytes) return;
        frozen = true;
        for (int p = 0; p < pages.length && held > 0 && (long) held * pageBytes > bytes; p++) {
            if (pages[p] == null) continue;
            if (((long) (p + 1) << pageBits) <= fileLongs || fileLongs >= size) { pages[p] = null; held--; }
            else spillOldest(); // the pages the file lacks are the held ones from `spilled` on, in order: p == spilled
            releasedBytes += pageBytes;
        }
    }

    /**
     * Progress, for people (never the certificate): the records of the root (m, o) with
     * {@code empties} empty cells and of its children are watched ({@link #watched}). Costs a
     * comparison an append.
     */
    public void watchRoot(long m, long o, int empties, int rootMoves, int lo, int hi) {
        rootMover = m;
        rootOpponent = o;
        this.rootMoves = Math.min(255, rootMoves);
        watched = pack(0, 0, lo, hi, 0);
        watchFrom = empties - 1;
    }

    private long pack(int tests, int done, int lo, int hi, int b) {
        return tests | (long) done << 8 | (long) (lo + 128) << 16 | (long) (hi + 128) << 24 | (long) rootMoves << 32
                | (long) (b + 128) << 40;
    }

    private int watchFrom = Integer.MAX_VALUE, rootMoves;
    private long rootMover, rootOpponent;
    /**
     * What the watched records say, packed so that a reader on another thread sees one state:
     * bits 0-7 the root's MTD(f) tests finished, 8-15 root moves finished in the current test,
     * 16-23 lo + 128, 24-31 hi + 128 (the root's value is in [lo, hi]), 32-39 the moves, 40-47 the bound
     * b + 128 of the test under way ("V &ge; b?").
     */
    private volatile long watched;

    /**
     * The root's search so far (see {@link #watchRoot}): {tests finished, root moves finished
     * in the test under way, of how many, lo, hi, b} with the root's value in [lo, hi] and the
     * test under way "V &ge; b?"; null if not watched. MTD(f) from 0 (OthelloSolver.value with a
     * log): a test that failed high with v sets lo = v and b = v + 1, one that failed low sets
     * hi = v and b = v; the root's record is the test's, a child's the end of that move's search.
     */
    public int[] rootProgress() {
        long w = watched;
        if (watchFrom == Integer.MAX_VALUE) return null;
        return new int[] {(int) (w & 0xFF), (int) (w >>> 8 & 0xFF), (int) (w >>> 32 & 0xFF), (int) (w >>> 16 & 0xFF) - 128,
                (int) (w >>> 24 & 0xFF) - 128, (int) (w >>> 40 & 0xFF) - 128};
    }

    /** A record at or just below the root's empties. */
    private void watch(long m, long o, int kind, int value, int empties) {
        long w = watched;
        int tests = (int) (w & 0xFF), done = (int) (w >>> 8 & 0xFF), lo = (int) (w >>> 16 & 0xFF) - 128, hi = (int) (w >>> 24 & 0xFF) - 128,
                b = (int) (w >>> 40 & 0xFF) - 128;
        if (empties == watchFrom) done = Math.min(rootMoves, done + 1);
        else if (empties == watchFrom + 1 && (m == rootMover && o == rootOpponent || m == rootOpponent && o == rootMover)) {
            // the test's record: the root's, or after a pass at the root the opponent's (its value negated)
            boolean high = (kind == HIGH) == (m == rootMover);
            int v = m == rootMover ? value : -value;
            if (high) { lo = v; b = v + 1; } else { hi = v; b = v; }
            tests = Math.min(255, tests + 1);
            done = 0;
        } else return;
        watched = pack(tests, done, lo, hi, b);
    }

    public long get(long i) {
        long[] pg = pages[(int) (i >>> pageBits)];
        if (pg != null) return pg[(int) (i & (page - 1))];
        if (i < winStart || i >= winStart + winLength) fill(i);
        return win[(int) (i - winStart)];
    }

    /** Reads and decompresses the frame that holds long {@code i} into the window. */
    private void fill(long i) {
        buffers();
        int f = (int) (i >>> frameBits);
        long first = (long) f << frameBits, start = f == 0 ? 0 : frameEnds[f - 1];
        int n = (int) Math.min(1 << frameBits, fileLongs - first), c = (int) (frameEnds[f] - start);
        try {
            packed.clear().limit(c);
            long pos = start;
            while (packed.hasRemaining()) {
                int r = channel.read(packed, pos);
                if (r < 0) throw new IOException("the proof log's file " + file + " ends early");
                pos += r;
            }
            packed.flip();
            // a frame may hold more longs than the log: a page spilled whole before the last appends
            raw.clear();
            int d;
            try {
                d = unzstd.decompressDirectByteBuffer(raw, 0, raw.capacity(), packed, 0, c);
            } catch (ZstdException e) {
                throw new IOException("the proof log's file " + file + " has a bad frame " + f + ": " + e.getMessage(), e);
            }
            if (d < 8L * n || d % 8 != 0) throw new IOException("the proof log's file " + file + " has a short frame " + f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        raw.clear().limit(8 * n);
        raw.asLongBuffer().get(win, 0, n);
        winStart = first;
        winLength = n;
        fileReads++;
    }

    private void buffers() {
        if (raw != null) return;
        int frame = 1 << frameBits;
        win = new long[frame];
        raw = ByteBuffer.allocateDirect(8 * frame).order(ByteOrder.LITTLE_ENDIAN);
        packed = ByteBuffer.allocateDirect((int) Zstd.compressBound(8L * frame));
        zstd = new ZstdCompressCtx().setLevel(LEVEL);
        unzstd = new ZstdDecompressCtx();
    }

    /** Kept from frame to frame: a context made for each costs about as much as a frame's work. */
    private ZstdCompressCtx zstd;
    private ZstdDecompressCtx unzstd;

    /** Appends longs [off, off + n) of {@code a} to the file as one frame (n at most a frame's). */
    private void writeFrame(long[] a, int off, int n) throws IOException {
        buffers();
        raw.clear();
        raw.asLongBuffer().put(a, off, n);
        packed.clear(); // Zstd's direct calls take the buffers' limits as their bounds
        int c;
        try {
            c = zstd.compressDirectByteBuffer(packed, 0, packed.capacity(), raw, 0, 8 * n);
        } catch (ZstdException e) {
            throw new IOException("Zstd refused a frame of the proof log: " + e.getMessage(), e);
        }
        packed.clear().limit(c);
        long pos = fileBytes;
        while (packed.hasRemaining()) pos += channel.write(packed, pos);
        fileBytes = pos;
        if (frames == frameEnds.length) frameEnds = java.util.Arrays.copyOf(frameEnds, 2 * frames);
        frameEnds[frames++] = pos;
    }

    private void openForWriting() throws IOException {
        if (channel == null)
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    private void put(long x) {
        if (frozen) throw new IllegalStateException("internal error: an append to a persisted proof log");
        int p = (int) (size >>> pageBits);
        if (p == pages.length) pages = java.util.Arrays.copyOf(pages, p * 2);
        if (pages[p] == null) {
            if (held == maxHeld) spillOldest();
            pages[p] = new long[page];
            held++;
        }
        pages[p][(int) (size & (page - 1))] = x;
        size++;
    }

    /** Appends the oldest page held to the file, and drops it. */
    private void spillOldest() {
        try {
            openForWriting();
            long[] a = pages[spilled];
            for (int off = 0; off < page; off += 1 << frameBits) writeFrame(a, off, 1 << frameBits);
        } catch (IOException e) {
            throw new UncheckedIOException(new IOException("cannot spill the search's proof log to " + file + ": " + e.getMessage(), e));
        }
        pages[spilled] = null;
        spilled++;
        held--;
        fileLongs = (long) spilled << pageBits;
    }

    /**
     * Writes the pages held to the file too, so that it holds the whole log, and forces it to
     * disk (a checkpoint names it: {@link #open}). The pages stay in memory; nothing may be
     * appended after it.
     */
    public void persist() throws IOException {
        openForWriting();
        for (long at = fileLongs; at < size; ) {
            long[] a = pages[(int) (at >>> pageBits)];
            int off = (int) (at & (page - 1)), n = (int) Math.min(1 << frameBits, size - at);
            writeFrame(a, off, n);
            at += n;
        }
        // the trailer, in pieces of at most 2^16 longs
        ByteBuffer t = ByteBuffer.allocate(8 << 16).order(ByteOrder.LITTLE_ENDIAN);
        long pos = fileBytes;
        for (int f = 0; f <= frames; f++) {
            if (f < frames) t.putLong(frameEnds[f]);
            else t.putLong(frames).putLong(frameBits).putLong(TRAILER_MAGIC);
            if (t.remaining() < 24 || f == frames) {
                t.flip();
                while (t.hasRemaining()) pos += channel.write(t, pos);
                t.clear();
            }
        }
        channel.truncate(pos);
        channel.force(true);
        fileLongs = Math.max(fileLongs, size);
        frozen = true;
    }

    /** Set by {@link #persist} and {@link #open}: the log is read only. */
    private boolean frozen;

    /**
     * The log {@link #persist} wrote to {@code file}, of {@code longs} longs, read from the file.
     * A file that is not such a log (a trailer that does not fit its frames or those longs) is an
     * IOException; a frame that does not decompress to its longs is one at its first read.
     */
    public static ProofLog open(Path file, long longs) throws IOException {
        String bad = "the proof log " + file + " is missing or not a log of " + longs + " longs";
        if (!Files.isRegularFile(file) || Files.size(file) < 24 || longs < 1) throw new IOException(bad);
        ProofLog log = new ProofLog(file, 8L << 20);
        log.channel = FileChannel.open(file, StandardOpenOption.READ);
        boolean opened = false;
        try {
            long bytes = Files.size(file);
            ByteBuffer t = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
            while (t.hasRemaining()) if (log.channel.read(t, bytes - 24 + t.position()) < 0) throw new IOException(bad);
            long frames = t.getLong(0), bits = t.getLong(8);
            if (t.getLong(16) != TRAILER_MAGIC || bits < MIN_PAGE_BITS || bits > MAX_PAGE_BITS) throw new IOException(bad);
            // the frames hold the longs, and at most a page more (the last page spilled whole by holdAtMost)
            long needed = (longs + (1L << bits) - 1) >>> bits;
            if (frames < needed || frames > needed + (1L << MAX_PAGE_BITS - bits) || frames > (bytes - 24) / 8
                    || frames > Integer.MAX_VALUE - 8)
                throw new IOException(bad);
            long framesEnd = bytes - 24 - 8 * frames, maxFrame = Zstd.compressBound(8L << bits);
            log.frameEnds = new long[(int) frames];
            ByteBuffer ends = ByteBuffer.allocate(8 << 16).order(ByteOrder.LITTLE_ENDIAN);
            for (int f = 0; f < frames; ) {
                ends.clear().limit((int) Math.min(8L << 16, 8 * (frames - f)));
                while (ends.hasRemaining())
                    if (log.channel.read(ends, framesEnd + 8L * f + ends.position()) < 0) throw new IOException(bad);
                for (int k = 0; k < ends.limit(); k += 8, f++) {
                    long start = f == 0 ? 0 : log.frameEnds[f - 1], end = ends.getLong(k);
                    if (end <= start || end - start > maxFrame) throw new IOException(bad);
                    log.frameEnds[f] = end;
                }
            }
            if (log.frameEnds[(int) frames - 1] != framesEnd) throw new IOException(bad);
            log.frames = (int) frames;
            log.frameBits = (int) bits;
            log.fileBytes = framesEnd;
            opened = true;
        } finally {
            if (!opened) log.channel.close();
        }
        log.pages = new long[(int) (longs >>> log.pageBits) + 1][];
        log.held = 0;
        log.size = longs;
        log.fileLongs = longs;
        log.frozen = true;
        return log;
    }

    /** Closes and deletes the file, if one was made; the log is then unreadable. */
    @Override public void close() throws IOException { close(true); }

    /** Closes the file, deleting it if {@code delete} (else a checkpoint may still name it); the log is then unreadable. */
    public void close(boolean delete) throws IOException {
        pages = null;
        win = null;
        raw = packed = null;
        if (zstd != null) { zstd.close(); unzstd.close(); zstd = null; unzstd = null; }
        try {
            if (channel != null) channel.close();
        } finally {
            channel = null;
            if (file != null && delete) Files.deleteIfExists(file);
        }
    }

    /**
     * Appends the record of position (m, o) with n children (child words in {@code children});
     * returns its handle. The position is watched ({@link #watchRoot}), not written.
     */
    long append(long m, long o, int kind, int value, int move, int empties, long[] children, int n, long leafCuts) {
        long h = size;
        if (empties >= watchFrom) watch(m, o, kind, value, empties);
        if (h + 2 + n >= NONE) throw new IllegalStateException("the search's proof log outgrew 2^40 longs (8 TiB)");
        put(kind | (long) (value + 128) << 8 | (long) (move & 0xFF) << 16 | (long) empties << 24 | (long) n << 32
                | (leafCuts != 0 ? 1L << 48 : 0));
        for (int i = 0; i < n; i++) put(children[i]);
        if (leafCuts != 0) put(leafCuts);
        return h;
    }

    public static long childWord(long handle, int move) { return (handle & NONE) | (long) move << 56; }
    public static long childHandle(long word) { return word & NONE; }
    public static int childMove(long word) { return (int) (word >>> 56); }

    public static int kind(long header) { return (int) (header & 0xFF); }
    public static int value(long header) { return (int) (header >>> 8 & 0xFF) - 128; }
    public static int move(long header) { return (int) (header >>> 16 & 0xFF); }
    public static int empties(long header) { return (int) (header >>> 24 & 0xFF); }
    public static int children(long header) { return (int) (header >>> 32 & 0xFFFF); }
    public static boolean hasLeafCuts(long header) { return (header >>> 48 & 1) != 0; }
}

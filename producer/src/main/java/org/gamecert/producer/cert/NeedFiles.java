package org.gamecert.producer.cert;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * A layer's needs on disk, and read back in chunks. A needs file holds records in SPEC §6 key order
 * (occupancy, then mover, unsigned): mover and opponent as u64, then kinds, lower, upper and known
 * as bytes (20 bytes a record, big-endian). Sorted runs of one layer are merged into one such file,
 * equal keys combined exactly as {@link NeedMap#add} combines them, so the result does not depend on
 * how the needs were split into runs.
 */
public final class NeedFiles {
    static final int RECORD = 20;

    private NeedFiles() {}

    /** A layer's needs in key order, handed out in chunks. */
    public interface Source extends AutoCloseable {
        long size();

        /** The next chunk of at most {@code max} records into {@code c}; false after the last. */
        boolean next(Chunk c, int max) throws IOException;

        /** A second reader of the same needs, from the first record (this one is not moved). */
        Source reopen();

        @Override void close() throws IOException;
    }

    /** Records {@code [from, to)} of {@code needs}. */
    public static final class Chunk {
        public NeedMap.Sorted needs;
        public int from, to;
    }

    /** Needs held in memory. */
    public static final class InMemory implements Source {
        public final NeedMap.Sorted needs;
        private int pos;

        public InMemory(NeedMap.Sorted needs) { this.needs = needs; }

        @Override public long size() { return needs.size(); }

        @Override public Source reopen() { return new InMemory(needs); }

        @Override public boolean next(Chunk c, int max) {
            if (pos >= needs.size()) return false;
            c.needs = needs;
            c.from = pos;
            c.to = (int) Math.min(needs.size(), (long) pos + max);
            pos = c.to;
            return true;
        }

        @Override public void close() {}
    }

    /** Needs in a file, read one chunk at a time into a reused buffer. */
    public static final class InFile implements Source {
        public final Path path;
        private final long size;
        private DataInputStream in;
        private NeedMap.Sorted buffer;
        private long read;

        public InFile(Path path, long size) { this.path = path; this.size = size; }

        @Override public long size() { return size; }

        @Override public Source reopen() { return new InFile(path, size); }

        @Override public boolean next(Chunk c, int max) throws IOException {
            if (read >= size) return false;
            if (in == null) in = new DataInputStream(new BufferedInputStream(Files.newInputStream(path), 1 << 20));
            if (buffer == null || buffer.size() < max) buffer = new NeedMap.Sorted((int) Math.min(max, size));
            int n = (int) Math.min(Math.min(max, buffer.size()), size - read);
            for (int i = 0; i < n; i++) {
                buffer.mover[i] = in.readLong();
                buffer.opponent[i] = in.readLong();
                buffer.kinds[i] = in.readByte();
                buffer.lower[i] = in.readByte();
                buffer.upper[i] = in.readByte();
                buffer.known[i] = in.readByte();
            }
            read += n;
            c.needs = buffer;
            c.from = 0;
            c.to = n;
            return true;
        }

        @Override public void close() throws IOException {
            if (in != null) in.close();
            in = null;
        }
    }

    /** Writes records under a temporary name; {@link #close} forces them to disk and renames. */
    public static final class Writer implements AutoCloseable {
        private final Path file, tmp;
        private final FileChannel ch;
        private final DataOutputStream out;
        private long count;

        public Writer(Path file) throws IOException {
            this.file = file;
            this.tmp = file.resolveSibling(file.getFileName() + ".tmp");
            ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
            out = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 20));
        }

        /** A record; {@code packed} is kinds | lower << 8 | upper << 16 | known << 24. */
        public void write(long mover, long opponent, int packed) throws IOException {
            out.writeLong(mover);
            out.writeLong(opponent);
            out.writeByte(packed);
            out.writeByte(packed >> 8);
            out.writeByte(packed >> 16);
            out.writeByte(packed >> 24);
            count++;
        }

        public long count() { return count; }

        @Override public void close() throws IOException {
            out.flush();
            ch.force(true);
            out.close();
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Writes in-memory needs to a needs file. */
    public static void write(NeedMap.Sorted needs, Path file) throws IOException {
        try (Writer w = new Writer(file)) {
            for (int i = 0; i < needs.size(); i++)
                w.write(needs.mover[i], needs.opponent[i], pack(needs.kinds[i], needs.lower[i], needs.upper[i], needs.known[i]));
        }
    }

    static int pack(byte kinds, byte lower, byte upper, byte known) {
        return (kinds & 0xFF) | (lower & 0xFF) << 8 | (upper & 0xFF) << 16 | (known & 0xFF) << 24;
    }

    /**
     * Merges sorted runs into one needs file, combining equal keys as {@link NeedMap#add} does (kinds
     * OR-ed, lower bound max-ed, upper bound min-ed, a known value kept); returns the record count.
     * A k-way merge over a binary heap of run indices: primitive keys, no object per record. At most
     * {@link #FAN_IN} runs are open at once (a buffer and a file descriptor each): beyond that,
     * consecutive groups are merged first, in passes, each run (the caller's too) deleted once
     * merged. Combining depends only on the set of records ({@link NeedMap#mergeKnown}), so the
     * passes change no byte.
     */
    public static long merge(List<Path> runs, Path out) throws IOException {
        return merge(runs, out, FAN_IN);
    }

    /** As {@link #merge(List, Path)}, at most fanIn (at least 2) runs open at once. */
    static long merge(List<Path> runs, Path out, int fanIn) throws IOException {
        List<Path> level = runs;
        for (int pass = 0; level.size() > fanIn; pass++) {
            List<Path> merged = new java.util.ArrayList<>();
            for (int i = 0; i < level.size(); i += fanIn) {
                List<Path> group = level.subList(i, Math.min(level.size(), i + fanIn));
                Path m = out.resolveSibling(out.getFileName() + ".pass" + pass + "-" + merged.size());
                mergeAtOnce(group, m);
                for (Path r : group) Files.deleteIfExists(r);
                merged.add(m);
            }
            level = merged;
        }
        long n = mergeAtOnce(level, out);
        if (level != runs) for (Path r : level) Files.deleteIfExists(r);
        return n;
    }

    /** Runs merged at once at most (the needs of a tiny --max-memory come in many small runs). */
    static final int FAN_IN = 64;

    private static long mergeAtOnce(List<Path> runs, Path out) throws IOException {
        int k = runs.size();
        DataInputStream[] in = new DataInputStream[k];
        long[] occ = new long[k], mov = new long[k], opp = new long[k];
        int[] packed = new int[k], heap = new int[k];
        int live = 0;
        try (Writer w = new Writer(out)) {
            for (int r = 0; r < k; r++) {
                in[r] = new DataInputStream(new BufferedInputStream(Files.newInputStream(runs.get(r)), 1 << 16));
                if (advance(in[r], r, occ, mov, opp, packed)) heap[live++] = r;
            }
            for (int i = live / 2 - 1; i >= 0; i--) siftDown(heap, live, i, occ, mov);
            boolean have = false;
            long cm = 0, co = 0;
            int ck = 0, cl = NeedMap.NO_LOWER, cu = NeedMap.NO_UPPER, ckn = NeedMap.UNKNOWN;
            while (live > 0) {
                int r = heap[0];
                long m = mov[r] ^ Long.MIN_VALUE, o = opp[r];
                int p = packed[r];
                if (have && (m != cm || o != co)) {
                    w.write(cm, co, pack((byte) ck, (byte) cl, (byte) cu, (byte) ckn));
                    have = false;
                }
                if (!have) {
                    have = true;
                    cm = m; co = o;
                    ck = 0; cl = NeedMap.NO_LOWER; cu = NeedMap.NO_UPPER; ckn = NeedMap.UNKNOWN;
                }
                ck |= p & 0xFF;
                byte lo = (byte) (p >> 8), hi = (byte) (p >> 16), kn = (byte) (p >> 24);
                ckn = NeedMap.mergeKnown(cl, ckn, lo, kn);
                if (lo > cl) cl = lo;
                if (hi < cu) cu = hi;
                if (!advance(in[r], r, occ, mov, opp, packed)) heap[0] = heap[--live];
                if (live > 0) siftDown(heap, live, 0, occ, mov);
            }
            if (have) w.write(cm, co, pack((byte) ck, (byte) cl, (byte) cu, (byte) ckn));
            return w.count();
        } finally {
            for (DataInputStream d : in) if (d != null) d.close();
        }
    }

    /** Reads run r's next record (keys kept as signed-comparable values); false at its end. */
    private static boolean advance(DataInputStream in, int r, long[] occ, long[] mov, long[] opp, int[] packed) throws IOException {
        long m;
        try {
            m = in.readLong();
        } catch (EOFException e) {
            return false;
        }
        long o = in.readLong();
        int p = (in.readByte() & 0xFF) | (in.readByte() & 0xFF) << 8 | (in.readByte() & 0xFF) << 16 | (in.readByte() & 0xFF) << 24;
        occ[r] = (m | o) ^ Long.MIN_VALUE;
        mov[r] = m ^ Long.MIN_VALUE;
        opp[r] = o;
        packed[r] = p;
        return true;
    }

    private static boolean less(int a, int b, long[] occ, long[] mov) {
        return occ[a] < occ[b] || (occ[a] == occ[b] && mov[a] < mov[b]);
    }

    private static void siftDown(int[] heap, int n, int i, long[] occ, long[] mov) {
        while (true) {
            int l = 2 * i + 1, s = i;
            if (l < n && less(heap[l], heap[s], occ, mov)) s = l;
            if (l + 1 < n && less(heap[l + 1], heap[s], occ, mov)) s = l + 1;
            if (s == i) return;
            int t = heap[i]; heap[i] = heap[s]; heap[s] = t;
            i = s;
        }
    }
}

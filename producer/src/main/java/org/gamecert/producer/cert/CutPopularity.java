package org.gamecert.producer.cert;

import org.gamecert.producer.game.Game;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * For each child position, how many moves of the cut needs (C, outside the region) of one layer
 * lead to it: a candidate cut child for each of them, whether or not that move reaches the bound
 * (finding out would cost a search per move). A C entry whose cut child many others pick too
 * shares one proof of that child with all of them, so cut moves go to the most wanted children
 * first. Measured on 7×6 Connect
 * Four after 44536: 20.9 M auxiliary entries with the static order alone, 15.4 M with this, at the
 * same number of search nodes.
 *
 * <p>The counts are exact, taken over the whole layer before any of it is processed, so every cut
 * choice made with them depends only on the layer's needs, never on chunks, threads, search order
 * or the memory budget. Children are known by a 56-bit fingerprint of their canonical key; a
 * collision (a fixed function of the positions, so still deterministic) can only change which
 * sufficient move is preferred, never soundness. Only children wanted by two or more needs are
 * kept (the rest count 1). When the counting table would outgrow {@code budgetBytes}, the
 * fingerprints are counted in several passes over the needs, one range of fingerprints per pass:
 * more passes, the same counts. Each pass takes one range of fingerprints, so the passes
 * yield the popular children in fingerprint order: when they are more than {@code keepBytes} can
 * hold as a hash table, they go to a sorted file in the spill directory, read through a memory
 * map (the page cache, not the heap) by interpolation search. Same counts either way.
 */
final class CutPopularity implements AutoCloseable {
    /** Counting may take this much even under a smaller needs budget (fewer passes over the needs). */
    static final long MIN_COUNTING_BYTES = 16L << 20;
    /** At most this many children counted in one pass, so its table's length stays below 2^30. */
    private static final long MAX_PASS_CHILDREN = 1L << 28;
    /** One popular child in the sorted file: its fingerprint, then its count. */
    private static final int RECORD = 9;
    /** Records per memory map (each map stays under 2 GiB and holds whole records). */
    private static final int RECORDS_PER_MAP = 1 << 26;

    /** Popular children (count ≥ 2) in memory: a {@link Table}'s slots (0 = empty). */
    private final long[] slots;
    private final int mask;
    /** Or, when they did not fit: the sorted file, its maps and its number of records. */
    private final Path file;
    private final MappedByteBuffer[] maps;
    private final long records;
    final int passes;

    private CutPopularity(Table table, int passes) {
        this.slots = table.slots; this.mask = table.mask; this.passes = passes;
        this.file = null; this.maps = null; this.records = 0;
    }

    private CutPopularity(Path file, MappedByteBuffer[] maps, long records, int passes) {
        this.slots = null; this.mask = 0; this.passes = passes;
        this.file = file; this.maps = maps; this.records = records;
    }

    /** Heap bytes held while the layer is processed (a mapped file holds none). */
    long bytes() { return slots == null ? 0 : 8L * slots.length; }

    /** Bytes of the sorted file (0 in memory). */
    long fileBytes() { return records * RECORD; }

    /** True when the popular children are read from a file rather than held in memory. */
    boolean inFile() { return file != null; }

    /** How many moves of the layer's cut needs lead to this (canonical) child: at least 1, at most 255. */
    int count(long m, long o) {
        long fp = fingerprint(m, o);
        if (slots == null) return countInFile(fp);
        for (int i = slot(fp, mask); slots[i] != 0; i = (i + 1) & mask)
            if ((slots[i] & ~COUNT) == fp) return (int) (slots[i] & COUNT);
        return 1;
    }

    /**
     * The sorted file, by interpolation: fingerprints are uniform, so the record at
     * fp / 2^64 × records is close; from there a galloping step brackets fp and a binary search
     * ends. Absolute reads only: workers share the maps.
     */
    private int countInFile(long fp) {
        long n = records;
        long guess = Math.min(n - 1, (long) ((fp >>> 11) * 0x1.0p-53 * n));
        // Bracket: lo == -1 or fpAt(lo) <= fp; hi == n or fpAt(hi) > fp (unsigned order).
        long lo, hi, step = 1;
        if (Long.compareUnsigned(fpAt(guess), fp) <= 0) {
            lo = guess;
            hi = guess + 1;
            while (hi < n && Long.compareUnsigned(fpAt(hi), fp) <= 0) { lo = hi; step *= 2; hi = Math.min(n, lo + step); }
        } else {
            hi = guess;
            lo = guess - 1;
            while (lo >= 0 && Long.compareUnsigned(fpAt(lo), fp) > 0) { hi = lo; step *= 2; lo = Math.max(-1, hi - step); }
        }
        while (hi - lo > 1) {
            long mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(fpAt(mid), fp) <= 0) lo = mid; else hi = mid;
        }
        return lo >= 0 && fpAt(lo) == fp ? countAt(lo) : 1;
    }

    private long fpAt(long r) {
        return maps[(int) (r / RECORDS_PER_MAP)].getLong((int) (r % RECORDS_PER_MAP) * RECORD);
    }

    private int countAt(long r) {
        return maps[(int) (r / RECORDS_PER_MAP)].get((int) (r % RECORDS_PER_MAP) * RECORD + 8) & 0xFF;
    }

    /** Deletes the file, if any (its pages go when the maps are collected). */
    @Override
    public void close() throws IOException {
        if (file != null) Files.deleteIfExists(file);
    }

    /** No counts: every child counts 1 (for a layer where no cut is chosen by counts). */
    static CutPopularity none() {
        return new CutPopularity(new Table(16), 1);
    }

    /** Counts in memory, however large the popular children grow (tests, unbounded solves). */
    static CutPopularity count(Game game, NeedFiles.Source needs, long budgetBytes) throws IOException {
        return count(game, needs, budgetBytes, Long.MAX_VALUE, null);
    }

    /**
     * Counts the children of every cut need of the layer (reading {@code needs} once a pass):
     * each pass's table within {@code budgetBytes}; the popular children kept in memory while
     * their table stays within {@code keepBytes}, else in a sorted file {@code spillFile}.
     */
    static CutPopularity count(Game game, NeedFiles.Source needs, long budgetBytes, long keepBytes,
                               Path spillFile) throws IOException {
        // A first pass bounds the number of children to count, so the number of passes is known.
        long children = 0;
        NeedFiles.Chunk c = new NeedFiles.Chunk();
        try (NeedFiles.Source src = needs.reopen()) {
            while (src.next(c, 1 << 16)) {
                NeedMap.Sorted n = c.needs;
                for (int i = c.from; i < c.to; i++)
                    if (isCutNeed(n, i)) children += Long.bitCount(game.moves(n.mover[i], n.opponent[i]));
            }
        }
        // A pass holds its children's fingerprints in a list (at most twice their number after
        // its last doubling) and its sort's copy: at most 24 bytes a child, within the budget at
        // the 32 counted here, and never more than MAX_PASS_CHILDREN children (an array's length
        // must stay an int).
        long tableBytes = 8L * 4 * Math.max(1024, children);
        long byBudget = budgetBytes >= tableBytes ? 1 : (tableBytes + budgetBytes - 1) / Math.max(1, budgetBytes);
        long byLength = (children + MAX_PASS_CHILDREN - 1) / MAX_PASS_CHILDREN;
        int passes = (int) Math.min(1 << 16, Math.max(1, Math.max(byBudget, byLength)));
        Game.Child child = new Game.Child();
        long[] canon = new long[2], cm = new long[64], co = new long[64];
        Popular popular = new Popular(keepBytes, spillFile);
        for (int pass = 0; pass < passes; pass++) {
            // The pass's fingerprints in a list, sorted and counted by runs: a hash table took a
            // cache miss a child (FFO #40 without leaves: a tenth of the extraction).
            Fingerprints all = new Fingerprints();
            try (NeedFiles.Source src = needs.reopen()) {
                while (src.next(c, 1 << 16)) {
                    NeedMap.Sorted n = c.needs;
                    for (int i = c.from; i < c.to; i++) {
                        if (isCutNeed(n, i)) countChildren(game, n.mover[i], n.opponent[i], n.lower[i], child, canon, cm, co, all, pass, passes);
                    }
                }
            }
            popular.addPass(all);
        }
        return popular.finish(passes);
    }

    /** A lower bound needed outside the region: the entry will be C and choose a cut move. */
    private static boolean isCutNeed(NeedMap.Sorted n, int i) {
        return (n.kinds[i] & Kinds.REGION) == 0 && n.lower[i] != NeedMap.NO_LOWER;
    }

    /** Counts a cut need's non-terminal children, unless a terminal move already reaches the bound. */
    private static void countChildren(Game game, long m, long o, int lower, Game.Child child, long[] canon,
                                      long[] cm, long[] co, Fingerprints all, int pass,
                                      int passes) {
        // Each child made once: kept while looking for a terminal move that reaches the bound.
        int k = 0;
        for (long mv = game.moves(m, o); mv != 0; mv &= mv - 1) {
            game.child(m, o, Long.numberOfTrailingZeros(mv), child);
            if (child.sign == 0) {
                if (child.terminalValue >= lower) return; // that move is the cut: no child proof
                continue;
            }
            cm[k] = child.mover; co[k] = child.opponent; k++;
        }
        for (int q = 0; q < k; q++) {
            game.canonical(cm[q], co[q], canon);
            long fp = fingerprint(canon[0], canon[1]);
            if (passOf(fp, passes) == pass) all.add(fp);
        }
    }

    /** Pass p counts the p-th of {@code passes} equal ranges of fingerprints (unsigned order). */
    static int passOf(long fp, int passes) {
        return (int) (((fp >>> 32) * passes) >>> 32);
    }

    private static int slot(long fp, int mask) { return (int) (fp ^ (fp >>> 32)) & mask; }

    /** A table slot's low byte holds the count; fingerprints leave it 0. */
    private static final long COUNT = 0xFF;

    /** 56 bits in the high bytes, low byte 0; never 0 (the empty slot). */
    private static long fingerprint(long m, long o) {
        long h = m * 0x9E3779B97F4A7C15L + Long.rotateLeft(o, 29) * 0xC2B2AE3D27D4EB4FL;
        h ^= h >>> 31;
        h *= 0xBF58476D1CE4E5B9L;
        h ^= h >>> 29;
        h &= ~COUNT;
        return h == 0 ? COUNT + 1 : h;
    }

    /** Table length that holds n fingerprints without growing (grows when half full). */
    private static long capacityFor(long n) {
        long cap = 16;
        while (2 * n >= cap - 1) cap *= 2;
        return cap;
    }

    /**
     * Collects each pass's popular children: in memory while their final table fits keepBytes;
     * past that, everything so far and every later pass goes to the sorted file (passes come in
     * fingerprint order, each sorted on its own).
     */
    private static final class Popular {
        private final long keepBytes;
        private final Path spillFile;
        private long[] fps = new long[16];
        private byte[] counts = new byte[16];
        private long size;
        private DataOutputStream out;

        Popular(long keepBytes, Path spillFile) { this.keepBytes = keepBytes; this.spillFile = spillFile; }

        void addPass(Fingerprints all) throws IOException {
            int total = all.n;
            long[] sorted = sortUnsigned(all.fps, total);
            all.fps = null;
            int n = 0; // children wanted twice or more: runs of two or more
            for (int i = 0; i < total; ) {
                int j = i + 1;
                while (j < total && sorted[j] == sorted[i]) j++;
                if (j - i >= 2) n++;
                i = j;
            }
            if (out == null && spillFile != null && heapBytes(size + n) > keepBytes) {
                out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(spillFile), 1 << 16));
                for (int i = 0; i < size; i++) write(fps[i], counts[i]);
                fps = null;
                counts = null;
            }
            for (int i = 0; i < total; ) {
                int j = i + 1;
                while (j < total && sorted[j] == sorted[i]) j++;
                if (j - i >= 2) {
                    byte count = (byte) Math.min(COUNT, j - i); // saturating at 255
                    if (out != null) write(sorted[i], count);
                    else append(sorted[i], count);
                }
                i = j;
            }
            if (out != null) size += n;
        }

        /** The final table of n children, plus the lists it is built from (doubling slack). */
        private static long heapBytes(long n) { return 8L * capacityFor(n) + 18L * n; }

        private void append(long fp, byte count) {
            if (size == fps.length) {
                fps = Arrays.copyOf(fps, fps.length * 2);
                counts = Arrays.copyOf(counts, counts.length * 2);
            }
            fps[(int) size] = fp;
            counts[(int) size] = count;
            size++;
        }

        private void write(long fp, byte count) throws IOException {
            out.writeLong(fp);
            out.writeByte(count);
        }

        CutPopularity finish(int passes) throws IOException {
            if (out == null) {
                Table t = new Table((int) capacityFor(size));
                for (int i = 0; i < size; i++) t.add(fps[i], counts[i] & 0xFF);
                return new CutPopularity(t, passes);
            }
            out.close();
            if (size == 0) return new CutPopularity(new Table(16), passes);
            int mapCount = (int) ((size + RECORDS_PER_MAP - 1) / RECORDS_PER_MAP);
            MappedByteBuffer[] maps = new MappedByteBuffer[mapCount];
            try (FileChannel ch = FileChannel.open(spillFile, StandardOpenOption.READ)) {
                for (int k = 0; k < mapCount; k++) {
                    long first = (long) k * RECORDS_PER_MAP;
                    long len = Math.min(RECORDS_PER_MAP, size - first) * RECORD;
                    maps[k] = ch.map(FileChannel.MapMode.READ_ONLY, first * RECORD, len);
                }
            }
            return new CutPopularity(spillFile, maps, size, passes);
        }
    }

    /** A pass's fingerprints, one a counted child, in the order met. */
    private static final class Fingerprints {
        long[] fps = new long[1024];
        int n;

        void add(long fp) {
            if (n == fps.length) fps = Arrays.copyOf(fps, n * 2);
            fps[n++] = fp;
        }
    }

    /**
     * a[0..n) in unsigned order, in a or in a new array (returned): from 4096 keys an LSD radix
     * sort of 16-bit digits (a digit every key shares skipped), below it a comparison sort.
     */
    static long[] sortUnsigned(long[] a, int n) {
        if (n < 4096) {
            // the signed order of x ^ MIN is the unsigned order of x
            for (int i = 0; i < n; i++) a[i] ^= Long.MIN_VALUE;
            Arrays.sort(a, 0, n);
            for (int i = 0; i < n; i++) a[i] ^= Long.MIN_VALUE;
            return a;
        }
        long[] t = new long[n];
        int[] count = new int[1 << 16];
        for (int shift = 0; shift < 64; shift += 16) {
            Arrays.fill(count, 0);
            for (int i = 0; i < n; i++) count[(int) (a[i] >>> shift) & 0xFFFF]++;
            if (count[(int) (a[0] >>> shift) & 0xFFFF] == n) continue;
            int sum = 0;
            for (int d = 0; d < count.length; d++) { int c = count[d]; count[d] = sum; sum += c; }
            for (int i = 0; i < n; i++) t[count[(int) (a[i] >>> shift) & 0xFFFF]++] = a[i];
            long[] u = a; a = t; t = u;
        }
        return a;
    }

    /**
     * Fingerprint → saturating count, open addressing; grows when half full. A slot is the
     * fingerprint with the count in its low byte: one random access per child, not two.
     */
    private static final class Table {
        long[] slots;
        int size, mask;

        Table(int capacity) { slots = new long[capacity]; mask = capacity - 1; }
        // (A pass counts at most MAX_PASS_CHILDREN children, so the table never doubles past 2^30.)

        void add(long fp, int n) {
            if (2 * size >= mask) grow();
            long[] s = slots;
            int i = slot(fp, mask);
            while (s[i] != 0 && (s[i] & ~COUNT) != fp) i = (i + 1) & mask;
            if (s[i] == 0) size++;
            s[i] = fp | Math.min(COUNT, (s[i] & COUNT) + n);
        }

        private void grow() {
            long[] old = slots;
            slots = new long[old.length * 2]; mask = slots.length - 1; size = 0;
            for (long x : old) if (x != 0) add(x & ~COUNT, (int) (x & COUNT));
        }
    }
}

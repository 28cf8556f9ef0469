package org.gamecert.verifier.testcert;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayOutputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Test-only certificate writer: a header, a list of entries and a census, encoded by SPEC v1 with
 * the hash chain and commitment computed. Every field can be overridden to build corrupt files.
 */
public final class TestCert {
    public static final int P = 1, AP = 2, PP = 4, A = 8, C = 0x10;
    /** The bit O of an open entry, and the part bit of the mode (SPEC §15). */
    public static final int O = 0x40, PART = 0x80;

    /** One entry; layer = -1 means its disc count. */
    public static final class Entry {
        public long occ, mover;
        public int kind, lo, hi, move, layer = -1;

        public Entry(long occ, long mover, int kind, int lo, int hi, int move) {
            this.occ = occ;
            this.mover = mover;
            this.kind = kind;
            this.lo = lo;
            this.hi = hi;
            this.move = move;
        }

        public int layer() {
            return layer >= 0 ? layer : Long.bitCount(occ);
        }

        public Entry copy() {
            Entry e = new Entry(occ, mover, kind, lo, hi, move);
            e.layer = layer;
            return e;
        }
    }

    // header
    public int version = 1, family, width, height, utility, symmetry, mode = 1;
    /** Written after the mode byte when mode = 3 (SPEC §4, §9.1). */
    public int leafEmpties;
    public int[] tb;
    public long rootMover, rootOpponent;
    public int rootValue;
    /** Written after root_value in a part (mode with 0x80, SPEC §4, §15.1). */
    public int rootKinds, rootUpper;
    public long maxBlockBytes = 1 << 20, maxBlockEntries = 1 << 16;
    public byte[] info = "test certificate".getBytes();
    public Integer headerLengthOverride;

    public List<Entry> entries = new ArrayList<>();
    public boolean sortEntries = true;
    /** Entries per block (default max_block_entries). */
    public Integer chunk;
    /** Indices in the (sorted) entry list where a new block must start. */
    public java.util.Set<Integer> splitBefore = new java.util.HashSet<>();
    public List<long[]> census = new ArrayList<>(); // {discs, region, aux}

    // trailer overrides
    public Long blockCountOverride, entryCountOverride;
    public boolean corruptCommitment;

    /**
     * A zstd frame storing raw uncompressed, in raw blocks of 128 KiB (RFC 8878 §3.1.1.2; window
     * 2^24, content size given): a payload that compresses to nothing keeps its size in the file.
     */
    public static byte[] rawZstdFrame(byte[] raw) {
        java.io.ByteArrayOutputStream f = new java.io.ByteArrayOutputStream(raw.length + raw.length / 40000 + 32);
        f.writeBytes(new byte[] {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD});
        f.write(0x80); // Frame_Content_Size 4 bytes, not single-segment, no checksum, no dictionary
        f.write(0x70); // Window_Descriptor: 2^24
        for (int i = 0; i < 4; i++) f.write(raw.length >>> (8 * i));
        int at = 0;
        do {
            int n = Math.min(1 << 17, raw.length - at);
            boolean last = at + n == raw.length;
            int header = (last ? 1 : 0) | (n << 3); // Block_Type 0 (raw), Block_Size
            for (int i = 0; i < 3; i++) f.write(header >>> (8 * i));
            f.write(raw, at, n);
            at += n;
        } while (at < raw.length);
        return f.toByteArray();
    }

    /** Hook on each block's payload before compression and hashing (block index, payload). */
    public java.util.function.BiFunction<Integer, byte[], byte[]> payloadHook;
    /** How a block's payload becomes its zstd data frame (default: zstd level 3). */
    public java.util.function.Function<byte[], byte[]> compress;
    /** Hook on each block's record fields {layer, count, raw_len} before hashing. */
    public java.util.function.BiConsumer<Integer, long[]> recordHook;

    public TestCert copy() {
        TestCert t = new TestCert();
        t.version = version;
        t.family = family;
        t.width = width;
        t.height = height;
        t.utility = utility;
        t.symmetry = symmetry;
        t.mode = mode;
        t.leafEmpties = leafEmpties;
        t.tb = tb.clone();
        t.rootMover = rootMover;
        t.rootOpponent = rootOpponent;
        t.rootValue = rootValue;
        t.rootKinds = rootKinds;
        t.rootUpper = rootUpper;
        t.maxBlockBytes = maxBlockBytes;
        t.maxBlockEntries = maxBlockEntries;
        t.info = info.clone();
        for (Entry e : entries) t.entries.add(e.copy());
        for (long[] r : census) t.census.add(r.clone());
        return t;
    }

    public Entry find(long occ, long mover) {
        for (Entry e : entries) if (e.occ == occ && e.mover == mover) return e;
        return null;
    }

    public byte[] headerContent() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes("GSCF".getBytes());
        le(b, version, 2);
        b.write(family);
        b.write(width);
        b.write(height);
        b.write(utility);
        b.write(symmetry);
        b.write(mode);
        if ((mode & 0x7F) == 3) b.write(leafEmpties);
        b.write(tb.length);
        for (int m : tb) b.write(m);
        le(b, rootMover, 8);
        le(b, rootOpponent, 8);
        b.write(rootValue);
        if ((mode & PART) != 0) {
            b.write(rootKinds);
            b.write(rootUpper);
        }
        le(b, maxBlockBytes, 4);
        le(b, maxBlockEntries, 4);
        le(b, info.length, 2);
        b.writeBytes(info);
        return b.toByteArray();
    }

    /** Encodes the file. */
    public byte[] write() {
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        byte[] hc = headerContent();
        frame(file, 0x184D2A50, hc, headerLengthOverride == null ? hc.length : headerLengthOverride);
        byte[] chain = sha((byte) 0, hc);
        List<Entry> list = new ArrayList<>(entries);
        if (sortEntries)
            list.sort(Comparator.comparingInt((Entry e) -> -e.layer())
                    .thenComparing((x, y) -> x.occ != y.occ ? Long.compareUnsigned(x.occ, y.occ) : Long.compareUnsigned(x.mover, y.mover)));
        int i = 0, blockIndex = 0;
        long entryCount = 0;
        while (i < list.size()) {
            int layer = list.get(i).layer();
            int limit = chunk != null ? chunk : (int) Math.min(maxBlockEntries, 1 << 20);
            int j = i + 1;
            while (j < list.size() && j - i < limit && list.get(j).layer() == layer && !splitBefore.contains(j)) j++;
            List<Entry> blk = list.subList(i, j);
            byte[] raw = payload(blk);
            if (payloadHook != null) raw = payloadHook.apply(blockIndex, raw);
            long[] rec = {layer, blk.size(), raw.length};
            if (recordHook != null) recordHook.accept(blockIndex, rec);
            byte[] comp = compress != null ? compress.apply(raw) : Zstd.compress(raw, 3);
            MessageDigest md = md();
            md.update((byte) 1);
            md.update(chain);
            byte[] head = new byte[20];
            putLe(head, 0, blockIndex, 8);
            putLe(head, 8, rec[0], 4);
            putLe(head, 12, rec[1], 4);
            putLe(head, 16, rec[2], 4);
            md.update(head);
            md.update(raw);
            chain = md.digest();
            byte[] record = new byte[48];
            putLe(record, 0, rec[0], 4);
            putLe(record, 4, rec[1], 4);
            putLe(record, 8, rec[2], 4);
            putLe(record, 12, comp.length, 4);
            System.arraycopy(chain, 0, record, 16, 32);
            frame(file, 0x184D2A51, record, 48);
            file.writeBytes(comp);
            entryCount += blk.size();
            blockIndex++;
            i = j;
        }
        ByteArrayOutputStream t = new ByteArrayOutputStream();
        le(t, blockCountOverride != null ? blockCountOverride : blockIndex, 8);
        le(t, entryCountOverride != null ? entryCountOverride : entryCount, 8);
        le(t, census.size(), 4);
        for (long[] r : census) {
            le(t, r[0], 4);
            le(t, r[1], 8);
            le(t, r[2], 8);
        }
        byte[] body = t.toByteArray();
        MessageDigest md = md();
        md.update((byte) 2);
        md.update(chain);
        md.update(body);
        byte[] commitment = md.digest();
        if (corruptCommitment) commitment[0] ^= 1;
        ByteArrayOutputStream trailer = new ByteArrayOutputStream();
        trailer.writeBytes(body);
        trailer.writeBytes(commitment);
        byte[] tc = trailer.toByteArray();
        frame(file, 0x184D2A52, tc, tc.length);
        return file.toByteArray();
    }

    /** The commitment id this writer computed for the file. */
    public static String commitmentOf(byte[] file) {
        StringBuilder sb = new StringBuilder("sha256:");
        for (int i = file.length - 32; i < file.length; i++) sb.append(String.format("%02x", file[i]));
        return sb.toString();
    }

    public static byte[] payload(List<Entry> blk) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        long prevOcc = 0, prevC = 0;
        for (int i = 0; i < blk.size(); i++) {
            Entry e = blk.get(i);
            long c = pext(e.mover, e.occ);
            long d = e.occ - prevOcc;
            varint(b, d);
            varint(b, i > 0 && d == 0 ? c - prevC - 1 : c);
            prevOcc = e.occ;
            prevC = c;
        }
        for (Entry e : blk) b.write(e.kind);
        for (Entry e : blk) {
            if ((e.kind & (P | AP | PP)) != 0) b.write(e.lo);
            else {
                if ((e.kind & C) != 0) b.write(e.lo);
                if ((e.kind & A) != 0) b.write(e.hi);
            }
        }
        for (Entry e : blk) if ((e.kind & O) == 0 && (e.kind & (P | AP | PP | C)) != 0) b.write(e.move); // open: no move
        return b.toByteArray();
    }

    public static void varint(ByteArrayOutputStream b, long v) {
        while ((v & ~0x7FL) != 0) {
            b.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        b.write((int) v);
    }

    /** Places the bits of c, lowest first, onto the set bits of mask. */
    public static long pdep(long c, long mask) {
        long out = 0;
        for (long m = mask; m != 0 && c != 0; m &= m - 1, c >>>= 1) if ((c & 1) != 0) out |= m & -m;
        return out;
    }

    public static long pext(long x, long mask) {
        long out = 0;
        int i = 0;
        for (long m = mask; m != 0; m &= m - 1, i++) if ((x & m & -m) != 0) out |= 1L << i;
        return out;
    }

    static void frame(ByteArrayOutputStream out, int magic, byte[] content, int declared) {
        le(out, magic & 0xFFFFFFFFL, 4);
        le(out, declared, 4);
        out.writeBytes(content);
    }

    static void le(ByteArrayOutputStream b, long v, int n) {
        for (int i = 0; i < n; i++) b.write((int) (v >>> (8 * i)));
    }

    static void putLe(byte[] b, int p, long v, int n) {
        for (int i = 0; i < n; i++) b[p + i] = (byte) (v >>> (8 * i));
    }

    static MessageDigest md() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] sha(byte prefix, byte[] data) {
        MessageDigest md = md();
        md.update(prefix);
        md.update(data);
        return md.digest();
    }
}

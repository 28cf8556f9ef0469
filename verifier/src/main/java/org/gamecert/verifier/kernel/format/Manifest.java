package org.gamecert.verifier.kernel.format;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.Arrays;
import org.gamecert.verifier.kernel.Chain;
import org.gamecert.verifier.kernel.Rule;

/**
 * A composite's manifest (SPEC §15.2): one skippable frame, magic 0x184D2A53, whose content is
 * GSCM, version, the parts' commitments, the links and the manifest's own commitment. Every size
 * is checked before anything is allocated for it; the frame and fields in table order (R-MAN-1),
 * then the commitment (R-MAN-2). The parsed manifest is immutable.
 */
public final class Manifest {
    public static final int MAGIC = 0x184D2A53;
    public static final int MAX_PARTS = 1 << 20, MAX_LINKS = 1 << 24;
    /** The fixed fields: magic, version, part_count, link_count, commitment. */
    private static final int FIXED = 4 + 2 + 4 + 4 + 32;
    private static final long MAX_CONTENT = FIXED + 32L * MAX_PARTS + 24L * MAX_LINKS;

    private final byte[] parts; // 32 bytes per part
    private final int[] linkParent, linkPart;
    private final long[] linkOcc, linkMover;
    private final byte[] commitment;

    /** The input is not a manifest (fewer than 12 bytes, or not its frame magic and GSCM). */
    public static final class NotAManifest extends Exception {
        NotAManifest(String message) {
            super(message, null, false, false);
        }
    }

    /** Reads and checks the manifest file: its length is checked before it is read. */
    public static Manifest read(Path path) throws IOException, NotAManifest, FormatException {
        Container.requireRegularFile(path);
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = ch.size();
            byte[] head = read(ch, Math.min(size, 12));
            recognize(head);
            long contentSize = Bytes.u32(head, 4);
            if (8 + contentSize != size || contentSize > MAX_CONTENT)
                throw frameFails(contentSize, size);
            return parse(read(ch, size));
        }
    }

    private static byte[] read(FileChannel ch, long n) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate((int) n);
        while (buf.hasRemaining())
            if (ch.read(buf, buf.position()) < 0) throw new IOException("the file got shorter");
        return buf.array();
    }

    private static void recognize(byte[] file) throws NotAManifest {
        if (file.length < 12 || (int) Bytes.u32(file, 0) != MAGIC || file[8] != 'G'
                || file[9] != 'S' || file[10] != 'C' || file[11] != 'M')
            throw new NotAManifest("not a manifest (it does not start with a GSCM frame, magic"
                    + " 0x184D2A53)");
    }

    private static FormatException frameFails(long contentSize, long fileSize) {
        return fail("the frame's content size " + contentSize + " does not end the file of "
                + fileSize + " bytes");
    }

    /** Checks the bytes of a whole manifest file. */
    public static Manifest parse(byte[] given) throws NotAManifest, FormatException {
        byte[] file = given.clone(); // the bytes whose hash is the id: the caller's may change
        recognize(file);
        long contentSize = Bytes.u32(file, 4);
        if (8 + contentSize != file.length) throw frameFails(contentSize, file.length);
        return new Manifest(file);
    }

    /** R-MAN-1 (the frame, then the fields in table order), then R-MAN-2. */
    private Manifest(byte[] f) throws FormatException {
        // The frame: its content size is exact for the n and k the content gives. The file ends
        // with the frame (parse), so f holds the content at 8 .. f.length.
        int size = f.length - 8;
        long n = size >= 10 ? Bytes.u32(f, 14) : -1;
        long linksAt = 18 + 32 * n; // of f
        long k = n >= 0 && linksAt + 4 <= f.length ? Bytes.u32(f, (int) linksAt) : -1;
        long expected = k < 0 ? -1 : FIXED + 32 * n + 24 * k;
        if (size != expected)
            throw fail("content size " + size + " is not 4 + 2 + 4 + 32n + 4 + 24k + 32"
                    + (k < 0 ? "" : " = " + expected + " (n = " + n + ", k = " + k + ")"));
        int version = f[12] & 0xFF | (f[13] & 0xFF) << 8;
        if (version != 1) throw fail("version " + version + " (this verifier knows version 1)");
        if (n < 1 || n > MAX_PARTS) throw fail("part_count " + n + " outside 1..2^20");
        parts = Arrays.copyOfRange(f, 18, (int) linksAt);
        for (int i = 1; i < n; i++) {
            if (Arrays.equals(parts, 32 * i, 32 * i + 32, parts, 0, 32))
                throw fail("part " + i + " is part 0 again");
            if (i > 1 && Arrays.compareUnsigned(parts, 32 * i - 32, 32 * i, parts, 32 * i,
                    32 * i + 32) >= 0)
                throw fail("parts " + (i - 1) + " and " + i + " are not in strictly increasing"
                        + " order");
        }
        if (k > MAX_LINKS) throw fail("link_count " + k + " outside 0..2^24");
        linkParent = new int[(int) k];
        linkPart = new int[(int) k];
        linkOcc = new long[(int) k];
        linkMover = new long[(int) k];
        for (int j = 0; j < k; j++) {
            int at = (int) linksAt + 4 + 24 * j;
            long parent = Bytes.u32(f, at), part = Bytes.u32(f, at + 20);
            if (parent >= n) throw fail("link " + j + ": parent " + parent + " >= part_count");
            if (part >= n) throw fail("link " + j + ": part " + part + " >= part_count");
            linkParent[j] = (int) parent;
            linkOcc[j] = Bytes.u64(f, at + 4);
            linkMover[j] = Bytes.u64(f, at + 12);
            linkPart[j] = (int) part;
            if (j > 0 && compareLinks(j - 1, linkParent[j], linkOcc[j], linkMover[j]) >= 0)
                throw fail("links " + (j - 1) + " and " + j + " are not in strictly increasing"
                        + " (parent, occ, mover) order");
        }
        byte[] stored = Arrays.copyOfRange(f, f.length - 32, f.length);
        MessageDigest md = Chain.sha256(); // SHA256(0x03 ‖ the content before it) (SPEC §15.2)
        md.update((byte) 3);
        md.update(f, 8, f.length - 40);
        commitment = md.digest();
        if (!Arrays.equals(stored, commitment))
            throw new FormatException(Rule.MAN_2, "stored commitment " + Chain.hex(stored)
                    + " != computed " + Chain.hex(commitment));
    }

    /** Link j against the key (parent, occ, mover), each compared unsigned. */
    private int compareLinks(int j, int parent, long occ, long mover) {
        if (linkParent[j] != parent) return Integer.compare(linkParent[j], parent);
        if (linkOcc[j] != occ) return Long.compareUnsigned(linkOcc[j], occ);
        return Long.compareUnsigned(linkMover[j], mover);
    }

    /** The index of the link naming this open entry of part parent, or -1 (binary search). */
    public int findLink(int parent, long occ, long mover) {
        int from = 0, to = linkPart.length - 1;
        while (from <= to) {
            int mid = (from + to) >>> 1;
            int c = compareLinks(mid, parent, occ, mover);
            if (c < 0) from = mid + 1;
            else if (c > 0) to = mid - 1;
            else return mid;
        }
        return -1;
    }

    private static FormatException fail(String message) {
        return new FormatException(Rule.MAN_1, message);
    }

    public int partCount() {
        return parts.length / 32;
    }

    /** The manifest's own commitment, the 32 raw bytes (a copy). */
    public byte[] commitment() {
        return commitment.clone();
    }

    /** Part i's commitment, the 32 raw bytes (a copy). */
    public byte[] part(int i) {
        return Arrays.copyOfRange(parts, 32 * i, 32 * i + 32);
    }

    /** Part i's commitment as 64 lowercase hex digits (its file name without .gsc). */
    public String partHex(int i) {
        return Chain.hex(part(i));
    }

    public int linkCount() {
        return linkPart.length;
    }

    public int linkParent(int j) {
        return linkParent[j];
    }

    public long linkOcc(int j) {
        return linkOcc[j];
    }

    public long linkMover(int j) {
        return linkMover[j];
    }

    public int linkPart(int j) {
        return linkPart[j];
    }

    /** The composite id: sha256: and the manifest's commitment (SPEC §15.2). */
    public String compositeId() {
        return "sha256:" + Chain.hex(commitment);
    }
}

package org.gamecert.producer.compose;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeSet;

/**
 * Writes a composite's manifest (SPEC §15.2): the root part, the other parts in increasing
 * commitment order, and the links in increasing (parent, occ, mover) order, so that the composite
 * id depends only on which parts discharge which open entries, never on the order they were made.
 */
public final class ManifestWriter {
    static final int MAGIC_MANIFEST = 0x184D2A53;

    /** "The open entry (occ, mover) of part {@code parent} is discharged by the certificate {@code partHex}." */
    public static final class Link {
        final String parentHex, partHex;
        final long occ, mover;

        public Link(String parentHex, long occ, long mover, String partHex) {
            this.parentHex = parentHex; this.occ = occ; this.mover = mover; this.partHex = partHex;
        }
    }

    private ManifestWriter() {}

    /** The manifest's bytes; returns them with the composite id in {@code idOut[0]}. */
    public static byte[] build(String rootHex, List<Link> links, String[] idOut) {
        TreeSet<String> others = new TreeSet<>(); // hex of equal length sorts as the bytes do
        for (Link l : links) if (!l.partHex.equals(rootHex)) others.add(l.partHex);
        List<String> parts = new ArrayList<>();
        parts.add(rootHex);
        parts.addAll(others);
        long[][] rows = new long[links.size()][];
        for (int i = 0; i < rows.length; i++) {
            Link l = links.get(i);
            int parent = parts.indexOf(l.parentHex);
            if (parent < 0) throw new IllegalArgumentException("a link's parent is not a part: " + l.parentHex);
            rows[i] = new long[] {parent, l.occ, l.mover, parts.indexOf(l.partHex)};
        }
        Arrays.sort(rows, (a, b) -> {
            if (a[0] != b[0]) return Long.compare(a[0], b[0]);
            if (a[1] != b[1]) return Long.compareUnsigned(a[1], b[1]);
            return Long.compareUnsigned(a[2], b[2]);
        });
        int size = 4 + 2 + 4 + 32 * parts.size() + 4 + 24 * rows.length + 32;
        ByteBuffer b = ByteBuffer.allocate(8 + size).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(MAGIC_MANIFEST).putInt(size);
        b.put(new byte[] {'G', 'S', 'C', 'M'}).putShort((short) 1).putInt(parts.size());
        for (String p : parts) b.put(HexFormat.of().parseHex(p));
        b.putInt(rows.length);
        for (long[] r : rows) b.putInt((int) r[0]).putLong(r[1]).putLong(r[2]).putInt((int) r[3]);
        byte[] commitment = commitment(b.array(), 8, size - 32);
        b.put(commitment);
        idOut[0] = "sha256:" + HexFormat.of().formatHex(commitment);
        return b.array();
    }

    /** SHA256(0x03 ‖ the manifest's content before its commitment field). */
    public static byte[] commitment(byte[] bytes, int from, int length) {
        MessageDigest md;
        try { md = MessageDigest.getInstance("SHA-256"); }
        catch (NoSuchAlgorithmException e) { throw new IllegalStateException(e); }
        md.update((byte) 0x03);
        md.update(bytes, from, length);
        return md.digest();
    }

    /** Writes the manifest atomically; returns the composite id. */
    public static String write(Path file, String rootHex, List<Link> links) throws IOException {
        String[] id = new String[1];
        byte[] bytes = build(rootHex, links, id);
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, bytes);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return id[0];
    }
}

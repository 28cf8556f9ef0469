package org.gamecert.producer.mutate.composite;

import org.gamecert.producer.compose.ManifestWriter;
import org.gamecert.producer.compose.SplitDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A composite held in memory for mutation: the manifest's parts and links (SPEC §15.2) and the
 * part files by their commitment's hex. {@link #write} writes a directory that scripts/verify reads;
 * {@link #seal} rebuilds the manifest with a correct commitment (so that only the lie is left).
 */
public final class CompositeSet {
    public final List<String> parts = new ArrayList<>();   // hex; part 0 is the root part
    public final List<long[]> links = new ArrayList<>();   // {parent, occ, mover, part}
    public final Map<String, byte[]> files = new LinkedHashMap<>(); // hex -> part certificate
    public byte[] manifest;

    public static CompositeSet load(Path dir) throws IOException {
        CompositeSet s = new CompositeSet();
        Path m = dir.resolve(SplitDir.MANIFEST);
        if (!Files.isRegularFile(m)) throw new IOException(dir + " holds no " + SplitDir.MANIFEST + " (made by compose)");
        s.manifest = Files.readAllBytes(m);
        ByteBuffer b = ByteBuffer.wrap(s.manifest).order(ByteOrder.LITTLE_ENDIAN);
        b.position(8 + 4 + 2);
        int n = b.getInt();
        for (int i = 0; i < n; i++) {
            byte[] c = new byte[32];
            b.get(c);
            s.parts.add(HexFormat.of().formatHex(c));
        }
        int k = b.getInt();
        for (int i = 0; i < k; i++) s.links.add(new long[] {b.getInt(), b.getLong(), b.getLong(), b.getInt()});
        try (Stream<Path> list = Files.list(dir)) {
            for (Path p : (Iterable<Path>) list::iterator) {
                String name = p.getFileName().toString();
                if (name.matches("[0-9a-f]{64}\\.gsc")) s.files.put(name.substring(0, 64), Files.readAllBytes(p));
            }
        }
        return s;
    }

    public CompositeSet copy() {
        CompositeSet c = new CompositeSet();
        c.parts.addAll(parts);
        for (long[] l : links) c.links.add(l.clone());
        c.files.putAll(files);
        c.manifest = manifest.clone();
        return c;
    }

    /** Rebuilds the manifest from parts and links as they are (in their order), with its commitment. */
    public void seal() {
        int size = 4 + 2 + 4 + 32 * parts.size() + 4 + 24 * links.size() + 32;
        ByteBuffer b = ByteBuffer.allocate(8 + size).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0x184D2A53).putInt(size);
        b.put(new byte[] {'G', 'S', 'C', 'M'}).putShort((short) 1).putInt(parts.size());
        for (String p : parts) b.put(HexFormat.of().parseHex(p));
        b.putInt(links.size());
        for (long[] l : links) b.putInt((int) l[0]).putLong(l[1]).putLong(l[2]).putInt((int) l[3]);
        byte[] all = b.array();
        b.put(ManifestWriter.commitment(all, 8, size - 32));
        manifest = all;
    }

    /** Writes the manifest and the part files into {@code dir} (created; nothing else written). */
    public void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.write(dir.resolve(SplitDir.MANIFEST), manifest);
        for (Map.Entry<String, byte[]> e : files.entrySet()) Files.write(dir.resolve(e.getKey() + ".gsc"), e.getValue());
    }
}

package org.gamecert.verifier.peer;

import com.github.luben.zstd.ZstdInputStream;
import com.github.luben.zstd.ZstdOutputStream;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * The tables of a streamed archive (.tar.zst or its split parts) spooled for tasks on other
 * machines (untrusted engine): the archive is read once, in order, and each table is cut as it
 * passes into slices of sliceRecords records, each its own zstd-compressed file in a directory
 * every executor can read ({@code t<n>.<i>.zst}, an index in {@code spool.properties}). A task
 * opens its slice's file and table n+1's files in order; nothing holds a table in memory.
 */
public final class SliceSpool implements PeerSource {
    static final String INDEX = "spool.properties";
    private final Path dir;
    private final long sliceRecords;
    private final TreeMap<Integer, Long> sizes = new TreeMap<>();
    private final List<String> unread = new ArrayList<>();

    private SliceSpool(Path dir, long sliceRecords) {
        this.dir = dir;
        this.sliceRecords = sliceRecords;
    }

    /** Whether dir is a spool this class wrote. */
    static boolean isSpool(Path dir) {
        return Files.isRegularFile(dir.resolve(INDEX));
    }

    /** Reads the archive (its parts in order) once into dir, slices of sliceRecords records. */
    static SliceSpool write(List<Path> archive, Path dir, long sliceRecords, PrintStream progress)
            throws IOException, PeerInputException {
        SliceSpool s = new SliceSpool(dir, Math.max(1, sliceRecords));
        Files.createDirectories(dir);
        long sliceBytes = s.sliceRecords * PeerCodec.RECORD_BYTES;
        byte[] buf = new byte[1 << 20];
        try (InputStream raw = SpoolSource.archiveStream(archive);
             TarArchiveInputStream tar = new TarArchiveInputStream(raw)) {
            TarArchiveEntry e;
            while ((e = tar.getNextEntry()) != null) {
                if (!e.isFile()) continue;
                int n = PeerSource.tableNumber(e.getName());
                if (n < 0) {
                    if (!e.getName().endsWith("SHA256SUMS")) s.unread.add(e.getName());
                    continue;
                }
                if (n < 4 || n > 35)
                    throw new PeerInputException(PeerRules.TABLE_1, n, "table " + e.getName() + ": disc count outside 4..35");
                if (s.sizes.containsKey(n))
                    throw new PeerInputException(PeerRules.TABLE_1, n, "table " + n + " appears twice in the archive");
                long total = 0;
                int slice = 0;
                OutputStream out = s.create(n, slice);
                try {
                    for (int r; (r = tar.read(buf)) > 0; ) {
                        for (int off = 0; off < r; ) {
                            // a slice's file holds sliceRecords records; the last, the rest
                            long room = sliceBytes - (total - slice * sliceBytes);
                            if (room == 0) {
                                out.close();
                                out = s.create(n, ++slice);
                                continue;
                            }
                            int k = (int) Math.min(room, r - off);
                            out.write(buf, off, k);
                            off += k;
                            total += k;
                        }
                    }
                } finally {
                    out.close();
                }
                s.sizes.put(n, total);
                if (progress != null)
                    progress.println(String.format("spooled table %d: %,d bytes in %d slice file(s)", n, total, slice + 1));
            }
        } catch (java.io.UncheckedIOException ex) {
            throw ex.getCause();
        }
        Properties p = new Properties();
        p.setProperty("slice_records", Long.toString(s.sliceRecords));
        for (var t : s.sizes.entrySet()) p.setProperty("table." + t.getKey(), Long.toString(t.getValue()));
        p.setProperty("unread", String.join("\n", s.unread));
        try (var w = Files.newBufferedWriter(dir.resolve(INDEX), StandardCharsets.UTF_8)) {
            p.store(w, "peer tables spooled in slices");
        }
        return s;
    }

    /** A spool written before (by the driver), as a task opens it. */
    static SliceSpool open(Path dir) throws IOException {
        Properties p = new Properties();
        try (var r = Files.newBufferedReader(dir.resolve(INDEX), StandardCharsets.UTF_8)) {
            p.load(r);
        }
        SliceSpool s = new SliceSpool(dir, Long.parseLong(p.getProperty("slice_records")));
        for (String k : p.stringPropertyNames())
            if (k.startsWith("table.")) s.sizes.put(Integer.parseInt(k.substring(6)), Long.parseLong(p.getProperty(k)));
        String u = p.getProperty("unread", "");
        if (!u.isEmpty()) Collections.addAll(s.unread, u.split("\n"));
        return s;
    }

    private OutputStream create(int n, int slice) throws IOException {
        Path f = dir.resolve("t" + n + "." + slice + ".zst");
        return new ZstdOutputStream(new BufferedOutputStream(Files.newOutputStream(f), 1 << 20), 1);
    }

    /** Records per slice file (the driver's slices are these files). */
    long sliceRecords() {
        return sliceRecords;
    }

    /** Bytes of the spool on disk. */
    long bytes() throws IOException {
        long b = 0;
        try (var files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) b += Files.size(f);
        }
        return b;
    }

    @Override
    public List<String> unread() {
        return unread;
    }

    @Override
    public String description() {
        return "tables spooled in slices";
    }

    @Override
    public int[] tables() {
        return sizes.keySet().stream().mapToInt(Integer::intValue).toArray();
    }

    @Override
    public long byteSize(int n) {
        Long s = sizes.get(n);
        return s == null ? -1 : s;
    }

    @Override
    public InputStream open(int n) throws IOException {
        return openAt(n, 0);
    }

    /** From the slice file that holds the record: that file and the ones after it, in order. */
    @Override
    public InputStream openAt(int n, long record) throws IOException {
        Long size = sizes.get(n);
        if (size == null) throw new IOException("table " + n + " is not in the spool " + dir);
        long sliceBytes = sliceRecords * PeerCodec.RECORD_BYTES;
        int files = (int) Math.max(1, (size + sliceBytes - 1) / sliceBytes);
        int first = (int) Math.min(files - 1, record / sliceRecords);
        java.util.Iterator<Integer> it = java.util.stream.IntStream.range(first, files).iterator();
        java.util.Enumeration<InputStream> e = new java.util.Enumeration<>() {
            public boolean hasMoreElements() {
                return it.hasNext();
            }

            public InputStream nextElement() {
                try {
                    Path f = dir.resolve("t" + n + "." + it.next() + ".zst");
                    return new ZstdInputStream(new BufferedInputStream(Files.newInputStream(f), 1 << 16));
                } catch (IOException ex) {
                    throw new java.io.UncheckedIOException(ex);
                }
            }
        };
        InputStream in = new BufferedInputStream(new SequenceInputStream(e), 1 << 20);
        in.skipNBytes((record - first * sliceRecords) * PeerCodec.RECORD_BYTES);
        return in;
    }
}

package org.gamecert.verifier.peer;

import com.github.luben.zstd.ZstdInputStream;
import com.github.luben.zstd.ZstdOutputStream;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.TreeMap;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * Tables of a streamed archive (.tar.zst or its split parts, never extracted): each table is
 * spooled, as it passes, to a zstd-compressed temporary file, kept only while a neighbouring
 * table still needs it. The archive itself is read once.
 */
final class SpoolSource implements PeerSource {
    private final TreeMap<Integer, Path> spools = new TreeMap<>();
    private final TreeMap<Integer, Long> sizes = new TreeMap<>();
    private final String description;
    private final java.util.List<String> unread = new java.util.ArrayList<>();

    @Override
    public java.util.List<String> unread() { return unread; }
    private final Path tmp;
    private long spoolBytes, spoolBytesPeak;

    SpoolSource(String description, Path tmp) {
        this.description = description;
        this.tmp = tmp;
    }

    /** The archive's bytes: the parts concatenated in order, or one file. */
    static InputStream archiveStream(List<Path> files) throws IOException {
        Iterator<Path> it = files.iterator();
        // Open parts lazily, one at a time.
        java.util.Enumeration<InputStream> e = new java.util.Enumeration<>() {
            public boolean hasMoreElements() {
                return it.hasNext();
            }

            public InputStream nextElement() {
                try {
                    return Files.newInputStream(it.next());
                } catch (IOException ex) {
                    throw new java.io.UncheckedIOException(ex);
                }
            }
        };
        return new ZstdInputStream(new BufferedInputStream(new SequenceInputStream(e), 1 << 20));
    }

    interface Arrival {
        /** Called after table n was spooled; return false to stop reading the archive. */
        boolean arrived(int n) throws IOException, InterruptedException;
    }

    /** Reads the archive once, spooling each table and calling back after each. */
    void stream(List<Path> files, Arrival arrival) throws IOException, InterruptedException, PeerInputException {
        try (InputStream raw = archiveStream(files);
             TarArchiveInputStream tar = new TarArchiveInputStream(raw)) {
            TarArchiveEntry e;
            byte[] buf = new byte[1 << 20];
            while ((e = tar.getNextEntry()) != null) {
                if (!e.isFile()) continue;
                int n = PeerSource.tableNumber(e.getName());
                if (n < 0) {
                    if (!e.getName().endsWith("SHA256SUMS")) unread.add(e.getName());
                    continue;
                }
                if (n < 4 || n > 35) throw new PeerInputException(PeerRules.TABLE_1, n, "table " + e.getName() + ": disc count outside 4..35");
                if (sizes.containsKey(n)) throw new PeerInputException(PeerRules.TABLE_1, n, "table " + n + " appears twice in the archive");
                Path spool = Files.createTempFile(tmp, "peer-table-" + n + "-", ".zst");
                long total = 0;
                try (OutputStream out = new ZstdOutputStream(new BufferedOutputStream(Files.newOutputStream(spool), 1 << 20), 1)) {
                    int r;
                    while ((r = tar.read(buf)) > 0) {
                        out.write(buf, 0, r);
                        total += r;
                    }
                }
                spools.put(n, spool);
                sizes.put(n, total);
                spoolBytes += Files.size(spool);
                spoolBytesPeak = Math.max(spoolBytesPeak, spoolBytes);
                if (!arrival.arrived(n)) return;
            }
        } catch (java.io.UncheckedIOException ex) {
            throw ex.getCause();
        }
    }

    void release(int n) throws IOException {
        Path p = spools.remove(n);
        if (p != null) {
            spoolBytes -= Files.size(p);
            Files.deleteIfExists(p);
        }
    }

    boolean has(int n) {
        return spools.containsKey(n);
    }

    boolean seen(int n) {
        return sizes.containsKey(n);
    }

    long spoolBytesPeak() {
        return spoolBytesPeak;
    }

    @Override
    public String description() {
        return description;
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
        Path p = spools.get(n);
        if (p == null) throw new IOException("table " + n + " is no longer spooled (the archive's tables are not in ascending order)");
        return new BufferedInputStream(new ZstdInputStream(new BufferedInputStream(Files.newInputStream(p), 1 << 20)), 1 << 20);
    }

    @Override
    public void close() throws IOException {
        for (Path p : new ArrayList<>(spools.values())) Files.deleteIfExists(p);
        spools.clear();
    }

    static List<Path> single(Path p) {
        return Collections.singletonList(p);
    }
}

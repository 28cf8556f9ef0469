package org.gamecert.verifier.peer;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.TreeMap;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarFile;

/** An uncompressed .tar holding the tables: read in place, entry by entry (random access). */
public final class TarSource implements PeerSource {
    private final TarFile tar;
    private final TreeMap<Integer, TarArchiveEntry> entries = new TreeMap<>();
    private final java.util.List<String> unread = new java.util.ArrayList<>();

    @Override
    public java.util.List<String> unread() { return unread; }

    public TarSource(Path file) throws IOException, PeerInputException {
        tar = new TarFile(file);
        for (TarArchiveEntry e : tar.getEntries()) {
            if (!e.isFile()) continue;
            int n = PeerSource.tableNumber(e.getName());
            if (n < 0) {
                if (!e.getName().endsWith("SHA256SUMS")) unread.add(e.getName());
                continue;
            }
            if (n < 4 || n > 35) throw new PeerInputException(PeerRules.TABLE_1, n, "table " + e.getName() + ": disc count outside 4..35");
            if (entries.put(n, e) != null) throw new PeerInputException(PeerRules.TABLE_1, n, "table " + n + " appears twice in the archive");
        }
    }

    @Override
    public String description() {
        return "tar archive";
    }

    @Override
    public int[] tables() {
        return entries.keySet().stream().mapToInt(Integer::intValue).toArray();
    }

    @Override
    public long byteSize(int n) {
        return entries.get(n).getSize();
    }

    @Override
    public InputStream open(int n) throws IOException {
        return new BufferedInputStream(tar.getInputStream(entries.get(n)), 1 << 20);
    }

    @Override
    public void close() throws IOException {
        tar.close();
    }
}

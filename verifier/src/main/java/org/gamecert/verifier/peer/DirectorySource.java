package org.gamecert.verifier.peer;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeMap;

/** A directory of {@code optimal_reopening_ab_table_all_{n}.txt} files. */
public final class DirectorySource implements PeerSource {
    private final TreeMap<Integer, Path> files = new TreeMap<>();

    private final java.util.List<String> unread = new java.util.ArrayList<>();

    public DirectorySource(Path dir) throws IOException, PeerInputException {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                String name = p.getFileName().toString();
                int n = PeerSource.tableNumber(name);
                if (n < 0) {
                    if (!name.equals("SHA256SUMS")) unread.add(name + (Files.isDirectory(p) ? "/" : ""));
                    continue;
                }
                if (n < 4 || n > 35) throw new PeerInputException(PeerRules.TABLE_1, n, "table " + name + ": disc count outside 4..35");
                // Two names for one table (_26 and _026): keeping either would make the verdict depend
                // on the order the file system lists them (PEER-TABLE-1, as for archives).
                Path other = files.put(n, p);
                if (other != null)
                    throw new PeerInputException(PeerRules.TABLE_1, n, "table " + n + " appears twice in the directory: " + other.getFileName()
                            + " and " + name);
            }
        }
        java.util.Collections.sort(unread);
    }

    @Override
    public java.util.List<String> unread() { return unread; }

    public static boolean looksLikeTables(Path dir) throws IOException {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) if (PeerSource.tableNumber(p.getFileName().toString()) >= 0) return true;
        }
        return false;
    }

    @Override
    public String description() {
        return "directory of peer tables";
    }

    @Override
    public int[] tables() {
        return files.keySet().stream().mapToInt(Integer::intValue).toArray();
    }

    @Override
    public long byteSize(int n) {
        try {
            return Files.size(files.get(n));
        } catch (IOException e) {
            return -1;
        }
    }

    @Override
    public InputStream open(int n) throws IOException {
        return new BufferedInputStream(Files.newInputStream(files.get(n)), 1 << 20);
    }
}

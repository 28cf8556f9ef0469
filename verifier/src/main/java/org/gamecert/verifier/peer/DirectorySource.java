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

    public DirectorySource(Path dir) throws IOException, PeerInputException {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                int n = PeerSource.tableNumber(p.getFileName().toString());
                if (n < 0) continue;
                if (n < 4 || n > 35) throw new PeerInputException(PeerRules.TABLE_1, n, "table " + p.getFileName() + ": disc count outside 4..35");
                files.put(n, p);
            }
        }
    }

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

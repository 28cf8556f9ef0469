package org.gamecert.producer.release;

import com.github.luben.zstd.ZstdOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Writes a bag as a directory, a tar or a tar.zst, deterministically: the same files give the same
 * bytes. Tar: entries sorted by name, directories before their contents, fixed mtime, uid/gid 0, no
 * owner names, modes 0755/0644, POSIX (PAX) long names and big numbers. zstd: level {@link #ZSTD_LEVEL},
 * one thread, no checksum, no long mode — parameters that do not depend on the machine.
 */
public final class BagWriter {
    public enum Format { DIRECTORY, TAR, TAR_ZST }

    static final int ZSTD_LEVEL = 3;
    static final int DIR_MODE = 040755, FILE_MODE = 0100644;

    private BagWriter() {}

    public static Format formatOf(Path out) {
        String n = out.getFileName().toString();
        if (n.endsWith(".tar.zst") || n.endsWith(".tzst")) return Format.TAR_ZST;
        if (n.endsWith(".tar")) return Format.TAR;
        return Format.DIRECTORY;
    }

    /** The bag's top-level directory inside an archive: the file name without .tar / .tar.zst. */
    static String rootName(Path out) {
        String n = out.getFileName().toString();
        for (String ext : new String[] {".tar.zst", ".tzst", ".tar"}) if (n.endsWith(ext)) return n.substring(0, n.length() - ext.length());
        return n;
    }

    /**
     * Writes the bag; for archives with splitBytes > 0, as parts out.00, out.01, ... (see
     * {@link #partName}) with their SHA-256 in SHA256SUMS beside them. Returns the files written
     * (the parts, then SHA256SUMS).
     */
    public static List<Path> write(Path out, List<BagFile> files, long mtimeSeconds, long splitBytes) throws IOException {
        Format f = formatOf(out);
        if (f == Format.DIRECTORY) return List.of(writeDirectory(out, files));
        Path dir = out.toAbsolutePath().getParent();
        Path tmp = org.gamecert.producer.command.OutputFiles.createTemp(dir, "." + out.getFileName() + ".", ".part");
        try {
            try (OutputStream raw = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
                OutputStream s = raw;
                if (f == Format.TAR_ZST) {
                    ZstdOutputStream z = new ZstdOutputStream(raw, ZSTD_LEVEL);
                    z.setChecksum(false);
                    z.setWorkers(0);
                    s = z;
                }
                writeTar(s, rootName(out), files, mtimeSeconds);
                s.close();
            }
            if (splitBytes <= 0) {
                Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                return List.of(out);
            }
            List<Path> parts = split(tmp, out, splitBytes);
            List<Path> all = new ArrayList<>(parts);
            all.add(writeSums(parts));
            return all;
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    static void writeTar(OutputStream os, String root, List<BagFile> files, long mtimeSeconds) throws IOException {
        TarArchiveOutputStream tar = new TarArchiveOutputStream(os, 512, "UTF-8");
        tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
        tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
        tar.setAddPaxHeadersForNonAsciiNames(true);
        TreeSet<String> names = new TreeSet<>();
        names.add(root + "/");
        for (BagFile b : files) {
            String full = root + "/" + b.name;
            names.add(full);
            for (int i = full.indexOf('/'); i >= 0; i = full.indexOf('/', i + 1)) names.add(full.substring(0, i + 1));
        }
        java.util.Map<String, BagFile> byName = new java.util.HashMap<>();
        for (BagFile b : files) byName.put(root + "/" + b.name, b);
        byte[] buf = new byte[1 << 16];
        for (String name : names) {
            boolean isDir = name.endsWith("/");
            TarArchiveEntry e = new TarArchiveEntry(name, isDir ? TarArchiveEntry.LF_DIR : TarArchiveEntry.LF_NORMAL);
            e.setModTime(mtimeSeconds * 1000L);
            e.setUserId(0);
            e.setGroupId(0);
            e.setUserName("");
            e.setGroupName("");
            e.setMode(isDir ? DIR_MODE : FILE_MODE);
            BagFile b = isDir ? null : byName.get(name);
            e.setSize(isDir ? 0 : b.size());
            tar.putArchiveEntry(e);
            if (!isDir) {
                long left = b.size();
                try (InputStream in = b.open()) {
                    for (int n; (n = in.read(buf)) > 0; ) { tar.write(buf, 0, n); left -= n; }
                }
                if (left != 0) throw new IOException(b.name + " changed size while it was written");
            }
            tar.closeArchiveEntry();
        }
        tar.finish();
        tar.flush();
    }

    /**
     * The one convention for split archives (release, export, and the published 6x6 tablebase's
     * own parts): NAME.00, NAME.01, ... as `split -d` names them, three digits when there are more
     * than 100 parts (every part of one archive has as many), and a SHA256SUMS file beside them in
     * `sha256sum -c` form. Readers start from the first part, NAME.00.
     */
    public static String partName(String name, int index, long count) {
        return name + String.format(java.util.Locale.ROOT, count > 100 ? ".%03d" : ".%02d", index);
    }

    /** The file beside split parts that lists their SHA-256 (as the published tablebase has it). */
    public static final String SUMS = "SHA256SUMS";

    /**
     * Writes the parts' SHA-256 to SHA256SUMS beside them, `sha256sum -c` form; lines the file
     * already has for other files are kept (two archives split in one folder), its lines for these
     * parts replaced. Returns the file.
     */
    public static Path writeSums(List<Path> parts) throws IOException {
        Path sums = parts.get(0).toAbsolutePath().resolveSibling(SUMS);
        java.util.Map<String, String> lines = new java.util.LinkedHashMap<>();
        if (Files.isRegularFile(sums))
            for (String l : Files.readAllLines(sums, java.nio.charset.StandardCharsets.UTF_8))
                if (l.length() > 66) lines.put(l.substring(66), l);
        for (Path p : parts) {
            String name = p.getFileName().toString();
            lines.put(name, Digests.sha256And512(p)[0] + "  " + name);
        }
        StringBuilder sb = new StringBuilder();
        for (String l : lines.values()) sb.append(l).append('\n');
        Path tmp = org.gamecert.producer.command.OutputFiles.createTemp(sums.getParent(), "." + SUMS + ".", ".tmp");
        try {
            Files.write(tmp, sb.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            Files.move(tmp, sums, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
        return sums;
    }

    private static List<Path> split(Path whole, Path out, long partBytes) throws IOException {
        long size = Files.size(whole);
        long count = Math.max(1, (size + partBytes - 1) / partBytes);
        if (count > 1000) throw new IOException("more than 1000 parts: use a larger --split-size");
        List<Path> parts = new ArrayList<>();
        try (java.nio.channels.FileChannel in = java.nio.channels.FileChannel.open(whole)) {
            for (int i = 0; i < count; i++) {
                Path p = out.resolveSibling(partName(out.getFileName().toString(), i, count));
                long from = i * partBytes, len = Math.min(partBytes, size - from);
                try (java.nio.channels.FileChannel o = java.nio.channels.FileChannel.open(p, java.nio.file.StandardOpenOption.CREATE,
                        java.nio.file.StandardOpenOption.WRITE, java.nio.file.StandardOpenOption.TRUNCATE_EXISTING)) {
                    for (long done = 0; done < len; ) done += in.transferTo(from + done, len - done, o);
                }
                parts.add(p);
            }
        }
        return parts;
    }

    private static Path writeDirectory(Path out, List<BagFile> files) throws IOException {
        if (Files.exists(out)) {
            if (!Files.isDirectory(out)) throw new IOException(out + " exists and is not a directory");
            try (var s = Files.list(out)) { if (s.findAny().isPresent()) throw new IOException(out + " exists and is not empty"); }
        }
        Files.createDirectories(out);
        byte[] buf = new byte[1 << 16];
        for (BagFile b : files) {
            Path p = out.resolve(b.name);
            Files.createDirectories(p.getParent());
            try (InputStream in = b.open(); OutputStream o = Files.newOutputStream(p)) {
                for (int n; (n = in.read(buf)) > 0; ) o.write(buf, 0, n);
            }
        }
        return out;
    }
}

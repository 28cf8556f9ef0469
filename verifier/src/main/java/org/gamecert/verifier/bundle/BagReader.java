package org.gamecert.verifier.bundle;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * Reads a bag in one pass — a directory walked without following links, or a tar streamed once —
 * into its regular files with their sizes and SHA-256/SHA-512 digests. Tag files (outside data/)
 * are kept in memory; certificates in a tar (recognised by their first 12 bytes, SPEC §2) are copied
 * to a temporary directory, since the certificate verifier reads files with random access.
 * Nothing else is written to disk. Unsafe entries (links, devices, paths escaping the bag,
 * duplicates) become problems, named by their path.
 */
final class BagReader {
    final TreeMap<String, BagEntry> files = new TreeMap<>();
    final TreeSet<String> directories = new TreeSet<>();
    final List<Problem> problems = new ArrayList<>();
    private final long maxTagBytes;
    /** Bytes of tag files held in memory so far (all of them at most 4 maxTagBytes). */
    private long tagBytesHeld;
    private final Path spoolDir;
    private int spooled;

    /**
     * What a tar bundle's certificates may take in the spool folder altogether: the folder's free
     * space when reading starts, less a margin of 512 MiB for everything else on that disk. Beyond
     * it the certificate is named as too large to spool (a clear rejection instead of a full disk).
     */
    private long spoolBudget = -1, spooledBytes;

    BagReader(long maxTagBytes, Path spoolDir) { this.maxTagBytes = maxTagBytes; this.spoolDir = spoolDir; }

    private long spoolBudget() {
        if (spoolBudget < 0) {
            try { spoolBudget = Math.max(0, Files.getFileStore(spoolDir).getUsableSpace() - (512L << 20)); }
            catch (IOException e) { spoolBudget = 0; }
        }
        return spoolBudget;
    }

    // ---- directory ----

    void readDirectory(Path root) throws IOException {
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes a) {
                if (!d.equals(root)) directories.add(rel(root, d));
                return FileVisitResult.CONTINUE;
            }

            @Override public FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException {
                String name = rel(root, f);
                if (a.isSymbolicLink() || Files.isSymbolicLink(f)) problems.add(new Problem(name, "is a symbolic link; a bundle holds regular files only"));
                else if (!a.isRegularFile()) problems.add(new Problem(name, "is not a regular file (device, socket or pipe)"));
                else if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) problems.add(new Problem(name, "is not a regular file"));
                else try (InputStream in = Files.newInputStream(f)) {
                    BagEntry e = consume(name, in, false);
                    if (e.certificateMagic || e.manifestMagic) e.file = f;
                    files.put(name, e);
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private static String rel(Path root, Path p) {
        return root.relativize(p).toString().replace(java.io.File.separatorChar, '/');
    }

    // ---- tar ----

    void readTar(InputStream tarStream) throws IOException {
        // Contents are consumed as the stream goes, but the bag root (one top-level directory, or
        // none) is known only at the end: keep entries under their archive names, re-key them then.
        List<String[]> raw = new ArrayList<>(); // {archive name, "d" or "f"}
        TarArchiveInputStream tar = new TarArchiveInputStream(tarStream, "UTF-8");
        TreeMap<String, BagEntry> byArchiveName = new TreeMap<>();
        TarArchiveEntry e;
        while ((e = tar.getNextEntry()) != null) {
            String name = e.getName();
            String safe = safePath(name);
            if (safe == null) { problems.add(new Problem(name, "path escapes the bag or is not a plain relative path")); continue; }
            if (e.isSymbolicLink() || e.isLink()) { problems.add(new Problem(safe, "is a " + (e.isLink() ? "hard" : "symbolic") + " link (to " + e.getLinkName() + "); a bundle holds regular files only")); continue; }
            if (e.isCharacterDevice() || e.isBlockDevice() || e.isFIFO()) { problems.add(new Problem(safe, "is a device or pipe; a bundle holds regular files only")); continue; }
            byte flag = e.getLinkFlag();
            if (e.isDirectory()) { raw.add(new String[] {safe, "d"}); continue; }
            if (flag != TarArchiveEntry.LF_NORMAL && flag != TarArchiveEntry.LF_OLDNORM) {
                problems.add(new Problem(safe, "has tar entry type '" + (char) flag + "'; a bundle holds regular files and directories only"));
                continue;
            }
            if (byArchiveName.containsKey(safe)) { problems.add(new Problem(safe, "appears twice in the tar")); continue; }
            BagEntry be = consume(safe, tar, !isTagCandidate(safe));
            byArchiveName.put(safe, be);
            raw.add(new String[] {safe, "f"});
        }
        // The bag root: files at the top, or one top-level directory holding everything.
        String prefix = "";
        boolean topFile = false;
        TreeSet<String> tops = new TreeSet<>();
        for (String[] r : raw) {
            int i = r[0].indexOf('/');
            if (i < 0 && r[1].equals("f")) topFile = true;
            tops.add(i < 0 ? r[0] : r[0].substring(0, i));
        }
        if (!topFile && tops.size() == 1) prefix = tops.first() + "/";
        else if (!topFile && tops.size() > 1) problems.add(new Problem(String.join(", ", tops), "several top-level directories: a bundle holds one bag"));
        for (String[] r : raw) {
            if (!r[0].startsWith(prefix) && !(r[0] + "/").equals(prefix)) continue;
            String inBag = r[0].length() > prefix.length() ? r[0].substring(prefix.length()) : "";
            if (inBag.isEmpty()) continue;
            if (r[1].equals("d")) { directories.add(inBag.endsWith("/") ? inBag.substring(0, inBag.length() - 1) : inBag); continue; }
            BagEntry be = byArchiveName.get(r[0]);
            BagEntry moved = new BagEntry(inBag);
            moved.size = be.size; moved.sha256 = be.sha256; moved.sha512 = be.sha512; moved.bytes = be.bytes;
            moved.certificateMagic = be.certificateMagic; moved.manifestMagic = be.manifestMagic; moved.file = be.file;
            files.put(inBag, moved);
        }
    }

    /** Files at the top level, or in a top-level directory other than data/: candidates for tag files, kept in memory. */
    /** The payload files a release renders from what it verifies: kept in memory to be compared. */
    private static final java.util.regex.Pattern DERIVED =
            java.util.regex.Pattern.compile("(?:[^/]+/)?data/(?:census\\.svg|CITATION\\.cff|README\\.md|[^/]+\\.census\\.json)");

    private static boolean isTagCandidate(String archiveName) {
        // In a tar the root is not known yet: keep small files whose name (after one optional root
        // directory) is not under data/, and the derived payload files (compared byte for byte).
        if (DERIVED.matcher(archiveName).matches()) return true;
        int i = archiveName.indexOf('/');
        String rest = i < 0 ? archiveName : archiveName.substring(i + 1);
        return !(archiveName.startsWith("data/") || rest.startsWith("data/"));
    }

    /** A '/'-separated relative path without '.', '..', empty segments, backslashes or control characters; null if unsafe. */
    static String safePath(String name) {
        String n = name;
        while (n.startsWith("./")) n = n.substring(2);
        if (n.endsWith("/")) n = n.substring(0, n.length() - 1);
        if (n.isEmpty() || n.startsWith("/") || n.contains("\\") || (n.length() > 1 && n.charAt(1) == ':')) return null;
        for (char c : n.toCharArray()) if (c < 0x20 || c == 0x7f) return null;
        for (String seg : n.split("/", -1)) if (seg.isEmpty() || seg.equals(".") || seg.equals("..")) return null;
        return n;
    }

    /** Reads one file's content once: size, both digests, the certificate magic, and (tag files) the bytes or (tar certificates) a spooled copy. */
    private BagEntry consume(String name, InputStream in, boolean spoolCertificates) throws IOException {
        BagEntry be = new BagEntry(name);
        MessageDigest d256 = md("SHA-256"), d512 = md("SHA-512");
        ByteArrayOutputStream mem = isTagCandidate(name) ? new ByteArrayOutputStream() : null;
        ByteArrayOutputStream head = new ByteArrayOutputStream(); // the first 12 bytes decide what the file is
        boolean decided = false;
        byte[] buf = new byte[1 << 16];
        OutputStream spool = null;
        long size = 0;
        try {
            for (int n; (n = in.read(buf)) >= 0; ) {
                if (n == 0) continue;
                d256.update(buf, 0, n);
                d512.update(buf, 0, n);
                size += n;
                if (mem != null) {
                    if (mem.size() + (long) n > maxTagBytes) { mem = null; problems.add(new Problem(name, "tag file larger than " + maxTagBytes + " bytes")); }
                    else if (tagBytesHeld + n > 4 * maxTagBytes) { // a bound on them all, not only each
                        mem = null;
                        problems.add(new Problem(name, "tag files larger than " + 4 * maxTagBytes + " bytes in all"));
                    } else {
                        mem.write(buf, 0, n);
                        tagBytesHeld += n;
                    }
                }
                if (!decided) {
                    head.write(buf, 0, n);
                    if (head.size() < 12) continue;
                    decided = true;
                    be.certificateMagic = isCertificateMagic(head.toByteArray());
                    be.manifestMagic = isManifestMagic(head.toByteArray());
                    if ((be.certificateMagic || be.manifestMagic) && spoolCertificates && spoolDir != null) {
                        be.file = spoolDir.resolve((be.manifestMagic ? "manifest-" : "cert-") + (spooled++) + (be.manifestMagic ? ".gscm" : ".gsc"));
                        spool = Files.newOutputStream(be.file);
                        head.writeTo(spool);
                    }
                } else if (spool != null) {
                    if (spooledBytes + n > spoolBudget()) { // stop copying; the certificate cannot be verified
                        spool.close();
                        spool = null;
                        Files.deleteIfExists(be.file);
                        be.file = null;
                        problems.add(new Problem(name, "certificate too large to copy out of the archive: the spool folder " + spoolDir
                                + " has " + (spoolBudget() >> 20) + " MiB free for certificates (extract the bundle and verify the folder)"));
                    } else {
                        spool.write(buf, 0, n);
                        spooledBytes += n;
                    }
                }
            }
        } finally {
            if (spool != null) spool.close();
        }
        be.size = size;
        be.sha256 = hex(d256.digest());
        be.sha512 = hex(d512.digest());
        if (mem != null) be.bytes = mem.toByteArray();
        return be;
    }

    static boolean isCertificateMagic(byte[] h) {
        return (h[0] & 0xFF) == 0x50 && (h[1] & 0xFF) == 0x2A && (h[2] & 0xFF) == 0x4D && (h[3] & 0xFF) == 0x18
                && h[8] == 'G' && h[9] == 'S' && h[10] == 'C' && h[11] == 'F';
    }

    /** A composite's manifest (SPEC §15.2): the skippable frame 0x184D2A53 holding GSCM. */
    static boolean isManifestMagic(byte[] h) {
        return (h[0] & 0xFF) == 0x53 && (h[1] & 0xFF) == 0x2A && (h[2] & 0xFF) == 0x4D && (h[3] & 0xFF) == 0x18
                && h[8] == 'G' && h[9] == 'S' && h[10] == 'C' && h[11] == 'M';
    }

    static MessageDigest md(String alg) {
        try { return MessageDigest.getInstance(alg); } catch (NoSuchAlgorithmException e) { throw new IllegalStateException(e); }
    }

    static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder(b.length * 2);
        for (byte x : b) sb.append(Character.forDigit((x >> 4) & 15, 16)).append(Character.forDigit(x & 15, 16));
        return sb.toString();
    }
}

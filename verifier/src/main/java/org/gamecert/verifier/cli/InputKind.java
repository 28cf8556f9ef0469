package org.gamecert.verifier.cli;

import com.github.luben.zstd.ZstdInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * What `scripts/verify PATH` was given: one of our certificates, a composite (its manifest, or a
 * directory holding composite.gscm), a release bundle (BagIt), or the
 * published 6×6 tablebase in its own format. Decided from content: our magics, the Zstandard frame
 * magic, the tar header's "ustar" at offset 257, the BagIt tag files or the tablebase's file names
 * among an archive's first entries, the tablebase's CSV header. The file name is only a hint, used
 * for what content cannot tell (a later split part starts mid-stream). Only a few headers are read;
 * nothing is trusted: each kind's own reader checks everything again.
 */
enum InputKind {
    CERTIFICATE, BUNDLE, PEER, COMPOSITE;

    /**
     * The kind to check the input as, and what was seen in it (for messages); refusal, when not
     * null, says that no reader can check it, what it is, and what to run instead.
     */
    record Detection(InputKind kind, String what, String refusal) {
        Detection(InputKind kind, String what) { this(kind, what, null); }
    }

    /** A table of the published tablebase: optimal_reopening_ab_table_all_{n}.txt. */
    private static final java.util.regex.Pattern PEER_TABLE = java.util.regex.Pattern.compile("optimal_reopening_ab_table_all_(\\d+)\\.txt");

    /** Little-endian magic of the HEADER skippable frame (SPEC §2). */
    private static final int CERT_MAGIC = 0x184D2A50;
    /** Little-endian magic of a composite's manifest frame (SPEC §15.2). */
    private static final int MANIFEST_MAGIC = 0x184D2A53;
    /** Little-endian magic of a Zstandard frame (RFC 8878 §3.1.1). */
    private static final int ZSTD_MAGIC = 0xFD2FB528;
    /** The first line of the tablebase's CSV tables. */
    private static final String PEER_CSV_HEADER = "obf,disccount,nodekindcode,lowerbound,upperbound";
    private static final int SNIFF = 512;

    static InputKind detect(Path path) {
        return describe(path).kind();
    }

    static Detection describe(Path path) {
        // bagit.txt first: a bag's checks (manifests, commitments, signature) must not be skipped
        // because someone put a composite's manifest beside them (the bag then rejects it).
        if (Files.isDirectory(path) && Files.exists(path.resolve("bagit.txt")))
            return new Detection(BUNDLE, "a directory holding bagit.txt (a BagIt bag)");
        if (Files.isDirectory(path) && Files.exists(path.resolve("composite.gscm")))
            return new Detection(COMPOSITE, "a directory holding composite.gscm (a composite)");
        if (Files.isDirectory(path)) {
            String refusal = directoryRefusal(path);
            return new Detection(PEER, "a directory without bagit.txt (tablebase tables)", refusal);
        }
        String name = path.getFileName() == null ? "" : path.getFileName().toString().toLowerCase(Locale.ROOT);
        java.util.regex.Matcher table = PEER_TABLE.matcher(name);
        if (table.matches() && Files.isRegularFile(path))
            return new Detection(PEER, "one table of the published 6x6 tablebase", path + " is one table of the published 6x6 tablebase "
                    + "(its " + Integer.parseInt(table.group(1)) + "-disc records), whose records are checked against the next table's: "
                    + "give the folder that holds the tables (scripts/verify " + parentName(path) + ")");
        if (!Files.isRegularFile(path))
            return new Detection(name.endsWith(".gscm") ? COMPOSITE : CERTIFICATE, "no regular file");
        byte[] head;
        try (InputStream in = Files.newInputStream(path)) {
            head = in.readNBytes(SNIFF);
        } catch (IOException e) {
            return new Detection(CERTIFICATE, "a file that cannot be read (" + e.getMessage() + ")");
        }
        if (head.length == 0) return new Detection(CERTIFICATE, "an empty file", path + " is an empty file (0 bytes): nothing to verify");
        String compressed = compressedRefusal(path, head);
        if (compressed != null) return new Detection(CERTIFICATE, "compressed data", compressed);
        if (le32(head) == CERT_MAGIC) return new Detection(CERTIFICATE, "a gamecert certificate (magic 0x184D2A50)");
        if (le32(head) == MANIFEST_MAGIC) return new Detection(COMPOSITE, "a composite's manifest (magic 0x184D2A53)");
        if (name.endsWith(".gscm")) return new Detection(COMPOSITE, "a file named as a composite's manifest (.gscm)");
        if (le32(head) == ZSTD_MAGIC) {
            byte[] inner = zstdHead(path);
            if (isTar(inner)) return tarContents(path, true, "a Zstandard-compressed tar archive");
            boolean split = isSplitPartName(name);
            return new Detection(split ? PEER : CERTIFICATE, "Zstandard-compressed data that does not start with a tar header"
                    + (split ? " (the name says: a split part)" : ""));
        }
        if (isTar(head)) return tarContents(path, false, "a tar archive");
        String text = new String(head, StandardCharsets.ISO_8859_1);
        if (text.startsWith(PEER_CSV_HEADER)) return new Detection(PEER, "a tablebase CSV table (its header line)");
        if (isSplitPartName(name)) return new Detection(PEER, "a later part of a split archive (by its name)");
        if (name.endsWith(".csv")) return new Detection(PEER, "a .csv file (by its name) without the tablebase's header line");
        return new Detection(CERTIFICATE, looksLikeText(head) ? "text, not a certificate, tar archive or Zstandard frame"
                : String.format("binary data starting %s: not a certificate, tar archive or Zstandard frame", hex(head)));
    }

    /**
     * Why a folder with neither bagit.txt nor composite.gscm cannot be checked as one input, or null
     * when it holds tablebase tables: it is empty, or it holds the parts of a split archive (give
     * the first), or certificates (give one), or nothing any reader takes.
     */
    private static String directoryRefusal(Path dir) {
        java.util.List<String> names = new java.util.ArrayList<>();
        try (java.util.stream.Stream<Path> s = Files.list(dir)) {
            s.forEach(p -> names.add(p.getFileName().toString()));
        } catch (IOException e) {
            return "cannot list the folder " + dir + ": " + e.getMessage();
        }
        java.util.Collections.sort(names);
        if (names.isEmpty())
            return dir + " is an empty folder: nothing to verify (give a certificate, a bundle, a composite's folder, or the folder "
                    + "of the tablebase's tables)";
        for (String n : names) if (PEER_TABLE.matcher(n.toLowerCase(Locale.ROOT)).matches()) return null;
        for (String n : names)
            if (n.toLowerCase(Locale.ROOT).matches(".*\\.(tar|tar\\.zst|tzst)\\.(0{2,4}|part0*[01]|aa)"))
                return dir + " holds the parts of a split archive: give its first part (scripts/verify " + dir.resolve(n) + ")";
        java.util.List<String> certs = names.stream().filter(n -> n.endsWith(".gsc")).toList();
        if (!certs.isEmpty())
            return dir + " holds " + certs.size() + " certificate" + (certs.size() == 1 ? "" : "s") + " but no composite.gscm: give one "
                    + "certificate (scripts/verify " + dir.resolve(certs.get(0)) + ")";
        for (String n : names)
            if (n.endsWith(".tar") || n.endsWith(".tar.zst") || n.endsWith(".csv"))
                return dir + " holds no tables, bagit.txt or composite.gscm: give the file (scripts/verify " + dir.resolve(n) + ")";
        return dir + " holds neither bagit.txt (a bundle), composite.gscm (a composite) nor optimal_reopening_ab_table_all_{n}.txt "
                + "(the tablebase's tables): nothing to verify";
    }

    /** scripts/verify's argument for the folder holding path. */
    private static String parentName(Path path) {
        Path parent = path.getParent();
        return parent == null ? "." : parent.toString();
    }

    /**
     * A compressed file no reader takes (bzip2, as the tablebase's CSV tables are stored; gzip; xz):
     * what it is and the command that decompresses it, keeping the original; else null.
     */
    private static String compressedRefusal(Path path, byte[] head) {
        String tool, ext;
        if (head.length >= 4 && head[0] == 'B' && head[1] == 'Z' && head[2] == 'h' && head[3] >= '1' && head[3] <= '9') {
            tool = "bzip2"; ext = ".bz2";
        } else if (head.length >= 2 && (head[0] & 0xFF) == 0x1F && (head[1] & 0xFF) == 0x8B) {
            tool = "gzip"; ext = ".gz";
        } else if (head.length >= 6 && (head[0] & 0xFF) == 0xFD && head[1] == '7' && head[2] == 'z' && head[3] == 'X' && head[4] == 'Z' && head[5] == 0) {
            tool = "xz"; ext = ".xz";
        } else {
            return null;
        }
        String name = path.toString();
        String plain = name.endsWith(ext) ? name.substring(0, name.length() - ext.length()) : name + ".out";
        String what = plain.toLowerCase(Locale.ROOT).endsWith(".csv") ? " (the tablebase's CSV tables are stored so)" : "";
        return path + " is " + tool + "-compressed" + what + ": decompress it first, keeping the original, with "
                + tool + " -dk " + name + " (" + tool + " writes " + plain + "), then scripts/verify " + plain;
    }

    private static int le32(byte[] b) {
        if (b.length < 4) return 0;
        return (b[0] & 0xFF) | (b[1] & 0xFF) << 8 | (b[2] & 0xFF) << 16 | (b[3] & 0xFF) << 24;
    }

    /** POSIX/GNU tar: "ustar" at offset 257 of the first header block. */
    private static boolean isTar(byte[] b) {
        return b.length >= 262 && new String(b, 257, 5, StandardCharsets.ISO_8859_1).equals("ustar");
    }

    private static boolean isSplitPartName(String name) {
        return name.matches(".*\\.(tar|tar\\.zst|tzst)\\.(\\d{2,4}|part\\d+|[a-z]{2})");
    }

    /** The first bytes of the decompressed stream (a bounded read; errors give what was read). */
    private static byte[] zstdHead(Path path) {
        try (InputStream z = new ZstdInputStream(new BufferedInputStream(Files.newInputStream(path), 1 << 16))) {
            return z.readNBytes(SNIFF);
        } catch (IOException | RuntimeException e) {
            return new byte[0];
        }
    }

    /** A tar archive is a bundle when one of its first entries is a BagIt tag file, else tables. */
    private static Detection tarContents(Path path, boolean zstd, String what) {
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(path), 1 << 16);
             InputStream s = zstd ? new ZstdInputStream(raw) : raw) {
            TarArchiveInputStream tar = new TarArchiveInputStream(s);
            for (int i = 0; i < 8; i++) {
                TarArchiveEntry e = tar.getNextEntry();
                if (e == null) break;
                String n = e.getName();
                if (n.endsWith("bagit.txt") || n.endsWith("bag-info.txt"))
                    return new Detection(BUNDLE, what + " holding a BagIt bag");
                if (n.contains("optimal_reopening_ab_table_all_")) return new Detection(PEER, what + " holding tablebase tables");
            }
        } catch (IOException | RuntimeException e) {
            // Unreadable here: the peer reader (which also checks SHA256SUMS) will say what is wrong.
        }
        return new Detection(PEER, what + " with neither BagIt tag files nor tablebase tables among its first entries");
    }

    private static boolean looksLikeText(byte[] b) {
        for (byte x : b) if (x < 0x09 || (x > 0x0D && x < 0x20)) return false;
        return true;
    }

    private static String hex(byte[] b) {
        StringBuilder s = new StringBuilder("0x");
        for (int i = 0; i < Math.min(8, b.length); i++) s.append(String.format("%02x", b[i] & 0xFF));
        return s.toString();
    }
}

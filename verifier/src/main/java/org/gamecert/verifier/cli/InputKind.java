package org.gamecert.verifier.cli;

import com.github.luben.zstd.ZstdInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * What `scripts/verify PATH` was given: one of our certificates, a release bundle (BagIt), or the
 * published 6×6 tablebase in its own format. Decided from content where the name is ambiguous (an
 * archive may be either a bundle or peer tables): only a few headers are read, nothing is trusted.
 */
enum InputKind {
    CERTIFICATE, BUNDLE, PEER;

    /** Little-endian magic of the HEADER skippable frame (SPEC §2). */
    private static final int CERT_MAGIC = 0x184D2A50;

    static InputKind detect(Path path) {
        if (Files.isDirectory(path)) return Files.exists(path.resolve("bagit.txt")) ? BUNDLE : PEER;
        String name = path.getFileName() == null ? "" : path.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".csv")) return PEER;
        if (!Files.isRegularFile(path)) return CERTIFICATE; // let the certificate reader say what is wrong
        try (InputStream in = Files.newInputStream(path)) {
            byte[] b = in.readNBytes(4);
            if (b.length == 4 && ((b[0] & 0xFF) | (b[1] & 0xFF) << 8 | (b[2] & 0xFF) << 16 | (b[3] & 0xFF) << 24) == CERT_MAGIC)
                return CERTIFICATE;
        } catch (IOException e) {
            return CERTIFICATE;
        }
        boolean archive = name.endsWith(".tar") || name.endsWith(".tar.zst") || name.endsWith(".tzst")
                || name.matches(".*\\.(tar|tar\\.zst|tzst)\\.(\\d{2,4}|part\\d+|[a-z]{2})");
        if (!archive) return CERTIFICATE;
        return archiveHoldsBag(path, name) ? BUNDLE : PEER;
    }

    /** True when one of the archive's first entries is a BagIt tag file. */
    private static boolean archiveHoldsBag(Path path, String name) {
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(path), 1 << 16)) {
            InputStream s = name.contains(".tar.zst") || name.contains(".tzst") ? new ZstdInputStream(raw) : raw;
            TarArchiveInputStream tar = new TarArchiveInputStream(s);
            for (int i = 0; i < 8; i++) {
                TarArchiveEntry e = tar.getNextEntry();
                if (e == null) break;
                String n = e.getName();
                if (n.endsWith("bagit.txt") || n.endsWith("bag-info.txt")) return true;
                if (n.contains("optimal_reopening_ab_table_all_")) return false;
            }
        } catch (IOException | RuntimeException e) {
            // Unreadable here: the peer reader (which also checks SHA256SUMS) will say what is wrong.
        }
        return false;
    }
}

package org.gamecert.verifier.peer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

/** Checks every file listed in a {@code sha256sum}-style SHA256SUMS file, in listed order. */
public final class Sha256Sums {
    private Sha256Sums() {}

    /** Returns the number of files checked; throws with PEER-SUMS-1 naming the first that fails. */
    public static int check(Path sums, java.io.PrintStream progress) throws IOException, PeerInputException {
        Path dir = sums.toAbsolutePath().getParent();
        if (Files.size(sums) > MAX_BYTES)
            throw new PeerInputException(PeerRules.SUMS_1, -1, sums.getFileName() + " is larger than "
                    + MAX_BYTES + " bytes: not a list of the parts");
        List<String> lines;
        try {
            lines = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(Files.readAllBytes(sums)))
                    .toString().lines().toList();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new PeerInputException(PeerRules.SUMS_1, -1, sums.getFileName() + " is not UTF-8 text");
        }
        int checked = 0, lineNo = 0;
        for (String line : lines) {
            lineNo++;
            if (line.isBlank()) continue;
            // "<64 hex><space><space or *><name>"
            if (line.length() < 67 || line.charAt(64) != ' ' || (line.charAt(65) != ' ' && line.charAt(65) != '*')) {
                throw new PeerInputException(PeerRules.SUMS_1, -1, sums.getFileName() + " line " + lineNo + ": not '<sha256>  <file>'");
            }
            String want = line.substring(0, 64).toLowerCase(java.util.Locale.ROOT);
            String name = line.substring(66);
            // a part beside the list, by its plain name: no other folder, no device, no link out
            if (!plainName(name))
                throw new PeerInputException(PeerRules.SUMS_1, -1, sums.getFileName() + " line " + lineNo
                        + ": not the plain name of a file beside it");
            Path file = dir.resolve(name);
            if (Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                    && !Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS))
                throw new PeerInputException(PeerRules.SUMS_1, -1, "part " + name
                        + " listed in SHA256SUMS is not a regular file");
            String got;
            try {
                got = sha256(file);
            } catch (NoSuchFileException e) {
                throw new PeerInputException(PeerRules.SUMS_1, -1, "part " + name + " listed in SHA256SUMS is missing");
            }
            if (!got.equals(want)) {
                throw new PeerInputException(PeerRules.SUMS_1, -1, "part " + name + " fails its SHA-256 (listed " + want + ", found " + got + ")");
            }
            checked++;
            if (progress != null) progress.println("SHA256SUMS: " + name + " OK");
        }
        return checked;
    }

    /** A list longer than this names far more parts than any split of the tablebase. */
    static final int MAX_BYTES = 1 << 20;

    private static boolean plainName(String name) {
        if (name.isEmpty() || name.equals(".") || name.equals("..") || name.length() > 255) return false;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '/' || c == '\\' || c < 0x20 || c == 0x7F) return false;
        }
        return true;
    }

    static String sha256(Path file) throws IOException {
        // the JDK's own SHA-256, not a provider's code in this JVM registered (GC-2026-20)
        MessageDigest md = org.gamecert.verifier.kernel.TrustedJdk.sha256();
        byte[] buf = new byte[1 << 20];
        try (InputStream in = Files.newInputStream(file)) {
            int r;
            while ((r = in.read(buf)) > 0) md.update(buf, 0, r);
        }
        return HexFormat.of().formatHex(md.digest());
    }
}

package org.gamecert.verifier.peer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/** Checks every file listed in a {@code sha256sum}-style SHA256SUMS file, in listed order. */
public final class Sha256Sums {
    private Sha256Sums() {}

    /** Returns the number of files checked; throws with PEER-SUMS-1 naming the first that fails. */
    public static int check(Path sums, java.io.PrintStream progress) throws IOException, PeerInputException {
        Path dir = sums.toAbsolutePath().getParent();
        List<String> lines = Files.readAllLines(sums, StandardCharsets.UTF_8);
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
            Path file = dir.resolve(name);
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

    static String sha256(Path file) throws IOException {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        byte[] buf = new byte[1 << 20];
        try (InputStream in = Files.newInputStream(file)) {
            int r;
            while ((r = in.read(buf)) > 0) md.update(buf, 0, r);
        }
        return HexFormat.of().formatHex(md.digest());
    }
}

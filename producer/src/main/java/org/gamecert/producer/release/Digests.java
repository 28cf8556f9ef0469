package org.gamecert.producer.release;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** SHA-256 / SHA-512 (JDK MessageDigest) over byte arrays and streamed files, as lowercase hex. */
public final class Digests {
    private Digests() {}

    public static MessageDigest md(String algorithm) {
        try { return MessageDigest.getInstance(algorithm); }
        catch (NoSuchAlgorithmException e) { throw new IllegalStateException(algorithm + " missing from the JDK", e); }
    }

    public static byte[] sha256(byte[] data) { return md("SHA-256").digest(data); }

    /** {sha256, sha512} of a file, read once. */
    public static String[] sha256And512(Path file) throws IOException {
        MessageDigest a = md("SHA-256"), b = md("SHA-512");
        byte[] buf = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buf)) > 0; ) { a.update(buf, 0, n); b.update(buf, 0, n); }
        }
        return new String[] {hex(a.digest()), hex(b.digest())};
    }

    public static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder(b.length * 2);
        for (byte x : b) sb.append(Character.forDigit((x >> 4) & 15, 16)).append(Character.forDigit(x & 15, 16));
        return sb.toString();
    }
}

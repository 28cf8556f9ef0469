package org.gamecert.verifier.kernel;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.Security;
import java.util.HexFormat;

/**
 * The kernel's SHA-256 and secret keys, from the JDK itself rather than from whichever provider
 * the JVM's list gives first (SPEC §11.1). Any code in the JVM may change that list with public
 * API (java.security.Security.insertProviderAt), and a provider an engine registered would
 * compute the kernel's hashes or draw its keys. So a digest comes from the provider object "SUN"
 * only if its class is java.base's (such a provider loads only java.base's classes), and each one
 * must give SHA-256's answer for "abc" (FIPS 180-2) before it is used: the provider's table of
 * algorithms can be edited too, to another of java.base's digests. Keys are read from
 * /dev/urandom where it exists (no Java provider or property between it and the kernel; if it
 * exists but cannot be read, an error), else from SUN's DRBG, which seeds itself as the security
 * property securerandom.source says: code in the JVM can set that, so without /dev/urandom
 * (Windows) the keys are only as safe as the JVM's properties (SPEC §11.1). (The peer kernel
 * draws its key here too.)
 */
public final class TrustedJdk {
    private TrustedJdk() {}

    private static final byte[] ABC_SHA256 = HexFormat.of()
            .parseHex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");

    /** A fresh SHA-256, checked as above; an IllegalStateException if the JDK's is not there. */
    public static MessageDigest sha256() {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256", sun());
            if (!MessageDigest.isEqual(md.digest("abc".getBytes(StandardCharsets.US_ASCII)),
                    ABC_SHA256))
                throw new IllegalStateException("the JDK's SHA-256 was replaced in this JVM");
            return md; // digest() reset it
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no SHA-256 in this JDK", e);
        }
    }

    /** n secret random bytes. */
    public static byte[] randomBytes(int n) {
        return randomBytes(n, new File("/dev/urandom"));
    }

    /**
     * n bytes from source if it exists, else from SUN's DRBG. A source that exists must serve:
     * an engine can make reading it fail (by using up the file descriptors, say), and must not
     * thereby send the keys to the DRBG, whose seed it can choose.
     */
    static byte[] randomBytes(int n, File source) {
        byte[] out = new byte[n];
        if (source.exists()) {
            try (InputStream in = new FileInputStream(source)) {
                if (in.readNBytes(out, 0, n) == n) return out;
            } catch (IOException e) {
                throw new IllegalStateException("cannot read " + source + " for the keys", e);
            }
            throw new IllegalStateException(source + " gave too few bytes for the keys");
        }
        try {
            SecureRandom.getInstance("DRBG", sun()).nextBytes(out);
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no random source in this JDK", e);
        }
    }

    /** A secret random long. */
    public static long randomLong() {
        byte[] b = randomBytes(8);
        long x = 0;
        for (byte v : b) x = x << 8 | (v & 0xFF);
        return x;
    }

    /** The JDK's provider SUN, if the one installed under that name is java.base's. */
    private static Provider sun() {
        Provider p = Security.getProvider("SUN");
        if (p == null || p.getClass().getModule() != Object.class.getModule())
            throw new IllegalStateException("the JDK's provider SUN is not installed in this JVM");
        return p;
    }
}

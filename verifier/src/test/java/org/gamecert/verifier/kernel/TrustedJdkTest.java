package org.gamecert.verifier.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.MessageDigestSpi;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.SecureRandomSpi;
import java.security.Security;
import java.util.Arrays;
import java.util.HexFormat;
import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.engine.Verifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kernel's SHA-256 and its secret keys come from the JDK itself, whatever provider code in
 * the same JVM registers with public API (SPEC §11.1: an engine in the kernel's JVM must not
 * compute the kernel's hashes nor learn its keys). A provider put first in the list answers
 * every unpinned request (MessageDigest.getInstance, new SecureRandom()); the kernel's do not go
 * to it, and a provider registered under the JDK's own name is refused rather than used.
 */
class TrustedJdkTest {
    static final byte[] ABC_SHA256 = HexFormat.of()
            .parseHex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    static final Path VALID = Paths.get("../testdata/valid/connect4-4x4-8discs.gsc");

    /** A provider an engine could register: a SHA-256 and random numbers that are all zeros. */
    static final class ZerosProvider extends Provider {
        ZerosProvider(String name) {
            super(name, "1", "all zeros");
            put("MessageDigest.SHA-256", ZeroDigest.class.getName());
            for (String alg : new String[] {"DRBG", "NativePRNG", "SHA1PRNG"})
                put("SecureRandom." + alg, ZeroRandom.class.getName());
        }
    }

    public static final class ZeroDigest extends MessageDigestSpi {
        @Override protected void engineUpdate(byte input) {}
        @Override protected void engineUpdate(byte[] input, int offset, int len) {}
        @Override protected byte[] engineDigest() { return new byte[32]; }
        @Override protected void engineReset() {}
        @Override protected int engineGetDigestLength() { return 32; }
    }

    public static final class ZeroRandom extends SecureRandomSpi {
        @Override protected void engineSetSeed(byte[] seed) {}
        @Override protected void engineNextBytes(byte[] bytes) { Arrays.fill(bytes, (byte) 0); }
        @Override protected byte[] engineGenerateSeed(int n) { return new byte[n]; }
    }

    static byte[] abc(MessageDigest md) {
        return md.digest("abc".getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void theKernelsHashesAndKeysAreTheJdksWhateverProviderIsRegisteredFirst() throws Exception {
        Result before = Verifier.verify(VALID, new Options());
        Provider zeros = new ZerosProvider("EngineZeros");
        Security.insertProviderAt(zeros, 1);
        try {
            // what an unpinned request gets now
            assertArrayEquals(new byte[32], abc(MessageDigest.getInstance("SHA-256")));
            assertEquals(0, new SecureRandom().nextLong());
            // what the kernel gets
            assertArrayEquals(ABC_SHA256, abc(Chain.sha256()));
            long a = TrustedJdk.randomLong(), b = TrustedJdk.randomLong();
            assertNotEquals(a, b, "two keys drawn alike");
            try (org.gamecert.verifier.kernel.format.Container ct =
                    new org.gamecert.verifier.kernel.format.Container(VALID)) {
                FileMap map = FileMap.read(ct);
                assertNotEquals(0, map.factKey0 | map.factKey1, "the fact key is the provider's");
                assertNotEquals(map.factKey0, map.factKey1);
            }
            Result during = Verifier.verify(VALID, new Options());
            assertEquals(Result.Verdict.VERIFIED, before.verdict);
            assertEquals(before.verdict, during.verdict);
            assertEquals(before.commitment, during.commitment, "the chain's SHA-256 is the JDK's");
        } finally {
            Security.removeProvider(zeros.getName());
        }
    }

    /**
     * A random source that exists but cannot be read (an engine can use up the file descriptors)
     * or gives too few bytes is an error, not a reason to draw the keys from the DRBG, whose seed
     * an engine can choose; only a source that does not exist (Windows) falls back to it.
     */
    @Test
    void aRandomSourceThatExistsButFailsIsAnErrorNotTheDrbg(@TempDir Path dir) throws Exception {
        java.io.File unreadable = dir.toFile(); // exists; a folder cannot be read as a file
        assertThrows(IllegalStateException.class, () -> TrustedJdk.randomBytes(32, unreadable));
        java.io.File shortFile = dir.resolve("short").toFile();
        java.nio.file.Files.write(shortFile.toPath(), new byte[3]);
        assertThrows(IllegalStateException.class, () -> TrustedJdk.randomBytes(32, shortFile));
        java.io.File missing = dir.resolve("missing").toFile();
        assertEquals(32, TrustedJdk.randomBytes(32, missing).length, "no source: the DRBG");
        assertNotEquals(0, Arrays.hashCode(TrustedJdk.randomBytes(32, missing))
                ^ Arrays.hashCode(TrustedJdk.randomBytes(32, missing)), "two draws alike");
    }

    @Test
    void aProviderInstalledUnderTheJdksOwnNameIsRefusedNotUsed() {
        Provider sun = Security.getProvider("SUN");
        int position = Arrays.asList(Security.getProviders()).indexOf(sun) + 1;
        Security.removeProvider("SUN");
        Security.insertProviderAt(new ZerosProvider("SUN"), position);
        try {
            assertThrows(IllegalStateException.class, Chain::sha256);
        } finally {
            Security.removeProvider("SUN");
            Security.insertProviderAt(sun, position);
        }
        assertArrayEquals(ABC_SHA256, abc(Chain.sha256()));
    }
}

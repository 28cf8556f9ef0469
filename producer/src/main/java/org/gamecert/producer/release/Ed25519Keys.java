package org.gamecert.producer.release;

import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.generators.Ed25519KeyPairGenerator;
import org.bouncycastle.crypto.params.Ed25519KeyGenerationParameters;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Ed25519 keys and signatures for release bundles (Bouncy Castle lightweight API).
 *
 * <p>File formats, kept simple so that any tool can read them: a key file is one line of text, the
 * standard base64 of the raw 32-byte key (RFC 8032 private seed or public key), then a newline. A
 * signature file is one line, the base64 of the raw 64-byte signature. The fingerprint of a public
 * key is SHA-256 over its 32 raw bytes, all 64 hex digits in groups of four (until 0.6.0: the first
 * 16 only, which is too short to name a key in a paper; verifiers still accept bundles made so).
 */
public final class Ed25519Keys {
    private Ed25519Keys() {}

    public static final int KEY_BYTES = 32, SIGNATURE_BYTES = 64;

    /** {private seed, public key}, 32 bytes each. */
    public static byte[][] generate(SecureRandom random) {
        Ed25519KeyPairGenerator g = new Ed25519KeyPairGenerator();
        g.init(new Ed25519KeyGenerationParameters(random));
        AsymmetricCipherKeyPair kp = g.generateKeyPair();
        return new byte[][] {((Ed25519PrivateKeyParameters) kp.getPrivate()).getEncoded(),
                ((Ed25519PublicKeyParameters) kp.getPublic()).getEncoded()};
    }

    public static byte[] publicKeyOf(byte[] privateSeed) {
        return new Ed25519PrivateKeyParameters(privateSeed, 0).generatePublicKey().getEncoded();
    }

    public static byte[] sign(byte[] privateSeed, byte[] message) {
        Ed25519Signer s = new Ed25519Signer();
        s.init(true, new Ed25519PrivateKeyParameters(privateSeed, 0));
        s.update(message, 0, message.length);
        return s.generateSignature();
    }

    public static boolean verify(byte[] publicKey, byte[] message, byte[] signature) {
        if (publicKey.length != KEY_BYTES || signature.length != SIGNATURE_BYTES) return false;
        Ed25519Signer s = new Ed25519Signer();
        s.init(false, new Ed25519PublicKeyParameters(publicKey, 0));
        s.update(message, 0, message.length);
        return s.verifySignature(signature);
    }

    /** SHA-256(public key), all 64 hex digits grouped by four: a 256-bit fingerprint to print in a paper. */
    public static String fingerprint(byte[] publicKey) {
        return grouped(Digests.hex(Digests.sha256(publicKey)));
    }

    static String grouped(String hex) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < hex.length(); i += 4) b.append(i == 0 ? "" : " ").append(hex, i, Math.min(hex.length(), i + 4));
        return b.toString();
    }

    public static String toText(byte[] raw) { return Base64.getEncoder().encodeToString(raw) + "\n"; }

    /** Reads a base64 key file of exactly {@code expected} raw bytes; IOException with a one-line reason. */
    public static byte[] readKeyFile(Path file, int expected) throws IOException {
        String text = new String(Files.readAllBytes(file), StandardCharsets.US_ASCII).trim();
        byte[] raw;
        try { raw = Base64.getDecoder().decode(text); }
        catch (IllegalArgumentException e) { throw new IOException(file + ": not a base64 key file"); }
        if (raw.length != expected) throw new IOException(file + ": holds " + raw.length + " bytes, an Ed25519 key has " + expected);
        return raw;
    }
}

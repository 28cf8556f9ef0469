package org.gamecert.verifier.bundle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;

/**
 * The bundle signature: tagmanifest-sha256.txt.sig holds one line, the base64 of a 64-byte Ed25519
 * signature (RFC 8032, Bouncy Castle) over the exact bytes of tagmanifest-sha256.txt. Keys are one
 * line of base64 of the 32 raw bytes; a fingerprint is SHA-256 over them, 64 hex digits in groups of
 * four (bundles made up to 0.6.0 give the first 16 only: {@link #shortFingerprint}).
 */
final class Signature {
    private Signature() {}

    /** The raw bytes of one line of base64, or null when it is not base64 of exactly {@code len} bytes. */
    static byte[] decode(String text, int len) {
        try {
            byte[] b = Base64.getDecoder().decode(text.trim());
            return b.length == len ? b : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    static byte[] readPublicKey(Path file) throws IOException {
        byte[] k = decode(new String(Files.readAllBytes(file), StandardCharsets.US_ASCII), 32);
        if (k == null) throw new IOException(file + ": not an Ed25519 public key file (one line, base64 of 32 bytes)");
        return k;
    }

    static boolean verify(byte[] publicKey, byte[] message, byte[] signature) {
        try {
            Ed25519Signer s = new Ed25519Signer();
            s.init(false, new Ed25519PublicKeyParameters(publicKey, 0));
            s.update(message, 0, message.length);
            return s.verifySignature(signature);
        } catch (RuntimeException e) { // a point that does not decode: not a valid signature
            return false;
        }
    }

    /** The 256-bit fingerprint: all 64 hex digits of SHA-256(key), by fours. */
    static String fingerprint(byte[] publicKey) {
        String h = BagReader.hex(BagReader.md("SHA-256").digest(publicKey));
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < h.length(); i += 4) b.append(i == 0 ? "" : " ").append(h, i, i + 4);
        return b.toString();
    }

    /** The fingerprint bundles made up to 0.6.0 carry: the first 16 hex digits, by fours. */
    static String shortFingerprint(byte[] publicKey) {
        return fingerprint(publicKey).substring(0, 19);
    }

    /** The fingerprint in the form a bundle's bag-info.txt claims it (short only when the claim is short). */
    static String fingerprintAsClaimed(byte[] publicKey, String claimed) {
        return claimed != null && claimed.length() == 19 ? shortFingerprint(publicKey) : fingerprint(publicKey);
    }
}

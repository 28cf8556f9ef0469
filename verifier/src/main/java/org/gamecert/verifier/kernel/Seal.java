package org.gamecert.verifier.kernel;

import java.nio.ByteBuffer;
import java.security.MessageDigest;

/**
 * A seal (SPEC §11.1, §15.3): SHA-256 of a byte naming what is sealed, PartConclusion's secret key
 * of the JVM, then every field of it in a fixed order, each array with its length, so that no two
 * contents are written alike. A conclusion keeps its seal from when the kernel made it;
 * Composition.decide recomputes the seal over the fields as they are now. Sequential; one
 * object a seal.
 */
final class Seal {
    private final MessageDigest md = Chain.sha256();

    Seal(int what, byte[] key) {
        md.update((byte) what);
        md.update(key);
    }

    /** Each value as eight bytes, big-endian, in one write. */
    Seal longs(long... values) {
        ByteBuffer b = ByteBuffer.allocate(8 * values.length);
        b.asLongBuffer().put(values);
        md.update(b.array());
        return this;
    }

    Seal flags(boolean... values) {
        for (boolean f : values) md.update((byte) (f ? 1 : 0));
        return this;
    }

    /** An array: its length, then its values. */
    Seal array(long[] a) {
        return longs(a.length).longs(a);
    }

    Seal array(int[] a) {
        longs(a.length);
        for (int x : a) longs(x);
        return this;
    }

    Seal bytes(byte[] a) {
        longs(a.length);
        md.update(a);
        return this;
    }

    byte[] digest() {
        return md.digest();
    }

    /** Whether a seal kept is the one recomputed (a comparison in constant time). */
    static boolean holds(byte[] kept, byte[] now) {
        return kept != null && MessageDigest.isEqual(kept, now);
    }
}

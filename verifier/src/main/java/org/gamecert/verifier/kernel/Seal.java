package org.gamecert.verifier.kernel;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * A seal (SPEC §11.1): SHA-256 of a byte naming what is sealed, a secret key (FileMap.sealKey, or
 * PartConclusion's key of the JVM), then every field of it in a fixed order, each array and text
 * with its length, so that no two contents are written alike. What is sealed keeps its seal from
 * when the kernel made it; a check recomputes the seal over the fields as they are now
 * (SliceReport, TerminalCount.Report, PartConclusion). Sequential; one object a seal.
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

    Seal text(String s) {
        return bytes(s.getBytes(StandardCharsets.UTF_8));
    }

    /** A violation, or null: whether there is one, then every field. */
    Seal violation(Violation v) {
        flags(v != null);
        if (v == null) return this;
        text(v.rule()).longs(v.block(), v.layer(), v.entry(), v.mover(), v.opponent());
        return flags(v.hasPosition()).text(v.message());
    }

    byte[] digest() {
        return md.digest();
    }

    /** Whether a seal kept is the one recomputed (a comparison in constant time). */
    static boolean holds(byte[] kept, byte[] now) {
        return kept != null && MessageDigest.isEqual(kept, now);
    }
}

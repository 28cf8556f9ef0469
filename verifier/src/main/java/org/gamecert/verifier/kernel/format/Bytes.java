package org.gamecert.verifier.kernel.format;

/** Little-endian field access. */
public final class Bytes {
    private Bytes() {}

    public static long u32(byte[] b, int p) {
        return (b[p] & 0xFFL) | (b[p + 1] & 0xFFL) << 8 | (b[p + 2] & 0xFFL) << 16
                | (b[p + 3] & 0xFFL) << 24;
    }

    public static long u64(byte[] b, int p) {
        return u32(b, p) | u32(b, p + 4) << 32;
    }

    public static void putU32(byte[] b, int p, long v) {
        for (int i = 0; i < 4; i++) b[p + i] = (byte) (v >>> (8 * i));
    }

    public static void putU64(byte[] b, int p, long v) {
        for (int i = 0; i < 8; i++) b[p + i] = (byte) (v >>> (8 * i));
    }
}

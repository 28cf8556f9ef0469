package org.gamecert.verifier.kernel;

import java.security.MessageDigest;
import java.util.HexFormat;
import org.gamecert.verifier.kernel.format.BlockRecord;
import org.gamecert.verifier.kernel.format.Bytes;

/** SHA-256 and the hash chain of SPEC §3 (the JDK's SHA-256; nothing of our own). */
public final class Chain {
    private Chain() {}

    /** The JDK's own SHA-256 (TrustedJdk: not a provider an engine could register). */
    public static MessageDigest sha256() {
        return TrustedJdk.sha256();
    }

    static byte[] sha(byte[] prefix, byte[] data) {
        MessageDigest md = sha256();
        md.update(prefix);
        md.update(data);
        return md.digest();
    }

    /** h_i of SPEC §3 (public: the engine computes a rejected part's commitment with it). */
    public static byte[] chain(byte[] prev, BlockRecord rec, byte[] raw) {
        MessageDigest md = sha256();
        byte[] head = new byte[1 + 32 + 8 + 12];
        head[0] = 1;
        System.arraycopy(prev, 0, head, 1, 32);
        Bytes.putU64(head, 33, rec.index);
        Bytes.putU32(head, 41, rec.layer);
        Bytes.putU32(head, 45, rec.count);
        Bytes.putU32(head, 49, rec.rawLen);
        md.update(head);
        md.update(raw);
        return md.digest();
    }

    public static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}

package org.gamecert.verifier.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.gamecert.verifier.kernel.format.BlockRecord;
import org.gamecert.verifier.kernel.format.Container;

/**
 * SPEC §14 vectors for what SPEC §15.2 says of a part file that breaks a rule: whether its
 * commitment can be computed (then it is the part, given and rejected: R-COMP-1) or not (then
 * the part is not given: incomplete). Each vector is a directory holding a composite's manifest
 * (composite.gscm) and every part it names, made from composite-valid-othello4x4.gscm and its
 * parts in format-spec/vectors. `CompositePartVectorsTest` checks that the directories hold
 * exactly what this makes; `SpecVectorsTest` and `CorpusTest` check their verdicts as listed in
 * vectors.tsv. To write them: run {@link #main} with format-spec/vectors.
 */
public final class CompositePartVectors {
    private CompositePartVectors() {}

    static final String SOURCE = "composite-valid-othello4x4.gscm";

    /** The vectors: directory name -> (file name -> bytes). */
    public static Map<String, Map<String, byte[]>> vectors(Path vectors) throws IOException {
        byte[] manifest = Files.readAllBytes(vectors.resolve(SOURCE));
        int n = u32(manifest, 14);
        String[] hex = new String[n];
        byte[][] part = new byte[n][];
        for (int i = 0; i < n; i++) {
            hex[i] = HexFormat.of().formatHex(manifest, 18 + 32 * i, 50 + 32 * i);
            part[i] = Files.readAllBytes(vectors.resolve(hex[i] + ".gsc"));
        }
        Map<String, Map<String, byte[]>> v = new LinkedHashMap<>();

        // 1. Bytes after a part's trailer: outside the commitment (§3), so it is computed and is
        // the named one; the file is the part, rejected (R-CON-1): R-COMP-1.
        byte[] tail = Arrays.copyOf(part[1], part[1].length + 3);
        tail[tail.length - 3] = 1;
        tail[tail.length - 2] = 2;
        tail[tail.length - 1] = 3;
        v.put("composite-rejected-comp-1-bytes-after-trailer", files(manifest, hex, part, 1, tail));

        // 2. The same with an empty skippable frame after the trailer (magic 0x184D2A5E, size 0).
        byte[] frame = Arrays.copyOf(part[1], part[1].length + 8);
        ByteBuffer.wrap(frame, part[1].length, 8).order(ByteOrder.LITTLE_ENDIAN).putInt(0x184D2A5E).putInt(0);
        v.put("composite-rejected-comp-1-skippable-frame-after-trailer", files(manifest, hex, part, 1, frame));

        // 3. The root part's trailer with its rows field one more than its size holds (R-CON-1):
        // the commitment is still computed (rows is read, not used to find the frame); the
        // manifest re-sealed to name that commitment, so the file is the root part: R-COMP-1.
        byte[] rows = part[0].clone();
        int trailer = trailerContentOffset(vectors.resolve(hex[0] + ".gsc"));
        ByteBuffer.wrap(rows).order(ByteOrder.LITTLE_ENDIAN).putInt(trailer + 16, u32(rows, trailer + 16) + 1);
        byte[] resealed = manifest.clone();
        Path tmp = Files.createTempFile("rows-", ".gsc");
        byte[] computed;
        try {
            Files.write(tmp, rows);
            computed = HexFormat.of().parseHex(CompositeVerifier.commitmentOf(tmp).substring(7));
        } finally {
            Files.delete(tmp);
        }
        System.arraycopy(computed, 0, resealed, 18, 32);
        byte[] content = Arrays.copyOfRange(resealed, 8, resealed.length - 32);
        System.arraycopy(sha256((byte) 3, content), 0, resealed, resealed.length - 32, 32);
        String[] hexRows = hex.clone();
        hexRows[0] = HexFormat.of().formatHex(computed);
        v.put("composite-rejected-comp-1-trailer-rows", files(resealed, hexRows, part, 0, rows));
        return v;
    }

    private static Map<String, byte[]> files(byte[] manifest, String[] hex, byte[][] part, int changed, byte[] bytes) {
        Map<String, byte[]> m = new LinkedHashMap<>();
        m.put(CompositeVerifier.MANIFEST, manifest);
        for (int i = 0; i < hex.length; i++) m.put(hex[i] + ".gsc", i == changed ? bytes : part[i]);
        return m;
    }

    /** The file offset of the TRAILER frame's content. */
    static int trailerContentOffset(Path file) throws IOException {
        try (Container ct = new Container(file)) {
            ct.readHeaderContent();
            BlockRecord r;
            while ((r = ct.nextBlockRecord()) != null) ct.readDataFrame(r);
            return (int) ct.position() + 8;
        } catch (org.gamecert.verifier.kernel.format.FormatException e) {
            throw new IOException(e);
        }
    }

    static int u32(byte[] b, int off) {
        return ByteBuffer.wrap(b, off, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    }

    static byte[] sha256(byte prefix, byte[] data) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(prefix);
            md.update(data);
            return md.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes the vectors' directories under args[0] (format-spec/vectors). */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "format-spec/vectors");
        for (Map.Entry<String, Map<String, byte[]>> e : vectors(dir).entrySet()) {
            Path d = Files.createDirectories(dir.resolve(e.getKey()));
            for (Map.Entry<String, byte[]> f : e.getValue().entrySet()) Files.write(d.resolve(f.getKey()), f.getValue());
        }
    }
}

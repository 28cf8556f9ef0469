package org.gamecert.verifier.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.github.luben.zstd.Zstd;
import org.gamecert.verifier.engine.CompositeVerifier;
import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.kernel.Result;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole check of a composite (SPEC §15, CompositeVerifier.verify): a seed composite of
 * format-spec/vectors (composite-*.gscm and the part files it names, or a directory composite-*
 * with its composite.gscm and parts; written as composite.gscm and HEX.gsc in a directory) with
 * one file replaced by the fuzzer's bytes, or with the fuzzer's bytes
 * spliced into it: the manifest or one part, chosen by a consumed int; the rest stays the seed.
 *
 * <p>Property: a verdict, never an exception escaping and no internal error; a rule id with every
 * rejection; and "verified" only for a valid seed composite: the manifest byte-for-byte that of a
 * seed that verifies as it is, and every part it names that seed's part byte-for-byte, or the same
 * certificate recompressed: the same skippable frames but for a BLOCK record's comp_len, and data
 * frames that SPEC §2 admits (R-CON-3) which decompress (zstd-jni, not the verifier's code) to
 * the seed's payloads. comp_len is not hashed and a frame's Unused_Bit is not interpreted (SPEC
 * §2, §3), so such a file IS the part; anything else would need a forged SHA-256 commitment. (A
 * rejected seed may be repaired into a valid one: bytes after a part's trailer cut off.)
 */
class CompositeFuzzTest {
    static final Path VECTORS = CertificateFuzzTest.ROOT.resolve("format-spec/vectors");

    /** A seed composite: its manifest, each part's file name and bytes (null: not in the vectors), its own verdict. */
    record Seed(String name, byte[] manifest, String[] partHex, byte[][] parts, Result.Verdict verdict) {}

    private static List<Seed> seeds;

    static synchronized List<Seed> seeds() {
        if (seeds == null) {
            List<Seed> l = new ArrayList<>();
            try (Stream<Path> s = Files.list(VECTORS)) {
                for (Path m : s.filter(p -> p.getFileName().toString().matches("composite-.*\\.gscm")
                        || Files.isRegularFile(p.resolve(CompositeVerifier.MANIFEST))).sorted().toList()) {
                    // composite-NAME.gscm with its parts among the vectors, or a directory composite-NAME/ with its own
                    boolean dir = Files.isDirectory(m);
                    byte[] manifest = Files.readAllBytes(dir ? m.resolve(CompositeVerifier.MANIFEST) : m);
                    int n = manifest.length >= 18 ? (int) u32(manifest, 14) : 0;
                    String[] hex = new String[n];
                    byte[][] parts = new byte[n][];
                    for (int i = 0; i < n; i++) {
                        hex[i] = HexFormat.of().formatHex(manifest, 18 + 32 * i, 50 + 32 * i);
                        Path p = (dir ? m : VECTORS).resolve(hex[i] + ".gsc");
                        if (Files.isRegularFile(p)) parts[i] = Files.readAllBytes(p);
                    }
                    Seed unverdicted = new Seed(m.getFileName().toString() + (dir ? "/" : ""), manifest, hex, parts, null);
                    l.add(new Seed(unverdicted.name, manifest, hex, parts, check(unverdicted, -1, null).verdict()));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            seeds = l;
        }
        return seeds;
    }

    static long u32(byte[] b, int at) {
        return (b[at] & 0xFFL) | (b[at + 1] & 0xFFL) << 8 | (b[at + 2] & 0xFFL) << 16 | (b[at + 3] & 0xFFL) << 24;
    }

    /** Bounded options: one thread; memory enough for the vectors' block limits, far below the heap. */
    static Options options() {
        Options o = new Options();
        o.threads = 1;
        o.maxMemory = 128L << 20;
        return o;
    }

    /** The seed in a fresh directory, file target (0: the manifest, i: part i − 1) holding content; the outcome. */
    static CompositeVerifier.Outcome check(Seed seed, int target, byte[] content) throws IOException {
        Path dir = Files.createTempDirectory("fuzz-composite-");
        try {
            Files.write(dir.resolve(CompositeVerifier.MANIFEST), target == 0 ? content : seed.manifest);
            for (int i = 0; i < seed.parts.length; i++) {
                byte[] b = target == i + 1 ? content : seed.parts[i];
                if (b != null) Files.write(dir.resolve(seed.partHex[i] + ".gsc"), b);
            }
            return CompositeVerifier.verify(dir, options(), null);
        } finally {
            deleteTree(dir);
        }
    }

    /** The file the target names in the seed (empty when the seed lacks that part). */
    static byte[] original(Seed seed, int target) {
        byte[] b = target == 0 ? seed.manifest : seed.parts[target - 1];
        return b == null ? new byte[0] : b;
    }

    /** original with [at, at + cut) replaced by insert (at taken modulo its length + 1). */
    static byte[] splice(byte[] original, int at, int cut, byte[] insert) {
        int from = Math.floorMod(at, original.length + 1);
        int to = from + Math.min(Math.max(cut, 0), original.length - from);
        byte[] out = new byte[from + insert.length + original.length - to];
        System.arraycopy(original, 0, out, 0, from);
        System.arraycopy(insert, 0, out, from, insert.length);
        System.arraycopy(original, to, out, from + insert.length, original.length - to);
        return out;
    }

    static void verifyProperty(int seedIndex, int targetChoice, byte[] content) throws IOException {
        List<Seed> all = seeds();
        assertTrue(all.size() >= 2, "seed composites in " + VECTORS);
        Seed seed = all.get(Math.floorMod(seedIndex, all.size()));
        int target = Math.floorMod(targetChoice, seed.parts.length + 1);
        CompositeVerifier.Outcome c = check(seed, target, content);
        Result.Verdict v = c.verdict();
        assertNotNull(v);
        String where = seed.name + (target == 0 ? ", manifest" : ", part " + (target - 1));
        if (v == Result.Verdict.ERROR) {
            assertNotNull(c.error, "error without a message: " + where);
            assertTrue(!c.error.startsWith("internal error"), where + ": " + c.error);
        } else {
            assertNull(c.error, where);
            assertNotNull(c.composition, where);
        }
        if (v == Result.Verdict.REJECTED) {
            assertNotNull(c.composition.violation, "rejected without a rule id: " + where);
            assertNotNull(c.composition.violation.rule(), "rejected without a rule id: " + where);
        }
        for (CompositeVerifier.PartReport p : c.parts)
            if (p.result != null && p.result.errorMessage != null)
                assertTrue(!p.result.errorMessage.startsWith("internal error"), where + ": part " + p.index + ": " + p.result.errorMessage);
        if (v == Result.Verdict.VERIFIED) {
            byte[] manifest = target == 0 ? content : seed.manifest;
            Seed valid = all.stream().filter(x -> x.verdict == Result.Verdict.VERIFIED && Arrays.equals(x.manifest, manifest)).findFirst().orElse(null);
            assertNotNull(valid, "verified a manifest that is no valid seed's: " + where);
            for (int i = 0; i < valid.parts.length; i++) {
                byte[] given = target == i + 1 ? content : seed.parts[i];
                assertTrue(given != null && (Arrays.equals(given, valid.parts[i]) || sameCertificate(given, valid.parts[i])),
                        "verified with part " + i + " not the content of " + valid.name + "'s: " + where);
            }
            assertNotNull(c.composition.compositeId, where);
        }
    }

    // ---- the same certificate, recompressed (SPEC §2, §3), decided without the verifier's code ----

    /**
     * a and b hold the same certificate content: the same frames in the same order, HEADER and
     * TRAILER identical, BLOCK records identical but for comp_len (bytes 12..16, not hashed), and
     * each data frame one that SPEC §2 admits, decompressing to the same payload.
     */
    static boolean sameCertificate(byte[] a, byte[] b) {
        List<byte[]> x = content(a), y = content(b);
        if (x == null || y == null || x.size() != y.size()) return false;
        for (int i = 0; i < x.size(); i++) if (!Arrays.equals(x.get(i), y.get(i))) return false;
        return true;
    }

    /** The file's frames as compared: tag and content of each skippable frame, the payload of each data frame; null: not that shape. */
    static List<byte[]> content(byte[] f) {
        List<byte[]> out = new ArrayList<>();
        int at = 0;
        while (at < f.length) {
            if (f.length - at < 8) return null;
            long magic = u32(f, at), size = u32(f, at + 4);
            if ((magic & ~0xFL) != 0x184D2A50L || size > f.length - at - 8) return null;
            byte[] c = Arrays.copyOfRange(f, at, at + 8 + (int) size);
            at += 8 + (int) size;
            if (magic == 0x184D2A51L) { // a BLOCK record, then its data frame of comp_len bytes
                if (size != 48) return null;
                long rawLen = u32(c, 16), compLen = u32(c, 20);
                Arrays.fill(c, 20, 24, (byte) 0);
                if (compLen > f.length - at || rawLen > 1 << 24) return null;
                byte[] payload = admittedFrame(Arrays.copyOfRange(f, at, at + (int) compLen), (int) rawLen);
                if (payload == null) return null;
                out.add(c);
                out.add(payload);
                at += (int) compLen;
            } else {
                out.add(c);
            }
        }
        return out;
    }

    /**
     * The payload of a zstd data frame that SPEC §2 admits for raw_len bytes, or null: magic,
     * reserved bit clear, no dictionary, a content size present and equal to rawLen, a window of
     * at most 2^24, one frame ending exactly at its end, decompressing (checksum verified when
     * present) to rawLen bytes. Unused_Bit is not interpreted.
     */
    static byte[] admittedFrame(byte[] fr, int rawLen) {
        try {
            if (fr.length < 6 || u32(fr, 0) != 0xFD2FB528L) return null;
            int fhd = fr[4] & 0xFF, at = 5;
            if ((fhd & 0x08) != 0) return null;
            boolean single = (fhd & 0x20) != 0;
            long window = -1;
            if (!single) {
                int w = fr[at++] & 0xFF;
                long base = 1L << (10 + (w >>> 3));
                window = base + (base / 8) * (w & 7);
            }
            int dictBytes = new int[] {0, 1, 2, 4}[fhd & 3];
            int fcsBytes = (fhd >>> 6) == 0 ? (single ? 1 : 0) : 1 << (fhd >>> 6);
            if (fcsBytes == 0 || at + dictBytes + fcsBytes > fr.length) return null;
            for (int i = 0; i < dictBytes; i++) if (fr[at + i] != 0) return null;
            at += dictBytes;
            long fcs = 0;
            for (int i = 0; i < fcsBytes; i++) fcs |= (fr[at + i] & 0xFFL) << (8 * i);
            if (fcsBytes == 2) fcs += 256;
            if (fcs != rawLen) return null;
            if (single) window = fcs;
            if (window > 1 << 24) return null;
            if (Zstd.findFrameCompressedSize(fr) != fr.length) return null;
            byte[] out = Zstd.decompress(fr, rawLen);
            return out.length == rawLen ? out : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> w = Files.walk(dir)) {
            for (Path p : w.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }

    /**
     * Consumed: the seed composite, the file (0: manifest, else a part), whole or spliced; for a
     * splice where and how many bytes it cuts; the rest of the input is the bytes put in.
     */
    @FuzzTest
    void anyManifestOrPartGetsASoundVerdict(FuzzedDataProvider data) throws IOException {
        int seed = data.consumeInt(0, 255), target = data.consumeInt(0, 255);
        boolean splice = data.consumeBoolean();
        int at = splice ? data.consumeInt() : 0, cut = splice ? data.consumeInt(0, 1024) : 0;
        byte[] bytes = data.consumeRemainingAsBytes();
        List<Seed> all = seeds();
        Seed s = all.get(seed % all.size());
        int t = target % (s.parts.length + 1);
        verifyProperty(seed, t, splice ? splice(original(s, t), at, cut, bytes) : bytes);
    }

    /**
     * Regression run: every seed as it is (the valid ones verified, so that the property is not
     * vacuous), and for each of its files: cut by one byte, a byte flipped in its middle, and (a
     * part) the first data frame's Unused_Bit set, which is still the part; and a seed one part
     * away from a valid seed with that part put right (verified).
     */
    @TestFactory
    List<DynamicTest> replaySeeds() {
        List<DynamicTest> t = new ArrayList<>();
        List<Seed> all = seeds();
        for (int si = 0; si < all.size(); si++) {
            final int k = si;
            Seed s = all.get(si);
            t.add(DynamicTest.dynamicTest(s.name + " as is: " + s.verdict, () -> {
                if (s.name.contains("-valid-")) assertEquals(Result.Verdict.VERIFIED, s.verdict, s.name);
                verifyProperty(k, 0, s.manifest);
            }));
            for (int target = 0; target <= s.parts.length; target++) {
                byte[] was = original(s, target);
                if (was.length == 0) continue;
                final int f = target;
                String file = target == 0 ? "manifest" : "part " + (target - 1);
                t.add(DynamicTest.dynamicTest(s.name + ", " + file + " cut by one byte",
                        () -> verifyProperty(k, f, Arrays.copyOf(was, was.length - 1))));
                byte[] flipped = was.clone();
                flipped[flipped.length / 2] ^= 0x40;
                t.add(DynamicTest.dynamicTest(s.name + ", " + file + " with a byte flipped", () -> verifyProperty(k, f, flipped)));
                if (target > 0) {
                    byte[] unused = content(was) == null ? null : withUnusedBit(was); // (not for a part with bytes after its trailer)
                    if (unused != null) t.add(DynamicTest.dynamicTest(s.name + ", " + file + " with Unused_Bit set", () -> {
                        assertTrue(sameCertificate(unused, was), "the same certificate");
                        verifyProperty(k, f, unused);
                    }));
                }
            }
        }
        // A seed with a valid seed's manifest and one part not the same: that part put right, it verifies.
        for (int si = 0; si < all.size(); si++) {
            final int k = si;
            Seed s = all.get(si);
            for (Seed valid : all) {
                if (valid == s || valid.verdict != Result.Verdict.VERIFIED || !Arrays.equals(valid.manifest, s.manifest)) continue;
                List<Integer> differ = new ArrayList<>();
                for (int i = 0; i < s.parts.length; i++) if (!Arrays.equals(s.parts[i], valid.parts[i])) differ.add(i);
                if (differ.size() != 1) continue;
                int i = differ.get(0);
                t.add(DynamicTest.dynamicTest(s.name + ", part " + i + " put right: verified as " + valid.name, () -> {
                    assertEquals(Result.Verdict.VERIFIED, check(s, i + 1, valid.parts[i]).verdict());
                    verifyProperty(k, i + 1, valid.parts[i]);
                }));
            }
        }
        assertTrue(all.stream().filter(s -> s.verdict == Result.Verdict.VERIFIED).count() >= 2, "valid seed composites");
        return t;
    }

    /** The certificate with bit 4 of its first data frame's Frame_Header_Descriptor set, or null (none). */
    static byte[] withUnusedBit(byte[] f) {
        int at = 0;
        while (at + 8 <= f.length) {
            long magic = u32(f, at), size = u32(f, at + 4);
            if (magic == 0x184D2A51L && at + 8 + size + 5 <= f.length) {
                byte[] out = f.clone();
                out[at + 8 + (int) size + 4] |= 0x10;
                return out;
            }
            at += 8 + (int) size;
        }
        return null;
    }
}

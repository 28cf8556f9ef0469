package org.gamecert.verifier.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.gamecert.verifier.bundle.BundleOptions;
import org.gamecert.verifier.bundle.BundleTexts;
import org.gamecert.verifier.bundle.BundleVerifier;
import org.gamecert.verifier.engine.CompositeVerifier;
import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.engine.Verifier;
import org.gamecert.verifier.kernel.Result;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole check of a signed release bundle (BundleVerifier.verify, a BagIt bag): a bag built
 * here as `produce release` builds one (the verifier may not depend on the producer) around
 * testdata/valid/connect4-4x4-8discs.gsc and the composite format-spec/vectors/
 * composite-valid-othello4x4-weak.gscm with its parts included, the texts rendered by BundleTexts,
 * SHA-256 and SHA-512 manifests, the tag manifest signed with a fixed Ed25519 key. One file of the
 * bag (chosen by a consumed int) is replaced by the fuzzer's bytes or has them spliced in; the bag
 * is given as a directory or as a tar.
 *
 * <p>Property: no exception escaping; an exit code in {0, 1, 2, 3}; no stack trace and no
 * internal error on stdout or stderr (but for echoes of the bag's own text); a rejection says
 * REJECTED with its problems; and exit 0 only when the file
 * is byte-for-byte the original, or is the signature file carrying the same 64 signature bytes
 * (the one file no manifest or signature covers: its text is only an encoding of them).
 */
class BundleFuzzTest {
    static final Path ROOT = CertificateFuzzTest.ROOT;
    static final String SIG = "tagmanifest-sha256.txt.sig";
    /** A fixed Ed25519 private key seed: the bundle and its signature are the same every run. */
    static final byte[] KEY_SEED = new byte[32];

    static {
        for (int i = 0; i < 32; i++) KEY_SEED[i] = (byte) (7 * i + 1);
    }

    private static Map<String, byte[]> bag;
    private static byte[] publicKey;

    /** The seed bag: path in the bag to content, sorted. */
    static synchronized Map<String, byte[]> bag() {
        if (bag == null) {
            try {
                bag = build();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return bag;
    }

    private static Map<String, byte[]> build() throws IOException {
        TreeMap<String, byte[]> f = new TreeMap<>();
        // A certificate, verified here for its texts.
        byte[] cert = Files.readAllBytes(ROOT.resolve("testdata/valid/connect4-4x4-8discs.gsc"));
        Path tmp = Files.createTempDirectory("fuzz-bundle-seed-");
        Result r;
        CompositeVerifier.Outcome co;
        byte[] manifest = Files.readAllBytes(CompositeFuzzTest.VECTORS.resolve("composite-valid-othello4x4-weak.gscm"));
        try {
            Files.write(tmp.resolve("c4.gsc"), cert);
            r = Verifier.verify(tmp.resolve("c4.gsc"), new Options());
            assertEquals(Result.Verdict.VERIFIED, r.verdict, "the seed certificate");
            Path comp = Files.createDirectories(tmp.resolve("oth"));
            Files.write(comp.resolve(CompositeVerifier.MANIFEST), manifest);
            int n = (int) CompositeFuzzTest.u32(manifest, 14);
            for (int i = 0; i < n; i++) {
                String hex = HexFormat.of().formatHex(manifest, 18 + 32 * i, 50 + 32 * i);
                byte[] part = Files.readAllBytes(CompositeFuzzTest.VECTORS.resolve(hex + ".gsc"));
                Files.write(comp.resolve(hex + ".gsc"), part);
                f.put("data/oth/" + hex + ".gsc", part);
            }
            co = CompositeVerifier.verify(comp, new Options(), null);
            assertEquals(Result.Verdict.VERIFIED, co.verdict(), "the seed composite");
        } finally {
            CompositeFuzzTest.deleteTree(tmp);
        }
        f.put("data/c4.gsc", cert);
        f.put("data/oth/composite.gscm", manifest);
        BundleTexts.Cert c = new BundleTexts.Cert("c4.gsc", BundleTexts.game(r.header.family, r.header.width, r.header.height),
                r.header.baseMode == 1 ? "semi-strong" : "weak", r.header.rootValue, r.commitment, r.entries, r.census.toArray(new long[0][]));
        BundleTexts.Composite k = BundleTexts.composite("oth", true, co);

        Ed25519PrivateKeyParameters key = new Ed25519PrivateKeyParameters(KEY_SEED, 0);
        publicKey = key.generatePublicKey().getEncoded();
        String h = HexFormat.of().formatHex(digest("SHA-256", publicKey));
        String fingerprint = h.substring(0, 4) + " " + h.substring(4, 8) + " " + h.substring(8, 12) + " " + h.substring(12, 16);
        String jar = "ab".repeat(32);
        BundleTexts.Meta meta = new BundleTexts.Meta("fuzz bundle", List.of("Ada Lovelace", "Alan Turing"), List.of(), "2026-11-29",
                "10.5281/zenodo.1", "0.1.0", jar, fingerprint);
        f.put("data/c4.census.json", utf8(BundleTexts.censusJson(c)));
        f.put("data/oth.census.json", utf8(BundleTexts.censusJson(k)));
        f.put("data/census.svg", utf8(BundleTexts.censusSvg(meta.title(), List.of(c), List.of(k))));
        f.put("data/CITATION.cff", utf8(BundleTexts.citationCff(meta, List.of(c), List.of(k))));
        f.put("data/README.md", utf8(BundleTexts.readme(meta, List.of(c), List.of(k))));

        StringBuilder m256 = new StringBuilder(), m512 = new StringBuilder();
        long octets = 0;
        int files = 0;
        for (Map.Entry<String, byte[]> e : f.entrySet()) {
            m256.append(HexFormat.of().formatHex(digest("SHA-256", e.getValue()))).append("  ").append(e.getKey()).append('\n');
            m512.append(HexFormat.of().formatHex(digest("SHA-512", e.getValue()))).append("  ").append(e.getKey()).append('\n');
            octets += e.getValue().length;
            files++;
        }
        String info = "Title: fuzz bundle\nAuthor: Ada Lovelace\nAuthor: Alan Turing\nContact-Name: Ada Lovelace\n"
                + "External-Description: gamecert proof certificates (SPEC v1) with census, citation and instructions; see data/README.md\n"
                + "External-Identifier: doi:10.5281/zenodo.1\nBagging-Date: 2026-11-29\nBag-Software-Agent: gamecert producer 0.1.0\n"
                + "Commitment-Id: " + r.commitment + " data/c4.gsc\n"
                + "Composite-Id: " + k.compositeId() + " data/oth/composite.gscm parts-included\n"
                + "Verifier-Version: 0.1.0\nVerifier-Jar-SHA256: " + jar + "\n"
                + "Signature-Public-Key: " + Base64.getEncoder().encodeToString(publicKey) + "\n"
                + "Signature-Key-Fingerprint: " + fingerprint + "\n"
                + "Payload-Oxum: " + octets + "." + files + "\n";
        f.put("bagit.txt", utf8("BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n"));
        f.put("bag-info.txt", utf8(info));
        f.put("manifest-sha256.txt", utf8(m256.toString()));
        f.put("manifest-sha512.txt", utf8(m512.toString()));
        StringBuilder tm = new StringBuilder();
        for (String t : new String[] {"bag-info.txt", "bagit.txt", "manifest-sha256.txt", "manifest-sha512.txt"})
            tm.append(HexFormat.of().formatHex(digest("SHA-256", f.get(t)))).append("  ").append(t).append('\n');
        byte[] tagManifest = utf8(tm.toString());
        f.put("tagmanifest-sha256.txt", tagManifest);
        Ed25519Signer s = new Ed25519Signer();
        s.init(true, key);
        s.update(tagManifest, 0, tagManifest.length);
        f.put(SIG, utf8(Base64.getEncoder().encodeToString(s.generateSignature()) + "\n"));
        return f;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] digest(String alg, byte[] b) {
        try {
            return MessageDigest.getInstance(alg).digest(b);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The bag with file name holding content, as a directory or a tar (files under bundle/) in dir. */
    static Path write(Path dir, Map<String, byte[]> files, boolean tar) throws IOException {
        if (!tar) {
            Path root = dir.resolve("bundle");
            for (Map.Entry<String, byte[]> e : files.entrySet()) {
                Path p = root.resolve(e.getKey());
                Files.createDirectories(p.getParent());
                Files.write(p, e.getValue());
            }
            return root;
        }
        Path p = dir.resolve("bundle.tar");
        try (OutputStream o = Files.newOutputStream(p); TarArchiveOutputStream t = new TarArchiveOutputStream(o)) {
            t.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (Map.Entry<String, byte[]> e : files.entrySet()) {
                TarArchiveEntry te = new TarArchiveEntry("bundle/" + e.getKey());
                te.setSize(e.getValue().length);
                te.setModTime(0);
                t.putArchiveEntry(te);
                t.write(e.getValue());
                t.closeArchiveEntry();
            }
        }
        return p;
    }

    static void verifyProperty(int fileChoice, boolean tar, boolean pubkey, byte[] content) throws IOException {
        Map<String, byte[]> seed = bag();
        String[] names = seed.keySet().toArray(new String[0]);
        String name = names[Math.floorMod(fileChoice, names.length)];
        Map<String, byte[]> files = new TreeMap<>(seed);
        files.put(name, content);
        Path dir = Files.createTempDirectory("fuzz-bundle-");
        try {
            Path bundle = write(dir, files, tar);
            BundleOptions o = new BundleOptions();
            o.certificate.threads = 1;
            o.certificate.maxMemory = 128L << 20;
            o.maxTagFileBytes = 1 << 20;
            if (pubkey) {
                o.pubkey = dir.resolve("trusted.pub");
                Files.writeString(o.pubkey, Base64.getEncoder().encodeToString(publicKey) + "\n");
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
            int code;
            try (PrintStream po = new PrintStream(out, true, StandardCharsets.UTF_8); PrintStream pe = new PrintStream(err, true, StandardCharsets.UTF_8)) {
                code = BundleVerifier.verify(bundle, o, po, pe);
            }
            String where = name + (tar ? " (tar)" : " (directory)");
            String said = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
            assertTrue(code >= 0 && code <= 3, where + ": exit code " + code);
            String trace = notEchoed(said, content);
            assertTrue(trace == null, where + ": a stack trace or internal error was printed (" + trace + "):\n" + said);
            if (code == BundleVerifier.REJECTED) assertTrue(said.contains("REJECTED "), where + ": rejected without naming a problem:\n" + said);
            if (code == BundleVerifier.VERIFIED)
                assertTrue(Arrays.equals(content, seed.get(name)) || name.equals(SIG) && sameSignature(content, seed.get(SIG)),
                        where + ": verified with a changed file:\n" + said);
        } finally {
            CompositeFuzzTest.deleteTree(dir);
        }
    }

    /** What a stack trace or a caught unexpected exception prints. */
    static final Pattern TRACE = Pattern.compile("internal error|Exception in thread|(?m)^\\s+at [\\w$.]+\\((?:[\\w$]+\\.java:\\d+|Native Method|Unknown Source)\\)");

    /**
     * The first stack trace line or internal error in the output that is not an echo of the
     * fuzzer's bytes (a problem line quotes a malformed line, or a path with %0A decoded), or null.
     * Jazzer learns the strings the test looks for and puts them into the bag, so text the input
     * itself holds does not count.
     */
    static String notEchoed(String said, byte[] content) {
        String in = new String(content, StandardCharsets.ISO_8859_1) + "\n" + new String(content, StandardCharsets.UTF_8);
        in += "\n" + in.replace("%0A", "\n").replace("%0a", "\n").replace("%0D", "\r").replace("%0d", "\r").replace("%25", "%");
        Matcher m = TRACE.matcher(said);
        while (m.find()) if (!in.contains(m.group().strip())) return m.group();
        return null;
    }

    /**
     * Both signature files carry the same 64 bytes: the base64 text between leading and trailing
     * white space and control characters (String.trim), as Signature.decode reads it. What it
     * tolerates there (a missing newline or padding, non-zero unused bits of the last character) is
     * harmless: the signature checked is the original one.
     */
    static boolean sameSignature(byte[] a, byte[] b) {
        try {
            byte[] x = Base64.getDecoder().decode(new String(a, StandardCharsets.US_ASCII).trim());
            byte[] y = Base64.getDecoder().decode(new String(b, StandardCharsets.US_ASCII).trim());
            return x.length == 64 && Arrays.equals(x, y);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * Consumed: the bag file replaced, directory or tar, with --pubkey or not, whole or spliced;
     * for a splice where and how many bytes it cuts; the rest of the input is the bytes put in.
     */
    @FuzzTest
    void anyBagFileGetsASoundExitCode(FuzzedDataProvider data) throws IOException {
        int file = data.consumeInt(0, 255);
        boolean tar = data.consumeBoolean(), pubkey = data.consumeBoolean(), splice = data.consumeBoolean();
        int at = splice ? data.consumeInt() : 0, cut = splice ? data.consumeInt(0, 1024) : 0;
        byte[] bytes = data.consumeRemainingAsBytes();
        String[] names = bag().keySet().toArray(new String[0]);
        byte[] was = bag().get(names[file % names.length]);
        verifyProperty(file, tar, pubkey, splice ? CompositeFuzzTest.splice(was, at, cut, bytes) : bytes);
    }

    /**
     * Regression run: the seed bag verified (directory and tar, with and without --pubkey), then
     * each file cut by one byte and with a byte flipped, and the signature without its newline.
     */
    @TestFactory
    List<DynamicTest> replaySeeds() {
        List<DynamicTest> t = new ArrayList<>();
        Map<String, byte[]> seed = bag();
        String[] names = seed.keySet().toArray(new String[0]);
        assertTrue(names.length >= 15 && seed.containsKey(SIG), "the seed bag: " + seed.keySet());
        for (boolean tar : new boolean[] {false, true})
            t.add(DynamicTest.dynamicTest("the seed bag as " + (tar ? "a tar" : "a directory") + " is verified", () -> {
                Path dir = Files.createTempDirectory("fuzz-bundle-");
                try {
                    BundleOptions o = new BundleOptions();
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    int code = BundleVerifier.verify(write(dir, seed, tar), o, new PrintStream(out, true, StandardCharsets.UTF_8),
                            new PrintStream(OutputStream.nullOutputStream()));
                    assertEquals(BundleVerifier.VERIFIED, code, out.toString(StandardCharsets.UTF_8));
                } finally {
                    CompositeFuzzTest.deleteTree(dir);
                }
                verifyProperty(0, tar, true, seed.get(names[0]));
            }));
        for (int i = 0; i < names.length; i++) {
            final int k = i;
            byte[] was = seed.get(names[i]);
            t.add(DynamicTest.dynamicTest(names[i] + " cut by one byte", () -> verifyProperty(k, k % 2 == 0, k % 3 == 0, Arrays.copyOf(was, was.length - 1))));
            byte[] flipped = was.clone();
            flipped[flipped.length / 2] ^= 0x01;
            t.add(DynamicTest.dynamicTest(names[i] + " with a byte flipped", () -> verifyProperty(k, k % 2 == 1, k % 3 == 1, flipped)));
        }
        int info = Arrays.asList(names).indexOf("bag-info.txt");
        t.add(DynamicTest.dynamicTest("a trace is told from the bag's own text quoted back", () -> {
            assertEquals("internal error", notEchoed("ERROR b: internal error: java.lang.NullPointerException", new byte[0]));
            assertEquals(null, notEchoed("  bag-info.txt: malformed line 'internal error'", utf8("internal error\n")));
            byte[] quoted = utf8("Title: t\ninternal error\n\tat a.B(C.java:1)\n");
            verifyProperty(info, false, false, quoted);
        }));
        int sig = Arrays.asList(names).indexOf(SIG);
        byte[] s = seed.get(SIG);
        t.add(DynamicTest.dynamicTest(SIG + " without its newline", () -> verifyProperty(sig, true, true, Arrays.copyOf(s, s.length - 1))));
        return t;
    }
}

package org.gamecert.verifier.bundle;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hand-made bags (no certificate needed: the bag checks come first): tar entries that are links,
 * devices or escape the bag are rejected by name, as are broken manifests; input detection.
 */
class BundleSafetyTest {
    /** A small valid bag without certificates: bag-level checks pass, bag-info names no certificate. */
    static Map<String, byte[]> bag() {
        Map<String, byte[]> f = new LinkedHashMap<>();
        byte[] readme = "hello\n".getBytes(StandardCharsets.UTF_8);
        f.put("bagit.txt", "BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n".getBytes(StandardCharsets.UTF_8));
        f.put("data/README.md", readme);
        f.put("manifest-sha256.txt", (sha256(readme) + "  data/README.md\n").getBytes(StandardCharsets.UTF_8));
        f.put("bag-info.txt", ("Title: t\nPayload-Oxum: " + readme.length + ".1\n").getBytes(StandardCharsets.UTF_8));
        String tm = sha256(f.get("bag-info.txt")) + "  bag-info.txt\n" + sha256(f.get("bagit.txt")) + "  bagit.txt\n"
                + sha256(f.get("manifest-sha256.txt")) + "  manifest-sha256.txt\n";
        f.put("tagmanifest-sha256.txt", tm.getBytes(StandardCharsets.UTF_8));
        return f;
    }

    static String sha256(byte[] b) { return BagReader.hex(BagReader.md("SHA-256").digest(b)); }

    interface Extra { void add(TarArchiveOutputStream t) throws IOException; }

    static Path tar(Path p, Map<String, byte[]> files, Extra extra) throws IOException {
        try (OutputStream o = Files.newOutputStream(p); TarArchiveOutputStream t = new TarArchiveOutputStream(o)) {
            t.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (Map.Entry<String, byte[]> e : files.entrySet()) {
                TarArchiveEntry te = new TarArchiveEntry("bundle/" + e.getKey());
                te.setSize(e.getValue().length);
                t.putArchiveEntry(te);
                t.write(e.getValue());
                t.closeArchiveEntry();
            }
            if (extra != null) extra.add(t);
        }
        return p;
    }

    static BundleReport check(Path p) { return BundleVerifier.check(p, new BundleOptions(), null); }

    @Test void handMadeBagPassesTheBagChecksAndOnlyLacksACertificate(@TempDir Path d) throws IOException {
        BundleReport r = check(tar(d.resolve("b.tar"), bag(), null));
        assertEquals(1, r.problems.size(), r.problems.toString());
        assertTrue(r.problems.get(0).message.contains("names no certificate"));
    }

    /** The first 12 bytes of a certificate (HEADER frame magic, a size, "GSCF"): one by its magic. */
    static final byte[] CERT_START = {0x50, 0x2A, 0x4D, 0x18, 40, 0, 0, 0, 'G', 'S', 'C', 'F'};

    /** Issue 22 item 5: no exemption for names that start like a tag manifest; none for anything outside data/. */
    @Test void filesOutsideDataThatBagItDoesNotNameAreRejectedByName(@TempDir Path d) throws IOException {
        Map<String, byte[]> bak = bag();
        bak.put("tagmanifest-sha256.txt.bak", "an old copy\n".getBytes(StandardCharsets.UTF_8));
        BundleReport r = check(tar(d.resolve("bak.tar"), bak, null));
        assertTrue(r.problems.stream().anyMatch(p -> p.file.equals("tagmanifest-sha256.txt.bak")), r.problems.toString());

        Map<String, byte[]> folder = bag();
        folder.put("tagmanifest-extra/x.gsc", CERT_START);
        r = check(tar(d.resolve("folder.tar"), folder, null));
        assertTrue(r.problems.stream().anyMatch(p -> p.file.equals("tagmanifest-extra/x.gsc") && p.message.contains("certificate outside data/")),
                r.problems.toString());

        Map<String, byte[]> listed = bag(); // a certificate outside data/, even listed in the tag manifest
        listed.put("certs/x.gsc", CERT_START);
        String tm = new String(listed.get("tagmanifest-sha256.txt"), StandardCharsets.UTF_8) + sha256(CERT_START) + "  certs/x.gsc\n";
        listed.put("tagmanifest-sha256.txt", tm.getBytes(StandardCharsets.UTF_8));
        r = check(tar(d.resolve("listed.tar"), listed, null));
        assertTrue(r.problems.stream().anyMatch(p -> p.file.equals("certs/x.gsc") && p.message.contains("certificate outside data/")),
                r.problems.toString());

        Map<String, byte[]> other = bag(); // any other tag file, even a listed one
        other.put("notes.txt", "x".getBytes(StandardCharsets.UTF_8));
        other.put("tagmanifest-sha256.txt", (new String(other.get("tagmanifest-sha256.txt"), StandardCharsets.UTF_8)
                + sha256(other.get("notes.txt")) + "  notes.txt\n").getBytes(StandardCharsets.UTF_8));
        r = check(tar(d.resolve("other.tar"), other, null));
        assertTrue(r.problems.stream().anyMatch(p -> p.file.equals("notes.txt")), r.problems.toString());
    }

    @Test void aCertificateInDataThatBagInfoDoesNotNameIsRejected(@TempDir Path d) throws IOException {
        Map<String, byte[]> f = bag();
        f.put("data/more/x.gsc", CERT_START);
        f.put("manifest-sha256.txt", (new String(f.get("manifest-sha256.txt"), StandardCharsets.UTF_8) + sha256(CERT_START)
                + "  data/more/x.gsc\n").getBytes(StandardCharsets.UTF_8));
        BundleReport r = check(tar(d.resolve("c.tar"), f, null));
        assertTrue(r.problems.stream().anyMatch(p -> p.file.equals("data/more/x.gsc") && p.message.contains("does not name")),
                r.problems.toString());
    }

    @Test void symbolicAndHardLinksAreRejected(@TempDir Path d) throws IOException {
        for (byte type : new byte[] {TarArchiveEntry.LF_SYMLINK, TarArchiveEntry.LF_LINK}) {
            BundleReport r = check(tar(d.resolve("l" + type + ".tar"), bag(), t -> {
                TarArchiveEntry e = new TarArchiveEntry("bundle/data/passwd", type);
                e.setLinkName("/etc/passwd");
                t.putArchiveEntry(e);
                t.closeArchiveEntry();
            }));
            assertEquals(1, r.exitCode);
            assertTrue(r.problems.stream().anyMatch(p -> p.file.equals("bundle/data/passwd") && p.message.contains("link")), r.problems.toString());
        }
    }

    @Test void devicesAndFifosAreRejected(@TempDir Path d) throws IOException {
        for (byte type : new byte[] {TarArchiveEntry.LF_CHR, TarArchiveEntry.LF_BLK, TarArchiveEntry.LF_FIFO}) {
            BundleReport r = check(tar(d.resolve("dev" + type + ".tar"), bag(), t -> {
                TarArchiveEntry e = new TarArchiveEntry("bundle/data/dev", type);
                t.putArchiveEntry(e);
                t.closeArchiveEntry();
            }));
            assertEquals(1, r.exitCode);
            assertTrue(r.names("bundle/data/dev"), r.problems.toString());
        }
    }

    @Test void pathsEscapingTheBagAreRejected(@TempDir Path d) throws IOException {
        for (String evil : new String[] {"bundle/../../evil.txt", "/etc/cron.d/evil", "bundle/data/../../evil", "bundle//data/x"}) {
            BundleReport r = check(tar(d.resolve("e" + Math.abs(evil.hashCode()) + ".tar"), bag(), t -> {
                TarArchiveEntry e = new TarArchiveEntry(evil, true);
                byte[] b = "x".getBytes(StandardCharsets.UTF_8);
                e.setSize(b.length);
                t.putArchiveEntry(e);
                t.write(b);
                t.closeArchiveEntry();
            }));
            assertEquals(1, r.exitCode, evil);
            assertTrue(r.problems.stream().anyMatch(p -> p.message.contains("escapes the bag")), evil + ": " + r.problems);
        }
        assertFalse(Files.exists(d.resolve("evil.txt")));
        assertFalse(Files.exists(d.getParent().resolve("evil.txt")));
    }

    @Test void duplicateEntryIsRejected(@TempDir Path d) throws IOException {
        BundleReport r = check(tar(d.resolve("dup.tar"), bag(), t -> {
            TarArchiveEntry e = new TarArchiveEntry("bundle/data/README.md");
            byte[] b = "other\n".getBytes(StandardCharsets.UTF_8);
            e.setSize(b.length);
            t.putArchiveEntry(e);
            t.write(b);
            t.closeArchiveEntry();
        }));
        assertEquals(1, r.exitCode);
        assertTrue(r.problems.stream().anyMatch(p -> p.message.contains("twice")), r.problems.toString());
    }

    @Test void manifestPathTraversalAndMissingFilesAreNamed(@TempDir Path d) throws IOException {
        Map<String, byte[]> f = bag();
        f.put("manifest-sha256.txt", (new String(f.get("manifest-sha256.txt"), StandardCharsets.UTF_8)
                + sha256(new byte[0]) + "  data/../../etc/passwd\n" + sha256(new byte[0]) + "  data/gone.txt\n").getBytes(StandardCharsets.UTF_8));
        BundleReport r = check(tar(d.resolve("m.tar"), f, null));
        assertTrue(r.problems.stream().anyMatch(p -> p.file.equals("manifest-sha256.txt") && p.message.contains("escapes")), r.problems.toString());
        assertTrue(r.names("data/gone.txt"));
        assertTrue(r.names("manifest-sha256.txt")); // its own hash no longer matches the tag manifest
    }

    @Test void payloadOxumAndBagitTxtAreChecked(@TempDir Path d) throws IOException {
        Map<String, byte[]> f = bag();
        f.put("bagit.txt", "BagIt-Version: 9.9\nTag-File-Character-Encoding: UTF-8\n".getBytes(StandardCharsets.UTF_8));
        f.put("bag-info.txt", "Title: t\nPayload-Oxum: 999.1\n".getBytes(StandardCharsets.UTF_8));
        BundleReport r = check(tar(d.resolve("o.tar"), f, null));
        assertTrue(r.problems.stream().anyMatch(p -> p.file.equals("bagit.txt") && p.message.contains("BagIt-Version")));
        assertTrue(r.problems.stream().anyMatch(p -> p.file.equals("bag-info.txt") && p.message.contains("Payload-Oxum")));
    }

    @Test void safePathAcceptsOnlyPlainRelativePaths() {
        assertEquals("data/a.gsc", BagReader.safePath("./data/a.gsc"));
        assertEquals("data", BagReader.safePath("data/"));
        for (String bad : new String[] {"", "/x", "../x", "a/../b", "a//b", "a\\b", "C:x", "a/./b", "a\nb"})
            assertNull(BagReader.safePath(bad), bad);
    }

    @Test void inputKindsAndSplitParts(@TempDir Path d) throws IOException {
        assertTrue(BundleVerifier.isBundle(d));
        assertTrue(BundleVerifier.isBundle(d.resolve("x.tar")));
        assertTrue(BundleVerifier.isBundle(d.resolve("x.tar.zst")));
        assertTrue(BundleVerifier.isBundle(d.resolve("x.tar.zst.000")));
        assertTrue(BundleVerifier.isBundle(d.resolve("x.tar.zst.part01")));
        assertFalse(BundleVerifier.isBundle(d.resolve("x.gsc")));
        Path whole = tar(d.resolve("w.tar"), bag(), null);
        byte[] b = Files.readAllBytes(whole);
        int half = b.length / 2;
        Files.write(d.resolve("p.tar.000"), java.util.Arrays.copyOfRange(b, 0, half));
        Files.write(d.resolve("p.tar.001"), java.util.Arrays.copyOfRange(b, half, b.length));
        BundleReport split = check(d.resolve("p.tar.000"));
        assertEquals("tar, 2 split parts", split.format);
        assertEquals(check(whole).problems.toString(), split.problems.toString());
        BundleReport second = check(d.resolve("p.tar.001"));
        assertEquals(2, second.exitCode);
        assertTrue(second.errorMessage.contains("first part"));
    }

    @Test void notABundleIsAnErrorWithOneLine(@TempDir Path d) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc = BundleVerifier.verify(d.resolve("missing.tar"), new BundleOptions(), new PrintStream(out, true), new PrintStream(new ByteArrayOutputStream()));
        assertEquals(2, rc);
        assertTrue(out.toString().startsWith("ERROR "));
        BundleOptions json = new BundleOptions();
        json.json = true;
        out.reset();
        BundleVerifier.verify(tar(d.resolve("j.tar"), bag(), null), json, new PrintStream(out, true), new PrintStream(new ByteArrayOutputStream()));
        String j = out.toString().trim();
        // the keys every JSON report of scripts/verify starts with, whatever the input
        assertTrue(j.startsWith("{\"input\":\"" + d.resolve("j.tar") + "\",\"kind\":\"bundle\",\"verdict\":\"rejected\",\"exit_code\":1,")
                && j.endsWith("}"), j);
    }

    /**
     * The report never prints a bundle's control characters: a terminal's escape codes in a tar
     * entry's name or in the Title could redraw the lines above (a forged VERIFIED line).
     */
    @Test void theHumanReportShowsNoControlCharacterFromTheBundle(@TempDir Path d) throws IOException {
        Map<String, byte[]> f = bag();
        f.put("bag-info.txt", ("Title: t\u001b[8m\nPayload-Oxum: 6.1\n").getBytes(StandardCharsets.UTF_8));
        String tm = sha256(f.get("bag-info.txt")) + "  bag-info.txt\n" + sha256(f.get("bagit.txt")) + "  bagit.txt\n"
                + sha256(f.get("manifest-sha256.txt")) + "  manifest-sha256.txt\n";
        f.put("tagmanifest-sha256.txt", tm.getBytes(StandardCharsets.UTF_8));
        Path p = tar(d.resolve("esc.tar"), f, t -> {
            TarArchiveEntry e = new TarArchiveEntry("bundle/\u001b[2K\u001b[1AVERIFIED forged");
            e.setSize(1);
            t.putArchiveEntry(e);
            t.write('x');
            t.closeArchiveEntry();
        });
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc = BundleVerifier.verify(p, new BundleOptions(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream()));
        assertEquals(1, rc);
        String shown = out.toString(StandardCharsets.UTF_8);
        assertTrue(shown.contains("?[2K?[1AVERIFIED forged") && shown.contains("title        t?[8m"), shown);
        assertFalse(shown.chars().anyMatch(c -> c < 0x20 && c != '\n'), shown);
    }

    /** Files outside data/ are held in memory for their checks: each at most the tag limit, all four times it. */
    @Test void tagFilesHeldInMemoryAreBoundedInAll(@TempDir Path d) throws IOException {
        byte[] junk = new byte[1 << 10];
        Path p = tar(d.resolve("many.tar"), bag(), t -> {
            for (int i = 0; i < 9; i++) {
                TarArchiveEntry e = new TarArchiveEntry("bundle/junk" + i);
                e.setSize(junk.length);
                t.putArchiveEntry(e);
                t.write(junk);
                t.closeArchiveEntry();
            }
        });
        BagReader reader = new BagReader(2 * junk.length, null); // each may be 2 KiB, all 8 KiB
        try (java.io.InputStream in = Files.newInputStream(p)) {
            reader.readTar(in);
        }
        assertTrue(reader.problems.stream().anyMatch(q -> q.message.contains("tag files larger than 8192 bytes in all")),
                reader.problems.toString());
    }

    /** A list of the parts that is not text is a rejection of the bundle, not an internal error. */
    @Test void aSplitBundlesChecksumListThatIsNotTextIsAProblem(@TempDir Path d) throws IOException {
        byte[] b = Files.readAllBytes(tar(d.resolve("w.tar"), bag(), null));
        Files.write(d.resolve("p.tar.000"), java.util.Arrays.copyOfRange(b, 0, b.length / 2));
        Files.write(d.resolve("p.tar.001"), java.util.Arrays.copyOfRange(b, b.length / 2, b.length));
        Files.write(d.resolve("SHA256SUMS"), new byte[] {(byte) 0xFF, (byte) 0xFE, '\n'});
        BundleReport r = check(d.resolve("p.tar.000"));
        assertEquals(1, r.exitCode, r.errorMessage + " " + r.problems);
        assertTrue(r.problems.stream().anyMatch(q -> q.message.contains("is not UTF-8 text")), r.problems.toString());
    }

    /**
     * A certificate stored under a derived file's name (README.md, kept in memory to compare
     * byte for byte, never copied out) and named so by bag-info.txt: the bag is rejected, not an
     * internal error. Made from testdata/crafted/bundle-valid.tar, its manifests recomputed.
     */
    @Test void aCertificateUnderADerivedFilesNameIsRejected(@TempDir Path d) throws IOException {
        Map<String, byte[]> f = new LinkedHashMap<>();
        try (java.io.InputStream in = Files.newInputStream(Path.of("../testdata/crafted/bundle-valid.tar"));
             org.apache.commons.compress.archivers.tar.TarArchiveInputStream t =
                     new org.apache.commons.compress.archivers.tar.TarArchiveInputStream(in)) {
            for (TarArchiveEntry e; (e = t.getNextTarEntry()) != null; )
                if (!e.isDirectory()) f.put(e.getName().substring("bundle/".length()), t.readAllBytes());
        }
        byte[] readme = f.remove("data/README.md"), cert = f.remove("data/c4.gsc");
        f.put("data/README.md", cert);
        StringBuilder manifest = new StringBuilder();
        long bytes = 0, files = 0;
        for (Map.Entry<String, byte[]> e : f.entrySet())
            if (e.getKey().startsWith("data/")) {
                manifest.append(sha256(e.getValue())).append("  ").append(e.getKey()).append('\n');
                bytes += e.getValue().length;
                files++;
            }
        f.put("manifest-sha256.txt", manifest.toString().getBytes(StandardCharsets.UTF_8));
        String info = new String(f.get("bag-info.txt"), StandardCharsets.UTF_8).replace("data/c4.gsc", "data/README.md")
                .replaceAll("Payload-Oxum: .*", "Payload-Oxum: " + bytes + "." + files);
        f.put("bag-info.txt", info.getBytes(StandardCharsets.UTF_8));
        f.put("tagmanifest-sha256.txt", (sha256(f.get("bag-info.txt")) + "  bag-info.txt\n" + sha256(f.get("bagit.txt"))
                + "  bagit.txt\n" + sha256(f.get("manifest-sha256.txt")) + "  manifest-sha256.txt\n").getBytes(StandardCharsets.UTF_8));
        assertTrue(readme.length > 0);
        BundleReport r = check(tar(d.resolve("renamed.tar"), f, null));
        assertEquals(1, r.exitCode, r.errorMessage + " " + r.problems);
        assertTrue(r.problems.stream().anyMatch(q -> q.file.equals("data/README.md")), r.problems.toString());
    }
}

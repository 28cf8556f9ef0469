package org.gamecert.producer.release;

import org.gamecert.producer.cli.ProduceMain;
import org.gamecert.verifier.bundle.BundleOptions;
import org.gamecert.verifier.bundle.BundleReport;
import org.gamecert.verifier.bundle.BundleVerifier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/** Release bundles: determinism, content, round trip through the verifier's bundle check, tampering, signatures. */
class ReleaseTest {
    @TempDir static Path shared;
    static Path cert, cert2, jar, keyPriv, keyPub, otherPub;

    @BeforeAll static void makeInputs() throws IOException {
        cert = shared.resolve("othello-4x4.gsc");
        assertEquals(0, produce("solve", "--game", "othello:4x4", "--out", cert.toString(), "-q"));
        cert2 = shared.resolve("c4-4x4.gsc");
        assertEquals(0, produce("solve", "--game", "connect4:4x4", "--out", cert2.toString(), "-q"));
        jar = fakeVerifierJar(shared.resolve("verifier.jar"));
        assertEquals(0, produce("keygen", "--out", shared.resolve("author").toString()));
        keyPriv = shared.resolve("author.key");
        keyPub = shared.resolve("author.pub");
        assertEquals(0, produce("keygen", "--out", shared.resolve("other").toString()));
        otherPub = shared.resolve("other.pub");
    }

    static final ByteArrayOutputStream lastOut = new ByteArrayOutputStream(), lastErr = new ByteArrayOutputStream();

    static int produce(String... args) {
        lastOut.reset();
        lastErr.reset();
        return ProduceMain.run(args, new PrintStream(lastOut, true), new PrintStream(lastErr, true));
    }

    /** A jar with what the release command looks for: the verifier's main class and its Maven metadata. */
    static Path fakeVerifierJar(Path p) throws IOException {
        try (JarOutputStream j = new JarOutputStream(Files.newOutputStream(p))) {
            j.putNextEntry(new JarEntry("org/gamecert/verifier/cli/VerifyMain.class"));
            j.write(new byte[] {(byte) 0xCA, (byte) 0xFE});
            j.putNextEntry(new JarEntry("META-INF/maven/org.gamecert/verifier/pom.properties"));
            j.write("version=9.8.7\n".getBytes(StandardCharsets.US_ASCII));
        }
        return p;
    }

    static Path release(Path out, String... extra) {
        List<String> a = new ArrayList<>(List.of("release", "--title", "Othello 4x4 & friends", "--author", "Ada King Lovelace",
                "--orcid", "0000-0002-1825-0097", "--date", "2026-03-01", "--verifier-jar", jar.toString(), "--out", out.toString()));
        a.addAll(List.of(extra));
        int rc = produce(a.toArray(new String[0]));
        assertEquals(0, rc, lastErr.toString());
        return out;
    }

    static BundleReport check(Path bundle, Path pubkey) {
        BundleOptions o = new BundleOptions();
        o.pubkey = pubkey;
        return BundleVerifier.check(bundle, o, null);
    }

    // ---- determinism ----

    @Test void sameInputsGiveByteIdenticalArchives(@TempDir Path d) throws IOException {
        for (String name : new String[] {"rel.tar", "rel.tar.zst"}) {
            Path a = Files.createDirectories(d.resolve("a")).resolve(name), b = Files.createDirectories(d.resolve("b")).resolve(name);
            release(a, "--sign", keyPriv.toString(), cert.toString(), cert2.toString());
            String user = System.getProperty("user.name");
            System.setProperty("user.name", "someone-else-entirely"); // owner names must not leak into the tar
            try { release(b, "--sign", keyPriv.toString(), cert2.toString(), cert.toString()); }
            finally { System.setProperty("user.name", user); }
            assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b), name + " differs between two runs");
            assertFalse(new String(Files.readAllBytes(a), StandardCharsets.ISO_8859_1).contains("someone-else"));
        }
    }

    @Test void longNamesUsePaxAndStayDeterministic(@TempDir Path d) throws IOException {
        Path longCert = d.resolve("x".repeat(96) + ".gsc");
        Files.copy(cert, longCert);
        Path a = Files.createDirectories(d.resolve("a")).resolve("long-name-release-bundle.tar");
        Path b = Files.createDirectories(d.resolve("b")).resolve("long-name-release-bundle.tar");
        release(a, longCert.toString());
        String user = System.getProperty("user.name");
        System.setProperty("user.name", "another-user-name");
        try { release(b, longCert.toString()); } finally { System.setProperty("user.name", user); }
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));
        String raw = new String(Files.readAllBytes(a), StandardCharsets.ISO_8859_1);
        assertTrue(raw.contains("path=long-name-release-bundle/data/" + "x".repeat(96) + ".gsc"), "PAX path record expected");
        assertFalse(raw.contains("another-user-name"));
        assertEquals("verified", check(a, null).verdict);
    }

    @Test void dateComesFromOptionOrSourceDateEpochNeverTheClock() throws Exception {
        assertEquals("2023-11-14", ReleaseCommand.dateFromSourceDateEpoch("1700000000"));
        assertNull(ReleaseCommand.dateFromSourceDateEpoch(null));
        assertThrows(Release.ReleaseException.class, () -> ReleaseCommand.dateFromSourceDateEpoch("yesterday"));
    }

    // ---- content ----

    @Test void bagInfoCitationAndReadmeNameTheCommitments(@TempDir Path d) throws IOException {
        Path out = release(d.resolve("dir"), "--doi", "10.5281/zenodo.1234", cert.toString(), cert2.toString());
        String id1 = org.gamecert.producer.cert.CertificateReader.read(cert).commitmentId;
        String id2 = org.gamecert.producer.cert.CertificateReader.read(cert2).commitmentId;
        String info = Files.readString(out.resolve("bag-info.txt"));
        assertTrue(info.contains("Commitment-Id: " + id1 + " data/othello-4x4.gsc\n"));
        assertTrue(info.contains("Commitment-Id: " + id2 + " data/c4-4x4.gsc\n"));
        assertTrue(info.contains("Bagging-Date: 2026-03-01\n"));
        assertTrue(info.contains("Verifier-Version: 9.8.7\n"));
        assertTrue(info.contains("Verifier-Jar-SHA256: " + Digests.sha256And512(jar)[0] + "\n"));
        long bytes;
        try (Stream<Path> s = Files.list(out.resolve("data"))) {
            List<Path> data = s.collect(Collectors.toList());
            bytes = 0;
            for (Path p : data) bytes += Files.size(p);
            assertTrue(info.contains("Payload-Oxum: " + bytes + "." + data.size() + "\n"));
        }
        String cff = Files.readString(out.resolve("data/CITATION.cff"));
        assertTrue(cff.startsWith("cff-version: 1.2.0\n"));
        assertTrue(cff.contains("title: \"Othello 4x4 & friends\""));
        assertTrue(cff.contains("family-names: \"Lovelace\"") && cff.contains("given-names: \"Ada King\""));
        assertTrue(cff.contains("orcid: \"https://orcid.org/0000-0002-1825-0097\""));
        assertTrue(cff.contains("value: \"" + id1 + "\"") && cff.contains("value: \"" + id2 + "\""));
        assertTrue(cff.contains("doi: \"10.5281/zenodo.1234\"") && cff.contains("date-released: \"2026-03-01\""));
        String readme = Files.readString(out.resolve("data/README.md"));
        assertTrue(readme.contains(id1) && readme.contains(Digests.sha256And512(jar)[0]) && readme.contains("scripts/verify"));
        String json = Files.readString(out.resolve("data/othello-4x4.census.json"));
        assertTrue(json.contains("\"commitment\": \"" + id1 + "\"") && json.contains("\"game\": \"othello:4x4\""));
    }

    @Test void censusSvgIsWellFormedWithOneBarPerNonZeroCount(@TempDir Path d) throws Exception {
        Path out = release(d.resolve("dir"), cert.toString());
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        Document doc = f.newDocumentBuilder().parse(out.resolve("data/census.svg").toFile());
        assertEquals("svg", doc.getDocumentElement().getLocalName());
        assertEquals("http://www.w3.org/2000/svg", doc.getDocumentElement().getNamespaceURI());
        long[][] census = org.gamecert.producer.cert.CertificateReader.read(cert).census;
        int nonZero = 0;
        for (long[] r : census) nonZero += (r[1] > 0 ? 1 : 0) + (r[2] > 0 ? 1 : 0);
        int bars = 0;
        var rects = doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "rect");
        for (int i = 0; i < rects.getLength(); i++) if (rects.item(i).getTextContent().contains("discs:")) bars++;
        assertEquals(nonZero, bars);
        assertTrue(nonZero > 0);
    }

    /** Connect Four's census files carry the proof-only terminal positions (SPEC §10.3), the verifier's count; Othello's do not. */
    @Test void connectFourCensusHasTheProofOnlyTerminals(@TempDir Path d) throws Exception {
        Path out = release(d.resolve("dir"), cert.toString(), cert2.toString());
        var v = org.gamecert.verifier.engine.Verifier.verify(cert2, new org.gamecert.verifier.engine.Options());
        long total = 0;
        for (long[] r : v.census) total += r[3];
        assertTrue(total > 0, "connect4:4x4's proof reaches terminal positions");
        String c4 = Files.readString(out.resolve("data/c4-4x4.census.json"));
        assertTrue(c4.contains("\"proof_terminals_total\": " + total + ","), c4);
        for (long[] r : v.census)
            assertTrue(c4.contains("{\"discs\": " + r[0] + ", \"region\": " + r[1] + ", \"aux\": " + r[2] + ", \"proof_terminals\": " + r[3] + "}"), c4);
        assertFalse(Files.readString(out.resolve("data/othello-4x4.census.json")).contains("proof_terminals"));
        String svg = Files.readString(out.resolve("data/census.svg"));
        assertTrue(svg.contains("terminal positions only the proof reaches (" + String.format(java.util.Locale.ROOT, "%,d", total) + ")"),
                "the SVG's legend, the count's digits grouped by threes");
    }

    // ---- round trip ----

    @Test void roundTripVerifiesEveryFormat(@TempDir Path d) {
        for (String name : new String[] {"dir", "r.tar", "r.tar.zst"}) {
            Path out = release(d.resolve(name), cert.toString(), cert2.toString());
            BundleReport r = check(out, null);
            assertEquals("verified", r.verdict, name + ": " + r.problems);
            assertEquals(0, r.exitCode);
            assertEquals(2, r.citations.size());
            assertTrue(r.citations.get(0).startsWith("VERIFIED Othello 4x4 & friends · "));
            assertTrue(r.citations.stream().anyMatch(c -> c.contains("commitment " + r.certificates.get(0).commitment)));
            assertEquals(r.certificates.get(0).claimedCommitment, r.certificates.get(0).commitment);
            // The game and mode of the verified header stand beside the author's free-text title.
            assertTrue(r.citations.stream().anyMatch(c -> c.contains(" · othello:4x4 semi-strong · ")), r.citations.toString());
            assertTrue(r.citations.stream().anyMatch(c -> c.contains(" · connect4:4x4 ")), r.citations.toString());
        }
    }

    @Test void splitPartsAreNamedAsTheTablebasesWithSha256SumsAndVerifyFromTheFirstPart(@TempDir Path d) throws IOException {
        int rc = produce("release", "--title", "T", "--author", "A", "--verifier-jar", jar.toString(), "--split-size", "4k",
                "--out", d.resolve("s.tar.zst").toString(), cert.toString());
        assertEquals(0, rc, lastErr.toString());
        // The published tablebase's convention: NAME.00, NAME.01, ... and SHA256SUMS beside them.
        assertTrue(Files.exists(d.resolve("s.tar.zst.00")) && Files.exists(d.resolve("s.tar.zst.01")));
        assertFalse(Files.exists(d.resolve("s.tar.zst.000")));
        String sums = Files.readString(d.resolve("SHA256SUMS"));
        try (var parts = Files.list(d)) {
            for (Path p : (Iterable<Path>) parts.filter(p -> p.getFileName().toString().startsWith("s.tar.zst."))::iterator)
                assertTrue(sums.contains(Digests.sha256And512(p)[0] + "  " + p.getFileName() + "\n"), p + " in " + sums);
        }
        assertEquals("verified", check(d.resolve("s.tar.zst.00"), null).verdict);
        // One flipped byte in the second part: SHA256SUMS names that part before the bag is read.
        Path second = d.resolve("s.tar.zst.01");
        byte[] b = Files.readAllBytes(second);
        b[10] ^= 0x40;
        Files.write(second, b);
        BundleReport damaged = check(d.resolve("s.tar.zst.00"), null);
        assertEquals("rejected", damaged.verdict);
        assertTrue(damaged.problems.toString().contains("s.tar.zst.01: fails its SHA-256 in SHA256SUMS"), damaged.problems.toString());
        Files.delete(second); // a lost part: named as missing
        BundleReport lost = check(d.resolve("s.tar.zst.00"), null);
        assertEquals("rejected", lost.verdict);
        assertTrue(lost.problems.toString().contains("s.tar.zst.01: listed in SHA256SUMS, is missing"), lost.problems.toString());
        Files.delete(d.resolve("SHA256SUMS")); // and without SHA256SUMS: parts after the gap are not read, the bag fails
        assertEquals("rejected", check(d.resolve("s.tar.zst.00"), null).verdict);
    }

    // ---- tampering ----

    @Test void oneByteChangedInAnyFileIsRejectedNamingIt(@TempDir Path d) throws IOException {
        Path ref = release(d.resolve("ref"), "--sign", keyPriv.toString(), cert.toString());
        for (String f : listFiles(ref)) {
            Path copy = copyTree(ref, d.resolve("t" + Math.abs(f.hashCode())));
            Path p = copy.resolve(f);
            byte[] b = Files.readAllBytes(p);
            int at = b.length / 2;
            b[at] = (byte) (b[at] == '0' ? '1' : (b[at] ^ 0x01)); // stays text for text files
            Files.write(p, b);
            BundleReport r = check(copy, keyPub);
            assertEquals(1, r.exitCode, f + " tampered but " + r.verdict);
            assertTrue(r.names(f), f + " not named in " + r.problems);
        }
    }

    @Test void fileRemovedOrAddedIsRejectedNamingIt(@TempDir Path d) throws IOException {
        Path ref = release(d.resolve("ref"), "--sign", keyPriv.toString(), cert.toString());
        for (String f : listFiles(ref)) {
            Path copy = copyTree(ref, d.resolve("r" + Math.abs(f.hashCode())));
            Files.delete(copy.resolve(f));
            BundleReport r = check(copy, null);
            assertEquals(1, r.exitCode, f + " removed but " + r.verdict);
            assertTrue(r.names(f), f + " not named in " + r.problems);
        }
        for (String extra : new String[] {"data/extra.txt", "notes.txt", "data/sub/more.gsc"}) {
            Path copy = copyTree(ref, d.resolve("a" + Math.abs(extra.hashCode())));
            Files.createDirectories(copy.resolve(extra).getParent());
            Files.writeString(copy.resolve(extra), "hello");
            BundleReport r = check(copy, null);
            assertEquals(1, r.exitCode, extra + " added but " + r.verdict);
            assertTrue(r.names(extra), extra + " not named in " + r.problems);
        }
    }

    @Test void editedManifestIsRejected(@TempDir Path d) throws IOException {
        Path ref = release(d.resolve("ref"), cert.toString());
        // Drop the certificate's line from the payload manifest: the certificate becomes unlisted, and the tag manifest no longer matches.
        Path copy = copyTree(ref, d.resolve("m"));
        Path m = copy.resolve("manifest-sha256.txt");
        String kept = Files.readAllLines(m).stream().filter(l -> !l.endsWith("data/othello-4x4.gsc")).map(l -> l + "\n").collect(Collectors.joining());
        Files.writeString(m, kept);
        BundleReport r = check(copy, null);
        assertEquals(1, r.exitCode);
        assertTrue(r.names("manifest-sha256.txt") && r.names("data/othello-4x4.gsc"), r.problems.toString());
    }

    @Test void byteChangedInsideTarIsRejectedNamingTheFile(@TempDir Path d) throws IOException {
        Path tar = release(d.resolve("t.tar"), cert.toString());
        byte[] b = Files.readAllBytes(tar);
        byte[] cff = Files.readAllBytes(release(d.resolve("dir"), cert.toString()).resolve("data/CITATION.cff"));
        int at = indexOf(b, cff);
        assertTrue(at > 0);
        b[at + 20] ^= 0x01;
        Files.write(tar, b);
        BundleReport r = check(tar, null);
        assertEquals(1, r.exitCode);
        assertTrue(r.names("data/CITATION.cff"), r.problems.toString());
    }

    @Test void commitmentClaimMustMatchTheCertificate(@TempDir Path d) throws IOException {
        // A bundle whose bag is internally consistent but names another commitment: re-made by hand.
        Path ref = release(d.resolve("ref"), cert.toString());
        String info = Files.readString(ref.resolve("bag-info.txt"));
        String id = org.gamecert.producer.cert.CertificateReader.read(cert).commitmentId;
        String forged = id.substring(0, id.length() - 1) + (id.endsWith("0") ? "1" : "0");
        Files.writeString(ref.resolve("bag-info.txt"), info.replace(id, forged));
        rewriteTagManifest(ref);
        BundleReport r = check(ref, null);
        assertEquals(1, r.exitCode, r.problems.toString());
        assertTrue(r.names("data/othello-4x4.gsc"));
    }

    /**
     * Issue 21: every statement of a bundle's derived files and bag-info.txt is checked against what
     * was verified. Each edit below keeps the bag consistent (manifests, tag manifest and
     * Payload-Oxum recomputed, as anyone can), and must be rejected naming the file.
     */
    @Test void editedClaimsInDerivedFilesAreRejectedNamingTheFile(@TempDir Path d) throws IOException {
        Path ref = release(d.resolve("ref"), cert.toString(), cert2.toString());
        assertEquals(0, check(ref, null).exitCode, check(ref, null).problems.toString());
        String id = org.gamecert.producer.cert.CertificateReader.read(cert2).commitmentId;
        String otherId = id.substring(0, id.length() - 1) + (id.endsWith("0") ? "1" : "0");
        String[][] edits = {
            {"data/c4-4x4.census.json", "\"root_value\": ", "\"root_value\": 1"},
            {"data/c4-4x4.census.json", "\"region_total\": ", "\"region_total\": 9"},
            {"data/c4-4x4.census.json", "\"entries\": ", "\"entries\": 1"},
            {"data/othello-4x4.census.json", "{\"discs\": ", "{\"discs\": 1"},
            {"data/CITATION.cff", id, otherId},
            {"data/CITATION.cff", "root value ", "root value 1"},
            {"data/CITATION.cff", "semi-strong", "weak"},
            {"data/CITATION.cff", "verifier 9.8.7", "verifier 9.9.9"},
            {"data/README.md", " | ", " | 1"},
            {"data/census.svg", "root value ", "root value 1"},
        };
        for (String[] e : edits) {
            Path b = copyTree(ref, d.resolve("edit-" + Math.abs(java.util.Arrays.hashCode(e))));
            Path f = b.resolve(e[0]);
            String text = Files.readString(f);
            assertTrue(text.contains(e[1]), e[0] + " has no '" + e[1] + "'");
            Files.writeString(f, text.replaceFirst(java.util.regex.Pattern.quote(e[1]), java.util.regex.Matcher.quoteReplacement(e[2])));
            rewriteManifests(b);
            BundleReport r = check(b, null);
            assertEquals(1, r.exitCode, e[0] + " edited (" + e[1] + " -> " + e[2] + ") was not rejected");
            assertTrue(r.names(e[0]), e[0] + " not named: " + r.problems);
        }
        // bag-info.txt's own gamecert fields.
        String[][] infoEdits = {{"Contact-Name: ", "Contact-Name: Somebody Else"}, {"Verifier-Version: ", "Verifier-Version: 9.9.9"},
            {"Verifier-Commit: ", "Verifier-Commit: " + "a".repeat(40)}, {"Verifier-Commit: ", "Verifier-Commit: 29b3b82"},
            {"Data-License: ", "Data-License: CC0-1.0"}, {"Data-License: ", "Data-License: CC BY"},
            {"Bundle-Version: ", "Bundle-Version: 3"}};
        for (String[] e : infoEdits) {
            Path b = copyTree(ref, d.resolve("info-" + Math.abs(java.util.Arrays.hashCode(e))));
            String info = Files.readString(b.resolve("bag-info.txt"));
            String line = info.lines().filter(l -> l.startsWith(e[0].substring(0, e[0].indexOf(':') + 1))).findFirst().orElseThrow();
            Files.writeString(b.resolve("bag-info.txt"), info.replace(line, e[1]));
            rewriteTagManifest(b);
            BundleReport r = check(b, null);
            assertEquals(1, r.exitCode, "bag-info.txt " + e[1] + " was not rejected");
        }
        // An extra payload file is refused unless bag-info.txt declares it; declared, it is named as not vouched for.
        Path extra = copyTree(ref, d.resolve("extra"));
        Files.writeString(extra.resolve("data/notes.txt"), "root value 1\n");
        rewriteManifests(extra);
        BundleReport r = check(extra, null);
        assertEquals(1, r.exitCode);
        assertTrue(r.names("data/notes.txt"), r.problems.toString());
        String info = Files.readString(extra.resolve("bag-info.txt"));
        Files.writeString(extra.resolve("bag-info.txt"), info.replace("Payload-Oxum:", "Extra-Material: data/notes.txt\nPayload-Oxum:"));
        rewriteTagManifest(extra);
        r = check(extra, null);
        assertEquals(0, r.exitCode, r.problems.toString());
        assertTrue(r.citations.get(0).contains("1 extra file(s) not vouched for: data/notes.txt"), r.citations.get(0));
    }

    /** Recomputes both payload manifests, Payload-Oxum and the tag manifest after a payload edit. */
    static void rewriteManifests(Path bag) throws IOException {
        StringBuilder m256 = new StringBuilder(), m512 = new StringBuilder();
        long octets = 0;
        int n = 0;
        for (String f : listFiles(bag)) {
            if (!f.startsWith("data/")) continue;
            byte[] b = Files.readAllBytes(bag.resolve(f));
            m256.append(Digests.hex(Digests.sha256(b))).append("  ").append(f).append('\n');
            m512.append(Digests.hex(Digests.md("SHA-512").digest(b))).append("  ").append(f).append('\n');
            octets += b.length;
            n++;
        }
        Files.writeString(bag.resolve("manifest-sha256.txt"), m256.toString());
        Files.writeString(bag.resolve("manifest-sha512.txt"), m512.toString());
        String info = Files.readString(bag.resolve("bag-info.txt"));
        Files.writeString(bag.resolve("bag-info.txt"), info.replaceAll("Payload-Oxum: .*", "Payload-Oxum: " + octets + "." + n));
        rewriteTagManifest(bag);
    }

    // ---- signatures ----

    @Test void signatureValidInvalidAndWrongKey(@TempDir Path d) throws IOException {
        Path out = release(d.resolve("s"), "--sign", keyPriv.toString(), cert.toString());
        BundleReport ok = check(out, keyPub);
        assertEquals("verified", ok.verdict, ok.problems.toString());
        assertTrue(ok.signatureCheckedAgainstPubkey && ok.signatureValid);
        assertEquals(Ed25519Keys.fingerprint(Ed25519Keys.readKeyFile(keyPub, 32)), ok.signatureFingerprint);

        BundleReport unchecked = check(out, null);
        assertEquals("verified", unchecked.verdict);
        assertTrue(unchecked.signaturePresent && !unchecked.signatureCheckedAgainstPubkey);

        BundleReport wrong = check(out, otherPub);
        assertEquals(1, wrong.exitCode);
        assertTrue(wrong.names(Release.SIGNATURE_FILE));

        // A well-formed signature of other bytes.
        Path bad = copyTree(out, d.resolve("bad"));
        byte[] seed = Ed25519Keys.readKeyFile(keyPriv, 32);
        Files.writeString(bad.resolve(Release.SIGNATURE_FILE), Ed25519Keys.toText(Ed25519Keys.sign(seed, "other".getBytes(StandardCharsets.UTF_8))));
        BundleReport invalid = check(bad, keyPub);
        assertEquals(1, invalid.exitCode);
        assertTrue(invalid.names(Release.SIGNATURE_FILE));

        // Re-signed by someone else with their own key written into bag-info: consistent, but not the trusted key.
        byte[][] kp = Ed25519Keys.generate(new SecureRandom());
        Path resigned = copyTree(out, d.resolve("re"));
        String info = Files.readString(resigned.resolve("bag-info.txt"));
        String pub = Ed25519Keys.toText(Ed25519Keys.readKeyFile(keyPub, 32)).trim();
        info = info.replace(pub, Ed25519Keys.toText(kp[1]).trim());
        // A consistent forgery: the fingerprint in bag-info.txt and README.md is the new key's too.
        String oldPrint = Ed25519Keys.fingerprint(Ed25519Keys.readKeyFile(keyPub, 32)), newPrint = Ed25519Keys.fingerprint(kp[1]);
        Files.writeString(resigned.resolve("bag-info.txt"), info.replace(oldPrint, newPrint));
        Files.writeString(resigned.resolve("data/README.md"), Files.readString(resigned.resolve("data/README.md")).replace(oldPrint, newPrint));
        rewriteManifests(resigned);
        byte[] tm = Files.readAllBytes(resigned.resolve("tagmanifest-sha256.txt"));
        Files.writeString(resigned.resolve(Release.SIGNATURE_FILE), Ed25519Keys.toText(Ed25519Keys.sign(kp[0], tm)));
        assertEquals("verified", check(resigned, null).verdict); // no trusted key: only consistency can be checked
        BundleReport forged = check(resigned, keyPub);
        assertEquals(1, forged.exitCode);
        assertTrue(forged.names(Release.SIGNATURE_FILE));
    }

    @Test void keygenRefusesToOverwriteAndPrintsTheWholeKeyAndA256BitFingerprint(@TempDir Path d) throws IOException {
        assertEquals(0, produce("keygen", "--out", d.resolve("k").toString()));
        byte[] pub = Ed25519Keys.readKeyFile(d.resolve("k.pub"), 32);
        String printed = lastOut.toString();
        assertTrue(printed.contains(Ed25519Keys.fingerprint(pub)), printed);
        assertTrue(printed.contains(java.util.Base64.getEncoder().encodeToString(pub)), "the whole public key: " + printed);
        // the fingerprint is all of SHA-256: 64 hex digits, by fours
        assertEquals(Digests.hex(Digests.sha256(pub)), Ed25519Keys.fingerprint(pub).replace(" ", ""));
        assertTrue(Ed25519Keys.fingerprint(pub).matches("[0-9a-f]{4}( [0-9a-f]{4}){15}"), Ed25519Keys.fingerprint(pub));
        assertArrayEquals(pub, Ed25519Keys.publicKeyOf(Ed25519Keys.readKeyFile(d.resolve("k.key"), 32)));
        assertEquals(2, produce("keygen", "--out", d.resolve("k").toString()));
    }

    @Test void aBundleGetsTheDefaultPermissionsNotOwnerOnly(@TempDir Path d) throws IOException {
        var expected = Files.getPosixFilePermissions(Files.createFile(d.resolve("reference"))); // 0666 less the umask
        for (String name : new String[] {"b.tar", "b.tar.zst"})
            assertEquals(expected, Files.getPosixFilePermissions(release(d.resolve(name), cert.toString())), name);
        release(d.resolve("split.tar"), "--split-size", "4k", cert.toString());
        assertEquals(expected, Files.getPosixFilePermissions(d.resolve("split.tar.00")));
        assertEquals(expected, Files.getPosixFilePermissions(d.resolve("SHA256SUMS")));
    }

    @Test void badRequestsGiveOneLineErrors(@TempDir Path d) throws IOException {
        assertEquals(2, produce("release", "--title", "T", "--author", "A", "--verifier-jar", d.resolve("nope.jar").toString(),
                "--out", d.resolve("x.tar").toString(), cert.toString()));
        assertTrue(lastErr.toString().startsWith("error: no verifier jar"));
        assertEquals(2, produce("release", "--title", "T", "--author", "A", "--orcid", "123", "--verifier-jar", jar.toString(),
                "--out", d.resolve("x.tar").toString(), cert.toString()));
        Path notCert = Files.writeString(d.resolve("junk.gsc"), "not a certificate");
        assertEquals(1, produce("release", "--title", "T", "--author", "A", "--verifier-jar", jar.toString(),
                "--out", d.resolve("x.tar").toString(), notCert.toString()));
        assertTrue(lastErr.toString().contains("not a valid certificate"));
        assertEquals(1, lastErr.toString().trim().split("\n").length);
    }

    // ---- helpers ----

    static byte[] rewriteTagManifest(Path bag) throws IOException {
        StringBuilder tm = new StringBuilder();
        for (String f : new String[] {"bag-info.txt", "bagit.txt", "manifest-sha256.txt", "manifest-sha512.txt"})
            tm.append(Digests.hex(Digests.sha256(Files.readAllBytes(bag.resolve(f))))).append("  ").append(f).append('\n');
        byte[] b = tm.toString().getBytes(StandardCharsets.UTF_8);
        Files.write(bag.resolve("tagmanifest-sha256.txt"), b);
        return b;
    }

    static List<String> listFiles(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(Files::isRegularFile).map(p -> root.relativize(p).toString().replace('\\', '/')).sorted().collect(Collectors.toList());
        }
    }

    static Path copyTree(Path from, Path to) throws IOException {
        for (String f : listFiles(from)) {
            Path t = to.resolve(f);
            Files.createDirectories(t.getParent());
            Files.copy(from.resolve(f), t);
        }
        return to;
    }

    static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) if (hay[i + j] != needle[j]) continue outer;
            return i;
        }
        return -1;
    }

}

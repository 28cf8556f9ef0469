package org.gamecert.producer.release;

import org.gamecert.verifier.bundle.BundleOptions;
import org.gamecert.verifier.bundle.BundleReport;
import org.gamecert.verifier.bundle.BundleVerifier;
import org.gamecert.verifier.cli.VerifyMain;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.gamecert.producer.release.ReleaseTest.lastErr;
import static org.gamecert.producer.release.ReleaseTest.lastOut;
import static org.gamecert.producer.release.ReleaseTest.listFiles;
import static org.gamecert.producer.release.ReleaseTest.produce;
import static org.gamecert.producer.release.ReleaseTest.rewriteManifests;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Release bundles of a composite (SPEC §15): the manifest and every part in the bundle, or the
 * manifest alone with the parts referenced by commitment id (incomplete until --parts gives them);
 * determinism; tampering with a part or the manifest, re-checksummed or not.
 */
class ReleaseCompositeTest {
    @TempDir static Path shared;
    static Path comp, cert, jar;
    static String compositeId;
    static List<String> partFiles = new ArrayList<>();

    @BeforeAll static void makeInputs() throws IOException {
        comp = shared.resolve("othello4-parts");
        assertEquals(0, produce("solve", "--game", "othello:4x4", "--split-at", "8", "--out", comp.toString(), "-q"), lastErr.toString());
        assertEquals(0, produce("solve-part", comp.toString(), "--parts", "all", "-q"), lastErr.toString());
        assertEquals(0, produce("compose", comp.toString()), lastErr.toString());
        compositeId = lastOut.toString().lines().filter(l -> l.startsWith("composite")).findFirst().orElseThrow().split("\\s+")[1];
        try (Stream<Path> s = Files.list(comp)) {
            s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".gsc")).sorted().forEach(partFiles::add);
        }
        assertTrue(partFiles.size() >= 3, "a root part and some parts: " + partFiles);
        assertTrue(Files.exists(comp.resolve("tasks.tsv")));
        cert = shared.resolve("othello-4x4.gsc");
        assertEquals(0, produce("solve", "--game", "othello:4x4", "--out", cert.toString(), "-q"));
        jar = ReleaseTest.fakeVerifierJar(shared.resolve("verifier.jar"));
    }

    static Path release(Path out, String... extra) {
        int rc = tryRelease(out, extra);
        assertEquals(0, rc, lastErr.toString());
        return out;
    }

    static int tryRelease(Path out, String... extra) {
        List<String> a = new ArrayList<>(List.of("release", "--title", "Othello 4x4 in parts", "--author", "Ada King Lovelace",
                "--date", "2026-03-01", "--verifier-jar", jar.toString(), "--out", out.toString()));
        a.addAll(List.of(extra));
        return produce(a.toArray(new String[0]));
    }

    static BundleReport check(Path bundle, Path parts) {
        BundleOptions o = new BundleOptions();
        o.partsDir = parts;
        return BundleVerifier.check(bundle, o, null);
    }

    @Test void compositeWithItsPartsVerifiesInEveryFormat(@TempDir Path d) throws IOException {
        for (String name : new String[] {"dir", "r.tar", "r.tar.zst"}) {
            Path out = release(d.resolve(name), comp.toString());
            assertTrue(lastOut.toString().contains("composite   " + compositeId + " data/othello4-parts/composite.gscm"), lastOut.toString());
            BundleReport r = check(out, null);
            assertEquals("verified", r.verdict, name + ": " + r.problems);
            assertEquals(0, r.exitCode);
            assertEquals(1, r.composites.size());
            assertEquals(compositeId, r.composites.get(0).compositeId);
            assertEquals(partFiles.size(), r.composites.get(0).parts);
            assertEquals(1, r.citations.size());
            String line = r.citations.get(0);
            assertTrue(line.startsWith("VERIFIED Othello 4x4 in parts · othello:4x4 semi-strong composite of " + partFiles.size() + " parts · composite "
                    + compositeId + " · P value "), line);
        }
        // The payload: the manifest, exactly the parts it names, the texts; none of the producer's work files.
        Path dir = d.resolve("dir");
        List<String> files = listFiles(dir);
        assertTrue(files.contains("data/othello4-parts/composite.gscm"));
        for (String p : partFiles) assertTrue(files.contains("data/othello4-parts/" + p), p);
        for (String f : files) assertFalse(f.contains("tasks.tsv") || f.contains("/done/"), f);
        assertTrue(files.contains("data/othello4-parts.census.json"));
        String info = Files.readString(dir.resolve("bag-info.txt"));
        assertTrue(info.contains("Composite-Id: " + compositeId + " data/othello4-parts/composite.gscm parts-included\n"), info);
        assertFalse(info.contains("Commitment-Id"), info);
        String json = Files.readString(dir.resolve("data/othello4-parts.census.json"));
        assertTrue(json.contains("\"composite_id\": \"" + compositeId + "\""), json);
        assertTrue(json.contains("\"parts\": " + partFiles.size()), json);
        assertTrue(json.contains("\"region_union\": "), json);
        assertTrue(json.contains("\"game\": \"othello:4x4\""), json);
        assertTrue(Files.readString(dir.resolve("data/CITATION.cff")).contains("value: \"" + compositeId + "\""));
        String readme = Files.readString(dir.resolve("data/README.md"));
        assertTrue(readme.contains("## Composites") && readme.contains(compositeId), readme);
        assertTrue(Files.readString(dir.resolve("data/census.svg")).contains("composite " + compositeId));
    }

    @Test void compositeBesideACertificate(@TempDir Path d) {
        Path out = release(d.resolve("b.tar.zst"), cert.toString(), comp.toString());
        BundleReport r = check(out, null);
        assertEquals("verified", r.verdict, r.problems.toString());
        assertEquals(2, r.citations.size());
        assertTrue(r.citations.stream().anyMatch(c -> c.contains("data/othello4-parts/composite.gscm") && c.contains(compositeId)), r.citations.toString());
    }

    @Test void sameInputsGiveByteIdenticalBundles(@TempDir Path d) throws IOException {
        for (String flag : new String[] {null, "--parts-by-reference"}) {
            // The bag's top-level folder in the tar is the file's name: the same name, in two folders.
            String sub = flag == null ? "in" : "ref";
            Path a = d.resolve("a-" + sub).resolve("r.tar.zst"), b = d.resolve("b-" + sub).resolve("r.tar.zst");
            Files.createDirectories(a.getParent());
            Files.createDirectories(b.getParent());
            if (flag == null) { release(a, comp.toString()); release(b, comp.toString()); }
            else { release(a, flag, comp.toString()); release(b, flag, comp.toString()); }
            assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b), "flag " + flag);
        }
    }

    @Test void byReferenceIsIncompleteUntilThePartsAreGiven(@TempDir Path d) throws IOException {
        Path out = release(d.resolve("ref"), "--parts-by-reference", comp.toString());
        List<String> files = listFiles(out);
        for (String f : files) assertFalse(f.endsWith(".gsc"), "no part in a by-reference bundle: " + f);
        assertTrue(files.contains("data/othello4-parts/composite.gscm"));
        assertTrue(Files.readString(out.resolve("bag-info.txt")).contains(" data/othello4-parts/composite.gscm parts-by-reference\n"));
        assertTrue(Files.readString(out.resolve("data/README.md")).contains("referenced by commitment id"));

        BundleReport r = check(out, null);
        assertEquals("incomplete", r.verdict, r.problems.toString());
        assertEquals(BundleVerifier.INCOMPLETE, r.exitCode);
        assertEquals(partFiles.size(), r.composites.get(0).partsNotGiven);
        assertTrue(r.citations.isEmpty());

        Path empty = Files.createDirectory(d.resolve("empty"));
        assertEquals("incomplete", check(out, empty).verdict);

        r = check(out, comp);
        assertEquals("verified", r.verdict, r.problems.toString());
        assertEquals(compositeId, r.composites.get(0).compositeId);
        assertTrue(r.citations.get(0).contains("(by reference, from " + comp + ")"), r.citations.get(0));

        // The command line: exit 3 without --parts, 0 with it; --parts on something else than a bundle is refused.
        ByteArrayOutputStream o = new ByteArrayOutputStream(), e = new ByteArrayOutputStream();
        assertEquals(3, VerifyMain.run(new String[] {out.toString(), "-q"}, new PrintStream(o, true), new PrintStream(e, true)));
        assertTrue(o.toString(StandardCharsets.UTF_8).contains("INCOMPLETE "), o.toString(StandardCharsets.UTF_8));
        o.reset();
        assertEquals(0, VerifyMain.run(new String[] {out.toString(), "--parts", comp.toString(), "-q"}, new PrintStream(o, true), new PrintStream(e, true)));
        assertTrue(o.toString(StandardCharsets.UTF_8).contains("composite " + compositeId), o.toString(StandardCharsets.UTF_8));
        assertEquals(2, VerifyMain.run(new String[] {cert.toString(), "--parts", comp.toString(), "-q"}, new PrintStream(o, true), new PrintStream(e, true)));

        // A part given with --parts that is not the part (another content under its name): not verified.
        Path fake = Files.createDirectory(d.resolve("fake"));
        for (String p : partFiles) Files.copy(comp.resolve(p), fake.resolve(p));
        Files.copy(cert, fake.resolve(partFiles.get(partFiles.size() - 1)), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertNotEquals("verified", check(out, fake).verdict);
    }

    @Test void tamperedPartIsRejected(@TempDir Path d) throws IOException {
        Path out = release(d.resolve("dir"), comp.toString());
        Path part = out.resolve("data/othello4-parts/" + partFiles.get(1));
        byte[] b = Files.readAllBytes(part);
        b[b.length / 2] ^= 1;
        Files.write(part, b);
        BundleReport r = check(out, null);
        assertEquals("rejected", r.verdict);
        assertTrue(r.names("data/othello4-parts/" + partFiles.get(1)), r.problems.toString());
        // Re-checksummed: the bag holds, the composite does not (the file is not the part its name
        // gives). Which file the problem names depends on where the flipped bit fell: the manifest
        // (the part's commitment is not its name) or the part (its own check fails first).
        rewriteManifests(out);
        r = check(out, null);
        assertEquals("rejected", r.verdict, r.problems.toString());
        String tampered = "data/othello4-parts/" + partFiles.get(1);
        assertTrue(r.problems.stream().anyMatch(p -> p.file.equals("data/othello4-parts/composite.gscm")
                || p.file.equals(tampered) && p.message.startsWith("composite rejected")), r.problems.toString());
    }

    @Test void partSwappedForAnotherCertificateIsRejected(@TempDir Path d) throws IOException {
        Path out = release(d.resolve("dir"), comp.toString());
        Files.copy(cert, out.resolve("data/othello4-parts/" + partFiles.get(0)), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        rewriteManifests(out);
        assertEquals("rejected", check(out, null).verdict);
    }

    @Test void tamperedManifestIsRejected(@TempDir Path d) throws IOException {
        Path out = release(d.resolve("dir"), comp.toString());
        Path m = out.resolve("data/othello4-parts/composite.gscm");
        byte[] b = Files.readAllBytes(m);
        b[b.length - 1] ^= 1; // the manifest's commitment
        Files.write(m, b);
        assertEquals("rejected", check(out, null).verdict);
        rewriteManifests(out);
        BundleReport r = check(out, null);
        assertEquals("rejected", r.verdict, r.problems.toString());
        assertTrue(r.problems.toString().contains("R-MAN-2"), r.problems.toString());
    }

    @Test void editedCompositeIdOrTextsAreRejected(@TempDir Path d) throws IOException {
        Path out = release(d.resolve("dir"), comp.toString());
        Path info = out.resolve("bag-info.txt");
        String orig = Files.readString(info);
        Files.writeString(info, orig.replace(compositeId, "sha256:" + "0".repeat(64)));
        ReleaseTest.rewriteTagManifest(out);
        BundleReport r = check(out, null);
        assertEquals("rejected", r.verdict);
        assertTrue(r.names("data/othello4-parts/composite.gscm"), r.problems.toString());

        Path out2 = release(d.resolve("dir2"), comp.toString());
        Path json = out2.resolve("data/othello4-parts.census.json");
        Files.writeString(json, Files.readString(json).replaceFirst("\"parts\": \\d+", "\"parts\": 1"));
        rewriteManifests(out2);
        r = check(out2, null);
        assertEquals("rejected", r.verdict);
        assertTrue(r.names("data/othello4-parts.census.json"), r.problems.toString());

        // A producer work file slipped into the composite's folder: nothing vouches for it.
        Path out3 = release(d.resolve("dir3"), comp.toString());
        Files.copy(comp.resolve("tasks.tsv"), out3.resolve("data/othello4-parts/tasks.tsv"));
        rewriteManifests(out3);
        r = check(out3, null);
        assertEquals("rejected", r.verdict);
        assertTrue(r.names("data/othello4-parts/tasks.tsv"), r.problems.toString());
    }

    @Test void releaseRefusesACompositeTheVerifierDoesNotVerify(@TempDir Path d) throws IOException {
        Path broken = Files.createDirectory(d.resolve("broken"));
        Files.copy(comp.resolve("composite.gscm"), broken.resolve("composite.gscm"));
        for (String p : partFiles.subList(0, partFiles.size() - 1)) Files.copy(comp.resolve(p), broken.resolve(p));
        assertEquals(1, tryRelease(d.resolve("x.tar"), broken.toString()));
        assertTrue(lastErr.toString().contains("does not verify this composite (INCOMPLETE"), lastErr.toString());
        assertEquals(1, tryRelease(d.resolve("y.tar"), "--parts-by-reference", broken.toString()));
        assertFalse(Files.exists(d.resolve("x.tar")));
        // A folder that is not a composite, and --parts-by-reference without a composite, are usage errors.
        assertEquals(2, tryRelease(d.resolve("z.tar"), Files.createDirectory(d.resolve("plain")).toString()));
        assertEquals(2, tryRelease(d.resolve("z.tar"), "--parts-by-reference", cert.toString()));
    }
}

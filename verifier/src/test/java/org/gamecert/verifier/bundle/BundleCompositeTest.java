package org.gamecert.verifier.bundle;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.gamecert.verifier.engine.CompositeVerifier;
import org.gamecert.verifier.engine.Options;
import org.gamecert.verifier.testcert.TestComposite;
import org.gamecert.verifier.testcert.TinySolver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bundles holding a composite (SPEC §15), made by hand here (the verifier does not depend on the
 * producer): a crafted composite, its texts rendered by BundleTexts from the verifier's outcome, a
 * bag with Composite-Id. Parts included or by reference (--parts), and the bag rules of a
 * composite's folder.
 */
class BundleCompositeTest {
    @TempDir static Path shared;
    static TestComposite comp;
    static Path compDir;
    static CompositeVerifier.Outcome outcome;

    @BeforeAll static void composite() throws Exception {
        TinySolver s = new TinySolver(1, 4, 4, 1, null);
        long[] start = s.othelloStart();
        comp = TestComposite.split(s, start[0], start[1], 1, 8);
        compDir = comp.writeTo(shared.resolve("c4"));
        outcome = CompositeVerifier.verify(compDir, new Options(), null);
        assertEquals(org.gamecert.verifier.kernel.Result.Verdict.VERIFIED, outcome.verdict());
    }

    /** A bag as `produce release` makes it: data/NAME/composite.gscm, the parts unless by reference, the texts. */
    static Map<String, byte[]> bag(boolean included) throws IOException {
        TreeMap<String, byte[]> f = new TreeMap<>();
        BundleTexts.Composite c = BundleTexts.composite("c4", included, outcome);
        f.put("data/c4/composite.gscm", comp.manifest());
        if (included) for (TestComposite.Part p : comp.parts) f.put("data/c4/" + p.hex() + ".gsc", p.bytes);
        BundleTexts.Meta meta = new BundleTexts.Meta("T", List.of("Ada Lovelace"), List.of(), "2026-03-01", null, "1.0", "ab".repeat(32), null);
        f.put("data/c4.census.json", utf8(BundleTexts.censusJson(c)));
        f.put("data/census.svg", utf8(BundleTexts.censusSvg("T", List.of(), List.of(c))));
        f.put("data/CITATION.cff", utf8(BundleTexts.citationCff(meta, List.of(), List.of(c))));
        f.put("data/README.md", utf8(BundleTexts.readme(meta, List.of(), List.of(c))));
        String info = "Title: T\nAuthor: Ada Lovelace\nContact-Name: Ada Lovelace\nBagging-Date: 2026-03-01\n"
                + "Composite-Id: " + c.compositeId() + " data/c4/composite.gscm " + (included ? "parts-included" : "parts-by-reference") + "\n"
                + "Verifier-Version: 1.0\nVerifier-Jar-SHA256: " + "ab".repeat(32) + "\n";
        f.put("bag-info.txt", utf8(info));
        return seal(f);
    }

    /** Payload manifest, Payload-Oxum and tag manifest for the files given. */
    static Map<String, byte[]> seal(Map<String, byte[]> in) {
        TreeMap<String, byte[]> f = new TreeMap<>(in);
        f.remove("manifest-sha256.txt");
        f.remove("tagmanifest-sha256.txt");
        StringBuilder m = new StringBuilder();
        long octets = 0;
        int n = 0;
        for (Map.Entry<String, byte[]> e : f.entrySet())
            if (e.getKey().startsWith("data/")) {
                m.append(BundleSafetyTest.sha256(e.getValue())).append("  ").append(e.getKey()).append('\n');
                octets += e.getValue().length;
                n++;
            }
        f.put("manifest-sha256.txt", utf8(m.toString()));
        f.put("bagit.txt", utf8("BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n"));
        String info = new String(f.get("bag-info.txt"), StandardCharsets.UTF_8).replaceAll("Payload-Oxum: .*\n", "");
        f.put("bag-info.txt", utf8(info + "Payload-Oxum: " + octets + "." + n + "\n"));
        StringBuilder tm = new StringBuilder();
        for (String t : new String[] {"bag-info.txt", "bagit.txt", "manifest-sha256.txt"})
            tm.append(BundleSafetyTest.sha256(f.get(t))).append("  ").append(t).append('\n');
        f.put("tagmanifest-sha256.txt", utf8(tm.toString()));
        return f;
    }

    static byte[] utf8(String s) { return s.getBytes(StandardCharsets.UTF_8); }

    static BundleReport check(Path bundle, Path parts) {
        BundleOptions o = new BundleOptions();
        o.partsDir = parts;
        return BundleVerifier.check(bundle, o, null);
    }

    @Test void partsIncludedVerifiesAsTarAndNamesTheCompositeId(@TempDir Path d) throws IOException {
        BundleReport r = check(BundleSafetyTest.tar(d.resolve("b.tar"), bag(true), null), null);
        assertEquals("verified", r.verdict, r.problems.toString());
        assertEquals(outcome.composition.compositeId, r.composites.get(0).compositeId);
        assertTrue(r.citations.get(0).contains("composite " + outcome.composition.compositeId), r.citations.toString());
        assertTrue(r.citations.get(0).contains("composite of " + comp.parts.size() + " parts"), r.citations.toString());
    }

    @Test void byReferenceIsIncompleteWithoutThePartsAndVerifiedWithThem(@TempDir Path d) throws IOException {
        Path b = BundleSafetyTest.tar(d.resolve("r.tar"), bag(false), null);
        BundleReport r = check(b, null);
        assertEquals("incomplete", r.verdict, r.problems.toString());
        assertEquals(BundleVerifier.INCOMPLETE, r.exitCode);
        assertEquals(comp.parts.size(), r.composites.get(0).partsNotGiven);
        r = check(b, compDir);
        assertEquals("verified", r.verdict, r.problems.toString());
        // One part missing from --parts: still incomplete.
        Path some = comp.writeTo(d.resolve("some"));
        Files.delete(some.resolve(comp.parts.get(1).hex() + ".gsc"));
        r = check(b, some);
        assertEquals("incomplete", r.verdict, r.problems.toString());
        assertEquals(1, r.composites.get(0).partsNotGiven);
    }

    @Test void aPartInTheFolderOfABundleByReferenceIsRejected(@TempDir Path d) throws IOException {
        Map<String, byte[]> f = bag(false);
        f.put("data/c4/" + comp.parts.get(1).hex() + ".gsc", comp.parts.get(1).bytes);
        BundleReport r = check(BundleSafetyTest.tar(d.resolve("x.tar"), seal(f), null), null);
        assertEquals("rejected", r.verdict);
        assertTrue(r.names("data/c4/" + comp.parts.get(1).hex() + ".gsc"), r.problems.toString());
    }

    @Test void aMissingPartOfABundleThatIncludesItsPartsIsRejected(@TempDir Path d) throws IOException {
        Map<String, byte[]> f = bag(true);
        f.remove("data/c4/" + comp.parts.get(1).hex() + ".gsc");
        BundleReport r = check(BundleSafetyTest.tar(d.resolve("x.tar"), seal(f), null), null);
        assertEquals("rejected", r.verdict);
        assertTrue(r.names("data/c4/composite.gscm"), r.problems.toString());
    }

    @Test void aCertificateTheManifestDoesNotNameIsRejected(@TempDir Path d) throws IOException {
        Map<String, byte[]> f = bag(true);
        // A well-named file (its own commitment) that is not one of the manifest's parts.
        TestComposite other = TestComposite.split(new TinySolver(1, 4, 4, 1, null), comp.parts.get(1).cert.rootMover,
                comp.parts.get(1).cert.rootOpponent, 1);
        String hex = other.parts.get(0).hex();
        if (f.containsKey("data/c4/" + hex + ".gsc")) return; // the same content as a part: nothing to test
        f.put("data/c4/" + hex + ".gsc", other.parts.get(0).bytes);
        BundleReport r = check(BundleSafetyTest.tar(d.resolve("x.tar"), seal(f), null), null);
        assertEquals("rejected", r.verdict);
        assertTrue(r.names("data/c4/" + hex + ".gsc"), r.problems.toString());
    }

    @Test void malformedCompositeIdLineIsRejected(@TempDir Path d) throws IOException {
        Map<String, byte[]> f = bag(true);
        String info = new String(f.get("bag-info.txt"), StandardCharsets.UTF_8).replace(" parts-included", " parts-maybe");
        f.put("bag-info.txt", utf8(info));
        BundleReport r = check(BundleSafetyTest.tar(d.resolve("x.tar"), seal(f), null), null);
        assertEquals("rejected", r.verdict);
        assertTrue(r.problems.toString().contains("Composite-Id"), r.problems.toString());
    }

    @Test void textsWithoutCompositesAreUnchanged() {
        // Certificate-only bundles render as before composites existed: the overloads with no composite are the old texts.
        BundleTexts.Meta meta = new BundleTexts.Meta("T", List.of("A B"), List.of(), null, null, "1", "00".repeat(32), null);
        BundleTexts.Cert c = new BundleTexts.Cert("x.gsc", "othello:4x4", "semi-strong", 0, "sha256:" + "0".repeat(64), 3,
                new long[][] {{4, 1, 2, 0}});
        assertEquals(BundleTexts.readme(meta, List.of(c)), BundleTexts.readme(meta, List.of(c), List.of()));
        assertFalse(BundleTexts.readme(meta, List.of(c)).contains("Composites"));
        assertFalse(BundleTexts.citationCff(meta, List.of(c)).contains("composite"));
    }
}

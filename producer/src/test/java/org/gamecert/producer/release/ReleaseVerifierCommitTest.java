package org.gamecert.producer.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.gamecert.producer.cli.ProduceMain;
import org.gamecert.verifier.bundle.BundleReport;
import org.gamecert.verifier.cli.BuildInfo;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * A release names the source of what it pins and of what made it: bag-info.txt's Verifier-Commit
 * (the commit the pinned verifier jar records), the bundle's CITATION.cff with its licence, version
 * and a reference to the gamecert software at that version and commit, the producer's own version
 * and commit; and scripts/rebuild-verifier-check builds the recorded commit by default.
 */
class ReleaseVerifierCommitTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final String SHA = "29b3b8209ff0112ed4e5076604809f021bedd727";
    @TempDir static Path shared;
    static Path cert;

    @BeforeAll static void makeCertificate() {
        cert = shared.resolve("othello-4x4.gsc");
        assertEquals(0, ReleaseTest.produce("solve", "--game", "othello:4x4", "--out", cert.toString(), "-q"));
    }

    /** A verifier jar as the build makes it since 0.6.0: Maven metadata and the build information with its commit. */
    static Path verifierJar(Path p, String version, String commit, String tree) throws IOException {
        try (JarOutputStream j = new JarOutputStream(Files.newOutputStream(p))) {
            j.putNextEntry(new JarEntry("org/gamecert/verifier/cli/VerifyMain.class"));
            j.write(new byte[] {(byte) 0xCA, (byte) 0xFE});
            j.putNextEntry(new JarEntry("META-INF/maven/org.gamecert/verifier/pom.properties"));
            j.write(("version=" + version + "\n").getBytes(StandardCharsets.US_ASCII));
            j.putNextEntry(new JarEntry(BuildInfo.VERIFIER_RESOURCE));
            j.write(("version=" + version + "\ncommit=" + commit + "\ntree=" + tree + "\n").getBytes(StandardCharsets.US_ASCII));
        }
        return p;
    }

    static Path release(Path out, Path verifierJar, String... extra) {
        List<String> a = new ArrayList<>(List.of("release", "--title", "Othello 4x4", "--author", "Ada King Lovelace", "--date", "2026-03-01",
                "--verifier-jar", verifierJar.toString(), "--out", out.toString()));
        a.addAll(List.of(extra));
        a.add(cert.toString());
        assertEquals(0, ReleaseTest.produce(a.toArray(new String[0])), ReleaseTest.lastErr.toString());
        return out;
    }

    @Test void aReleaseRecordsTheVerifierCommitAndStillVerifies(@TempDir Path d) throws IOException {
        Path jar = verifierJar(d.resolve("verifier.jar"), "0.6.0", SHA, "clean");
        for (String name : new String[] {"dir", "r.tar.zst"}) {
            Path out = release(d.resolve(name), jar);
            assertTrue(ReleaseTest.lastOut.toString().contains("verifier    0.6.0, commit " + SHA + ", jar sha256:"), ReleaseTest.lastOut.toString());
            assertFalse(ReleaseTest.lastErr.toString().contains("warning"), ReleaseTest.lastErr.toString());
            BundleReport r = ReleaseTest.check(out, null);
            assertEquals("verified", r.verdict, name + ": " + r.problems);
            assertEquals(SHA, r.pinnedCommit);
            assertEquals("0.6.0", r.pinnedVersion);
        }
        String info = Files.readString(d.resolve("dir/bag-info.txt"));
        assertTrue(info.contains("\nVerifier-Version: 0.6.0\nVerifier-Jar-SHA256: " + Digests.sha256And512(jar)[0] + "\nVerifier-Commit: " + SHA + "\n"), info);
        String readme = Files.readString(d.resolve("dir/data/README.md"));
        assertTrue(readme.contains("built from commit `" + SHA + "`") && readme.contains("scripts/rebuild-verifier-check BUNDLE"), readme);
    }

    @Test void aJarBuiltFromModifiedSourcesIsRecordedSoAndWarnedAbout(@TempDir Path d) throws IOException {
        Path out = release(d.resolve("dir"), verifierJar(d.resolve("verifier.jar"), "0.6.0", SHA, "modified"));
        assertTrue(Files.readString(out.resolve("bag-info.txt")).contains("\nVerifier-Commit: " + SHA + " modified\n"));
        assertTrue(ReleaseTest.lastErr.toString().contains("warning: the pinned verifier jar was built from modified sources at commit " + SHA),
                ReleaseTest.lastErr.toString());
        assertEquals("verified", ReleaseTest.check(out, null).verdict);
        assertTrue(Files.readString(out.resolve("data/README.md")).contains("with modified sources"));
    }

    /** A jar from before 0.6.0 (or built outside git) records no commit: bag-info says unknown, the release warns. */
    @Test void aJarThatRecordsNoCommitIsPinnedAsUnknown(@TempDir Path d) throws IOException {
        Path out = release(d.resolve("dir"), ReleaseTest.fakeVerifierJar(d.resolve("old.jar")));
        String info = Files.readString(out.resolve("bag-info.txt"));
        assertTrue(info.contains("\nVerifier-Version: 9.8.7\n") && info.contains("\nVerifier-Commit: unknown\n"), info);
        assertTrue(ReleaseTest.lastErr.toString().contains("does not record the commit it was built from"), ReleaseTest.lastErr.toString());
        BundleReport r = ReleaseTest.check(out, null);
        assertEquals("verified", r.verdict, r.problems.toString());
        assertEquals("unknown", r.pinnedCommit);
    }

    @SuppressWarnings("unchecked")
    @Test void bundleCitationIsCffWithLicenceVersionAndTheSoftwareItCites(@TempDir Path d) throws IOException {
        Path out = release(d.resolve("dir"), verifierJar(d.resolve("verifier.jar"), "0.6.0", SHA, "clean"),
                "--license", "CC0-1.0", "--bundle-version", "2", "--repository-code", "https://example.org/ada/othello-solve");
        Object doc = new Yaml(new SafeConstructor(new LoaderOptions())).load(Files.readString(out.resolve("data/CITATION.cff")));
        assertInstanceOf(Map.class, doc);
        Map<String, Object> cff = (Map<String, Object>) doc;
        assertEquals("1.2.0", cff.get("cff-version"));
        assertEquals("dataset", cff.get("type"));
        assertEquals("Othello 4x4", cff.get("title"));
        assertEquals("CC0-1.0", cff.get("license"));
        assertEquals("2", cff.get("version"));
        assertEquals("https://example.org/ada/othello-solve", cff.get("repository-code"));
        assertEquals("2026-03-01", cff.get("date-released"));
        assertTrue(cff.get("message") instanceof String && cff.get("abstract") instanceof String);
        assertEquals(List.of(Map.of("family-names", "Lovelace", "given-names", "Ada King")), cff.get("authors"));
        List<Map<String, Object>> refs = (List<Map<String, Object>>) cff.get("references");
        assertEquals(1, refs.size());
        Map<String, Object> sw = refs.get(0);
        assertEquals("software", sw.get("type"));
        assertEquals("gamecert: proof certificates for solved games", sw.get("title"));
        assertEquals(List.of(Map.of("name", "gamecert developers")), sw.get("authors"));
        assertEquals("0.6.0", sw.get("version"));
        assertEquals(SHA, sw.get("commit"));
        assertEquals("Apache-2.0", sw.get("license"));
        assertTrue(String.valueOf(sw.get("notes")).contains("built from this commit"), String.valueOf(sw.get("notes")));
        String info = Files.readString(out.resolve("bag-info.txt"));
        assertTrue(info.contains("\nBundle-Version: 2\nData-License: CC0-1.0\nRepository-Code: https://example.org/ada/othello-solve\n"), info);
        assertTrue(Files.readString(out.resolve("data/README.md")).contains("Version 2. The certificates and the files derived from them are under the licence CC0-1.0"));
        assertEquals("verified", ReleaseTest.check(out, null).verdict);
    }

    @Test void licenceAndBundleVersionDefaultAndAreChecked(@TempDir Path d) throws IOException {
        Path jar = verifierJar(d.resolve("verifier.jar"), "0.6.0", SHA, "clean");
        String info = Files.readString(release(d.resolve("dir"), jar).resolve("bag-info.txt"));
        assertTrue(info.contains("\nBundle-Version: " + Release.DEFAULT_VERSION + "\nData-License: " + Release.DEFAULT_LICENSE + "\n"), info);
        for (String[] bad : new String[][] {{"--license", "CC BY 4.0"}, {"--license", ""}, {"--bundle-version", " "},
                {"--repository-code", "github.com/ada/x"}, {"--repository-code", "https://example.org/a b"}}) {
            int rc = ReleaseTest.produce("release", "--title", "T", "--author", "A", "--verifier-jar", jar.toString(), bad[0], bad[1],
                    "--out", d.resolve("bad").toString(), cert.toString());
            assertEquals(2, rc, bad[0] + " '" + bad[1] + "'");
            assertTrue(ReleaseTest.lastErr.toString().startsWith("error: " + bad[0]), ReleaseTest.lastErr.toString());
        }
    }

    @Test void bagSoftwareAgentNamesTheProducersVersionAndCommit(@TempDir Path d) throws IOException {
        String info = Files.readString(release(d.resolve("dir"), verifierJar(d.resolve("verifier.jar"), "0.6.0", SHA, "clean"))
                .resolve("bag-info.txt"));
        BuildInfo producer = BuildInfo.load(Release.PRODUCER_BUILD_INFO);
        assertEquals(expectedCommit(), producer.commit(), "the commit the producer's build recorded");
        assertTrue(info.contains("\nBag-Software-Agent: gamecert producer " + producer.describe() + "\n"), info);
    }

    @Test void produceVersionNamesTheCommitItWasBuiltFrom() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(0, ProduceMain.run(new String[] {"--version"}, new PrintStream(out, true, StandardCharsets.UTF_8), System.err));
        BuildInfo b = BuildInfo.load(Release.PRODUCER_BUILD_INFO);
        assertEquals(expectedCommit(), b.commit());
        assertFalse(b.version().equals(BuildInfo.UNKNOWN), "the build wrote the producer's version");
        assertEquals("gamecert producer " + b.describe(), out.toString(StandardCharsets.UTF_8).strip());
    }

    /**
     * scripts/rebuild-verifier-check BUNDLE builds the commit bag-info.txt records (here HEAD of this
     * checkout, recorded by a jar that says it was built from it), and HEAD for a bundle from before
     * Verifier-Commit; --dry-run stops before building. Outside a git checkout it cannot build any.
     */
    @Test void rebuildVerifierCheckBuildsTheRecordedCommitByDefault(@TempDir Path d) throws Exception {
        String head = expectedCommit();
        String recorded = head.equals(BuildInfo.UNKNOWN) ? SHA : head;
        Path out = release(d.resolve("dir"), verifierJar(d.resolve("verifier.jar"), "0.6.0", recorded, "clean"));
        String[] run = script("--dry-run", out.toString());
        Path old = ROOT.resolve("testdata/crafted/bundle-valid.tar");
        String[] oldRun = script("--dry-run", old.toString());
        if (!head.equals(BuildInfo.UNKNOWN)) {
            assertEquals("0", run[0], run[1]);
            assertTrue(run[1].contains("bundle pins verifier 0.6.0, commit " + recorded + ", jar sha256:"), run[1]);
            assertTrue(run[1].contains("building verifier.jar at " + recorded + " (the commit the bundle records)"), run[1]);
            assertEquals("0", oldRun[0], oldRun[1]);
            assertTrue(oldRun[1].contains("commit not recorded (a bundle made before 0.6.0)"), oldRun[1]);
            assertTrue(oldRun[1].contains("building verifier.jar at " + head + " (no commit recorded: this checkout's HEAD"), oldRun[1]);
            // --commit still wins over the recorded commit.
            String[] given = script("--commit", "HEAD", "--dry-run", out.toString());
            assertTrue(given[1].contains("building verifier.jar at " + head + " (--commit)"), given[1]);
        } else { // a source tree outside git: no commit to build
            assertEquals("2", run[0], run[1]);
            assertTrue(run[1].contains("is not in the repository"), run[1]);
            assertEquals("2", oldRun[0], oldRun[1]);
        }
    }

    /** Runs scripts/rebuild-verifier-check; returns {exit code, stdout and stderr}. */
    static String[] script(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("bash", ROOT.resolve("scripts/rebuild-verifier-check").toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the script ended");
        return new String[] {String.valueOf(p.exitValue()), text};
    }

    /** HEAD when the root is the top of a git checkout, else unknown (what the build records). */
    static String expectedCommit() {
        String prefix = git("rev-parse", "--show-prefix"), head = git("rev-parse", "--verify", "HEAD^{commit}");
        return Files.exists(ROOT.resolve(".git")) && prefix != null && prefix.isEmpty() && head != null ? head : BuildInfo.UNKNOWN;
    }

    static String git(String... args) {
        try {
            List<String> cmd = new ArrayList<>(List.of("git", "-C", ROOT.toString()));
            cmd.addAll(List.of(args));
            Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(60, TimeUnit.SECONDS)) { p.destroyForcibly(); return null; }
            return p.exitValue() == 0 ? out : null;
        } catch (IOException e) {
            return null; // no git: as outside a checkout
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}

package org.gamecert.verifier.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The verifier names the source it was built from: the build writes the project version, the
 * commit and whether the jar's paths differed from it into the classes (the parent pom's build-info
 * execution), and --version prints them. Outside a git checkout (a source tarball) the commit is
 * "unknown" and the build still succeeds.
 */
class BuildInfoTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** The output of a git command run at the root, or null when git fails or is not installed. */
    static String git(String... args) {
        try {
            List<String> cmd = new java.util.ArrayList<>(List.of("git", "-C", ROOT.toString()));
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

    /** What the build must have recorded: HEAD when the root is the top of a git checkout, else unknown. */
    static String expectedCommit() {
        String prefix = git("rev-parse", "--show-prefix");
        String head = git("rev-parse", "--verify", "HEAD^{commit}");
        return Files.exists(ROOT.resolve(".git")) && prefix != null && prefix.isEmpty() && head != null ? head : BuildInfo.UNKNOWN;
    }

    /** The version in the parent pom (the project's one version, which every module inherits). */
    static String projectVersion() throws IOException {
        Matcher m = Pattern.compile("<artifactId>gamecert-parent</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(Files.readString(ROOT.resolve("pom.xml")));
        assertTrue(m.find(), "the parent pom's version");
        return m.group(1);
    }

    @Test
    void versionLineNamesTheProjectVersionAndTheCommitOfTheBuild() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(0, VerifyMain.run(new String[] {"--version"}, new PrintStream(out, true, StandardCharsets.UTF_8), System.err));
        String line = out.toString(StandardCharsets.UTF_8).strip();
        BuildInfo b = BuildInfo.verifier();
        assertEquals(projectVersion(), b.version());
        assertEquals(expectedCommit(), b.commit(), "the commit the build recorded");
        assertEquals("gamecert verifier " + b.version() + " (commit " + b.commit() + (b.commitKnown() ? ", " + b.tree() : "") + "), SPEC v1", line);
        if (b.commitKnown()) assertTrue(b.tree().equals(BuildInfo.CLEAN) || b.tree().equals(BuildInfo.MODIFIED), b.tree());
        else assertEquals(BuildInfo.UNKNOWN, b.tree());
    }

    @Test
    void theRecordBesideTheJarSaysWhatTheJarSaysAndNamesItsPaths() throws IOException {
        // target/build-info.properties (read by scripts/lib.sh) holds the same and the paths the jar is made of.
        Path sidecar = Path.of("target/build-info.properties");
        String text = Files.readString(sidecar);
        BuildInfo b = BuildInfo.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
        assertEquals(BuildInfo.verifier(), b);
        assertTrue(text.contains("\ninputs=pom.xml LICENSE NOTICE verifier/pom.xml verifier/src/main\n"), text);
        // Nothing that differs between two builds of one commit: the record has exactly these keys.
        List<String> keys = text.lines().map(l -> l.substring(0, l.indexOf('='))).toList();
        assertEquals(List.of("version", "commit", "tree", "inputs"), keys);
    }

    @Test
    void outsideAGitCheckoutTheCommitIsUnknown() throws IOException {
        BuildInfo b = BuildInfo.read(new ByteArrayInputStream("version=0.6.0\ncommit=unknown\ntree=unknown\n".getBytes(StandardCharsets.UTF_8)));
        assertFalse(b.commitKnown());
        assertFalse(b.clean());
        assertEquals("0.6.0 (commit unknown)", b.describe());
        assertEquals("unknown", b.bagInfoCommit());
        // No resource at all (classes run without the build's step): everything unknown, nothing thrown.
        assertEquals(new BuildInfo("unknown", "unknown", "unknown"), BuildInfo.load("org/gamecert/verifier/no-such-build-info.properties"));
    }

    @Test
    void malformedFieldsReadAsUnknown() throws IOException {
        BuildInfo b = BuildInfo.read(new ByteArrayInputStream("version=0.6.0 beta\ncommit=29B3\ntree=clean\n".getBytes(StandardCharsets.UTF_8)));
        assertEquals(new BuildInfo("unknown", "unknown", "unknown"), b);
        String sha = "29b3b8209ff0112ed4e5076604809f021bedd727";
        BuildInfo odd = BuildInfo.read(new ByteArrayInputStream(("version=0.6.0\ncommit=" + sha + "\ntree=dirty\n").getBytes(StandardCharsets.UTF_8)));
        assertEquals(new BuildInfo("0.6.0", sha, "unknown"), odd);
        assertFalse(odd.clean());
    }

    @Test
    void bagInfoCommitSaysWhetherTheJarCanBeRebuiltFromItsCommit() {
        String sha = "29b3b8209ff0112ed4e5076604809f021bedd727";
        assertEquals(sha, new BuildInfo("0.6.0", sha, "clean").bagInfoCommit());
        assertEquals(sha + " modified", new BuildInfo("0.6.0", sha, "modified").bagInfoCommit());
        assertEquals("0.6.0 (commit " + sha + ", modified)", new BuildInfo("0.6.0", sha, "modified").describe());
        for (String ok : new String[] {sha, sha + " modified", "unknown", "a".repeat(64)})
            assertTrue(BuildInfo.isBagInfoCommit(ok), ok);
        for (String bad : new String[] {"", "29b3b82", sha + " dirty", sha.toUpperCase(java.util.Locale.ROOT), "unknown modified", sha + "0"})
            assertFalse(BuildInfo.isBagInfoCommit(bad), bad);
    }
}

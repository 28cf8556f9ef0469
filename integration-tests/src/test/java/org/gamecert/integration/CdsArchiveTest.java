package org.gamecert.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The class-data-sharing archive that `package` leaves beside a jar (MODULE/target/MODULE.jsa,
 * issue #42) is optional: scripts/verify maps it only when it is newer than the jar and was made for
 * that jar where it is (MODULE.jsa.jar-path), and an archive
 * the JVM refuses (made for another jar) changes nothing in what the verifier prints, on stdout
 * least of all (the JVM would print its warning there). Run on a copy of the scripts and of the
 * verifier's jar, so that the checkout's own archive is left alone.
 */
class CdsArchiveTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Path CERT = ROOT.resolve("testdata/valid/connect4-4x4-8discs.gsc");

    @Test
    void verifyRunsAlikeWithNoArchiveAStaleOneAndOneTheJvmRefuses(@TempDir Path work) throws Exception {
        assertEquals(0, run(ROOT, Map.of(), "scripts/verify", "--version").exit, "the checkout's scripts/verify"); // builds the jar if needed
        Path clone = work.resolve("clone"), target = clone.resolve("verifier/target");
        Files.createDirectories(clone.resolve("scripts"));
        Files.createDirectories(target);
        for (String s : List.of("lib.sh", "verify"))
            Files.copy(ROOT.resolve("scripts").resolve(s), clone.resolve("scripts").resolve(s), StandardCopyOption.COPY_ATTRIBUTES);
        Path jar = target.resolve("verifier.jar"), archive = target.resolve("verifier.jsa");
        Files.copy(ROOT.resolve("verifier/target/verifier.jar"), jar);
        // A jar of a clean checkout: no sources beside it to be newer than it, nothing to rebuild.
        Files.writeString(target.resolve("build-info.properties"), "version=0\ncommit=unknown\ntree=clean\ninputs=pom.xml\n");

        Result plain = run(clone, Map.of(), "scripts/verify", CERT.toString());
        assertEquals(0, plain.exit, plain.out + plain.err);
        assertEquals("", cdsOptions(clone, Map.of()), "no archive, no options");

        // An archive the JVM made for the same jar elsewhere: refused here (another class path).
        Path other = work.resolve("other.jar");
        Files.copy(jar, other);
        Result dump = run(work, Map.of(), "java", "-XX:ArchiveClassesAtExit=" + archive, "-jar", other.toString(), "--version");
        assertEquals(0, dump.exit, dump.out + dump.err);
        if (!Files.exists(archive)) Files.write(archive, new byte[] {1, 2, 3}); // a JVM that cannot make one: any file then

        Files.setLastModifiedTime(archive, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() - 60_000));
        assertEquals("", cdsOptions(clone, Map.of()), "an archive older than the jar is not mapped");

        Files.setLastModifiedTime(archive, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 60_000));
        assertEquals("", cdsOptions(clone, Map.of()), "an archive with no record of its jar is not mapped");
        Path madeFor = target.resolve("verifier.jsa.jar-path");
        Files.writeString(madeFor, other.toString());
        assertEquals("", cdsOptions(clone, Map.of()), "an archive made for a jar elsewhere (a moved checkout) is not mapped");
        // The build's record says this jar (as a build here would); the JVM still refuses the archive.
        Files.writeString(madeFor, jar.toString());
        assertTrue(cdsOptions(clone, Map.of()).contains("-XX:SharedArchiveFile=" + archive), "a newer archive made for this jar is mapped");
        assertEquals("", cdsOptions(clone, Map.of("GAMECERT_CDS", "0")), "GAMECERT_CDS=0 turns it off");
        Result refused = run(clone, Map.of(), "scripts/verify", CERT.toString());
        assertEquals(0, refused.exit, refused.out + refused.err);
        assertEquals(withoutTimes(plain.out), withoutTimes(refused.out));
        assertFalse(refused.err.contains("archive"), refused.err);
        Result json = run(clone, Map.of(), "scripts/verify", "--json", CERT.toString());
        assertEquals(0, json.exit, json.out + json.err);
        assertTrue(json.out.startsWith("{") && json.out.strip().endsWith("}") && json.out.strip().lines().count() == 1, json.out);
    }

    /**
     * The archive the build leaves beside each jar holds picocli's classes, which are Java 5 class
     * files: JDK 17 keeps those out of a dynamic archive (-XX:ArchiveClassesAtExit), so the build
     * makes a static one, and without them every start reads and checks ~170 classes from the jar.
     */
    @Test
    void theBuildsArchivesServePicocliClasses() throws Exception {
        for (String module : List.of("producer", "verifier")) {
            assertEquals(0, run(ROOT, Map.of(), "scripts/" + (module.equals("producer") ? "produce" : "verify"),
                    "--version").exit, module + ": the checkout's script"); // builds the jar if needed
            Path jar = ROOT.resolve(module + "/target/" + module + ".jar"), archive = ROOT.resolve(module + "/target/" + module + ".jsa");
            assertTrue(Files.exists(archive), "the build made no archive for " + module + ".jar");
            Result r = run(ROOT, Map.of(), "java", "-XX:SharedArchiveFile=" + archive, "-Xshare:auto", "-Xlog:class+load",
                    "-jar", jar.toString(), "--version");
            assertEquals(0, r.exit, r.err);
            String line = r.out.lines().filter(l -> l.contains(" picocli.CommandLine ")).findFirst().orElse("");
            assertTrue(line.contains("source: shared objects file"), module + ": " + line);
        }
    }

    private static String withoutTimes(String report) {
        return report.lines().filter(l -> !l.startsWith("throughput")).collect(Collectors.joining("\n"));
    }

    private static String cdsOptions(Path clone, Map<String, String> env) throws Exception {
        Result r = run(clone, env, "bash", "-c", "source scripts/lib.sh && cds_opts verifier");
        assertEquals(0, r.exit, r.err);
        return r.out.strip();
    }

    private record Result(int exit, String out, String err) {}

    private static Result run(Path dir, Map<String, String> env, String... command) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(command));
        if (cmd.get(0).startsWith("scripts/")) cmd.add(0, "bash");
        Path out = Files.createTempFile("cds-test", ".out"), err = Files.createTempFile("cds-test", ".err");
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile());
            pb.environment().remove("GAMECERT_JAVA_OPTS");
            pb.environment().remove("GAMECERT_CDS");
            pb.environment().putAll(env);
            Process p = pb.start();
            p.getOutputStream().close();
            if (!p.waitFor(5, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new AssertionError("did not finish in 5 minutes: " + cmd);
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}

package org.gamecert.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command README and the guides in {@code docs/} show (an indented code line starting with
 * {@code scripts/}) runs as written from a public clone, with nothing beside the repository: in a
 * scratch folder that sees the repository's {@code scripts/} and {@code testdata/}, README's first
 * and then the guides' in the order of {@link #FILES} (later examples use the files earlier ones
 * write), each ending with the exit code the text promises. Optional parts in brackets
 * ({@code [--json]}) are left out. Only the long campaigns are not run here; they have their own
 * tests (see {@link #LONG}).
 */
@Tag("slow")
class ReadmeExamplesTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** Commands too long for the test suite, with where else they are exercised. */
    static final Map<String, String> LONG = Map.of(
            "scripts/audit", "the mutation campaign; MutationCampaignTest runs every class",
            "scripts/fuzz", "Jazzer for minutes; the fuzz tests run its harnesses on the corpus");

    /**
     * The files whose commands run, in this order: README (its recipes: a corpus file and bundle,
     * then {@code solve.gsc}, which the rest use), then the guides in {@code docs/} (composites.md
     * writes {@code comp/}, which releasing.md bundles). Another page of {@code docs/} may show no
     * command ({@link #everyDocsPageWithCommandsIsRun}).
     */
    static final List<String> FILES = List.of("README.md", "docs/producing.md", "docs/composites.md",
            "docs/verifying.md", "docs/releasing.md", "docs/auditing.md");

    /**
     * The exit codes promised where not 0: a corrupt corpus file and a mutant are rejected (exit 1);
     * the published root-run table is incomplete (exit 3), and so is a bundle whose composite's parts
     * are referenced, not included, when they are not given.
     */
    static final Map<String, Integer> EXIT = Map.of(
            "scripts/verify testdata/known-answers/othello6-peer/opening-table.csv", 3,
            "scripts/verify testdata/mutants/tb-later-maximizer.gsc", 1,
            "scripts/verify bad.gsc", 1,
            "scripts/verify comp-ref.tar.zst", 3);

    static List<String> readmeCommands() throws IOException {
        List<String> commands = new ArrayList<>();
        for (String file : FILES) commands.addAll(commands(ROOT.resolve(file)));
        return commands;
    }

    static List<String> commands(Path file) throws IOException {
        List<String> commands = new ArrayList<>();
        StringBuilder pending = null;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String t = line.strip();
            if (pending != null) { // a continuation line of the command before
                pending.append(' ').append(t);
            } else if (line.startsWith("    ") && t.startsWith("scripts/")) {
                pending = new StringBuilder(t);
            } else {
                continue;
            }
            if (pending.toString().endsWith("\\")) {
                pending.setLength(pending.length() - 1);
            } else {
                commands.add(clean(pending.toString()));
                pending = null;
            }
        }
        return commands;
    }

    /** Drops a trailing {@code # comment} and optional {@code [...]} parts; folds white space. */
    static String clean(String command) {
        String c = command.replaceAll("\\s+#.*$", "").replaceAll("\\[[^\\]]*\\]", "");
        return c.replaceAll("\\s+", " ").strip();
    }

    @Test
    void everyDocsPageWithCommandsIsRun() throws IOException {
        List<Path> pages;
        try (Stream<Path> walk = Files.walk(ROOT.resolve("docs"))) {
            pages = walk.filter(p -> p.toString().endsWith(".md")).sorted().toList();
        }
        assertFalse(pages.isEmpty(), "no docs/ pages found");
        for (Path page : pages) {
            String name = ROOT.relativize(page).toString().replace('\\', '/');
            if (!FILES.contains(name))
                assertEquals(List.of(), commands(page), name + " shows commands that no test runs: add it to FILES");
        }
        assertTrue(commands(ROOT.resolve("README.md")).size() >= 10, "README's recipes lost their commands");
    }

    @Test
    void everyReadmeCommandRunsAsWrittenFromAPublicClone(@TempDir Path work) throws Exception {
        // The scratch folder stands for the clone's root: the scripts find their jars through the
        // real path of scripts/, and README's relative paths resolve against the scratch folder.
        Files.createSymbolicLink(work.resolve("scripts"), ROOT.resolve("scripts"));
        Files.createSymbolicLink(work.resolve("testdata"), ROOT.resolve("testdata"));
        try {
            runEveryCommand(work);
        } finally { // the links go first, so JUnit does not warn that it leaves their targets alone
            Files.delete(work.resolve("scripts"));
            Files.delete(work.resolve("testdata"));
        }
    }

    static void runEveryCommand(Path work) throws Exception {
        List<String> commands = readmeCommands();
        assertTrue(commands.size() >= 20, "the commands of README and docs/ were not found: " + commands);
        int ran = 0;
        for (String command : commands) {
            String program = command.split(" ")[0];
            if (LONG.containsKey(program)) continue;
            int expected = EXIT.getOrDefault(command, 0);
            Path log = work.resolve("log-" + ran + ".txt");
            Process p = new ProcessBuilder("bash", "-c", command).directory(work.toFile())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.PIPE).start();
            p.getOutputStream().close();
            boolean done = p.waitFor(5, TimeUnit.MINUTES);
            if (!done) p.destroyForcibly();
            assertTrue(done, "command did not finish in 5 minutes: " + command);
            String output = Files.readString(log, StandardCharsets.UTF_8);
            assertEquals(expected, p.exitValue(), "command of README or docs/: " + command + "\n" + output);
            assertFalse(output.contains("Exception"), "command printed a stack trace: " + command + "\n" + output);
            ran++;
        }
        assertTrue(ran >= 20, "only " + ran + " commands of README and docs/ ran");
    }
}

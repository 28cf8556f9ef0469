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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command README shows (an indented code line starting with {@code scripts/}) runs as written
 * from a public clone, with nothing beside the repository: in a scratch folder that sees the
 * repository's {@code scripts/} and {@code testdata/}, in README's order (later examples use the
 * files earlier ones write), each ending with the exit code README promises. Optional parts in
 * brackets ({@code [--json]}) are left out. Only the long campaigns are not run here; they have their
 * own tests (see {@link #LONG}).
 */
@Tag("slow")
class ReadmeExamplesTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** Commands too long for the test suite, with where else they are exercised. */
    static final Map<String, String> LONG = Map.of(
            "scripts/audit", "the mutation campaign; MutationCampaignTest runs every class",
            "scripts/fuzz", "Jazzer for minutes; the fuzz tests run its harnesses on the corpus");

    /**
     * README's exit codes where not 0: the published root-run table is incomplete (exit 3), and so
     * is a bundle whose composite's parts are referenced, not included, when they are not given.
     */
    static final Map<String, Integer> EXIT = Map.of(
            "scripts/verify testdata/known-answers/othello6-peer/opening-table.csv", 3,
            "scripts/verify comp-ref.tar.zst", 3);

    static List<String> readmeCommands() throws IOException {
        List<String> commands = new ArrayList<>();
        StringBuilder pending = null;
        for (String line : Files.readAllLines(ROOT.resolve("README.md"), StandardCharsets.UTF_8)) {
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
        assertTrue(commands.size() >= 10, "README's commands were not found: " + commands);
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
            assertTrue(done, "README command did not finish in 5 minutes: " + command);
            String output = Files.readString(log, StandardCharsets.UTF_8);
            assertEquals(expected, p.exitValue(), "README command: " + command + "\n" + output);
            assertFalse(output.contains("Exception"), "README command printed a stack trace: " + command + "\n" + output);
            ran++;
        }
        assertTrue(ran >= 10, "only " + ran + " README commands ran");
    }
}

package org.gamecert.verifier.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The kernel's promises about its own source (issue #17): plain single-threaded Java that uses no
 * concurrency library, no thread and none of the verifier's untrusted packages, with no line over
 * 100 characters, so that a reviewer can read every line that decides VERIFIED.
 */
class KernelShapeTest {
    static final Path KERNEL = Paths.get("src/main/java/org/gamecert/verifier/kernel");

    static List<Path> sources() throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.walk(KERNEL)) {
            s.filter(p -> p.toString().endsWith(".java")).sorted().forEach(files::add);
        }
        return files;
    }

    @Test
    void plainSingleThreadedJavaThatDependsOnNothingUntrusted() throws IOException {
        List<Path> files = sources();
        assertTrue(files.size() >= 15, "the kernel's sources: " + files);
        List<String> found = new ArrayList<>();
        String[] banned = {"java.util.concurrent", "new Thread", "synchronized", "ExecutorService",
            "org.gamecert.verifier.engine", "org.gamecert.verifier.cli", "org.gamecert.verifier.bundle",
            "org.gamecert.verifier.peer"};
        for (Path f : files) {
            List<String> lines = Files.readAllLines(f);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                for (String b : banned)
                    if (line.contains(b)) found.add(KERNEL.relativize(f) + ":" + (i + 1) + " uses " + b);
                if (line.length() > 100)
                    found.add(KERNEL.relativize(f) + ":" + (i + 1) + " has " + line.length() + " characters");
            }
        }
        assertEquals(List.of(), found);
    }
}

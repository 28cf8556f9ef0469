package org.gamecert.verifier.testcert;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** testdata/crafted/ holds exactly what {@link CraftedCorpus} makes (no hand-edited bytes). */
class CraftedCorpusTest {
    @Test
    void theCraftedFilesAreWhatTheGeneratorMakes() throws Exception {
        Path dir = Path.of("../testdata/crafted");
        Map<String, byte[]> files = CraftedCorpus.files();
        assertTrue(files.size() >= 2);
        for (Map.Entry<String, byte[]> e : files.entrySet())
            assertArrayEquals(e.getValue(), Files.readAllBytes(dir.resolve(e.getKey())), e.getKey());
        try (var listed = Files.list(dir)) {
            assertTrue(listed.allMatch(p -> files.containsKey(p.getFileName().toString())), "a file in crafted/ no generator makes");
        }
    }
}

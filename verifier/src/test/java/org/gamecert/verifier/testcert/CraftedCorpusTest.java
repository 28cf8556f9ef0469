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
    void theEdgeVectorsAreWhatTheirGeneratorMakes() throws Exception {
        Path dir = Path.of("../format-spec/vectors");
        java.util.List<SpecEdgeVectors.Vector> vs = SpecEdgeVectors.vectors();
        assertTrue(vs.size() >= 5);
        String tsv = Files.readString(dir.resolve("vectors.tsv"));
        for (SpecEdgeVectors.Vector v : vs) {
            assertArrayEquals(v.bytes(), Files.readAllBytes(dir.resolve(v.file())), v.file());
            assertTrue(tsv.contains(v.file() + "\t" + v.verdict() + "\t" + v.rule() + "\t"), v.file() + " listed in vectors.tsv");
        }
    }

    @Test
    void theCraftedFilesAreWhatTheGeneratorMakes() throws Exception {
        Path dir = Path.of("../testdata/crafted");
        Map<String, byte[]> files = CraftedCorpus.files();
        assertTrue(files.size() >= 2);
        Map<String, byte[]> all = new java.util.HashMap<>(files);
        all.putAll(CraftedCorpus.peerFiles(Path.of("../testdata")));
        all.putAll(CraftedCorpus.bundleFiles(Path.of("../testdata")));
        // -Dgamecert.writeCrafted=true writes them anew (review the diff: they are meant to stay stable).
        if (Boolean.getBoolean("gamecert.writeCrafted"))
            for (Map.Entry<String, byte[]> e : all.entrySet()) Files.write(dir.resolve(e.getKey()), e.getValue());
        for (Map.Entry<String, byte[]> e : all.entrySet())
            assertArrayEquals(e.getValue(), Files.readAllBytes(dir.resolve(e.getKey())), e.getKey());
        try (var listed = Files.walk(dir)) {
            listed.filter(Files::isRegularFile).forEach(p -> assertTrue(all.containsKey(dir.relativize(p).toString()),
                    "a file in crafted/ no generator makes: " + p));
        }
    }
}

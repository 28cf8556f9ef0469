package org.gamecert.integration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.gamecert.producer.cli.ProduceMain;
import org.gamecert.producer.mutate.composite.CompositeMutations;
import org.gamecert.producer.mutate.composite.CompositeSet;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC §14 vectors made by the producer (the verifier's test sources cannot make these games):
 * each is exactly what `produce solve` writes for its root, so anyone can make it again. Run with
 * -Dgamecert.writeVectors=true to (re)write them into format-spec/vectors (then add the hex dump).
 */
class ProducerVectorsTest {
    static final Path VECTORS = Path.of("../format-spec/vectors").toAbsolutePath().normalize();

    @Test
    void othello6x6VectorIsWhatTheProducerWrites(@TempDir Path dir) throws Exception {
        String moves = ProducedCertificatesVerifyTest.randomLine("othello:6x6", 36 - 7, 23);
        Path out = dir.resolve("v.gsc");
        int rc = ProduceMain.run(new String[] {"solve", "--game", "othello:6x6", "--moves", moves, "--out", out.toString(), "-q"},
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), System.err);
        assertEquals(0, rc);
        Path vector = VECTORS.resolve("edge-valid-othello6x6.gsc");
        if (Boolean.getBoolean("gamecert.writeVectors")) Files.copy(out, vector, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertArrayEquals(Files.readAllBytes(vector), Files.readAllBytes(out), "the vector is produce solve --game othello:6x6 --moves " + moves);
        assertTrue(Files.readString(VECTORS.resolve("vectors.tsv")).contains("edge-valid-othello6x6.gsc\tverified\t-\t" ));
    }

    /** SPEC 1.1 mode 3: a weak certificate whose positions with at most 4 empty cells are leaves (§9.1). */
    @Test
    void weakWithLeavesVectorIsWhatTheProducerWrites(@TempDir Path dir) throws Exception {
        String moves = ProducedCertificatesVerifyTest.randomLine("othello:6x6", 36 - 12, 31);
        Path out = dir.resolve("v.gsc");
        int rc = ProduceMain.run(new String[] {"solve", "--game", "othello:6x6", "--moves", moves, "--mode", "weak",
                        "--leaf-empties", "4", "--out", out.toString(), "-q"},
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), System.err);
        assertEquals(0, rc);
        Path vector = VECTORS.resolve("edge-valid-weak-leaves-othello6x6.gsc");
        if (Boolean.getBoolean("gamecert.writeVectors")) Files.copy(out, vector, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertArrayEquals(Files.readAllBytes(vector), Files.readAllBytes(out),
                "the vector is produce solve --game othello:6x6 --mode weak --leaf-empties 4 --moves " + moves);
        assertTrue(Files.readString(VECTORS.resolve("vectors.tsv")).contains("edge-valid-weak-leaves-othello6x6.gsc\tverified\t-\t"));
    }

    /** Linear NoGo 1x9 from the start (SPEC §7.6), semi-strong: the smallest board with every kind of entry. */
    @Test
    void nogo1x9VectorIsWhatTheProducerWrites(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("v.gsc");
        int rc = ProduceMain.run(new String[] {"solve", "--game", "nogo:1x9", "--out", out.toString(), "-q"},
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), System.err);
        assertEquals(0, rc);
        Path vector = VECTORS.resolve("edge-valid-nogo-1x9.gsc");
        if (Boolean.getBoolean("gamecert.writeVectors")) Files.copy(out, vector, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertArrayEquals(Files.readAllBytes(vector), Files.readAllBytes(out), "the vector is produce solve --game nogo:1x9");
        assertTrue(Files.readString(VECTORS.resolve("vectors.tsv")).contains("edge-valid-nogo-1x9.gsc\tverified\t-\t"));
    }
    /**
     * Lines of Action 4x4 from the start, weak-ranked (SPEC §7.7, §9.2), by the iterative deepening
     * ({@code --search id}, the producer's LOA search when the vector was made), and its
     * loa-rank-not-decreasing mutant (seed 1): R-RANK-1.
     */
    @Test
    void loa4x4VectorsAreWhatTheProducerWrites(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("v.gsc"), bad = dir.resolve("bad.gsc");
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertEquals(0, ProduceMain.run(new String[] {"solve", "--game", "loa:4x4", "--mode", "weak-ranked", "--search", "id", "--out", out.toString(), "-q"},
                quiet, System.err));
        assertEquals(0, ProduceMain.run(new String[] {"mutate", "--class", "loa-rank-not-decreasing", "--seed", "1", "--in", out.toString(),
                "--out", bad.toString()}, quiet, quiet));
        Path vector = VECTORS.resolve("edge-valid-weak-ranked-loa-4x4.gsc"), badVector = VECTORS.resolve("edge-rank-not-decreasing-loa-4x4.gsc");
        if (Boolean.getBoolean("gamecert.writeVectors")) {
            Files.copy(out, vector, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Files.copy(bad, badVector, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        assertArrayEquals(Files.readAllBytes(vector), Files.readAllBytes(out), "the vector is produce solve --game loa:4x4 --mode weak-ranked --search id");
        assertArrayEquals(Files.readAllBytes(badVector), Files.readAllBytes(bad), "the vector is mutate --class loa-rank-not-decreasing --seed 1");
        String tsv = Files.readString(VECTORS.resolve("vectors.tsv"));
        assertTrue(tsv.contains("edge-valid-weak-ranked-loa-4x4.gsc\tverified\t-\t"));
        assertTrue(tsv.contains("edge-rank-not-decreasing-loa-4x4.gsc\trejected\tR-RANK-1\t"));
    }

    /**
     * SPEC §15 composites (since 1.3): an Othello 4x4 root split at 12 discs, semi-strong and weak,
     * each part named by its commitment beside the manifests, and corrupt manifests made by the
     * comp-* mutation classes (seed 1) from the semi-strong one. A manifest's parts are the
     * {@code <hex>.gsc} files beside it; a part a manifest names but the directory lacks is not given.
     */
    @Test
    void compositeVectorsAreWhatTheProducerWrites(@TempDir Path dir) throws Exception {
        Map<String, byte[]> files = new TreeMap<>();
        Path semi = dir.resolve("semi"), weak = dir.resolve("weak");
        for (Path d : new Path[] {semi, weak}) {
            String mode = d == semi ? "semi-strong" : "weak";
            for (String[] a : new String[][] {
                    {"solve", "--game", "othello:4x4", "--board", "OX---OX-OXOXX--O X", "--mode", mode, "--split-at", "12",
                            "--out", d.toString(), "-q"},
                    {"solve-part", d.toString(), "--parts", "all", "-q"}, {"compose", d.toString()}})
                assertEquals(0, ProduceMain.run(a, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), System.err));
            CompositeSet set = CompositeSet.load(d);
            files.put(d == semi ? "composite-valid-othello4x4.gscm" : "composite-valid-othello4x4-weak.gscm", set.manifest);
            for (Map.Entry<String, byte[]> e : set.files.entrySet()) files.put(e.getKey() + ".gsc", e.getValue());
        }
        CompositeSet base = CompositeSet.load(semi);
        String[][] mutants = {
                {"comp-manifest-edited", "composite-rejected-man-2-edited.gscm"},
                {"comp-part-swapped", "composite-rejected-comp-4-swapped.gscm"},
                {"comp-weaker-kind", "composite-rejected-comp-5-weaker-kind.gscm"},
                {"comp-part-unused", "composite-rejected-comp-6-unused.gscm"},
                {"comp-cyclic", "composite-rejected-comp-7-cyclic.gscm"},
                {"comp-other-tie-breaking", "composite-incomplete-part-not-given.gscm"}};
        for (String[] m : mutants) {
            CompositeMutations.Result r = CompositeMutations.byName(m[0]).apply(base, 1);
            files.put(m[1], r.composite.manifest);
            // The incomplete vector names a part (made under another tie-breaking order) that is not there.
            if (!m[0].equals("comp-other-tie-breaking"))
                for (Map.Entry<String, byte[]> e : r.composite.files.entrySet()) files.put(e.getKey() + ".gsc", e.getValue());
        }
        String tsv = Files.readString(VECTORS.resolve("vectors.tsv"));
        for (Map.Entry<String, byte[]> e : files.entrySet()) {
            Path vector = VECTORS.resolve(e.getKey());
            if (Boolean.getBoolean("gamecert.writeVectors")) Files.write(vector, e.getValue());
            assertArrayEquals(Files.readAllBytes(vector), e.getValue(), e.getKey());
            if (e.getKey().endsWith(".gscm")) assertTrue(tsv.contains(e.getKey() + "\t"), e.getKey() + " in vectors.tsv");
        }
    }
}

package org.gamecert.spark.produce;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.spark.api.java.JavaSparkContext;
import org.gamecert.producer.cli.ProduceMain;
import org.gamecert.spark.SparkTestContext;
import org.gamecert.spark.verify.SparkVerifier;
import org.gamecert.verifier.engine.CompositeVerifier;
import org.gamecert.verifier.kernel.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Production on Spark is deterministic: the composite made with its parts as Spark tasks in
 * local[1] and in local[2] has the plain producer's composite id (solve --split-at, solve-part
 * --parts all, compose) and the same files byte for byte; and it verifies on Spark.
 */
class SparkProduceDeterminismTest {
    @TempDir
    Path dir;

    static String plain(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int rc = ProduceMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, rc, String.join(" ", args) + ": " + err);
        return out.toString(StandardCharsets.UTF_8);
    }

    static TreeMap<String, byte[]> files(Path d) throws Exception {
        TreeMap<String, byte[]> m = new TreeMap<>();
        try (Stream<Path> s = Files.list(d)) {
            for (Path f : (Iterable<Path>) s::iterator)
                if (Files.isRegularFile(f)) m.put(f.getFileName().toString(), Files.readAllBytes(f));
        }
        return m;
    }

    @Test
    void sameCompositeIdWhateverTheExecutors() throws Exception {
        for (String[] c : new String[][] {{"othello:4x4", "semi-strong", "8"}, {"connect4:4x4", "weak", "5"}}) {
            String name = c[0].replace(':', '-') + "-" + c[1];
            Path a = dir.resolve(name + "-plain");
            plain("solve", "--game", c[0], "--mode", c[1], "--split-at", c[2], "--out", a.toString(), "--tt-mb", "16", "-q");
            plain("solve-part", a.toString(), "--parts", "all", "--tt-mb", "16", "-q");
            String composed = plain("compose", a.toString());
            String id = composed.lines().filter(l -> l.startsWith("composite ")).findFirst().orElseThrow().split("\\s+")[1];
            int tasks = org.gamecert.producer.compose.SplitDir.read(a).tasks.size();
            assertTrue(tasks >= 2, name + ": tasks " + tasks);
            for (int cores : new int[] {1, 2}) {
                Path b = dir.resolve(name + "-local" + cores);
                JavaSparkContext sc = SparkTestContext.open(cores);
                try {
                    List<String> solve = List.of("--game", c[0], "--mode", c[1], "--split-at", c[2], "--out", b.toString(), "--tt-mb", "16", "-q");
                    SparkProducer.Made m = SparkProducer.produce(sc, solve, b, 0, 16, null);
                    assertEquals(id, m.compositeId(), name + " in local[" + cores + "]");
                    assertEquals(tasks, m.ran());
                    TreeMap<String, byte[]> fa = files(a), fb = files(b);
                    assertEquals(fa.keySet(), fb.keySet());
                    for (String f : fa.keySet()) assertArrayEquals(fa.get(f), fb.get(f), f);
                    if (cores == 2) {
                        CompositeVerifier.Outcome v = SparkVerifier.composite(sc, b, new SparkVerifier.Settings(), null);
                        assertEquals(Result.Verdict.VERIFIED, v.verdict(), () -> v.error + " " + v.composition.violation);
                        assertNotNull(v.composition);
                        assertEquals(id, v.composition.compositeId);
                    }
                } finally {
                    sc.stop();
                }
            }
        }
    }
}

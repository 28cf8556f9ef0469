package org.gamecert.producer.cert;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.gamecert.producer.cli.ProduceMain;
import org.gamecert.producer.game.Game;
import org.gamecert.producer.search.Oracle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A solve killed at any moment continues from its last checkpoint and writes the same bytes as an
 * uninterrupted run; finished layers kept on disk give the same bytes as layers kept in memory.
 */
class ResumeTest {
    @TempDir Path dir;

    /** Thrown by the crashing store: stands for a kill at that point. */
    static final class Crash extends RuntimeException {}

    /** A certificate made in memory (the reference), and the pieces to make it again from files. */
    record Solve(Game game, long[] root, Extractor.Mode mode, byte[] reference, int layersWithNeeds, int layersWithFiles) {}

    private Solve reference(String game, String moves, Extractor.Mode mode) throws IOException {
        Game g = Game.parse(game);
        long[] root = moves.isEmpty() ? g.start() : g.parseMoves(moves);
        Extractor ex = new Extractor(new Oracle(g, 16), 2);
        Extractor.Result r;
        try {
            r = ex.run(root[0], root[1], mode);
        } finally {
            ex.shutdown();
        }
        // Layers with needs: those with entries, and at most one after them of terminal positions only.
        int layersWithNeeds = r.layers.get(r.layers.size() - 1).layer - r.rootLayer + 1;
        Path f = dir.resolve("reference.gsc");
        CertificateWriter.write(f, header(g, root, mode, r.rootValue), r.layers, r.region, r.aux, r.rootLayer, 2);
        return new Solve(g, root, mode, Files.readAllBytes(f), layersWithNeeds, r.layers.size());
    }

    private static byte[] header(Game g, long[] root, Extractor.Mode mode, int rootValue) {
        return CertificateWriter.header(g, mode, root[0], root[1], rootValue, "test");
    }

    /**
     * Runs with checkpoints in {@code state}, crashing at the {@code crashAt}-th layer boundary (before
     * its checkpoint) or, with {@code midSpill}, while writing the {@code crashAt}-th finished layer.
     */
    private Extractor.State runCrashing(Solve s, Path state, int crashAt, boolean midSpill) throws IOException {
        LayerStore store = new LayerStore(state, "params", true, 2);
        int[] boundaries = {0}, spills = {0};
        Extractor.Store crashing = new Extractor.Store() {
            @Override public void beforeLayer(Extractor.State st) throws IOException {
                if (boundaries[0]++ == crashAt && !midSpill) throw new Crash();
                store.beforeLayer(st);
            }

            @Override public void layerDone(LayerEntries e) throws IOException {
                if (spills[0]++ == crashAt && midSpill) {
                    // Killed while writing the layer: a partial file under the temporary name.
                    Files.write(state.resolve("layer-" + e.layer + ".blocks.tmp"), new byte[] {1, 2, 3});
                    throw new Crash();
                }
                store.layerDone(e);
            }
        };
        Extractor ex = new Extractor(new Oracle(s.game(), 1), 1);
        try {
            Extractor.State saved = store.load();
            return saved == null ? ex.run(s.root()[0], s.root()[1], s.mode(), crashing) : ex.resume(saved, crashing);
        } finally {
            ex.shutdown();
        }
    }

    /** Resumes whatever {@code state} holds to the end and writes the certificate from the files. */
    private byte[] finish(Solve s, Path state) throws IOException {
        LayerStore store = new LayerStore(state, "params", true, 3);
        Extractor ex = new Extractor(new Oracle(s.game(), 4), 3);
        Extractor.State end;
        try {
            Extractor.State saved = store.load();
            end = saved == null ? ex.run(s.root()[0], s.root()[1], s.mode(), store) : ex.resume(saved, store);
        } finally {
            ex.shutdown();
        }
        Path out = dir.resolve("resumed.gsc");
        CertificateWriter.writeFromFiles(out, header(s.game(), s.root(), s.mode(), end.rootValue), store.layers(), end.region,
                end.aux, end.rootLayer);
        store.clean();
        return Files.readAllBytes(out);
    }

    @Test
    void aCrashAtEveryLayerBoundaryAndInEverySpillResumesToTheSameBytes() throws IOException {
        for (Object[] c : new Object[][] {{"connect4:4x5", "", Extractor.Mode.SEMI_STRONG}, {"othello:4x4", "", Extractor.Mode.WEAK},
                {"connect4:5x4", "33", Extractor.Mode.WEAK}}) {
            Solve s = reference((String) c[0], (String) c[1], (Extractor.Mode) c[2]);
            for (int crashAt = 0; crashAt < s.layersWithNeeds(); crashAt++) {
                for (boolean midSpill : new boolean[] {false, true}) {
                    Path state = Files.createDirectories(dir.resolve("state-" + c[0] + "-" + crashAt + "-" + midSpill));
                    int at = crashAt;
                    if (at < s.layersWithFiles() || !midSpill) assertThrows(Crash.class, () -> runCrashing(s, state, at, midSpill));
                    assertArrayEquals(s.reference(), finish(s, state), c[0] + ": crash at store call " + crashAt
                            + (midSpill ? " (in a spill)" : ""));
                    try (var left = Files.list(state)) {
                        assertEquals(List.of(), left.filter(p -> !p.toString().endsWith(".tmp")).toList(), "files left behind");
                    }
                }
            }
        }
    }

    @Test
    void twoCrashesInARowAlsoResume() throws IOException {
        Solve s = reference("connect4:4x5", "", Extractor.Mode.SEMI_STRONG);
        Path state = Files.createDirectories(dir.resolve("state"));
        assertThrows(Crash.class, () -> runCrashing(s, state, 5, false));
        assertThrows(Crash.class, () -> runCrashing(s, state, 2, true)); // from the checkpoint, then killed in a spill
        assertArrayEquals(s.reference(), finish(s, state));
    }

    @Test
    void aCheckpointOfOtherParametersIsRefused() throws IOException {
        Solve s = reference("connect4:4x5", "", Extractor.Mode.SEMI_STRONG);
        Path state = Files.createDirectories(dir.resolve("state"));
        assertThrows(Crash.class, () -> runCrashing(s, state, 6, false));
        IOException e = assertThrows(IOException.class, () -> new LayerStore(state, "other", true, 1).load());
        assertTrue(e.getMessage().contains("other parameters"), e.getMessage());
    }

    @Test
    void aCheckpointWhoseFilesWereDamagedIsRefusedNotTrusted() throws IOException {
        Solve s = reference("connect4:4x5", "", Extractor.Mode.SEMI_STRONG);
        Path state = Files.createDirectories(dir.resolve("state"));
        assertThrows(Crash.class, () -> runCrashing(s, state, 8, false));
        Path layer;
        try (var files = Files.list(state)) {
            layer = files.filter(p -> p.getFileName().toString().endsWith(".blocks")).findFirst().orElseThrow();
        }
        Files.write(layer, new byte[] {0}, java.nio.file.StandardOpenOption.APPEND);
        IOException e = assertThrows(IOException.class, () -> new LayerStore(state, "params", true, 1).load());
        assertTrue(e.getMessage().contains("wrong size"), e.getMessage());
    }

    private static int produce(String... args) {
        return ProduceMain.run(args, new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream()));
    }

    @Test
    void theCommandGivesTheSameBytesWithAndWithoutStateAndLeavesNothingBehind() throws IOException {
        Path a = dir.resolve("a.gsc"), b = dir.resolve("b.gsc"), tmp = Files.createDirectories(dir.resolve("tmp"));
        Path state = dir.resolve("state");
        assertEquals(0, produce("solve", "--game", "connect4:5x4", "--out", a.toString(), "-q"));
        assertEquals(0, produce("solve", "--game", "connect4:5x4", "--out", b.toString(), "--state", state.toString(),
                "--tmp", tmp.toString(), "--threads", "1", "--tt-mb", "1", "-q"));
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));
        try (var s = Files.list(state); var t = Files.list(tmp); var d = Files.list(dir)) {
            assertEquals(0, s.count(), "the state directory is emptied on success");
            assertEquals(0, t.count(), "--tmp is emptied");
            assertFalse(d.anyMatch(p -> p.getFileName().toString().startsWith(".gamecert-solve-")), "no working directory left");
        }
    }

    /** Real kills (SIGKILL) of the command in another JVM at random moments, then a resume. */
    @Test
    void killedAtRandomMomentsTheCommandResumesToTheSameBytes() throws Exception {
        Path ref = dir.resolve("ref.gsc"), out = dir.resolve("out.gsc"), state = dir.resolve("state");
        String[] solve = {"solve", "--game", "connect4:5x4", "--threads", "2"};
        long t0 = System.nanoTime();
        assertEquals(0, java(solve, "--out", ref.toString(), "-q").waitFor());
        long refMillis = (System.nanoTime() - t0) / 1_000_000;
        Random rnd = new Random(42);
        int kills = 0;
        List<String> log = new ArrayList<>();
        for (int run = 0; kills < 6 && run < 40; run++) {
            long delay = 200 + (long) (rnd.nextDouble() * refMillis);
            Process p = java(solve, "--out", out.toString(), "--state", state.toString());
            if (!p.waitFor(delay, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly().waitFor(); // SIGKILL: no shutdown hooks, no flushing
                kills++;
                log.add("killed after " + delay + " ms");
            } else {
                assertEquals(0, p.exitValue(), String.join("\n", log));
                assertArrayEquals(Files.readAllBytes(ref), Files.readAllBytes(out), "a finished run after " + log);
                Files.delete(out);
                log.add("finished");
            }
        }
        boolean checkpointed = Files.exists(state.resolve("checkpoint.txt"));
        Path errLog = dir.resolve("err.txt");
        Process last = java(solve, "--out", out.toString(), "--state", state.toString());
        last.getErrorStream().transferTo(Files.newOutputStream(errLog));
        assertEquals(0, last.waitFor(), Files.readString(errLog));
        assertTrue(kills >= 6, "only " + kills + " kills: " + log);
        assertArrayEquals(Files.readAllBytes(ref), Files.readAllBytes(out), "after " + log);
        assertEquals(checkpointed, Files.readString(errLog).contains("resuming from the checkpoint"),
                "the last run resumes exactly when a checkpoint was left");
    }

    private static Process java(String[] solve, String... more) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), ProduceMain.class.getName()));
        cmd.addAll(List.of(solve));
        cmd.addAll(List.of(more));
        return new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }
}

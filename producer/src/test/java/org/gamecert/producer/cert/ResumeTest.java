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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A solve killed at any moment continues from its last checkpoint and writes the same bytes as an
 * uninterrupted run; finished layers kept on disk give the same bytes as layers kept in memory.
 */
class ResumeTest {
    @TempDir Path dir;

    /** The needs budget and chunk size of the runs below (tiny ones force sorted runs and chunks). */
    long budget = Long.MAX_VALUE;
    int chunk = 1 << 18;
    /** Killed after writing a needs file, before the checkpoint that names it. */
    boolean crashBeforeCheckpoint;

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
                boolean crash = boundaries[0]++ == crashAt && !midSpill;
                if (crash && !crashBeforeCheckpoint) throw new Crash();
                store.betweenNeedsAndCheckpoint = crash ? () -> { throw new Crash(); } : () -> {};
                store.beforeLayer(st);
            }

            @Override public void entries(LayerEntries part) throws IOException { store.entries(part); }

            @Override public void layerEnd(int layer) throws IOException {
                // Killed while writing the layer: its blocks so far are in a file under the temporary name.
                if (Files.exists(state.resolve("layer-" + layer + ".blocks.tmp")) && spills[0]++ == crashAt && midSpill)
                    throw new Crash();
                store.layerEnd(layer);
            }
        };
        Extractor ex = new Extractor(new Oracle(s.game(), 8), 1);
        ex.limitNeeds(state, budget, chunk);
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
        ex.limitNeeds(state, budget * 3, chunk + 7); // another budget and chunking on resume: the same bytes
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
    @Tag("slow")
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
    @Tag("slow")
    void withNeedsSpilledInSortedRunsAndSmallChunksTooAndAfterCrashes() throws IOException {
        budget = 12 << 10;
        chunk = 301;
        Solve s = reference("connect4:4x5", "", Extractor.Mode.SEMI_STRONG);
        for (int crashAt = 1; crashAt < s.layersWithNeeds(); crashAt += 3) {
            Path state = Files.createDirectories(dir.resolve("spilled-" + crashAt));
            int at = crashAt;
            assertThrows(Crash.class, () -> runCrashing(s, state, at, false));
            assertArrayEquals(s.reference(), finish(s, state), "crash at layer boundary " + crashAt);
        }
        // And a run that spills, uninterrupted, from the same extractor API.
        Path state = Files.createDirectories(dir.resolve("spilled-whole"));
        LayerStore store = new LayerStore(state, "params", false, 2);
        Extractor ex = new Extractor(new Oracle(s.game(), 1), 2);
        ex.limitNeeds(state, budget, chunk);
        Extractor.State end = ex.run(s.root()[0], s.root()[1], s.mode(), store);
        ex.shutdown();
        assertTrue(ex.runsSpilled() > 10, "runs spilled: " + ex.runsSpilled());
        assertTrue(ex.cutCountsInFile() > 0, "cut-child counts read from a file: " + ex.cutCountsInFile());
        Path out = dir.resolve("spilled.gsc");
        CertificateWriter.writeFromFiles(out, header(s.game(), s.root(), s.mode(), end.rootValue), store.layers(), end.region,
                end.aux, end.rootLayer);
        assertArrayEquals(s.reference(), Files.readAllBytes(out));
    }

    @Test
    @Tag("slow")
    void aCrashBetweenANeedsFileAndItsCheckpointResumes() throws IOException {
        crashBeforeCheckpoint = true;
        for (long b : new long[] {Long.MAX_VALUE, 12 << 10}) { // needs written at the boundary, or merged from runs
            budget = b;
            Solve s = reference("connect4:4x5", "", Extractor.Mode.SEMI_STRONG);
            for (int crashAt = 1; crashAt < s.layersWithNeeds(); crashAt += 2) {
                Path state = Files.createDirectories(dir.resolve("between-" + b + "-" + crashAt));
                int at = crashAt;
                assertThrows(Crash.class, () -> runCrashing(s, state, at, false));
                assertArrayEquals(s.reference(), finish(s, state), "crash before checkpoint " + crashAt + ", budget " + b);
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
    @Tag("slow")
    void theCommandGivesTheSameBytesWithAndWithoutStateAndLeavesNothingBehind() throws IOException {
        Path a = dir.resolve("a.gsc"), b = dir.resolve("b.gsc"), c = dir.resolve("c.gsc"), tmp = Files.createDirectories(dir.resolve("tmp"));
        Path state = dir.resolve("state");
        assertEquals(0, produce("solve", "--game", "connect4:5x4", "--out", a.toString(), "-q"));
        assertEquals(0, produce("solve", "--game", "connect4:5x4", "--out", b.toString(), "--state", state.toString(),
                "--tmp", tmp.toString(), "--threads", "1", "--tt-mb", "1", "-q"));
        assertEquals(0, produce("solve", "--game", "connect4:5x4", "--out", c.toString(), "--tmp", tmp.toString(),
                "--max-memory", "64k", "--threads", "3", "-q"));
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(c), "--max-memory 64k (needs spilled in runs)");
        assertFalse(Files.exists(state), "the state directory is removed on success, as --help says");
        try (var t = Files.list(tmp); var d = Files.list(dir)) {
            assertEquals(0, t.count(), "--tmp is emptied");
            assertFalse(d.anyMatch(p -> p.getFileName().toString().startsWith(".gamecert-solve-")), "no working directory left");
        }
    }

    /** Othello too: a 6x6 semi-strong solve (14 empties) in a tiny budget writes the unbounded run's bytes. */
    @Test
    void othelloUnderATinyBudgetGivesTheSameBytes() throws IOException {
        Path a = dir.resolve("a.gsc"), c = dir.resolve("c.gsc"), tmp = Files.createDirectories(dir.resolve("tmp"));
        String root = "e4e3b2c5e2f2f3a1f1b4b6d6a4a3b3e5b5f4";
        assertEquals(0, produce("solve", "--game", "othello:6x6", "--moves", root, "--out", a.toString(), "-q"));
        assertEquals(0, produce("solve", "--game", "othello:6x6", "--moves", root, "--out", c.toString(), "--tmp", tmp.toString(),
                "--max-memory", "64k", "--tt-mb", "1", "--threads", "3", "-q"));
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(c), "--max-memory 64k (needs spilled in runs)");
    }

    /** Real kills (SIGKILL) of the command in another JVM at random moments, then a resume. */
    @Test
    @Tag("slow")
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

package org.gamecert.producer.cert;

import org.gamecert.producer.game.Othello;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@code --proof search} with {@code --state}: a run killed after its search, at a layer boundary
 * (before or after the layer's needs file, before its checkpoint) or while writing a layer,
 * resumes from its last checkpoint, with another log budget, to the bytes of an uninterrupted run.
 */
class SearchProofResumeTest {
    @TempDir Path dir;

    /** 15 empties (as in SearchProofSpillTest). */
    static final String BOARD = "--OOOO--X-OOOO--XXOOXOOOXXXOXOOOXXXXOXOOXXXXXOOOX-XXXO-----XXO-- X";
    final Othello game = new Othello(8);
    final long[] root = game.parseBoard(BOARD);

    static final class Crash extends RuntimeException {}

    private byte[] header(int rootValue) {
        return CertificateWriter.header(game, Extractor.Mode.WEAK, SearchProof.LEAF_EMPTIES, root[0], root[1], rootValue, "test");
    }

    /** A run with checkpoints in state (a log budget of {@code logBytes}), killed at layer boundary {@code crashAt} (-1: never). */
    private Extractor.State run(Path state, long logBytes, int crashAt, boolean afterNeeds, boolean midLayer) throws IOException {
        LayerStore store = new LayerStore(state, "params", true, 2).zstdLevel(SearchProof.ZSTD_LEVEL);
        SearchProof sp = new SearchProof(game, null).spill(state.resolve("proof-log.bin"), logBytes, 8 << 10, totalBytes)
                .checkpoints(state, "params", store);
        int[] layers = {0};
        if (crashAt == 0 && afterNeeds) sp.betweenNeedsAndCheckpoint = () -> { throw new Crash(); }; // before the first checkpoint
        Extractor.Store crashing = new Extractor.Store() {
            @Override public void beforeLayer(Extractor.State st) { throw new AssertionError("the search's proof checkpoints itself"); }

            @Override public void entries(LayerEntries part) throws IOException {
                store.entries(part);
                if (midLayer && layers[0] == crashAt) throw new Crash(); // its blocks so far under the temporary name
            }

            @Override public void layerEnd(int layer) throws IOException {
                store.layerEnd(layer);
                int k = ++layers[0];
                if (!midLayer && k == crashAt) {
                    if (afterNeeds) sp.betweenNeedsAndCheckpoint = () -> { throw new Crash(); };
                    else throw new Crash();
                }
            }
        };
        try {
            Extractor.State s = sp.run(root[0], root[1], crashing);
            if (crashBeforeWriting) throw new Crash();
            Path out = dir.resolve("out.gsc");
            CertificateWriter.writeFromFiles(out, header(s.rootValue), store.layers(), s.region, s.aux, s.rootLayer);
            store.clean();
            last = Files.readAllBytes(out);
            resumedAt = sp.resumedAt;
            return s;
        } finally {
            store.abandon();
        }
    }

    /** Kill the run after its last layer, before the certificate is written (the log already deleted). */
    private boolean crashBeforeWriting;
    private byte[] last;
    private int resumedAt;
    /** The budget once the search is done (see {@link SearchProof#spill(Path, long, long, long)}). */
    private long totalBytes = Long.MAX_VALUE;

    /**
     * With the layers' needs going to sorted runs (a budget of one chunk for them): the checkpoints
     * name their merged needs, killed runs leave no run behind once resumed, and the bytes stay.
     */
    @Test void withTheNeedsInSortedRunsItResumesToTheSameBytes() throws IOException {
        Path ref = Files.createDirectory(dir.resolve("ref"));
        run(ref, Long.MAX_VALUE, -1, false, false);
        byte[] reference = last;
        totalBytes = 8L * 8 * SearchProof.Needs.CHUNK;
        for (int at : new int[] {4, 6})
            for (int how = 0; how < 3; how++) {
                Path state = Files.createDirectory(dir.resolve("r" + at + "-" + how));
                final int a = at, h = how;
                assertThrows(Crash.class, () -> run(state, 48 << 10, a, h == 1, h == 2), "killed at " + a + "/" + h);
                run(state, 48 << 10, -1, false, false);
                assertArrayEquals(reference, last, "killed at layer boundary " + at + " (" + how + "), the needs in runs");
                assertTrue(resumedAt > 0, "resumed from a checkpoint: " + resumedAt);
                try (var files = Files.list(state)) {
                    assertEquals(0, files.count(), "nothing left in the state directory: " + state);
                }
            }
    }

    @Test void killedAnywhereItResumesToTheSameBytes() throws IOException {
        Path ref = Files.createDirectory(dir.resolve("ref"));
        run(ref, Long.MAX_VALUE, -1, false, false);
        byte[] reference = last;
        assertEquals(-1, resumedAt);
        // boundary 0: after the search, its log persisted and the root's needs written, before the first checkpoint (1),
        // or while writing the root's layer (2);
        // k > 0: after k layers (9 in all, from 15 empties to 7), before (0) or after (1) the needs of the next are written, or
        // (2) while writing layer k + 1
        for (int at : new int[] {0, 1, 4, 8})
            for (int how = at == 0 ? 1 : 0; how < 3; how++) {
                Path state = Files.createDirectory(dir.resolve("s" + at + "-" + how));
                final int a = at, h = how;
                assertThrows(Crash.class, () -> run(state, 48 << 10, a, h == 1, h == 2), "killed at " + a + "/" + h);
                assertTrue(Files.exists(state.resolve("proof-log.bin")), "the log stays for the resume");
                run(state, 1L << 30, -1, false, false);
                assertArrayEquals(reference, last, "killed at layer boundary " + at + " (" + how + ")");
                assertTrue(at == 0 && how == 1 ? resumedAt == -1 : resumedAt > 0, "resumed from a checkpoint, or none made: " + resumedAt + " at " + at + "/" + how);
                try (var files = Files.list(state)) {
                    assertEquals(0, files.count(), "nothing left in the state directory: " + state);
                }
            }
        // killed twice in a row
        Path state = Files.createDirectory(dir.resolve("twice"));
        assertThrows(Crash.class, () -> run(state, 48 << 10, 2, false, false));
        assertThrows(Crash.class, () -> run(state, 48 << 10, 3, true, false));
        run(state, 48 << 10, -1, false, false);
        assertArrayEquals(reference, last, "killed twice");
    }

    /**
     * Killed once every layer is written and the log deleted (it goes before the certificate, for
     * the disk), or with the log still there: the resume finds every layer done, searches and
     * reads nothing, and writes the same bytes.
     */
    @Test void killedAfterItsLastLayerItResumesAtTheWritingToTheSameBytes() throws IOException {
        Path ref = Files.createDirectory(dir.resolve("ref"));
        run(ref, Long.MAX_VALUE, -1, false, false);
        byte[] reference = last;
        for (boolean logLeft : new boolean[] {false, true}) {
            Path state = Files.createDirectory(dir.resolve("written-" + logLeft));
            crashBeforeWriting = true;
            assertThrows(Crash.class, () -> run(state, 48 << 10, -1, false, false));
            crashBeforeWriting = false;
            assertFalse(Files.exists(state.resolve("proof-log.bin")), "the log went before the certificate");
            if (logLeft) Files.write(state.resolve("proof-log.bin"), new byte[4096]); // killed before its deletion
            run(state, 48 << 10, -1, false, false);
            assertArrayEquals(reference, last, "resumed after the last layer, the log " + (logLeft ? "left" : "gone"));
            assertTrue(resumedAt > 0, "resumed from the last checkpoint: " + resumedAt);
            try (var files = Files.list(state)) {
                assertEquals(0, files.count(), "nothing left in the state directory: " + state);
            }
        }
    }

    @Test void aCheckpointOfOtherParametersIsRefused() throws IOException {
        Path state = Files.createDirectory(dir.resolve("s"));
        assertThrows(Crash.class, () -> run(state, 48 << 10, 2, false, false));
        LayerStore store = new LayerStore(state, "other", true, 1);
        SearchProof sp = new SearchProof(game, null).spill(state.resolve("proof-log.bin"), 1 << 20, 1 << 20)
                .checkpoints(state, "other", store);
        IOException e = assertThrows(IOException.class, () -> sp.run(root[0], root[1], store));
        assertTrue(e.getMessage().contains("other parameters"), e.getMessage());
        IOException e2 = assertThrows(IOException.class, () -> new LayerStore(state, "params", true, 1).load());
        assertTrue(e2.getMessage().contains("other parameters"), e2.getMessage());
    }
}

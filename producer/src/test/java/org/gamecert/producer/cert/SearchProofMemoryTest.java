package org.gamecert.producer.cert;

import org.gamecert.producer.game.Othello;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@code --max-memory} bounds the proof log and the layers read from it together (issue #42: FFO
 * #50 ran out of heap with the log's half of the budget in memory beside layer 56's needs): once
 * the search is done, the log keeps in memory only what the layers' needs leave of the budget,
 * its other pages going to its file, and the certificate is the same bytes.
 */
class SearchProofMemoryTest {
    @TempDir Path dir;

    /** 15 empties (as in SearchProofSpillTest): a log of some 6,000 longs, layers of thousands of positions. */
    static final String BOARD = SearchProofResumeTest.BOARD;
    final Othello game = new Othello(8);
    final long[] root = game.parseBoard(BOARD);

    private SearchProof last;

    /** The certificate's bytes with the log's share {@code logBytes} and, once the search is done, {@code totalBytes} for all. */
    private byte[] produce(String name, long logBytes, long totalBytes) throws IOException {
        Path work = Files.createDirectory(dir.resolve(name));
        LayerStore store = new LayerStore(work, "params", false, 1).zstdLevel(SearchProof.ZSTD_LEVEL);
        SearchProof sp = new SearchProof(game, null).spill(work.resolve("proof-log.bin"), logBytes, 16 << 10, totalBytes);
        try {
            Extractor.State s = sp.run(root[0], root[1], store);
            Path out = dir.resolve(name + ".gsc");
            CertificateWriter.writeFromFiles(out, CertificateWriter.header(game, Extractor.Mode.WEAK, SearchProof.LEAF_EMPTIES,
                    root[0], root[1], s.rootValue, "test"), store.layers(), s.region, s.aux, s.rootLayer);
            store.clean();
            last = sp;
            return Files.readAllBytes(out);
        } finally {
            store.abandon();
        }
    }

    @Test void theLogLeavesMemoryToTheLayersWithinTheBudgetAndTheBytesStay() throws IOException {
        byte[] free = produce("free", 64L << 20, Long.MAX_VALUE);
        assertEquals(0, last.logSpilledLongs, "64 MiB holds the log");
        assertEquals(0, last.logReleasedBytes, "no budget for the reading: the log stays in memory");
        long layers = last.peakLayerBytes, log = 8 * last.logLongs;
        assertTrue(layers > 0 && log > 0, layers + " " + log);
        // the log's share holds it (in pages of a fifth of it or so), and the budget does
        // during the search, but not beside the layers' needs
        long share = log + log / 4, total = layers + log / 2;
        byte[] bounded = produce("bounded", share, total);
        assertEquals(0, last.logSpilledLongs, "nothing spilled during the search: its share held the log");
        assertTrue(last.logReleasedBytes > 0, "the log's pages left memory for the layers: " + last.logReleasedBytes);
        assertTrue(last.peakLogAndLayerBytes <= total,
                "the log in memory and the layers' needs within the budget: " + last.peakLogAndLayerBytes + " > " + total);
        assertArrayEquals(free, bounded, "the same certificate whether the log left memory or not");
        // a budget the layers' needs alone pass: the log keeps nothing in memory, the bytes stay
        byte[] tiny = produce("tiny", share, 64 << 10);
        assertTrue(last.peakLayerBytes > 64 << 10, "the needs are not bounded: " + last.peakLayerBytes);
        assertEquals(last.peakLayerBytes, last.peakLogAndLayerBytes, "no page of the log beside needs beyond the budget");
        assertArrayEquals(free, tiny, "a budget smaller than the needs: the same certificate");
    }

    /**
     * Issue #42, the needs themselves: a layer's needs beyond their share of the budget go to
     * sorted runs in the log's directory, merged back in key order while the layer is read, and
     * the certificate's bytes stay the same.
     */
    @Test void aLayersNeedsBeyondTheBudgetGoToSortedRunsAndTheCertificatesBytesStay() throws IOException {
        byte[] free = produce("free", 64L << 20, Long.MAX_VALUE);
        assertEquals(0, last.runsSpilled, "no budget: no runs");
        long chunk = 8L * SearchProof.Needs.CHUNK, unbounded = last.needChunkBytes;
        assertTrue(unbounded > chunk, "the largest layer's needs take more than one chunk: " + unbounded);
        // the needs' chunks: a quarter of their half of the budget, at least one chunk (24 KiB)
        for (long total : new long[] {4 * chunk, 8 * chunk}) {
            byte[] bounded = produce("bounded-" + total, 64L << 20, total);
            long limit = Math.max(chunk, total / 8);
            assertTrue(last.runsSpilled > 0, "runs spilled with " + total + " bytes in all");
            assertTrue(last.needChunkBytes <= limit, "the needs' chunks within their share of the budget: "
                    + last.needChunkBytes + " > " + limit);
            assertTrue(last.needChunkBytes < unbounded, "less than the needs' chunks without a budget: " + unbounded);
            assertArrayEquals(free, bounded, "the same certificate whatever the needs' budget (" + total + " bytes)");
            try (var files = Files.list(dir.resolve("bounded-" + total))) {
                assertEquals(0, files.filter(p -> p.getFileName().toString().startsWith("run-search-proof-needs-")).count(),
                        "the runs and merged files removed");
            }
        }
    }
}

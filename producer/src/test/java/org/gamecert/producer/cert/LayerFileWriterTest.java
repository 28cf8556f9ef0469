package org.gamecert.producer.cert;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A layer's file of blocks does not depend on how its entries arrive: the writer's block buffer
 * grows as entries come (a small layer takes no whole block), and a layer appended in parts of any
 * size, empty ones, a block's size and sizes across a block's end included, is written as the same
 * blocks, byte for byte, as the layer appended at once.
 */
class LayerFileWriterTest {
    private static final int MAX = CertificateWriter.MAX_BLOCK_ENTRIES;

    @Test
    void aLayerAppendedInPartsOfAnySizeIsWrittenAsTheSameBlocks(@TempDir Path dir) throws Exception {
        int n = 2 * MAX + 1234;
        LayerEntries layer = layer(9, n);
        CertificateWriter.LayerFile whole = CertificateWriter.spill(layer, dir.resolve("whole"), 1);
        assertEquals(3, whole.blocks);
        byte[] expected = Files.readAllBytes(whole.path);

        List<int[]> splits = List.of(
                new int[] {0, 1, 5, MAX - 6, 0, MAX - 1, 2, 1232, 1},
                new int[] {MAX + 1, 0, MAX - 2, 1235},
                new int[] {3, 70_000, 70_000, 70_000, 300_000, n - 510_003});
        int t = 0;
        for (int[] sizes : splits) {
            for (int threads = 1; threads <= 2; threads++) {
                Path file = dir.resolve("parts" + t++);
                CertificateWriter.LayerFile parts;
                try (CertificateWriter.LayerFileWriter w =
                        new CertificateWriter.LayerFileWriter(file, layer.layer, threads)) {
                    int at = 0;
                    for (int size : sizes) {
                        w.append(slice(layer, at, size));
                        at += size;
                    }
                    assertEquals(n, at, "the parts cover the layer");
                    parts = w.finish();
                }
                assertEquals(n, parts.entries);
                assertEquals(whole.blocks, parts.blocks);
                assertArrayEquals(expected, Files.readAllBytes(parts.path),
                        "parts " + java.util.Arrays.toString(sizes) + ", " + threads + " threads");
            }
        }
    }

    @Test
    void aSmallLayerIsOneBlockOfItsEntries(@TempDir Path dir) throws Exception {
        LayerEntries layer = layer(5, 37);
        CertificateWriter.LayerFile f;
        try (CertificateWriter.LayerFileWriter w =
                new CertificateWriter.LayerFileWriter(dir.resolve("small"), 5, 1)) {
            for (int at = 0; at < 37; at += 4) w.append(slice(layer, at, Math.min(4, 37 - at)));
            f = w.finish();
        }
        assertEquals(1, f.blocks);
        assertEquals(37, f.entries);
        assertArrayEquals(Files.readAllBytes(CertificateWriter.spill(layer, dir.resolve("one"), 1).path),
                Files.readAllBytes(f.path));
    }

    /** n entries in key order: disjoint mover and opponent, occupied cells increasing with i. */
    private static LayerEntries layer(int index, int n) {
        LayerEntries e = new LayerEntries(index, n);
        for (int i = 0; i < n; i++) {
            e.mover[i] = i + 1;
            e.opponent[i] = (long) (i + 1) << 24;
            e.kinds[i] = (byte) (i % 5 == 0 ? Kinds.P : Kinds.A);
            e.value1[i] = (byte) (i % 3 - 1);
            e.value2[i] = (byte) (i % 3 - 1);
            e.move[i] = (byte) (i % 5 == 0 ? i % 7 : -1);
        }
        return e;
    }

    private static LayerEntries slice(LayerEntries e, int from, int n) {
        LayerEntries part = new LayerEntries(e.layer, n);
        part.copyFrom(e, from, 0, n);
        return part;
    }
}

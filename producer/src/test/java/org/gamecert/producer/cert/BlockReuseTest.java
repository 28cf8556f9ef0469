package org.gamecert.producer.cert;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.Zstd;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writer's entry buffers, payload room and zstd contexts are reused from block to block and
 * layer to layer, at whatever level and by writers at once: every block is still exactly zstd's
 * one-shot compression of its own entries' payload at its layer's level, and two writers sharing
 * that memory write what each writes alone; a certificate written from layer files is the bytes
 * of one written from the layers in memory, and a layer file whose frame decompresses to other
 * than its recorded payload length, or not at all, is refused as damaged, naming the file.
 */
class BlockReuseTest {
    private static final int MAX = CertificateWriter.MAX_BLOCK_ENTRIES;

    @Test
    void everyBlockIsTheOneShotCompressionOfItsOwnPayload(@TempDir Path dir) throws Exception {
        // dense layers first, so that a later sparse block would show any of their bytes left over
        int[][] layers = {{30, 2 * MAX + 17, 9}, {31, MAX + 5, 3}, {32, 3 * MAX, 9}, {33, 1000, 3}, {34, MAX - 1, 3}};
        for (int threads = 1; threads <= 2; threads++) {
            for (int[] l : layers) {
                LayerEntries e = layer(l[0], l[1], l[0] % 2 == 0);
                Path file = dir.resolve("layer-" + l[0] + "-" + threads);
                CertificateWriter.LayerFile f;
                try (CertificateWriter.LayerFileWriter w = new CertificateWriter.LayerFileWriter(file, l[0], threads, l[2])) {
                    w.append(e);
                    f = w.finish();
                }
                List<byte[]> frames = frames(f.path);
                assertEquals((l[1] + MAX - 1) / MAX, frames.size());
                for (int b = 0; b < frames.size(); b++) {
                    int from = b * MAX, to = Math.min(l[1], from + MAX);
                    byte[] raw = CertificateWriter.payload(e, from, to);
                    ByteBuffer h = ByteBuffer.wrap(frames.get(b), 0, 12).order(ByteOrder.LITTLE_ENDIAN);
                    assertEquals(to - from, h.getInt(), "block " + b + " of layer " + l[0] + ": entries");
                    assertEquals(raw.length, h.getInt(), "block " + b + " of layer " + l[0] + ": payload length");
                    byte[] comp = java.util.Arrays.copyOfRange(frames.get(b), 12, frames.get(b).length);
                    assertArrayEquals(Zstd.compress(raw, l[2]), comp, "block " + b + " of layer " + l[0] + ", " + threads + " threads");
                }
            }
        }
    }

    @Test
    void aCertificateFromLayerFilesIsTheOneFromTheLayersInMemory(@TempDir Path dir) throws Exception {
        List<LayerEntries> rootFirst = List.of(layer(40, 3, false), layer(41, MAX + 9, true), layer(42, 2 * MAX + 1, false));
        byte[] header = "a header".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        long[] region = {0, 0, 0}, aux = {3, MAX + 9, 2 * MAX + 1};
        Path inMemory = dir.resolve("memory.gsc"), fromFiles = dir.resolve("files.gsc");
        CertificateWriter.Written a = CertificateWriter.write(inMemory, header, rootFirst, region, aux, 40, 2);
        List<CertificateWriter.LayerFile> files = new ArrayList<>();
        for (LayerEntries e : rootFirst) files.add(CertificateWriter.spill(e, dir.resolve("l" + e.layer), 2));
        CertificateWriter.Written b = CertificateWriter.writeFromFiles(fromFiles, header, files, region, aux, 40);
        assertEquals(a.commitmentId, b.commitmentId);
        assertArrayEquals(Files.readAllBytes(inMemory), Files.readAllBytes(fromFiles));
    }

    @Test
    void aLayerFileWhosePayloadLengthIsNotItsFramesIsRefused(@TempDir Path dir) throws Exception {
        LayerEntries e = layer(50, 500, true);
        CertificateWriter.LayerFile f = CertificateWriter.spill(e, dir.resolve("l50"), 1);
        byte[] bytes = Files.readAllBytes(f.path);
        int recorded = ByteBuffer.wrap(bytes, 4, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        for (int wrong : new int[] {recorded - 1, recorded + 1, recorded - 2, recorded / 2, 0}) {
            byte[] damaged = bytes.clone();
            ByteBuffer.wrap(damaged, 4, 4).order(ByteOrder.LITTLE_ENDIAN).putInt(wrong);
            assertRefused(dir, "length-" + wrong, damaged, f);
        }
        byte[] corrupt = bytes.clone();
        for (int i = 12 + 4; i < corrupt.length; i++) corrupt[i] ^= 0x5A; // the frame's header kept, its blocks garbled
        assertRefused(dir, "frame", corrupt, f);
    }

    /** A layer file of these bytes in place of f's: writing from it throws an IOException naming the file as damaged, and leaves no certificate. */
    private static void assertRefused(Path dir, String name, byte[] damaged, CertificateWriter.LayerFile f) throws IOException {
        Path file = dir.resolve("damaged-" + name);
        Files.write(file, damaged);
        List<CertificateWriter.LayerFile> one = List.of(new CertificateWriter.LayerFile(f.layer, f.entries, f.blocks, damaged.length, file));
        Path out = dir.resolve("out-" + name + ".gsc");
        IOException x = assertThrows(IOException.class,
                () -> CertificateWriter.writeFromFiles(out, new byte[] {1}, one, new long[] {0}, new long[] {f.entries}, f.layer), name);
        assertTrue(x.getMessage().contains(file.toString()) && x.getMessage().contains("is damaged"), name + ": " + x.getMessage());
        assertTrue(!Files.exists(out), name + ": no certificate is left behind");
    }

    @Test
    void writersSharingTheReusedMemoryAtOnceWriteWhatEachWritesAlone(@TempDir Path dir) throws Exception {
        LayerEntries a = layer(60, 3 * MAX + 11, true), b = layer(61, 2 * MAX + 3, false);
        byte[] aloneA = Files.readAllBytes(CertificateWriter.spill(a, dir.resolve("a"), 2).path);
        byte[] aloneB = Files.readAllBytes(CertificateWriter.spill(b, dir.resolve("b"), 1).path);
        for (int round = 0; round < 3; round++) {
            Path fa = dir.resolve("a" + round), fb = dir.resolve("b" + round);
            java.util.concurrent.ExecutorService two = java.util.concurrent.Executors.newFixedThreadPool(2);
            try {
                java.util.concurrent.Future<CertificateWriter.LayerFile> x = two.submit(() -> CertificateWriter.spill(a, fa, 2));
                java.util.concurrent.Future<CertificateWriter.LayerFile> y = two.submit(() -> CertificateWriter.spill(b, fb, 1));
                assertArrayEquals(aloneA, Files.readAllBytes(x.get().path), "round " + round);
                assertArrayEquals(aloneB, Files.readAllBytes(y.get().path), "round " + round);
            } finally {
                two.shutdownNow();
            }
        }
    }

    /** The blocks of a layer file: each its 12-byte head and its frame. */
    private static List<byte[]> frames(Path file) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        List<byte[]> out = new ArrayList<>();
        while (b.hasRemaining()) {
            int at = b.position();
            b.getInt();
            b.getInt();
            int comp = b.getInt();
            byte[] one = new byte[12 + comp];
            b.position(at);
            b.get(one);
            out.add(one);
        }
        return out;
    }

    /** n entries in key order; dense ones (large keys, both bounds, moves) or sparse ones (small keys, exact values). */
    private static LayerEntries layer(int index, int n, boolean dense) {
        LayerEntries e = new LayerEntries(index, n);
        java.util.Random r = new java.util.Random(index);
        for (int i = 0; i < n; i++) {
            long occ = dense ? 0x00FF_FFFF_0000_0000L | (long) i << 8 : i + 1;
            e.mover[i] = occ & (dense ? r.nextLong() : 0x5555_5555_5555_5555L);
            e.opponent[i] = occ & ~e.mover[i];
            e.kinds[i] = (byte) (dense ? Kinds.C | Kinds.A : Kinds.P);
            e.value1[i] = (byte) (dense ? r.nextInt(64) - 64 : i % 3 - 1);
            e.value2[i] = (byte) (dense ? r.nextInt(64) : 0);
            e.move[i] = (byte) (dense ? r.nextInt(64) : i % 7);
        }
        return e;
    }
}

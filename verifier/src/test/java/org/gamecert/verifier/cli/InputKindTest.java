package org.gamecert.verifier.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.OutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/** `scripts/verify PATH` sends each kind of input to the right checker. */
class InputKindTest {
    static final Path VECTORS = Path.of("../format-spec/vectors").toAbsolutePath().normalize();
    static final Path PEER_CSV = Path.of("../testdata/known-answers/othello6-peer/opening-table.csv").toAbsolutePath().normalize();

    @Test
    void certificatesAreRecognizedByTheirMagicWhateverTheirName(@TempDir Path dir) throws IOException {
        Path valid = firstValidVector();
        Path renamed = dir.resolve("looks-like.tar.zst");
        Files.copy(valid, renamed);
        assertEquals(InputKind.CERTIFICATE, InputKind.detect(valid));
        assertEquals(InputKind.CERTIFICATE, InputKind.detect(renamed));
        assertEquals(0, run(renamed.toString()));
    }

    @Test
    void directoriesAreBundlesWhenTheyHoldBagitTxtElsePeerTables(@TempDir Path dir) throws IOException {
        Path bag = Files.createDirectory(dir.resolve("bag"));
        Files.writeString(bag.resolve("bagit.txt"), "BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n");
        Path tables = Files.createDirectory(dir.resolve("tables"));
        Files.writeString(tables.resolve("optimal_reopening_ab_table_all_4.txt"), "");
        assertEquals(InputKind.BUNDLE, InputKind.detect(bag));
        assertEquals(InputKind.PEER, InputKind.detect(tables));
        assertEquals(1, run(bag.toString()), "an incomplete bag is rejected");
    }

    /**
     * A folder holding bagit.txt is checked as a bag even when a composite's manifest sits beside
     * it: otherwise a manifest copied into a bag's folder would switch off every check of the bag
     * (its manifests, commitments, signature). The bag then rejects the file it does not list.
     */
    @Test
    void aFolderHoldingBagitTxtIsABagEvenBesideACompositesManifest(@TempDir Path dir) throws IOException {
        Path bag = dir.resolve("bag");
        try (java.io.InputStream f = Files.newInputStream(Path.of("../testdata/crafted/bundle-valid.tar"));
             org.apache.commons.compress.archivers.tar.TarArchiveInputStream t =
                     new org.apache.commons.compress.archivers.tar.TarArchiveInputStream(f)) {
            for (TarArchiveEntry e; (e = t.getNextTarEntry()) != null; ) {
                String name = e.getName();
                Path to = bag.resolve(name.substring(name.indexOf('/') + 1)).normalize();
                assertTrue(to.startsWith(bag), name);
                if (e.isDirectory()) continue;
                Files.createDirectories(to.getParent());
                Files.write(to, t.readAllBytes());
            }
        }
        assertEquals(0, run(bag.toString()), "the bag as extracted");
        Files.write(bag.resolve("composite.gscm"), new byte[] {0x53, 0x2A, 0x4D, 0x18}); // its magic
        assertEquals(InputKind.BUNDLE, InputKind.detect(bag));
        assertEquals(1, run(bag.toString()), "the bag with a file it does not list");
    }

    @Test
    void thePublishedRootRunTableIsCheckedAsPeerInputAndLeftIncomplete() {
        assertEquals(InputKind.PEER, InputKind.detect(PEER_CSV));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc = VerifyMain.run(new String[] {PEER_CSV.toString(), "-q"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(3, rc, out.toString(StandardCharsets.UTF_8));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("incomplete"));
    }

    /** A tar (optionally Zstandard-compressed) holding the given names, each with a line of text. */
    private static void tar(Path out, boolean zstd, String... names) throws IOException {
        try (OutputStream f = Files.newOutputStream(out); OutputStream z = zstd ? new ZstdOutputStream(f) : f;
             TarArchiveOutputStream t = new TarArchiveOutputStream(z)) {
            for (String n : names) {
                byte[] b = (n + "\n").getBytes(StandardCharsets.UTF_8);
                TarArchiveEntry e = new TarArchiveEntry(n);
                e.setSize(b.length);
                t.putArchiveEntry(e);
                t.write(b);
                t.closeArchiveEntry();
            }
        }
    }

    @Test
    void archivesAreRecognizedByContentWhateverTheirName(@TempDir Path dir) throws IOException {
        Path bundle = dir.resolve("bundle.tar.download"), bad = dir.resolve("x.bad"), tables = dir.resolve("tables.bin");
        tar(bundle, true, "bag/bagit.txt", "bag/bag-info.txt");
        tar(bad, false, "bag/bagit.txt");
        tar(tables, true, "postprocess3/optimal_reopening_ab_table_all_26.txt");
        assertEquals(InputKind.BUNDLE, InputKind.detect(bundle));
        assertTrue(InputKind.describe(bundle).what().contains("Zstandard-compressed tar archive holding a BagIt bag"));
        assertEquals(InputKind.BUNDLE, InputKind.detect(bad));
        assertEquals(InputKind.PEER, InputKind.detect(tables));
    }

    @Test
    void aTablebaseCsvIsRecognizedByItsHeaderLine(@TempDir Path dir) throws IOException {
        Path renamed = dir.resolve("opening.txt");
        Files.copy(PEER_CSV, renamed);
        assertEquals(InputKind.PEER, InputKind.detect(renamed));
    }

    @Test
    void unknownContentIsDescribed(@TempDir Path dir) throws IOException {
        Path text = dir.resolve("notes.gsc"), bin = dir.resolve("blob.gsc"), empty = dir.resolve("empty.gsc");
        Files.writeString(text, "hello\n");
        Files.write(bin, new byte[] {1, 2, 3, 4, 5, 0, 0, 7});
        Files.write(empty, new byte[0]);
        assertEquals(InputKind.CERTIFICATE, InputKind.detect(text)); // the certificate reader says what is wrong
        assertTrue(InputKind.describe(text).what().startsWith("text"), InputKind.describe(text).what());
        assertTrue(InputKind.describe(bin).what().contains("0x0102030405000007"), InputKind.describe(bin).what());
        assertEquals("an empty file", InputKind.describe(empty).what());
    }

    @Test
    void anUnreadableInputIsReportedWithWhatItLooksLikeAndNoFigures(@TempDir Path dir) throws IOException {
        Path text = dir.resolve("notes.gsc");
        Files.writeString(text, "hello\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int rc = VerifyMain.run(new String[] {text.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, rc);
        String o = out.toString(StandardCharsets.UTF_8), e = err.toString(StandardCharsets.UTF_8);
        assertTrue(e.contains("its content looks like text"), e);
        assertTrue(!o.contains("throughput"), "no throughput figures when nothing was read:\n" + o);
    }

    @Test
    void unknownFormatOptionIsAUsageError() throws IOException {
        assertEquals(2, run(firstValidVector().toString(), "--format", "zip"));
    }

    private static Path firstValidVector() throws IOException {
        try (var s = Files.list(VECTORS)) {
            return s.filter(p -> p.getFileName().toString().startsWith("valid") && p.toString().endsWith(".gsc")).sorted()
                    .findFirst().orElseThrow();
        }
    }

    private static int run(String... args) {
        return VerifyMain.run(args, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    }
}

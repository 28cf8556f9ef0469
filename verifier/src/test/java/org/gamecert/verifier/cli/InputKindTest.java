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

    @Test
    void thePublishedRootRunTableIsCheckedAsPeerInputAndLeftIncomplete() {
        assertEquals(InputKind.PEER, InputKind.detect(PEER_CSV));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc = VerifyMain.run(new String[] {PEER_CSV.toString(), "-q"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(3, rc, out.toString(StandardCharsets.UTF_8));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("incomplete"));
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

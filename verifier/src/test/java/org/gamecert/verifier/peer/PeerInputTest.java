package org.gamecert.verifier.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PeerInputTest {
    @TempDir
    Path tmp;

    private Path touch(String name) throws IOException {
        return Files.write(tmp.resolve(name), new byte[] {1});
    }

    @Test
    void recognisesTheCommonSplitNamesInOrder() throws IOException {
        for (String s : new String[] {"10", "02", "00", "01", "03", "04", "05", "06", "07", "08", "09"}) touch("postprocess3.tar.zst." + s);
        PeerInput in = PeerInput.detect(tmp.resolve("postprocess3.tar.zst.05"));
        assertEquals(PeerInput.Kind.SPLIT_TAR_ZST, in.kind);
        assertEquals(11, in.parts.size());
        for (int i = 0; i < 11; i++) assertEquals(String.format("postprocess3.tar.zst.%02d", i), in.parts.get(i).getFileName().toString());
        assertTrue(in.description().contains("11 parts"));

        Path d2 = Files.createDirectory(tmp.resolve("p"));
        for (int i = 1; i <= 3; i++) Files.write(d2.resolve("a.tar.zst.part" + i), new byte[1]);
        assertEquals(3, PeerInput.detect(d2.resolve("a.tar.zst.part1")).parts.size());

        Path d3 = Files.createDirectory(tmp.resolve("q"));
        for (String s : new String[] {"aa", "ab", "ac"}) Files.write(d3.resolve("a.tar.zst." + s), new byte[1]);
        PeerInput alpha = PeerInput.detect(d3.resolve("a.tar.zst.ab"));
        assertEquals(3, alpha.parts.size());
        assertEquals("a.tar.zst.aa", alpha.parts.get(0).getFileName().toString());
    }

    @Test
    void aMissingPartIsAnError() throws IOException {
        for (String s : new String[] {"00", "01", "03"}) touch("x.tar.zst." + s);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PeerInput.detect(tmp.resolve("x.tar.zst.00")));
        assertTrue(e.getMessage().contains("not consecutive"), e.getMessage());
        Path d = Files.createDirectory(tmp.resolve("r"));
        Files.write(d.resolve("y.tar.zst.01"), new byte[1]);
        Files.write(d.resolve("y.tar.zst.02"), new byte[1]);
        assertThrows(IllegalArgumentException.class, () -> PeerInput.detect(d.resolve("y.tar.zst.02")));
    }

    @Test
    void otherKinds() throws IOException {
        assertEquals(PeerInput.Kind.CSV, PeerInput.detect(touch("t.csv")).kind);
        assertEquals(PeerInput.Kind.TAR, PeerInput.detect(touch("t.tar")).kind);
        assertEquals(PeerInput.Kind.TAR_ZST, PeerInput.detect(touch("t.tar.zst")).kind);
        Path d = Files.createDirectory(tmp.resolve("tables"));
        Files.write(d.resolve("optimal_reopening_ab_table_all_12.txt"), new byte[0]);
        assertEquals(PeerInput.Kind.DIRECTORY, PeerInput.detect(d).kind);
        assertThrows(IllegalArgumentException.class, () -> PeerInput.detect(Files.createDirectory(tmp.resolve("empty"))));
        assertThrows(IllegalArgumentException.class, () -> PeerInput.detect(touch("t.bin")));
        assertEquals(12, PeerSource.tableNumber("postprocess3/optimal_reopening_ab_table_all_12.txt"));
        assertEquals(-1, PeerSource.tableNumber("readme.md"));
    }

    @Test
    void sizes() {
        assertEquals(1L << 30, PeerMain.parseSize("1g"));
        assertEquals(512L << 20, PeerMain.parseSize("512M"));
        assertEquals(123, PeerMain.parseSize("123"));
        assertThrows(IllegalArgumentException.class, () -> PeerMain.parseSize("-1g"));
    }

    @Test
    void anEmptyLowestTableIsRejectedNotVerifiedVacuously() throws IOException {
        Path tables = Files.createDirectory(tmp.resolve("empty-lowest"));
        Files.write(tables.resolve("optimal_reopening_ab_table_all_30.txt"), new byte[0]);
        PeerOptions o = new PeerOptions();
        o.input = tables;
        PeerResult r = PeerVerifier.verify(o);
        assertEquals(PeerResult.Verdict.REJECTED, r.verdict());
        assertEquals(PeerRules.ROOT_3, r.violation.rule);
    }
}

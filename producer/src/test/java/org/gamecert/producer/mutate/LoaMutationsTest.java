package org.gamecert.producer.mutate;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every loa-* mutation class applies to a LOA certificate and is rejected with its rule id (LoaAuditMain, 3 seeds). */
@Tag("slow")
class LoaMutationsTest {
    @Test
    void everyLoaClassIsCaught(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int rc = LoaAuditMain.run(new String[] {"--mutants", "3", "--work", dir.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String table = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, rc, table + err.toString(StandardCharsets.UTF_8));
        for (LoaMutations.Kind k : LoaMutations.ALL) {
            String line = table.lines().filter(l -> l.startsWith(k.name + " ")).findFirst().orElse("");
            String[] f = line.trim().split("\\s+");
            assertTrue(f.length > 3 && Integer.parseInt(f[1]) > 0 && f[1].equals(f[2]), "class " + k.name + ": " + line);
        }
    }

    /**
     * A generic class (which moves entries between disc-count layers) does not apply to a weak-ranked
     * certificate, whose layers are ranks: exit 1, no mutant, the loa- classes named.
     */
    @Test
    void genericClassesDoNotApplyToAWeakRankedCertificate(@TempDir Path dir) throws Exception {
        Path cert = dir.resolve("loa.gsc"), mutant = dir.resolve("m.gsc");
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8), e = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertEquals(0, org.gamecert.producer.cli.ProduceMain.run(new String[] {"solve", "--game", "loa:4x4", "--mode", "weak-ranked", "-q",
                "--out", cert.toString()}, o, e));
        err.reset();
        assertEquals(MutateCommand.EXIT_NOT_APPLICABLE, org.gamecert.producer.cli.ProduceMain.run(new String[] {"mutate", "--class",
                "entry-wrong-layer", "--in", cert.toString(), "--out", mutant.toString()}, o, e));
        String said = err.toString(StandardCharsets.UTF_8);
        assertTrue(said.startsWith("error: class entry-wrong-layer does not apply") && said.contains("use a loa- class"), said);
        assertFalse(java.nio.file.Files.exists(mutant));
    }
}

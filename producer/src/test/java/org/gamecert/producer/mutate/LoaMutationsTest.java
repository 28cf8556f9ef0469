package org.gamecert.producer.mutate;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
}

package org.gamecert.verifier.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The kernel's reading guide (kernel/AUDIT.md) names every file of the kernel and every rule id,
 * so that an auditor who follows it reads all that decides VERIFIED and knows where each rule is.
 */
class AuditGuideTest {
    static final Path GUIDE = KernelShapeTest.KERNEL.resolve("AUDIT.md");

    @Test
    void theGuideNamesEveryKernelFile() throws IOException {
        String guide = Files.readString(GUIDE);
        List<String> missing = new ArrayList<>();
        try (Stream<Path> s = Files.walk(KernelShapeTest.KERNEL)) {
            for (Path f : s.filter(p -> p.toString().endsWith(".java")).toList()) {
                String name = f.getFileName().toString().replace(".java", "");
                if (!guide.contains("`" + name + "`") && !guide.contains("/" + name + "`")
                        && !guide.contains(" " + name + "`"))
                    missing.add(name);
            }
        }
        assertEquals(List.of(), missing, "kernel files AUDIT.md does not name");
    }

    @Test
    void theGuideNamesEveryRuleId() throws Exception {
        String guide = Files.readString(GUIDE);
        List<String> missing = new ArrayList<>();
        int rules = 0;
        for (Field f : Rule.class.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers()) || f.getType() != String.class) continue;
            String id = (String) f.get(null);
            rules++;
            if (!guide.contains(id)) missing.add(id);
        }
        assertTrue(rules >= 40, rules + " rule ids");
        assertEquals(List.of(), missing, "rule ids AUDIT.md does not name");
    }
}

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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The kernel's reading guide (kernel/AUDIT.md) names every file of the kernel, as `Name.java`
 * (`format/Name.java`, `rules/Name.java`), and only files that exist, and every rule id, so that an
 * auditor who follows it reads all that decides VERIFIED and knows where each rule is. The old,
 * concurrent kernel is named only in the one sentence that says it was removed.
 */
class AuditGuideTest {
    static final Path GUIDE = KernelShapeTest.KERNEL.resolve("AUDIT.md");

    /** The concurrent kernel's files, removed in issue 39. */
    static final List<String> OLD = List.of("Kernel", "LayerCheck", "LayerPass", "EntryChecker",
            "ChildLookup", "KeyRange", "Marks", "JoinedLayer", "Layout", "SliceResult", "KeyBag",
            "KeySet");

    private static final Pattern FILE = Pattern.compile("`((?:[a-z]+/)*[A-Z][A-Za-z0-9]*\\.java)`");

    @Test
    void theGuideNamesEveryKernelFile() throws IOException {
        String guide = Files.readString(GUIDE);
        List<String> missing = new ArrayList<>();
        for (Path f : KernelShapeTest.sources()) {
            String name = KernelShapeTest.KERNEL.relativize(f).toString().replace('\\', '/');
            if (!guide.contains("`" + name + "`")) missing.add(name);
        }
        assertEquals(List.of(), missing, "kernel files AUDIT.md does not name (as `Name.java`)");
    }

    @Test
    void everyFileTheGuideNamesExists() throws IOException {
        String guide = Files.readString(GUIDE);
        List<String> absent = new ArrayList<>();
        int named = 0;
        for (Matcher m = FILE.matcher(guide); m.find(); named++)
            if (!Files.isRegularFile(KernelShapeTest.KERNEL.resolve(m.group(1))))
                absent.add(m.group(1));
        assertTrue(named >= 30, named + " files named");
        assertEquals(List.of(), absent, "files AUDIT.md names that are not in the kernel");
    }

    @Test
    void theOldKernelIsNamedOnlyWhereTheGuideSaysItWasRemoved() throws IOException {
        String guide = Files.readString(GUIDE);
        int at = guide.indexOf(" was removed");
        assertTrue(at >= 0, "AUDIT.md says the concurrent kernel was removed");
        int start = Math.max(guide.lastIndexOf(". ", at), guide.lastIndexOf("\n\n", at));
        int end = guide.indexOf('.', at);
        List<String> found = new ArrayList<>();
        for (String name : OLD)
            for (Matcher m = Pattern.compile("\\b" + name + "\\b").matcher(guide); m.find(); )
                if (m.start() < start || m.start() > end)
                    found.add(name + " at character " + m.start());
        assertEquals(List.of(), found, "old kernel files AUDIT.md names outside that sentence");
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

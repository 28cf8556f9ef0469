package org.gamecert.verifier.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The project can be cited and reused: CITATION.cff is a Citation File Format 1.2.0 file with
 * the keys a citation needs, its version is the build's and the changelog's newest, and the
 * licence is Apache-2.0 in LICENSE and in the pom.
 */
class ProjectCitationTest {
    static final Path ROOT = BuildInfoTest.ROOT;

    @SuppressWarnings("unchecked")
    static Map<String, Object> yaml(Path p) throws IOException {
        Object doc = new Yaml(new SafeConstructor(new LoaderOptions())).load(Files.readString(p));
        assertInstanceOf(Map.class, doc, p + " is not a YAML mapping");
        return (Map<String, Object>) doc;
    }

    @Test
    void citationFileIsCffWithTheKeysACitationNeeds() throws IOException {
        Map<String, Object> cff = yaml(ROOT.resolve("CITATION.cff"));
        assertEquals("1.2.0", cff.get("cff-version"));
        assertEquals("software", cff.get("type"));
        for (String k : new String[] {"message", "title", "abstract"})
            assertTrue(cff.get(k) instanceof String s && !s.isBlank(), k);
        assertEquals("Apache-2.0", cff.get("license"));
        // An entity as author: the project has no person's name to give.
        assertEquals(List.of(Map.of("name", "gamecert developers")), cff.get("authors"));
        assertTrue(cff.get("date-released") instanceof String d && d.matches("\\d{4}-\\d{2}-\\d{2}"),
                "date-released is a quoted YYYY-MM-DD string (a bare date is not a string in YAML): " + cff.get("date-released"));
        assertTrue(cff.get("keywords") instanceof List<?> k && !k.isEmpty() && k.stream().allMatch(String.class::isInstance));
        // Only keys of the CFF 1.2.0 schema's top level.
        List<String> known = List.of("abstract", "authors", "cff-version", "commit", "contact", "date-released", "doi", "identifiers",
                "keywords", "license", "license-url", "message", "preferred-citation", "references", "repository", "repository-artifact",
                "repository-code", "title", "type", "url", "version");
        for (String k : cff.keySet()) assertTrue(known.contains(k), "not a CFF 1.2.0 key: " + k);
    }

    @Test
    void citationVersionIsTheBuildsAndTheChangelogsNewest() throws IOException {
        Map<String, Object> cff = yaml(ROOT.resolve("CITATION.cff"));
        String version = BuildInfoTest.projectVersion();
        assertEquals(version, String.valueOf(cff.get("version")));
        Matcher m = Pattern.compile("(?m)^## (\\d+\\.\\d+\\.\\d+) — (\\d{4}-\\d{2}-\\d{2})").matcher(Files.readString(ROOT.resolve("CHANGELOG.md")));
        assertTrue(m.find(), "CHANGELOG.md has a '## VERSION — DATE' entry");
        assertEquals(version, m.group(1), "the changelog's newest entry");
        assertEquals(m.group(2), cff.get("date-released"), "the changelog's newest entry's date");
    }

    @Test
    void licenceIsApache2InLicenseNoticeAndPom() throws IOException {
        String license = Files.readString(ROOT.resolve("LICENSE"));
        assertTrue(license.contains("Apache License\n                           Version 2.0, January 2004"), "the standard text");
        assertTrue(license.contains("END OF TERMS AND CONDITIONS"));
        String notice = Files.readString(ROOT.resolve("NOTICE"));
        for (String bundled : new String[] {"zstd-jni", "commons-compress", "bcprov-jdk18on", "picocli"})
            assertTrue(notice.contains(bundled), "NOTICE names " + bundled);
        String pom = Files.readString(ROOT.resolve("pom.xml"));
        assertTrue(pom.contains("<licenses>\n    <license>\n      <name>Apache-2.0</name>"), "the parent pom names the licence");
    }
}

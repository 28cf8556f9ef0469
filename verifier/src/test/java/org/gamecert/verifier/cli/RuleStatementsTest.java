package org.gamecert.verifier.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The rule statements reports print beside an id (rules.tsv) are the normative texts' own: SPEC
 * Appendix A's subject and section for every R- rule, peer/RULES.md's meaning for every PEER- rule,
 * in their order, nothing more; and every rule id the verifier's code can name has one.
 */
class RuleStatementsTest {
    static final Path SPEC = Path.of("..", "format-spec", "SPEC.md"),
            PEER_RULES = Path.of("src", "main", "java", "org", "gamecert", "verifier", "peer", "RULES.md");

    /** id -> {where, statement}, from the sources. */
    static Map<String, String[]> fromSources() throws IOException {
        Map<String, String[]> m = new LinkedHashMap<>();
        String spec = Files.readString(SPEC);
        String index = spec.substring(spec.indexOf("## Appendix A. Rule index"));
        Matcher a = Pattern.compile("(?m)^\\| (R-[A-Z]+-\\d+) \\| (.+?) \\| (.+?) \\|$").matcher(index);
        while (a.find()) m.put(a.group(1), new String[] {"SPEC §" + a.group(3), a.group(2)});
        Matcher p = Pattern.compile("(?m)^\\| (PEER-[A-Z]+-\\d+) \\| (.+) \\|$").matcher(Files.readString(PEER_RULES));
        while (p.find()) m.put(p.group(1), new String[] {"verifier/src/main/java/org/gamecert/verifier/peer/RULES.md", p.group(2)});
        return m;
    }

    @Test
    void theStatementsAreTheSpecsAndThePeerRulesOwnInTheirOrder() throws IOException {
        Map<String, String[]> sources = fromSources();
        assertTrue(sources.size() > 70, "SPEC Appendix A and RULES.md were read: " + sources.size());
        assertEquals(String.join(" ", sources.keySet()), String.join(" ", Rules.all().keySet()), "the same ids in the same order");
        for (Map.Entry<String, String[]> e : sources.entrySet()) {
            Rules.Rule r = Rules.get(e.getKey());
            assertEquals(e.getValue()[0], r.where(), e.getKey());
            assertEquals(e.getValue()[1], r.statement(), e.getKey());
        }
    }

    @Test
    void everyRuleIdTheVerifierCanNameHasAStatement() throws IOException {
        TreeSet<String> named = new TreeSet<>();
        Pattern id = Pattern.compile("\"((?:R|PEER)-[A-Z]+-\\d+)\"");
        try (Stream<Path> files = Files.walk(Path.of("src", "main", "java"))) {
            for (Path f : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java"))::iterator) {
                Matcher m = id.matcher(Files.readString(f));
                while (m.find()) named.add(m.group(1));
            }
        }
        assertTrue(named.size() > 60, named.toString());
        for (String rule : named) assertNotNull(Rules.statement(rule), rule + " has no statement in rules.tsv");
    }

    @Test
    void aReportPrintsTheStatementBesideTheIdWithoutMarkdown() {
        assertEquals("R-HASH-1 (block chain value)", Rules.withStatement("R-HASH-1"));
        assertEquals("R-TB-1", Rules.get("r-tb-1").id(), "looked up in any case");
        assertTrue(Rules.statement("PEER-ORDER-1").contains("encode_bb") && !Rules.statement("PEER-ORDER-1").contains("`"));
        assertEquals("R-NOPE-9", Rules.withStatement("R-NOPE-9"), "an id without a statement stands alone");
    }
}

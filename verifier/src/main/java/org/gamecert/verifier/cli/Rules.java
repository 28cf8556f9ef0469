package org.gamecert.verifier.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The one-line statement of every rule id a report can name (SPEC Appendix A's subjects and the
 * peer tablebase's RULES.md meanings), read from the resource rules.tsv beside this class. Text for
 * people only: no check depends on it (the kernel names rules by id). RuleStatementsTest keeps the
 * resource equal to its sources.
 */
public final class Rules {
    /** A rule: its id, where it is defined, and its statement. */
    public record Rule(String id, String where, String statement) {}

    private static final Map<String, Rule> RULES = load();

    private Rules() {}

    private static Map<String, Rule> load() {
        Map<String, Rule> m = new LinkedHashMap<>();
        try (InputStream in = Rules.class.getResourceAsStream("rules.tsv")) {
            if (in == null) throw new IllegalStateException("rules.tsv is missing from the verifier's jar");
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = r.readLine()) != null; ) {
                if (line.isBlank() || line.startsWith("#")) continue;
                String[] f = line.split("\t", 3);
                if (f.length == 3) m.put(f[0], new Rule(f[0], f[1], f[2]));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Collections.unmodifiableMap(m);
    }

    /** Every rule, in the order of SPEC Appendix A, then the peer rules. */
    public static Map<String, Rule> all() { return RULES; }

    /** The rule with this id (any case), or null. */
    public static Rule get(String id) {
        return id == null ? null : RULES.get(id.trim().toUpperCase(Locale.ROOT));
    }

    /** The statement for a report, without Markdown backticks; null for an id without one. */
    public static String statement(String id) {
        Rule r = get(id);
        return r == null ? null : r.statement().replace("`", "");
    }

    /** "R-TB-1 (canonical move under TB (P, A', P'; mode 5: P and P' only))", or the id alone when it has no statement. */
    public static String withStatement(String id) {
        String s = statement(id);
        return s == null ? id : id + " (" + s + ")";
    }

    /** What --explain prints: id, statement, where it is defined. */
    public static String explain(Rule r) {
        String where = r.where().startsWith("SPEC") ? "format-spec/SPEC.md " + r.where().substring(5) : r.where();
        return r.id() + ": " + r.statement().replace("`", "") + "\n  defined in " + where
                + (r.id().startsWith("PEER-") ? "" : "; Appendix A lists every rule, §9 'Order of checks' which one a report names first");
    }
}

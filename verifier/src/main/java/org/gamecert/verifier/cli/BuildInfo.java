package org.gamecert.verifier.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * What a jar was built from, as the build wrote it into the jar (the parent pom's build-info
 * execution): the project version, the git commit of the source tree, and whether the paths the
 * jar is made of differed from that commit ({@code clean} or {@code modified}). Outside a git
 * checkout (a source tarball) the build writes {@code unknown} for both. Nothing else (no time, no
 * host), so that two builds of one commit give the same jar. The producer and the Spark module read
 * their own resource with {@link #load}.
 */
public record BuildInfo(String version, String commit, String tree) {
    public static final String UNKNOWN = "unknown", CLEAN = "clean", MODIFIED = "modified";

    /** The verifier's resource (also the name inside a verifier jar a release pins). */
    public static final String VERIFIER_RESOURCE = "org/gamecert/verifier/build-info.properties";

    public static final Pattern COMMIT = Pattern.compile("[0-9a-f]{40}|[0-9a-f]{64}");
    static final Pattern VERSION = Pattern.compile("[0-9A-Za-z][0-9A-Za-z.+-]{0,63}");
    /** A Verifier-Commit value of bag-info.txt: a commit, the same followed by " modified", or "unknown". */
    static final Pattern BAG_INFO_COMMIT = Pattern.compile("(" + COMMIT.pattern() + ")( " + MODIFIED + ")?|" + UNKNOWN);

    public static final BuildInfo NONE = new BuildInfo(UNKNOWN, UNKNOWN, UNKNOWN);

    private static volatile BuildInfo verifier;

    /** The running verifier's build information (unknown when its classes carry none, e.g. run from an IDE). */
    public static BuildInfo verifier() {
        BuildInfo b = verifier;
        if (b == null) verifier = b = load(VERIFIER_RESOURCE);
        return b;
    }

    /** Reads a build-info resource (a path within the class path, without a leading '/'); unknown when absent or unreadable. */
    public static BuildInfo load(String resource) {
        try (InputStream in = BuildInfo.class.getClassLoader().getResourceAsStream(resource)) {
            return in == null ? NONE : read(in);
        } catch (IOException e) {
            return NONE;
        }
    }

    /** Parses a build-info file; anything malformed reads as unknown, field by field. */
    public static BuildInfo read(InputStream in) throws IOException {
        Properties p = new Properties();
        p.load(in);
        return of(p);
    }

    static BuildInfo of(Properties p) {
        String version = p.getProperty("version", "").trim(), commit = p.getProperty("commit", "").trim(), tree = p.getProperty("tree", "").trim();
        if (!VERSION.matcher(version).matches()) version = UNKNOWN;
        boolean known = COMMIT.matcher(commit).matches();
        return new BuildInfo(version, known ? commit : UNKNOWN, known && (tree.equals(CLEAN) || tree.equals(MODIFIED)) ? tree : UNKNOWN);
    }

    public boolean commitKnown() { return COMMIT.matcher(commit).matches(); }

    /** Built from exactly the named commit (its jar can be rebuilt from that commit). */
    public boolean clean() { return commitKnown() && tree.equals(CLEAN); }

    /** For --version: "0.6.0 (commit 29b3…, clean)", or "0.6.0 (commit unknown)" outside a git checkout. */
    public String describe() {
        return version + " (commit " + commit + (commitKnown() ? ", " + tree : "") + ")";
    }

    /** The value of bag-info.txt's Verifier-Commit for a jar with this information: "HEX", "HEX modified" or "unknown". */
    public String bagInfoCommit() {
        if (!commitKnown()) return UNKNOWN;
        return tree.equals(CLEAN) ? commit : commit + " " + MODIFIED;
    }

    /** Whether a Verifier-Commit value is well formed (see {@link #bagInfoCommit}). */
    public static boolean isBagInfoCommit(String value) {
        return value != null && BAG_INFO_COMMIT.matcher(value).matches();
    }
}

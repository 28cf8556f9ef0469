package org.gamecert.verifier.bundle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * bag-info.txt's Verifier-Commit (since 0.6.0): bundles made before it still verify, rendered as
 * they were; when the running verifier is the pinned jar, the commit bag-info names must be the
 * one the jar records.
 */
class VerifierCommitTest {
    static final String SHA = "29b3b8209ff0112ed4e5076604809f021bedd727";

    /** testdata/crafted/bundle-valid.tar was made by the renderer as it was before Verifier-Commit. */
    @Test
    void aBundleWithoutVerifierCommitStillVerifies() {
        BundleReport r = BundleVerifier.check(Path.of("../testdata/crafted/bundle-valid.tar"), new BundleOptions(), null);
        assertEquals("verified", r.verdict, r.problems.toString());
        assertNull(r.pinnedCommit, "the bundle records no Verifier-Commit");
        assertEquals("0.1.0", r.pinnedVersion);
        assertFalse(BundleVerifier.toJson(r).contains("\"pinned_commit\":\"")); // null, not a made-up value
    }

    @Test
    void textsOfABundleWithoutTheNewFieldsAreRenderedAsBefore() {
        BundleTexts.Cert c = new BundleTexts.Cert("c.gsc", "othello:4x4", "weak", 2, "sha256:" + "ab".repeat(32), 10,
                new long[][] {{10, 1, 2, 0}});
        BundleTexts.Meta old = new BundleTexts.Meta("t", List.of("Ada Lovelace"), List.of(), "2026-11-24", null, "0.1.0", "0".repeat(64), null);
        String cff = BundleTexts.citationCff(old, List.of(c)), readme = BundleTexts.readme(old, List.of(c));
        for (String absent : new String[] {"\nversion:", "\nlicense:", "\nreferences:"}) assertFalse(cff.contains(absent), absent);
        assertFalse(readme.contains("rebuild-verifier-check") || readme.contains("licence"), readme);

        BundleTexts.Meta now = new BundleTexts.Meta("t", List.of("Ada Lovelace"), List.of(), "2026-11-24", null, "0.6.0", "0".repeat(64), null,
                SHA, "CC-BY-4.0", "2");
        String cff2 = BundleTexts.citationCff(now, List.of(c)), readme2 = BundleTexts.readme(now, List.of(c));
        assertTrue(cff2.contains("\nversion: \"2\"\n") && cff2.contains("\nlicense: \"CC-BY-4.0\"\n"), cff2);
        assertTrue(cff2.contains("\nreferences:\n  - type: software\n") && cff2.contains("\n    commit: \"" + SHA + "\"\n")
                && cff2.contains("\n    version: \"0.6.0\"\n") && cff2.contains("\n    license: Apache-2.0\n"), cff2);
        assertTrue(readme2.contains("built from commit `" + SHA + "`") && readme2.contains("scripts/rebuild-verifier-check BUNDLE"), readme2);
        assertTrue(readme2.contains("Version 2. ") && readme2.contains("under the licence CC-BY-4.0"), readme2);
    }

    @Test
    void aCommitOtherThanThePinnedJarsIsNamed() {
        BundleReport r = new BundleReport();
        r.pinnedJarSha256 = "0".repeat(64);
        r.verifierJarSha256 = r.pinnedJarSha256;
        r.verifierMatchesPinned = true;
        r.verifierCommit = SHA;
        r.pinnedCommit = SHA;
        assertNull(BundleVerifier.pinnedCommitMismatch(r));
        r.pinnedCommit = "a".repeat(40);
        assertTrue(BundleVerifier.pinnedCommitMismatch(r).startsWith("Verifier-Commit is '" + "a".repeat(40) + "' but the pinned jar"));
        r.pinnedCommit = SHA + " modified"; // the jar says clean: bag-info may not say otherwise
        assertTrue(BundleVerifier.pinnedCommitMismatch(r) != null);
        r.pinnedCommit = null; // a bundle from before Verifier-Commit: nothing to compare
        assertNull(BundleVerifier.pinnedCommitMismatch(r));
        r.pinnedCommit = "a".repeat(40);
        r.verifierMatchesPinned = false; // another verifier than the pinned one: its commit says nothing about the pin
        assertNull(BundleVerifier.pinnedCommitMismatch(r));
    }
}

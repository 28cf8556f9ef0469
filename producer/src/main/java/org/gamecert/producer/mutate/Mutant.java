package org.gamecert.producer.mutate;

import java.util.Set;

/** A corrupted certificate, what was done to it, and the rule ids that must reject it. */
public final class Mutant {
    public final String className;
    public final byte[] bytes;
    public final String detail;
    public final Set<String> expectedRules;
    /** True when the mutation changes a claim that could by chance still hold (see {@link MutationClass#mayBeEquivalent}). */
    public final boolean mayBeEquivalent;

    Mutant(MutationClass c, byte[] bytes, String detail) {
        this.className = c.name;
        this.bytes = bytes;
        this.detail = detail;
        this.expectedRules = c.expectedRules;
        this.mayBeEquivalent = c.mayBeEquivalent;
    }
}

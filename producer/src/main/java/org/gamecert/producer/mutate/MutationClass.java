package org.gamecert.producer.mutate;

import java.util.Random;
import java.util.Set;

/**
 * One way of corrupting a certificate. {@link #apply} returns null when the certificate offers
 * nothing to mutate this way (e.g. no {C} entry, or no symmetric variant).
 */
public final class MutationClass {
    public final String name;
    public final String description;
    /** The rule ids one of which must be the first to fire (SPEC §9 order of checks). */
    public final Set<String> expectedRules;
    /** The mutated claim may still be true (a bound raised but still justified, a TB swap that no tie sees). */
    public final boolean mayBeEquivalent;
    final Op op;

    interface Op { String apply(Cert c, Random rnd, Ctx ctx); }

    MutationClass(String name, String description, boolean mayBeEquivalent, Op op, String... rules) {
        if (!name.matches("[a-z0-9-]+")) throw new IllegalArgumentException(name);
        this.name = name; this.description = description; this.mayBeEquivalent = mayBeEquivalent;
        this.op = op; this.expectedRules = Set.of(rules);
    }

    /** A mutant of {@code original}, or null if the class does not apply to it. */
    public Mutant apply(Ctx shared, long seed) {
        Ctx ctx = shared.fork();
        Random rnd = new Random(seed * 0x9E3779B97F4A7C15L + name.hashCode());
        Cert c = ctx.original.copy();
        ctx.current = c;
        String detail = op.apply(c, rnd, ctx);
        if (detail == null) return null;
        return new Mutant(this, ctx.result, detail);
    }
}

package org.gamecert.producer.mutate.peer;

import org.gamecert.producer.search.Oracle;

import java.util.Random;
import java.util.Set;

/**
 * One way of corrupting a set of peer 6×6 tables. {@link #apply} returns null when the tables
 * offer nothing to mutate this way. Classes that make a claim false (a bound beyond the truth) use
 * the oracle, an exact solver, to know the truth.
 */
public final class PeerMutationClass {
    public final String name;
    public final String description;
    /** Rule ids of verifier/.../peer/RULES.md one of which must be the first to fire. */
    public final Set<String> expectedRules;
    /** The mutant may still be a sound proof (e.g. a deleted record no parent needed). */
    public final boolean mayBeEquivalent;
    private final Op op;

    interface Op { String apply(PeerTableSet tables, Random rnd, Oracle oracle); }

    PeerMutationClass(String name, String description, boolean mayBeEquivalent, Op op, String... rules) {
        if (!name.matches("peer-[a-z0-9-]+")) throw new IllegalArgumentException(name);
        this.name = name; this.description = description; this.mayBeEquivalent = mayBeEquivalent;
        this.op = op; this.expectedRules = Set.of(rules);
    }

    /** A mutated copy of {@code original} and what was done, or null if the class does not apply. */
    public Result apply(PeerTableSet original, long seed, Oracle oracle) {
        PeerTableSet copy = original.copy();
        Random rnd = new Random(seed * 0x9E3779B97F4A7C15L + name.hashCode());
        String detail = op.apply(copy, rnd, oracle);
        return detail == null ? null : new Result(copy, detail);
    }

    public static final class Result {
        public final PeerTableSet tables;
        public final String detail;
        Result(PeerTableSet tables, String detail) { this.tables = tables; this.detail = detail; }
    }
}

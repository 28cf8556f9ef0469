package org.gamecert.verifier.kernel;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * --all: every violation, not only the first (SPEC §11): at most maxPerRule kept a rule (the
 * earliest), all counted. A SliceCheck set up with --all holds one and adds each entry's
 * violations to it (found in file order); once reported it is frozen, with the block that failed
 * to decode (it ends the check), and the SliceReport carries it. The Combiner
 * (collect) puts the slices' violations in file order up to the one that ends the check.
 * Sequential; one slice's or one check's.
 */
final class EveryViolation implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private final int maxPerRule;
    private final List<Violation> kept = new ArrayList<>();
    private final TreeMap<String, Long> counts = new TreeMap<>();
    /** A slice's, once reported: the block that failed to decode, or null. */
    private Violation fatal;
    private boolean reported;

    EveryViolation(int maxPerRule) {
        this.maxPerRule = Math.max(1, maxPerRule);
    }

    int maxPerRule() {
        return maxPerRule;
    }

    /** A slice's violation: counted, and kept if among the first maxPerRule of its rule. */
    void add(Violation x) {
        if (reported) throw new IllegalStateException("a violation after the slice's report");
        long n = counts.merge(x.rule(), 1L, Long::sum);
        if (n <= maxPerRule) kept.add(x); // found in file order: the earliest are kept
    }

    /** Frozen for the slice's report, with the block that failed to decode (or null). */
    EveryViolation reported(Violation decodeFailure) {
        if (reported) throw new IllegalStateException("a slice's violations reported twice");
        reported = true;
        fatal = decodeFailure;
        return this;
    }

    /** The slice's block that failed to decode, once reported; or null. */
    Violation decodeFailure() {
        return fatal;
    }

    /**
     * The violation that ends the check, of those found while reading: the reading's, or the
     * earliest block that failed to decode; null when none did.
     */
    static Violation fatal(FileMap map, List<List<SliceReport>> reports) {
        Violation fatal = map.readingViolation();
        for (List<SliceReport> layer : reports)
            for (SliceReport r : layer) {
                Violation f = r.every == null ? null : r.every.fatal;
                if (f != null && (fatal == null || map.earlier(f, fatal))) fatal = f;
            }
        return fatal;
    }

    /**
     * The Combiner's: every entry's violations up to the first that ends the check (fatal, from
     * fatal(); else end: the open entries', the trailer's, the root's, the census's or null),
     * in file order, at most maxPerRule kept a rule, into res; all counted. True when any.
     */
    boolean collect(Result res, FileMap map, List<List<SliceReport>> reports, Violation fatal,
            Violation end) {
        long fatalBlock = fatal == null ? Long.MAX_VALUE
                : fatal == map.readingViolation() ? map.blocks() : fatal.block();
        List<Violation> found = new ArrayList<>();
        Map<String, Long> counted = new TreeMap<>();
        for (List<SliceReport> layer : reports)
            for (SliceReport r : layer) {
                if (r.firstBlock > fatalBlock || r.every == null) continue; // after the end
                found.addAll(r.every.kept);
                r.every.counts.forEach((rule, n) -> counted.merge(rule, n, Long::sum));
            }
        Violation last = fatal != null ? fatal : end;
        found.sort((x, y) -> map.earlier(x, y) ? -1 : map.earlier(y, x) ? 1 : 0);
        if (last != null) {
            found.add(last);
            counted.merge(last.rule(), 1L, Long::sum);
        }
        Map<String, Integer> keptOf = new java.util.HashMap<>();
        for (Violation x : found)
            if (keptOf.merge(x.rule(), 1, Integer::sum) <= maxPerRule) res.violations.add(x);
        res.violationCounts.putAll(counted);
        return !found.isEmpty();
    }
}

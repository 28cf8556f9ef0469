package org.gamecert.verifier.kernel;

import org.gamecert.verifier.kernel.format.Manifest;

/**
 * The composition rules of SPEC §15.3, in their order, over a manifest and what the kernel
 * concluded of each part; the only code that makes a composite VERIFIED. It takes part results
 * only as the kernel's own PartConclusion objects, each matched to its manifest entry by the
 * commitment the kernel computed: a conclusion for other content, or whose open entries were
 * kept for another manifest or part (Combiner.partOf), counts as the part not given.
 * A part the caller says was rejected can only make the composite rejected.
 */
public final class Composition {

    private Composition() {}

    /** The verdict on a composite, with what the report needs. Made here only. */
    public static final class Outcome {
        public final Result.Verdict verdict;
        /** The composite id (SPEC §15.2): set only when verified. */
        public final String compositeId;
        /** The first violation (rejected); its position, if any, is a link's key. */
        public final Violation violation;
        /** The part the violation is about, or -1; for R-COMP-1 the part's own violation. */
        public final int violationPart;
        public final Violation partViolation;
        private final PartConclusion[] parts;
        private final int[] stillOpen;
        /**
         * Some part's conclusion was taken as given, its seal not holding in this JVM: the engine
         * said the parts came from other JVMs (a cluster; SPEC §11.1: faults only). A report of a
         * check run in one JVM must not call such a verdict its own.
         */
        public final boolean partsTakenAsGiven;

        private Outcome(Result.Verdict verdict, String compositeId, Violation violation,
                int violationPart, Violation partViolation, PartConclusion[] parts,
                int[] stillOpen, boolean partsTakenAsGiven) {
            this.partsTakenAsGiven = partsTakenAsGiven;
            this.verdict = verdict;
            this.compositeId = compositeId;
            this.violation = violation;
            this.violationPart = violationPart;
            this.partViolation = partViolation;
            this.parts = parts;
            this.stillOpen = stillOpen;
        }

        /** Part i as composition took it (its conclusion), or null: not given, or rejected. */
        public PartConclusion part(int i) {
            return parts == null ? null : parts[i];
        }

        /** Incomplete: the links whose part is not given (their open entries are still open). */
        public int stillOpenCount() {
            return stillOpen.length;
        }

        public int stillOpenLink(int i) {
            return stillOpen[i];
        }
    }

    /** A manifest that broke R-MAN-1 or R-MAN-2: the composite is rejected. */
    public static Outcome manifestRejected(String rule, String message) {
        if (!rule.equals(Rule.MAN_1) && !rule.equals(Rule.MAN_2))
            throw new IllegalArgumentException("not a manifest rule: " + rule);
        return rejected(Violation.general(rule, message), -1, null, null);
    }

    private static Outcome rejected(Violation v, int part, Violation partViolation,
            PartConclusion[] parts) {
        return new Outcome(Result.Verdict.REJECTED, null, v, part, partViolation, parts,
                new int[0], false);
    }

    /**
     * SPEC §15.3 over the manifest m; for each part i, given[i]: the kernel's conclusion for
     * the file given as part i, or null; givenRejected[i]: the first violation of a part given
     * and rejected, or null. Neither: the part is not given. acrossJvms: the parts were checked
     * in other JVMs (a cluster engine), so their conclusions arrive as serial forms and carry no
     * seal of this JVM (SPEC §11.1: there the check detects faults, and trust is in the code the
     * executors run).
     */
    public static Outcome decide(Manifest m, PartConclusion[] given, Violation[] givenRejected,
            boolean acrossJvms) {
        // The engine's arrays, read once, and each conclusion copied before its seal is checked:
        // the verdict and what it says of the parts' seals rest on the same conclusions, whatever
        // an engine thread writes into them, or into arrays of theirs it holds, meanwhile.
        PartConclusion[] concluded = given.clone();
        for (int i = 0; i < concluded.length; i++)
            concluded[i] = PartConclusion.copyOf(concluded[i]);
        Outcome o = decideOnce(m, concluded, givenRejected.clone(), acrossJvms);
        boolean asGiven = false; // a conclusion whose seal does not hold here was taken as given
        for (PartConclusion c : concluded)
            asGiven |= acrossJvms && c != null && !c.madeInThisJvm();
        return !asGiven ? o : new Outcome(o.verdict, o.compositeId, o.violation,
                o.violationPart, o.partViolation, o.parts, o.stillOpen, true);
    }

    /** concluded, rejected: the kernel's copies of the engine's arrays (decide). */
    private static Outcome decideOnce(Manifest m, PartConclusion[] concluded,
            Violation[] rejected, boolean acrossJvms) {
        int n = m.partCount();
        if (concluded.length != n || rejected.length != n)
            throw new IllegalArgumentException("one conclusion and one violation slot per part");
        for (PartConclusion c : concluded)
            if (c != null && !acrossJvms && !c.madeInThisJvm())
                throw new EngineFault("a part's conclusion that the kernel did not make in this"
                        + " JVM (or one changed since)");
        PartConclusion[] part = new PartConclusion[n];
        for (int i = 0; i < n; i++)
            if (concluded[i] != null && concluded[i].hasCommitment(m.part(i))
                    && concluded[i].openEntriesFor(m, i))
                part[i] = concluded[i];
        // 1. R-COMP-1 and R-COMP-2, part by part
        for (int i = 0; i < n; i++) {
            if (part[i] == null && concluded[i] == null && rejected[i] != null)
                return rejected(Violation.general(Rule.COMP_1, "part " + i + " ("
                        + m.partHex(i) + ") is rejected: " + rejected[i]), i, rejected[i], part);
            if (part[i] == null || i == 0 || part[0] == null) continue;
            if (!part[i].sameGame(part[0]))
                return rejected(Violation.general(Rule.COMP_2, "part " + i + " is not of part 0's"
                        + " game and tie-breaking order"), i, null, part);
        }
        // 2. each link: R-COMP-3, R-COMP-4, R-COMP-5
        for (int j = 0; j < m.linkCount(); j++) {
            Violation v = checkLink(m, j, part[m.linkParent(j)], part[m.linkPart(j)]);
            if (v != null) return rejected(v, m.linkParent(j), null, part);
        }
        // 3. R-COMP-3: every open entry is discharged by a link. Kept are those the links name
        // and the first that none names (PartSlice.keepOpen): every open entry before that one was
        // kept, so its index e among those kept is its index among all the part's open entries.
        for (int i = 0; i < n; i++) {
            for (int e = 0; part[i] != null && e < part[i].openKept(); e++) {
                long occ = part[i].openOcc(e), mover = part[i].openMover(e);
                if (m.findLink(i, occ, mover) < 0)
                    return rejected(at(Rule.COMP_3, occ, mover, "open entry " + e + " of part "
                            + i + " is discharged by no link"), i, null, part);
            }
        }
        // 4. R-COMP-6: no unused part
        boolean[] used = new boolean[n];
        for (int j = 0; j < m.linkCount(); j++) used[m.linkPart(j)] = true;
        for (int i = 1; i < n; i++)
            if (!used[i])
                return rejected(Violation.general(Rule.COMP_6, "part " + i
                        + " discharges no open entry"), i, null, part);
        // 5. R-COMP-7: no cycle
        int onCycle = partOnCycle(m);
        if (onCycle >= 0)
            return rejected(Violation.general(Rule.COMP_7, "the links have a cycle through part "
                    + onCycle), onCycle, null, part);
        int missing = 0;
        for (int j = 0; j < m.linkCount(); j++) if (part[m.linkPart(j)] == null) missing++;
        int[] stillOpen = new int[missing];
        for (int j = 0, s = 0; j < m.linkCount(); j++)
            if (part[m.linkPart(j)] == null) stillOpen[s++] = j;
        for (int i = 0; i < n; i++)
            if (part[i] == null)
                return new Outcome(Result.Verdict.INCOMPLETE, null, null, -1, null, part,
                        stillOpen, false);
        return new Outcome(Result.Verdict.VERIFIED, m.compositeId(), null, -1, null, part,
                stillOpen, false);
    }

    /** Link j with parent part p and discharging part q (null: not given). */
    private static Violation checkLink(Manifest m, int j, PartConclusion p, PartConclusion q) {
        long occ = m.linkOcc(j), mover = m.linkMover(j);
        int e = p == null ? -1 : p.openIndexOf(occ, mover);
        if (p != null && e < 0)
            return at(Rule.COMP_3, occ, mover, "link " + j + ": part " + m.linkParent(j)
                    + " has no open entry with this key");
        if (q == null) return null;
        if (q.rootOcc != occ || q.rootCanonicalMover != mover)
            return at(Rule.COMP_4, occ, mover, "link " + j + ": the root of part "
                    + m.linkPart(j) + " is another position");
        if (p != null && !PartTally.implies(q.claimKinds, q.claimLo, q.claimHi, p.openKind(e),
                p.openLo(e), p.openHi(e)))
            return at(Rule.COMP_5, occ, mover, "link " + j + ": part " + m.linkPart(j)
                    + " claims " + Kinds.kindName(q.claimKinds) + " [" + q.claimLo + ", "
                    + q.claimHi + "], which does not imply the open entry's "
                    + Kinds.kindName(p.openKind(e)) + " [" + p.openLo(e) + ", " + p.openHi(e)
                    + "]");
        return null;
    }

    /**
     * A part on a cycle of the links (edges parent to part), or -1: parts are taken off while
     * nothing points to them (Kahn); those left each have a predecessor left, so walking back n
     * steps from one of them ends on a cycle.
     */
    private static int partOnCycle(Manifest m) {
        int n = m.partCount(), k = m.linkCount();
        int[] into = new int[n], firstOut = new int[n + 1], out = new int[k];
        for (int j = 0; j < k; j++) {
            into[m.linkPart(j)]++;
            firstOut[m.linkParent(j) + 1]++;
        }
        for (int i = 0; i < n; i++) firstOut[i + 1] += firstOut[i];
        // the links are sorted by parent (R-MAN-1): part v's are links firstOut[v] .. firstOut[v+1]
        for (int j = 0; j < k; j++) out[j] = m.linkPart(j);
        int[] ready = new int[n];
        int top = 0, removed = 0;
        for (int i = 0; i < n; i++) if (into[i] == 0) ready[top++] = i;
        while (top > 0) {
            int v = ready[--top];
            removed++;
            for (int j = firstOut[v]; j < firstOut[v + 1]; j++)
                if (--into[out[j]] == 0) ready[top++] = out[j];
        }
        if (removed == n) return -1;
        int v = 0;
        while (into[v] == 0) v++;
        int[] before = new int[n]; // a predecessor still left, for each part left
        for (int j = 0; j < k; j++)
            if (into[m.linkParent(j)] > 0 && into[m.linkPart(j)] > 0)
                before[m.linkPart(j)] = m.linkParent(j);
        for (int s = 0; s < n; s++) v = before[v];
        return v;
    }

    private static Violation at(String rule, long occ, long mover, String message) {
        return new Violation(rule, -1, Long.bitCount(occ), -1, true, mover, occ & ~mover,
                message);
    }
}

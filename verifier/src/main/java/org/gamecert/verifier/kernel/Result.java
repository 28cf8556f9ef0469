package org.gamecert.verifier.kernel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The outcome of one verification. Fields stay at their defaults when not reached. The verdict,
 * the commitment and the conclusion are final: a VERIFIED result, and any result with a
 * conclusion, is made only by the kernel (Combiner.conclude, RankedKernel.run); anyone else can
 * make only a result that is not verified and has none (withVerdict). What a check cost (its time,
 * the engine's tables) is the engine's to report (engine/Figures), not part of the kernel's result.
 */
public final class Result implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    public enum Verdict { VERIFIED, REJECTED, INCOMPLETE, ERROR }

    public final Verdict verdict;
    public final String commitment; // "sha256:..." computed; set only when verified
    /**
     * What the kernel concluded, for composition (SPEC §15.3): set on a part (VERIFIED, or
     * INCOMPLETE when every rule held but it has open entries) and on a VERIFIED certificate
     * checked for a composite (Combiner.forComposition); null otherwise.
     */
    public final PartConclusion conclusion;
    /**
     * The check's map was read for a cluster (FileMap.readForCluster): its keys could leave the
     * JVM, so the binding of SPEC §11.1 held against faults, not against an engine that read
     * them, or the Result itself was read back from a serial form (madeHere). False for a
     * check whose keys stayed in this JVM, and for every unverified result made here.
     */
    private final boolean acrossJvms;
    /** Set by the constructors only: a Result read back from a serial form, whole or not, isn't. */
    private final transient boolean madeHere;

    /** A Result read back from a serial form is another JVM's claim, whatever it says. */
    public boolean acrossJvms() {
        return acrossJvms || !madeHere;
    }
    public String errorMessage;
    public org.gamecert.verifier.kernel.format.Header header; // null when the header was not read
    // Set only when verified: the root entry's kinds (P: its move is the canonical move; C: its
    // cut move, which achieves the root's value) and its stored move in the root's orientation.
    public int rootKind;
    public int rootMove = -1;
    public long entries, blocks;
    public long region = -1;         // |R| counted per census conventions, -1 if not computed
    public long unreached = -1;
    // {discs, region, aux, term}: term = Connect Four terminal positions outside R that the proof
    // reaches (SPEC §10.3, informative; 0 for Othello)
    public final List<long[]> census;
    public final List<Violation> violations;
    public final Map<String, Long> violationCounts;

    /** A result being filled in: its verdict is ERROR until one is given. */
    public Result() {
        verdict = Verdict.ERROR;
        commitment = null;
        conclusion = null;
        acrossJvms = false;
        madeHere = true;
        census = new ArrayList<>();
        violations = new ArrayList<>();
        violationCounts = new LinkedHashMap<>();
    }

    private Result(Result from, Verdict verdict, String commitment, PartConclusion conclusion,
            boolean acrossJvms) {
        this.verdict = verdict;
        this.acrossJvms = acrossJvms;
        madeHere = true;
        this.commitment = commitment;
        this.conclusion = conclusion;
        errorMessage = from.errorMessage;
        header = from.header;
        rootKind = from.rootKind;
        rootMove = from.rootMove;
        entries = from.entries;
        blocks = from.blocks;
        region = from.region;
        unreached = from.unreached;
        census = from.census;
        violations = from.violations;
        violationCounts = from.violationCounts;
    }

    /** The same figures with a verdict other than VERIFIED, and no commitment. */
    public static Result withVerdict(Result from, Verdict verdict) {
        if (verdict == Verdict.VERIFIED)
            throw new IllegalArgumentException("only the kernel verifies");
        return new Result(from, verdict, null, null, false);
    }

    /**
     * The same figures, verified, with the commitment the kernel computed (Combiner.verdict and
     * RankedKernel's verdict only).
     */
    static Result verified(Result from, String commitment, PartConclusion conclusion,
            boolean acrossJvms) {
        return new Result(from, Verdict.VERIFIED, commitment, conclusion, acrossJvms);
    }

    /**
     * A part whose every rule held but that has open entries (SPEC §15.1): INCOMPLETE, with no
     * commitment presented as a proven certificate's id (Combiner.verdict, RankedKernel only).
     */
    static Result openPart(Result from, PartConclusion conclusion, boolean acrossJvms) {
        return new Result(from, Verdict.INCOMPLETE, null, conclusion, acrossJvms);
    }

    public Violation firstViolation() {
        return violations.isEmpty() ? null : violations.get(0);
    }
}

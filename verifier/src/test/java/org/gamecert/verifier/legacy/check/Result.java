package org.gamecert.verifier.legacy.check;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The outcome of one verification. Fields stay at their defaults when not reached. */
public final class Result {
    public enum Verdict { VERIFIED, REJECTED, INCOMPLETE, ERROR }

    public Verdict verdict = Verdict.ERROR;
    public String errorMessage;
    public org.gamecert.verifier.legacy.format.Header header; // null when the header was not read
    // Set only when verified: the root entry's kinds (P: its move is the canonical move; C: its
    // cut move, which achieves the root's value) and its stored move in the root's orientation.
    public int rootKind;
    public int rootMove = -1;
    public String commitment;        // "sha256:..." computed; only set when verified
    public long entries, blocks;
    public long region = -1;         // |R| counted per census conventions, -1 if not computed
    public long unreached = -1;
    // {discs, region, aux, term}: term = Connect Four terminal positions outside R that the proof
    // reaches (SPEC §10.3, informative; 0 for Othello)
    public final List<long[]> census = new ArrayList<>();
    public final List<Violation> violations = new ArrayList<>();
    public final Map<String, Long> violationCounts = new LinkedHashMap<>();
    public long bytesPerEntryHeld;   // the layer tables' footprint per entry
    public long peakEntriesHeld;
    public long peakTableBytes;
    public int splitLayers;          // layers checked against the layer below in several segments
    public int maxSegments;          // the most segments one of them needed
    public long nanos;

    public Violation firstViolation() {
        return violations.isEmpty() ? null : violations.get(0);
    }
}

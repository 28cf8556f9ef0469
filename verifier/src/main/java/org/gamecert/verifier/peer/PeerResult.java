package org.gamecert.verifier.peer;

import java.util.ArrayList;
import java.util.List;

/** The outcome of verifying a set of peer tables. */
public final class PeerResult {
    public enum Verdict {
        VERIFIED(0), REJECTED(1), ERROR(2), INCOMPLETE(3);

        public final int exitCode;

        Verdict(int exitCode) {
            this.exitCode = exitCode;
        }

        public String text() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * A root of the tables, what its record claims (lower, upper), and what of that was proven
     * (PEER-ROOT-4): only once the peer kernel concluded that the bounds the roots' kinds oblige
     * were proven (every table checked in full, nothing violated, no record left open) does a root
     * hold more than the utility's −36 <= value <= +36: both bounds for PV, ALL' and PV' (exact
     * kinds); the lower bound for CUT; the upper bound for ALL. A bound no kind obliges was never
     * checked, whatever the record says.
     */
    public static final class Root {
        public final String position;
        public final int discs;
        public final String kind;
        public final int lower, upper;
        private final int kindBits;
        public final boolean found;
        private boolean proven;
        public int provenLower = -PeerCodec.MAX_VALUE, provenUpper = PeerCodec.MAX_VALUE;

        Root(String position, int discs, int kindBits, int lower, int upper, boolean found) {
            this.position = position;
            this.discs = discs;
            this.kind = found ? PeerCodec.kindText(kindBits) : "none";
            this.kindBits = kindBits;
            this.lower = lower;
            this.upper = upper;
            this.found = found;
        }

        /** The kernel proved the bounds the kinds oblige: they are this root's proven bounds. */
        void proven() {
            if (!found) return;
            proven = true;
            boolean exact = (kindBits & PeerCodec.EXACT_KINDS) != 0;
            if (exact || (kindBits & PeerCodec.CUT) != 0) provenLower = lower;
            if (exact || (kindBits & PeerCodec.ALL) != 0) provenUpper = upper;
        }

        /** Whether the kernel proved this root's obliged bounds (false: only claims are known). */
        public boolean boundsProven() { return proven; }

        /** Whether the proven bounds meet: the root's value is established. */
        public boolean valueProven() { return proven && provenLower == provenUpper; }
    }

    /** Why a root's value is not established although nothing was violated (null: every one is). */
    public String rootOpen;

    /** Set by {@link #fail} (never VERIFIED) or by {@link #conclude} from the kernel's conclusion. */
    private Verdict verdict;

    public Verdict verdict() { return verdict; }

    /** An outcome other than VERIFIED, which only the peer kernel's conclusion can give. */
    public void fail(Verdict v) {
        if (v == Verdict.VERIFIED) throw new IllegalArgumentException("only the peer kernel concludes VERIFIED");
        verdict = v;
    }

    /** The verdict of the peer kernel's conclusion. */
    public void conclude(org.gamecert.verifier.peer.kernel.PeerKernel.Conclusion c) {
        if (c.boundsProven()) for (Root r : roots) r.proven();
        verdict = switch (c.verdict()) {
            case VERIFIED -> Verdict.VERIFIED;
            case INCOMPLETE -> Verdict.INCOMPLETE;
            case REJECTED -> Verdict.REJECTED;
        };
    }
    public String input;
    public String inputKind;
    public String error;
    public PeerViolation violation;
    public final List<TableResult> tables = new ArrayList<>();
    public final List<Root> roots = new ArrayList<>();
    public long rootCount;
    public Integer rootValue;
    public List<Integer> skippedTables = new ArrayList<>();
    public int sumsChecked;
    public String sumsNote;
    public long peakHeapBytes;
    public double seconds;
    public long tempBytesPeak;
    public final List<String> notes = new ArrayList<>();
    /** Files or entries of the input that are not tables (nor SHA256SUMS): not read, so not checked. */
    public final List<String> unread = new ArrayList<>();

    public long entries() {
        long s = 0;
        for (TableResult t : tables) s += t.records;
        return s;
    }

    public long frontierRecords() {
        long s = 0;
        for (TableResult t : tables) s += t.frontierRecords;
        return s;
    }

    public long frontierChildren() {
        long s = 0;
        for (TableResult t : tables) s += t.frontierChildren;
        return s;
    }

    public long region() {
        long s = 0;
        for (TableResult t : tables) s += t.region;
        return s;
    }

    public int exitCode() {
        return verdict.exitCode;
    }
}

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

    /** A root of the tables and what its record claims. */
    public static final class Root {
        public final String position;
        public final int discs;
        public final String kind;
        public final int lower, upper;
        public final boolean found;

        Root(String position, int discs, String kind, int lower, int upper, boolean found) {
            this.position = position;
            this.discs = discs;
            this.kind = kind;
            this.lower = lower;
            this.upper = upper;
            this.found = found;
        }
    }

    public Verdict verdict;
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

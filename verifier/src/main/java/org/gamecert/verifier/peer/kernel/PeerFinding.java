package org.gamecert.verifier.peer.kernel;

/**
 * A peer rule found broken: rule id, table (disc count; −1 when none), record index in it (−1
 * when none), the position when hasPosition, and what was claimed and found.
 */
public record PeerFinding(String rule, int table, long record, boolean hasPosition, long mover,
        long opp, String message) implements java.io.Serializable {

    private static final String[] ORDER = {PeerRule.SUMS_1, PeerRule.TABLE_1, PeerRule.CSV_1,
        PeerRule.REC_1, PeerRule.REC_2, PeerRule.REC_3, PeerRule.REC_4, PeerRule.LAY_1,
        PeerRule.ORDER_1, PeerRule.KEY_1, PeerRule.POS_1, PeerRule.POS_2, PeerRule.PV_1,
        PeerRule.PV_2, PeerRule.PV_3, PeerRule.AP_1, PeerRule.AP_2, PeerRule.PP_1, PeerRule.PP_2,
        PeerRule.PP_3, PeerRule.CUT_1, PeerRule.ALL_1, PeerRule.ROOT_1, PeerRule.ROOT_2};

    /** Order within one record: format first, then the P, A', P', C, A obligations as listed. */
    public static int rank(String rule) {
        for (int i = 0; i < ORDER.length; i++) if (ORDER[i].equals(rule)) return i;
        return ORDER.length;
    }

    /** Whether this finding comes before o in reading order (table, record, rule). */
    public boolean before(PeerFinding o) {
        if (o == null) return true;
        if (table != o.table) return table < o.table;
        if (record != o.record) return record < o.record;
        return rank(rule) < rank(o.rule);
    }

    /** The earlier of two findings (either may be null). */
    public static PeerFinding first(PeerFinding a, PeerFinding b) {
        if (a == null) return b;
        if (b == null) return a;
        return a.before(b) ? a : b;
    }
}

package org.gamecert.verifier.peer;

/** The first rule found broken: rule id, table (disc count), record index in it, position, why. */
public final class PeerViolation implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    public final String rule;
    public final int layer;
    public final long entry;
    public final String position;
    public final String message;
    final int rank;

    public PeerViolation(String rule, int layer, long entry, String position, String message) {
        this.rule = rule;
        this.layer = layer;
        this.entry = entry;
        this.position = position;
        this.message = message;
        this.rank = rank(rule);
    }

    /** Order within one record: format first, then P, A', P', C, A obligations as listed. */
    static int rank(String rule) {
        String[] order = {PeerRules.SUMS_1, PeerRules.TABLE_1, PeerRules.CSV_1, PeerRules.REC_1, PeerRules.REC_2, PeerRules.REC_3,
            PeerRules.REC_4, PeerRules.LAY_1, PeerRules.ORDER_1, PeerRules.KEY_1, PeerRules.POS_1, PeerRules.POS_2,
            PeerRules.PV_1, PeerRules.PV_2, PeerRules.PV_3, PeerRules.AP_1, PeerRules.AP_2, PeerRules.PP_1, PeerRules.PP_2,
            PeerRules.PP_3, PeerRules.CUT_1, PeerRules.ALL_1, PeerRules.ROOT_1, PeerRules.ROOT_2};
        for (int i = 0; i < order.length; i++) if (order[i].equals(rule)) return i;
        return order.length;
    }

    /** True when this violation comes before {@code o} in reading order (table, record, rule). */
    boolean before(PeerViolation o) {
        if (o == null) return true;
        if (layer != o.layer) return layer < o.layer;
        if (entry != o.entry) return entry < o.entry;
        return rank < o.rank;
    }

    static PeerViolation first(PeerViolation a, PeerViolation b) {
        if (a == null) return b;
        if (b == null) return a;
        return a.before(b) ? a : b;
    }

    @Override
    public String toString() {
        return rule + " at table " + layer + " record " + entry + (position == null ? "" : " (" + position + ")") + ": " + message;
    }
}

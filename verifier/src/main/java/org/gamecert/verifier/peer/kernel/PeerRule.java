package org.gamecert.verifier.peer.kernel;

/** Rule ids of the peer 6×6 tablebase check; peer/RULES.md gives their meanings. */
public final class PeerRule {
    private PeerRule() {}

    public static final String SUMS_1 = "PEER-SUMS-1";
    public static final String TABLE_1 = "PEER-TABLE-1";
    public static final String CSV_1 = "PEER-CSV-1";
    public static final String REC_1 = "PEER-REC-1";
    public static final String REC_2 = "PEER-REC-2";
    public static final String REC_3 = "PEER-REC-3";
    public static final String REC_4 = "PEER-REC-4";
    public static final String LAY_1 = "PEER-LAY-1";
    public static final String ORDER_1 = "PEER-ORDER-1";
    public static final String KEY_1 = "PEER-KEY-1";
    public static final String POS_1 = "PEER-POS-1";
    public static final String POS_2 = "PEER-POS-2";
    public static final String PV_1 = "PEER-PV-1";
    public static final String PV_2 = "PEER-PV-2";
    public static final String PV_3 = "PEER-PV-3";
    public static final String AP_1 = "PEER-AP-1";
    public static final String AP_2 = "PEER-AP-2";
    public static final String PP_1 = "PEER-PP-1";
    public static final String PP_2 = "PEER-PP-2";
    public static final String PP_3 = "PEER-PP-3";
    public static final String CUT_1 = "PEER-CUT-1";
    public static final String ALL_1 = "PEER-ALL-1";
    public static final String ROOT_1 = "PEER-ROOT-1";
    public static final String ROOT_2 = "PEER-ROOT-2";
    public static final String ROOT_3 = "PEER-ROOT-3";
    public static final String ROOT_4 = "PEER-ROOT-4";
    // what the kernel requires of an engine that checks a table in slices (TableSlices): a
    // breach is an engine fault (verdict error), never a finding about the tables
    public static final String SLICE_1 = "PEER-SLICE-1";
    public static final String SLICE_2 = "PEER-SLICE-2";
    public static final String SLICE_3 = "PEER-SLICE-3";
}

package org.gamecert.verifier.peer;

import org.gamecert.verifier.peer.kernel.PeerRule;

/**
 * Rule ids of the peer 6×6 tablebase check; RULES.md in this package gives their meanings. The
 * ids are the peer kernel's (kernel.PeerRule), named here for the engine and the reports.
 */
public final class PeerRules {
    private PeerRules() {}

    public static final String SUMS_1 = PeerRule.SUMS_1;
    public static final String TABLE_1 = PeerRule.TABLE_1;
    public static final String CSV_1 = PeerRule.CSV_1;
    public static final String REC_1 = PeerRule.REC_1;
    public static final String REC_2 = PeerRule.REC_2;
    public static final String REC_3 = PeerRule.REC_3;
    public static final String REC_4 = PeerRule.REC_4;
    public static final String LAY_1 = PeerRule.LAY_1;
    public static final String ORDER_1 = PeerRule.ORDER_1;
    public static final String KEY_1 = PeerRule.KEY_1;
    public static final String POS_1 = PeerRule.POS_1;
    public static final String POS_2 = PeerRule.POS_2;
    public static final String PV_1 = PeerRule.PV_1;
    public static final String PV_2 = PeerRule.PV_2;
    public static final String PV_3 = PeerRule.PV_3;
    public static final String AP_1 = PeerRule.AP_1;
    public static final String AP_2 = PeerRule.AP_2;
    public static final String PP_1 = PeerRule.PP_1;
    public static final String PP_2 = PeerRule.PP_2;
    public static final String PP_3 = PeerRule.PP_3;
    public static final String CUT_1 = PeerRule.CUT_1;
    public static final String ALL_1 = PeerRule.ALL_1;
    public static final String ROOT_1 = PeerRule.ROOT_1;
    public static final String ROOT_2 = PeerRule.ROOT_2;
    public static final String ROOT_3 = PeerRule.ROOT_3;
    public static final String ROOT_4 = PeerRule.ROOT_4;
}

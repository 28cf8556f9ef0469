package org.gamecert.verifier.kernel;

/** The rule ids of SPEC Appendix A, the only names under which a certificate is rejected. */
public final class Rule {
    private Rule() {}

    public static final String CON_1 = "R-CON-1", CON_2 = "R-CON-2", CON_3 = "R-CON-3";
    public static final String HASH_1 = "R-HASH-1", HASH_2 = "R-HASH-2", HASH_3 = "R-HASH-3";
    public static final String HDR_1 = "R-HDR-1", HDR_2 = "R-HDR-2";
    public static final String ENC_1 = "R-ENC-1", ENC_2 = "R-ENC-2", ENC_3 = "R-ENC-3";
    public static final String KIND_1 = "R-KIND-1", KIND_2 = "R-KIND-2";
    public static final String VAL_0 = "R-VAL-0", MOVE_1 = "R-MOVE-1";
    public static final String LAY_1 = "R-LAY-1", LAY_2 = "R-LAY-2", LAY_3 = "R-LAY-3";
    public static final String LEAF_1 = "R-LEAF-1", LEAF_2 = "R-LEAF-2";
    public static final String POS_1 = "R-POS-1", POS_2 = "R-POS-2", POS_3 = "R-POS-3";
    public static final String SERVE_1 = "R-SERVE-1", P_1 = "R-P-1", TB_1 = "R-TB-1";
    public static final String AP_1 = "R-AP-1", AP_2 = "R-AP-2", PP_1 = "R-PP-1";
    public static final String CUT_1 = "R-CUT-1", ALL_1 = "R-ALL-1";
    public static final String ROOT_1 = "R-ROOT-1", ROOT_2 = "R-ROOT-2", ROOT_3 = "R-ROOT-3";
    public static final String REACH_1 = "R-REACH-1", CENSUS_1 = "R-CENSUS-1";
    // weak-ranked certificates (SPEC §9.2)
    public static final String RANK_1 = "R-RANK-1";
    // compositional certificates (SPEC §15)
    public static final String OPEN_1 = "R-OPEN-1", OPEN_2 = "R-OPEN-2", PART_1 = "R-PART-1";
    public static final String MAN_1 = "R-MAN-1", MAN_2 = "R-MAN-2";
    public static final String COMP_1 = "R-COMP-1", COMP_2 = "R-COMP-2", COMP_3 = "R-COMP-3";
    public static final String COMP_4 = "R-COMP-4", COMP_5 = "R-COMP-5", COMP_6 = "R-COMP-6";
    public static final String COMP_7 = "R-COMP-7";
}

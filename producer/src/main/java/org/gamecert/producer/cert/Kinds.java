package org.gamecert.producer.cert;

/** Kind bits of SPEC §5.4, and text forms. */
public final class Kinds {
    public static final int P = 0x01, AP = 0x02, PP = 0x04, A = 0x08, C = 0x10;
    public static final int REGION = P | AP | PP;
    /** Producer-internal flag on a need record: a terminal position of R (Connect Four census). */
    public static final int TERMINAL = 0x80;
    /**
     * Producer-internal flag on a need record: a terminal position that a bound's evidence reaches
     * (SPEC §10.3's proof-only terminal count, Connect Four); counted there unless it is also in R.
     */
    public static final int PROOF_TERMINAL = 0x40;

    private Kinds() {}

    /** f() through a contracted pass (SPEC §7.2), on a set of region kinds. */
    public static int throughPass(int kinds) {
        int r = kinds & P;
        if ((kinds & AP) != 0) r |= PP;
        if ((kinds & PP) != 0) r |= AP;
        return r;
    }

    /** Reduction of a union of needed kinds to a valid set (SPEC §5.4). */
    public static int reduce(int kinds) {
        if ((kinds & P) != 0) kinds &= ~(AP | PP);
        if ((kinds & REGION) != 0) kinds &= ~(C | A);
        return kinds;
    }

    public static boolean isExact(int kinds) { return (kinds & REGION) != 0; }

    public static String text(int kinds) {
        StringBuilder sb = new StringBuilder();
        if ((kinds & P) != 0) sb.append("P,");
        if ((kinds & AP) != 0) sb.append("A',");
        if ((kinds & PP) != 0) sb.append("P',");
        if ((kinds & C) != 0) sb.append("C,");
        if ((kinds & A) != 0) sb.append("A,");
        if (sb.length() > 0) sb.setLength(sb.length() - 1);
        return sb.toString();
    }
}

package org.gamecert.producer.cert;

/** Kind bits of SPEC §5.4, and text forms. */
public final class Kinds {
    public static final int P = 0x01, AP = 0x02, PP = 0x04, A = 0x08, C = 0x10;
    public static final int REGION = P | AP | PP;
    /**
     * The bit O of an entry's kind byte (SPEC §5.4, parts only): the entry is open, its claim is
     * proven by another part of a composite (§15). Never on a need record (whose 0x40 is
     * {@link #PROOF_TERMINAL}).
     */
    public static final int OPEN = 0x40;
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

    /** Whether an entry of this kind byte stores a move (SPEC §5.2: not {A}, not an open entry). */
    public static boolean hasMove(int kinds) { return (kinds & OPEN) == 0 && (kinds & (REGION | C)) != 0; }

    public static boolean isOpen(int kinds) { return (kinds & OPEN) != 0; }

    public static String text(int kinds) {
        StringBuilder sb = new StringBuilder();
        if ((kinds & P) != 0) sb.append("P,");
        if ((kinds & AP) != 0) sb.append("A',");
        if ((kinds & PP) != 0) sb.append("P',");
        if ((kinds & C) != 0) sb.append("C,");
        if ((kinds & A) != 0) sb.append("A,");
        if (sb.length() > 0) sb.setLength(sb.length() - 1);
        if ((kinds & OPEN) != 0) sb.append(" (open)");
        return sb.toString();
    }
}

package org.gamecert.verifier.kernel;

import org.gamecert.verifier.kernel.format.Payload;

/** The obligation kinds of SPEC §5 and the order in which one serves another (§9). */
public final class Kinds {
    private Kinds() {}

    static final int P = Payload.P, AP = Payload.AP, PP = Payload.PP, A = Payload.A, C = Payload.C;

    /** A kind set serves a region need (SPEC §9): P by P; A' by P or A'; P' by P or P'. */
    static boolean serves(int kinds, int need) {
        int serving = need == P ? P : need == AP ? P | AP : P | PP;
        return (kinds & serving) != 0;
    }

    /** f of SPEC §7.2 on a set of needs (or one): P stays, A' and P' swap. */
    static int passNeeds(int needs) {
        return (needs & P) | ((needs & AP) != 0 ? PP : 0) | ((needs & PP) != 0 ? AP : 0);
    }

    public static String kindName(int k) {
        java.util.StringJoiner names = new java.util.StringJoiner(", ", "{", "}");
        String[] kinds = {"P", "A'", "P'", "A", "C"};
        for (int i = 0; i < 5 && k > 0; i++) if ((k & (1 << i)) != 0) names.add(kinds[i]);
        return names.toString();
    }
}

package org.gamecert.verifier.peer.kernel;

import static org.gamecert.verifier.peer.kernel.PeerFormat.ALL;
import static org.gamecert.verifier.peer.kernel.PeerFormat.ALLP;
import static org.gamecert.verifier.peer.kernel.PeerFormat.CUT;
import static org.gamecert.verifier.peer.kernel.PeerFormat.MAX_VALUE;
import static org.gamecert.verifier.peer.kernel.PeerFormat.PV;
import static org.gamecert.verifier.peer.kernel.PeerFormat.PVP;

/**
 * The obligations of one peer record (RULES.md), as pure functions of the record and what is
 * known of one child at a time: no I/O, no threads, no table. What a record has learnt so far is
 * one int of state bits, which the caller keeps from call to call (RecordChecker, over the
 * key-range passes; its state goes through the engine between passes, guarded by StateSum).
 */
public final class PeerObligations {
    private PeerObligations() {}

    // Per-record state bits, accumulated over the moves and passes.
    public static final int EX_P = 1, EX_PP = 2, EX_V = 4, EX_CUT = 8;
    public static final int OPEN = 16, OPEN_EX = 32, BAD = 64;

    /** Where a broken rule of the record goes. */
    public interface Failures {
        void fail(String rule, String message);
    }

    /**
     * One move's evidence against the record's obligations: the move (square sq) is worth
     * [lo, hi] and its child serves A' (serveA), P (serveP) or P' (servePp). Universal
     * obligations fail at once; on a frontier move (child in a table not given) they leave the
     * record open instead. v: the record's value (exact kinds have lb = ub). Returns the state.
     */
    public static int apply(int kind, int v, int lb, int ub, int lo, int hi, int serveA, int serveP,
            int servePp, boolean frontier, int st, int sq, Failures out) {
        if (frontier) st |= OPEN_EX;
        if ((kind & PV) != 0) {
            if (serveA == 0) st = fail(st, frontier, PeerRule.PV_1, notServed(lo, hi, sq), out);
            if (hi > v) st = fail(st, frontier, PeerRule.PV_2, over(hi, "value", v, sq), out);
            if (serveP != 0 && lo == v && hi == v) st |= EX_P;
        }
        if ((kind & ALLP) != 0) {
            if (hi > v) st = fail(st, frontier, PeerRule.AP_1, over(hi, "value", v, sq), out);
            if (servePp != 0 && lo == v && hi == v) st |= EX_PP;
        }
        if ((kind & PVP) != 0) {
            if (serveA == 0) st = fail(st, frontier, PeerRule.PP_1, notServed(lo, hi, sq), out);
            if (hi > v) st = fail(st, frontier, PeerRule.PP_2, over(hi, "value", v, sq), out);
            if (lo == v && hi == v && serveA != 0) st |= EX_V;
        }
        if ((kind & CUT) != 0 && lo >= lb) st |= EX_CUT;
        if ((kind & ALL) != 0 && hi > ub)
            st = fail(st, frontier, PeerRule.ALL_1, over(hi, "upper bound", ub, sq), out);
        return st;
    }

    private static int fail(int st, boolean frontier, String rule, String msg, Failures out) {
        if (frontier) return st | OPEN;
        out.fail(rule, msg);
        return st | BAD;
    }

    /**
     * After the record's last move: the first existential obligation its moves did not meet, as
     * {rule, what}, or null when every one was met.
     */
    public static String[] unmet(int kind, int lb, int st) {
        if ((kind & PV) != 0 && (st & EX_P) == 0)
            return new String[] {PeerRule.PV_3,
                "no move worth exactly " + lb + " leads to a PV child"};
        if ((kind & ALLP) != 0 && (st & EX_PP) == 0)
            return new String[] {PeerRule.AP_2,
                "no move worth exactly " + lb + " leads to a PV' or PV child"};
        if ((kind & PVP) != 0 && (st & EX_V) == 0)
            return new String[] {PeerRule.PP_3, "no move is worth exactly " + lb};
        if ((kind & CUT) != 0 && (st & EX_CUT) == 0)
            return new String[] {PeerRule.CUT_1,
                "no move is proven worth at least the lower bound " + lb};
        return null;
    }

    // messages, made only when a rule fails
    private static String notServed(int lo, int hi, int sq) {
        String noRecord = lo == -MAX_VALUE && hi == MAX_VALUE ? " (no record)" : "";
        return "child is not ALL' or PV" + noRecord + mv(sq);
    }

    private static String over(int hi, String what, int limit, int sq) {
        return "move worth up to " + hi + " > " + what + " " + limit + mv(sq);
    }

    private static String mv(int sq) {
        return " (move " + PeerFormat.squareName(sq) + ")";
    }
}

package org.gamecert.verifier.kernel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import org.gamecert.verifier.kernel.format.Header;
import org.gamecert.verifier.kernel.format.Payload;
import org.gamecert.verifier.kernel.rules.Game;

/**
 * The rules of SPEC §9 for one entry at a time, with the scratch of one thread: an engine that
 * checks a block on several threads gives each its own checker (Kernel.newChecker); what they
 * share is the flags of the layer below, marked with an atomic OR so that the order of the marks
 * does not matter. The entry's children are computed here and looked up through the engine's
 * ChildLookup; every answer is checked (lookUp).
 */
public final class EntryChecker {
    static final int P = Payload.P, AP = Payload.AP, PP = Payload.PP, A = Payload.A, C = Payload.C;
    static final int REACHED = 0x08; // pass-2 flag beside the need bits P, A', P'
    // what is known of a move's child, beside a kind: a terminal position, no entry found, or
    // (layer below in key-range segments) an entry in another segment
    static final int TERMINAL_KIND = 0x100, MISSING = -1, ELSEWHERE = -2;

    final Kernel kernel;
    private final Game game;
    /** Worker: keeps its first violation (the pass picks the earliest) instead of reporting it. */
    final boolean worker;
    Violation first;
    /** The range of a block this checker was last given, for LayerPass.endBlock. */
    long rangeSerial = -1;
    int rangeFrom, rangeTo;
    /** Connect Four: terminal positions of R in the layer below (SPEC §10.3 counts them). */
    final KeyBag terminals = new KeyBag();
    /** Connect Four: terminal positions below that bound evidence reaches (§10.3 term_d). */
    final KeyBag proofTerminals = new KeyBag();
    /** A slice (LayerCheck.mark): the marks its answers send to the layer below. */
    final Marks marks = new Marks();
    /** A whole layer (LayerCheck.mark): its answers' hashes summed, and where counts wrapped. */
    long answerSum;
    private long[] wrapped = new long[8];
    private int nWrapped;

    // scratch for one entry's moves, in TB order
    private final int[] mCode = new int[64], mType = new int[64], mKind = new int[64];
    private final int[] mLo = new int[64], mHi = new int[64];
    private final boolean[] mLeaf = new boolean[64]; // the child is a leaf of mode 3 (SPEC §9.1)
    private final long[] out = new long[3];
    private final long[] occImages = new long[9]; // Game.canonical's scratch and mover
    /** What the engine fills (it may keep it and change it later), and the kernel's copy. */
    private final ChildLookup.Answer filled = new ChildLookup.Answer();
    private final ChildLookup.Answer answer = new ChildLookup.Answer();
    private final LeafSearch leaves;
    private long cOcc, cMover;

    // the entry being checked
    private LayerPass pass;
    private KeyRange range;
    private long block, index, mover, opp, legal;
    private int d, lo, hi, mv, k, n, star, best, flags;

    /**
     * Held while a range or a recheck uses this checker's scratch: an engine that gave one checker
     * to two threads at once could mix two entries' moves, so that is refused (an engine fault).
     */
    private volatile boolean busy;
    private static final VarHandle BUSY;

    static {
        try {
            BUSY = MethodHandles.lookup().findVarHandle(EntryChecker.class, "busy", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Takes the checker for one use (atomically); false if another use has not ended. */
    boolean enter() {
        return BUSY.compareAndSet(this, false, true);
    }

    void leave() {
        busy = false;
    }

    EntryChecker(Kernel kernel, boolean worker) {
        this.kernel = kernel;
        this.game = kernel.game;
        this.worker = worker;
        this.leaves = new LeafSearch(kernel.game);
    }

    /**
     * The move's value is read for a bound (SPEC §10.3 term_d): every move of A, the cut move of C,
     * and the refuted moves of an A' entry that is neither P nor P'.
     */
    private boolean consultedForBound(int code) {
        return (k & A) != 0 || ((k & C) != 0 && code == mv)
                || ((k & AP) != 0 && (k & (P | PP)) == 0 && code != mv);
    }

    /** The count of answers for entry at of the layer below went round (LayerCheck.mark). */
    void wrapped(long at) {
        if (nWrapped == wrapped.length) wrapped = Arrays.copyOf(wrapped, 2 * nWrapped);
        wrapped[nWrapped++] = at;
    }

    /** to with this checker's wraps appended; its list of wraps starts again empty. */
    long[] takeWrapped(long[] to) {
        long[] all = Arrays.copyOf(to, to.length + nWrapped);
        System.arraycopy(wrapped, 0, all, to.length, nWrapped);
        nWrapped = 0;
        return all;
    }

    private void report(String rule, String msg) {
        if (worker) { // the first of its range; the pass picks the earliest
            first = new Violation(rule, block, d, index, true, mover, opp, msg);
            throw new Kernel.Stop();
        }
        kernel.violation(rule, block, d, index, true, mover, opp, msg, false);
    }

    /** Sets (cOcc, cMover) to the canonical form of the position. */
    private void canonical(long mover, long opp) {
        cOcc = game.canonical(mover, opp, kernel.group, occImages);
        cMover = occImages[8];
    }

    /**
     * R-POS-1, R-POS-3, R-POS-2, R-MOVE-1 and the obligations of entry i of p (index: its place
     * in the layer) against the range of the layer below that the pass holds (a position rule
     * that fails is reported in the first range only). An open entry (SPEC §15) is checked only
     * up to R-POS-2; which entries are open is the kernel's own record from pass 1.
     */
    void checkEntry(LayerPass pass, long block, Payload p, int i, long index) {
        this.pass = pass;
        range = pass.range;
        this.block = block;
        this.index = index;
        d = pass.check.discs;
        mover = p.mover[i];
        long occ = p.occ[i];
        opp = occ & ~mover;
        k = p.kind[i] & 0xFF;
        boolean quiet = !range.first();
        boolean open = kernel.wasOpen(occ, mover, k);
        if (open != Payload.isOpen(k))
            throw kernel.engineFault("layer " + d + ": entry " + index
                    + " handed over with another kind byte than was read");
        if (!positionRules(occ, quiet, pass.check.flagOf(index)) || open) return;
        mv = p.move[i] & 0xFF;
        if (Payload.hasMove(k) && (mv >= game.moveCodes || ((legal >>> mv) & 1) == 0)) {
            if (!quiet) report(Rule.MOVE_1, "stored move " + (mv >= game.moveCodes ? "code " + mv
                    : game.moveName(mv)) + " is not legal");
            return;
        }
        lo = p.lo[i];
        hi = p.hi[i];
        byte[] carry = pass.check.carry;
        best = carry == null ? Integer.MIN_VALUE : carry[(int) index];
        flags = pass.check.flagOf(index) & 0xFF;
        n = 0;
        star = -1;
        children(false);
        obligations();
        if (carry != null) carry[(int) index] = (byte) Math.max(Byte.MIN_VALUE, best);
    }

    /** R-POS-1, R-POS-3, R-POS-2 (SPEC §9); sets legal. False: one failed. */
    private boolean positionRules(long occ, boolean quiet, byte entryFlags) {
        if (!game.isLegalPosition(mover, opp)) {
            if (!quiet) report(Rule.POS_1, "not a legal position");
            return false;
        }
        // A reached entry was found by its parent's lookup of a canonical form: it is one.
        if ((entryFlags & REACHED) == 0) {
            canonical(mover, opp);
            if (cOcc != occ || cMover != mover) {
                if (!quiet) report(Rule.POS_3, "the key is not the canonical form of its position");
                return false;
            }
        }
        legal = game.legalMoveCodes(mover, opp);
        if (!game.storable(mover, opp, legal)) {
            if (!quiet) report(Rule.POS_2, game.isTerminal(mover, opp) ? "the position is terminal"
                    : "the mover must pass");
            return false;
        }
        return true;
    }

    /**
     * The checks of one entry once more, its children gathered from every range of the layer
     * below (Recheck), so that the rule named is the first in the order of SPEC §9.
     */
    void gather(LayerPass pass, long block, int d, long index, long mover, long opp, int k,
            int lo, int hi, int mv) {
        this.pass = pass;
        range = pass.range;
        this.block = block;
        this.d = d;
        this.index = index;
        this.mover = mover;
        this.opp = opp;
        this.k = k;
        this.lo = lo;
        this.hi = hi;
        this.mv = mv;
        legal = game.legalMoveCodes(mover, opp);
        flags = 0;
        n = 0;
        star = -1;
        children(!range.first());
    }

    /** After gather: the obligations with every child known; the violation found, or null. */
    Violation recheck() {
        range = KeyRange.whole(0);
        best = Integer.MIN_VALUE;
        first = null;
        try {
            obligations();
        } catch (Kernel.Stop stop) {
            return first;
        }
        return null;
    }

    /** Move j's child is looked up in this range (terminal children: the first). */
    private boolean here(int j) {
        return mKind[j] != ELSEWHERE;
    }

    /**
     * What is known of each move's child in TB order: terminal value, the entry found in the
     * range, MISSING, or ELSEWHERE (another range's). merge: keep what an earlier range found
     * (the same moves in the same order). The entry's flags go to the children it consults
     * (SPEC §10.2) with the needs of §10.1.
     */
    private void children(boolean merge) {
        long order = 0; // the moves' places in TB, lowest first; a lone C: only its cut move
        for (long bits = k == C ? 1L << mv : legal; bits != 0; bits &= bits - 1)
            order |= 1L << kernel.tbPlace[Long.numberOfTrailingZeros(bits)];
        // Connect Four and NoGo count terminal positions in the census (SPEC §10.3); Othello not
        boolean countTerminals = kernel.h.family != Header.OTHELLO;
        for (; order != 0; order &= order - 1) {
            int code = kernel.tb[Long.numberOfTrailingZeros(order)];
            int type = game.child(mover, opp, code, out);
            mCode[n] = code;
            mType[n] = type;
            if (code == mv) star = n;
            int need = (flags & P) != 0 ? (code == mv ? P : AP) : 0;
            if ((flags & AP) != 0 && code == mv) need |= PP;
            if ((flags & PP) != 0) need |= AP;
            int kind = ELSEWHERE, clo = game.uMin, chi = game.uMax;
            boolean leaf = false;
            if (type == Game.TERMINAL) {
                if (range.first()) kind = TERMINAL_KIND;
                clo = chi = (int) out[2];
                if (need != 0 && range.first() && countTerminals) {
                    canonical(out[0], out[1]);
                    terminals.add(cOcc, cMover);
                }
                if (range.first() && countTerminals && consultedForBound(code)) {
                    canonical(out[0], out[1]);
                    proofTerminals.add(cOcc, cMover);
                }
            } else if (kernel.isLeaf(Long.bitCount(out[0] | out[1]))) {
                leaf = true;
                if (range.first()) {
                    kind = TERMINAL_KIND; // decided here, like a terminal move: R-LEAF-2
                    clo = (k & C) != 0 && code == mv && leafMoveAtLeast(type, lo) ? lo : game.uMin;
                    chi = (k & A) != 0 && leafMoveAtMost(type, hi) ? hi : game.uMax;
                }
            } else {
                canonical(out[0], out[1]);
                if (range.contains(cOcc, cMover)) {
                    kind = lookUp(cOcc, cMover) ? answer.kind : MISSING;
                    if (kind != MISSING) {
                        clo = type == Game.CHILD ? -answer.hi : answer.lo;
                        chi = type == Game.CHILD ? -answer.lo : answer.hi;
                        int needs = type == Game.PASS_CHILD ? Kernel.passNeeds(need) : need;
                        int bits = needs | (flags & REACHED);
                        pass.check.mark(this, range.base() + answer.index, bits, answer);
                    }
                }
            }
            mLeaf[n] = leaf;
            if (!merge || kind != ELSEWHERE) {
                mKind[n] = kind;
                mLo[n] = clo;
                mHi[n] = chi;
            }
            n++;
        }
    }

    /** R-LEAF-2: the move to the leaf in out is worth at least b (w = -V, or V after a pass). */
    private boolean leafMoveAtLeast(int type, int b) {
        return type == Game.CHILD ? !leaves.atLeast(out[0], out[1], -b + 1)
                : leaves.atLeast(out[0], out[1], b);
    }

    /** R-LEAF-2: the move to the leaf in out is worth at most b. */
    private boolean leafMoveAtMost(int type, int b) {
        return type == Game.CHILD ? leaves.atLeast(out[0], out[1], -b)
                : !leaves.atLeast(out[0], out[1], b + 1);
    }

    /**
     * Asks the engine for the record of key (occ, mover) in the layer below; an answer must carry
     * exactly that key and an index inside the range the engine holds, else the engine is at fault.
     */
    private boolean lookUp(long occ, long mover) {
        if (pass.lookup == null || !pass.lookup.find(occ, mover, filled)) return false;
        // each field read once, into the kernel's own copy, which is then checked and used: an
        // engine thread that changes the object it filled changes nothing the kernel decides on
        answer.occ = filled.occ;
        answer.mover = filled.mover;
        answer.kind = filled.kind;
        answer.lo = filled.lo;
        answer.hi = filled.hi;
        answer.index = filled.index;
        if (answer.occ != occ || answer.mover != mover)
            throw kernel.engineFault("asked for key " + key(occ, mover) + ", answered with key "
                    + key(answer.occ, answer.mover));
        if (answer.index < 0 || answer.index >= range.size())
            throw kernel.engineFault("answered index " + answer.index + " outside its range of "
                    + range.size());
        // a record's kind is a byte and its bounds lie in [U_min, U_max] (R-VAL-0): so are an
        // answer's, which its digest then binds in full
        if ((answer.kind & ~0xFF) != 0 || answer.lo < game.uMin || answer.lo > game.uMax
                || answer.hi < game.uMin || answer.hi > game.uMax)
            throw kernel.engineFault("an answer with kind " + answer.kind + " and bounds ["
                    + answer.lo + ", " + answer.hi + "], not a record's");
        return true;
    }

    private static String key(long occ, long mover) {
        return Long.toHexString(occ) + "/" + Long.toHexString(mover);
    }

    /** The obligations of one entry (SPEC §9), in the order P, A', P', C, A. */
    private void obligations() {
        if ((k & P) != 0) {
            for (int j = 0; j < n; j++) serve(j, j == star ? P : AP, "P");
            maxIs("P", Rule.P_1);
            tieBreak("P");
        }
        if ((k & AP) != 0) {
            serve(star, PP, "A'");
            rAp1();
            rTb1ForAp();
            rAp2();
        }
        if ((k & PP) != 0) {
            for (int j = 0; j < n; j++) serve(j, AP, "P'");
            maxIs("P'", Rule.PP_1);
            tieBreak("P'");
        }
        if ((k & C) != 0) rCut1();
        if ((k & A) != 0) rAll1();
    }

    /** R-AP-1: an A' entry's move is worth exactly its value. */
    private void rAp1() {
        if (here(star) && (mLo[star] != lo || mHi[star] != lo))
            report(Rule.AP_1, "A' value " + lo + " but its move " + game.moveName(mv)
                    + " is worth " + range(star));
    }

    /** R-TB-1 for A': no earlier move may reach the value. */
    private void rTb1ForAp() {
        for (int j = 0; j < star; j++)
            if (here(j) && mHi[j] >= lo)
                report(Rule.TB_1, "A' move " + game.moveName(mv) + ": the earlier move "
                        + game.moveName(mCode[j]) + " may be worth " + mHi[j] + " >= " + lo);
    }

    /** R-AP-2: every later move is refuted (worth at most the value). */
    private void rAp2() {
        for (int j = star + 1; j < n; j++)
            if (here(j) && mHi[j] > lo)
                report(Rule.AP_2, "A' value " + lo + ": the later move " + game.moveName(mCode[j])
                        + " is not refuted, it may be worth " + mHi[j]);
    }

    /** R-CUT-1: the cut move is worth at least the lower bound (R-LEAF-2 for a leaf). */
    private void rCut1() {
        if (here(star) && mLo[star] < lo) {
            if (mLeaf[star])
                report(Rule.LEAF_2, "lower bound " + lo + " but the cut move " + game.moveName(mv)
                        + " leads to a leaf that the verifier's search finds worth less");
            else
                report(Rule.CUT_1, "lower bound " + lo + " but the cut move " + game.moveName(mv)
                        + " is only known to be worth " + range(star));
        }
    }

    /** R-ALL-1: no move is worth more than the upper bound (R-LEAF-2 for a move to a leaf). */
    private void rAll1() {
        for (int j = 0; j < n; j++) {
            if (!here(j) || mHi[j] <= hi) continue;
            if (mLeaf[j])
                report(Rule.LEAF_2, "upper bound " + hi + " but move " + game.moveName(mCode[j])
                        + " leads to a leaf that the verifier's search finds worth more");
            else
                report(Rule.ALL_1, "upper bound " + hi + " but move " + game.moveName(mCode[j])
                        + " may be worth " + mHi[j]);
        }
    }

    private String range(int j) {
        if (!here(j)) return "?";
        return mLo[j] == mHi[j] ? Integer.toString(mLo[j]) : "[" + mLo[j] + ", " + mHi[j] + "]";
    }

    /**
     * R-P-1 and R-PP-1: the exact value is the maximum over the moves, known once the last range
     * is seen (best carries the maximum of the earlier ranges).
     */
    private void maxIs(String claim, String rule) {
        for (int j = 0; j < n; j++)
            if (here(j)) best = Math.max(best, mLo[j]);
        if (range.last() && best != lo) {
            StringBuilder sb = new StringBuilder(claim + " value " + lo
                    + " is not the maximum over the moves, " + best + "; found move values");
            for (int j = 0; j < n; j++)
                sb.append(' ').append(game.moveName(mCode[j])).append('=').append(range(j));
            report(rule, sb.toString());
        }
    }

    /** R-TB-1: the first failure only, once per entry also when its moves are split over ranges. */
    private void tieBreak(String claim) {
        java.util.BitSet reported = pass.check.tbReported;
        if (reported != null && reported.get((int) index)) return;
        String why = null;
        if (here(star) && (mLo[star] != lo || mHi[star] != lo))
            why = claim + " move " + game.moveName(mv) + " is worth " + range(star)
                    + ", not the value " + lo;
        for (int j = 0; why == null && j < star; j++)
            if (here(j) && mLo[j] == lo && mHi[j] == lo)
                why = claim + " move " + game.moveName(mv) + " is not canonical: the earlier move "
                        + game.moveName(mCode[j]) + " is also worth " + lo;
        if (why == null) return;
        if (reported != null) reported.set((int) index);
        report(Rule.TB_1, why);
    }

    /** R-SERVE-1: the child after move j has an entry of a kind that serves the need. */
    private void serve(int j, int need, String claim) {
        int ck = mKind[j];
        if (ck == TERMINAL_KIND || ck == ELSEWHERE) return;
        boolean pass = mType[j] == Game.PASS_CHILD;
        int eff = pass ? Kernel.passNeed(need) : need;
        if (ck == MISSING || !Kernel.serves(ck, eff))
            report(Rule.SERVE_1, claim + " entry: the child after " + game.moveName(mCode[j])
                    + (pass ? " (and a pass)" : "") + " needs " + Kernel.kindName(eff) + ", found "
                    + (ck == MISSING ? "no entry" : "kinds " + Kernel.kindName(ck)));
    }
}

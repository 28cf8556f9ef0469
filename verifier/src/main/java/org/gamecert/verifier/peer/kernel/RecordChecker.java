package org.gamecert.verifier.peer.kernel;

import static org.gamecert.verifier.peer.kernel.PeerFormat.ALLP;
import static org.gamecert.verifier.peer.kernel.PeerFormat.EXACT_KINDS;
import static org.gamecert.verifier.peer.kernel.PeerFormat.MAX_VALUE;
import static org.gamecert.verifier.peer.kernel.PeerFormat.PV;
import static org.gamecert.verifier.peer.kernel.PeerFormat.PVP;
import static org.gamecert.verifier.peer.kernel.PeerFormat.RECORD_BYTES;
import static org.gamecert.verifier.peer.kernel.PeerObligations.BAD;
import static org.gamecert.verifier.peer.kernel.PeerObligations.OPEN;
import static org.gamecert.verifier.peer.kernel.PeerObligations.OPEN_EX;

import org.gamecert.verifier.kernel.rules.OthelloRules;

/**
 * The checks of one chunk of table n in one pass, with the scratch of one thread: in pass 0
 * each record's form (RecordRules), then in every pass the moves whose child this pass can
 * answer (PeerObligations.apply), and after the last pass the existential obligations
 * (PeerObligations.unmet). The children are computed and canonicalized here and looked up
 * through the engine's ChildLookup; every answer is checked (lookUp).
 */
final class RecordChecker implements PeerObligations.Failures {
    /** An answer the engine should not have given: the chunk's check stops, as a fault. */
    private static final class BadAnswer extends RuntimeException {
        BadAnswer(String message) {
            super(message, null, false, false);
        }
    }

    private final PeerKernel kernel;
    private final OthelloRules rules;
    private final long[] pos = new long[2];
    private final long[] can = new long[2];
    private final RecordRules.Decoded d = new RecordRules.Decoded();
    private final ChildLookup.Answer answer = new ChildLookup.Answer();
    private Chunk chunk;
    private ParentPass pass;
    private int n;
    private long index, curMover, curOpp; // the record being checked, for fail

    RecordChecker(PeerKernel kernel) {
        this.kernel = kernel;
        this.rules = kernel.rules;
    }

    void check(Chunk c) {
        chunk = c;
        pass = c.pass;
        n = pass.table.n;
        try {
            records();
        } catch (BadAnswer e) {
            c.fault = e.getMessage();
        }
    }

    private void records() {
        Chunk c = chunk;
        byte[] buf = c.buf, state = c.state;
        boolean first = pass.index == 0;
        long prevKey = 0;
        boolean hasPrev = false;
        byte[] prev = c.previousRecord;
        if (prev != null && RecordRules.framed(prev, 0, RECORD_BYTES)
                && RecordRules.keyDecodes(prev, 0, pos, d)) {
            prevKey = d.key;
            hasPrev = true;
        }
        for (int r = 0; r < c.recs; r++) {
            int off = r * RECORD_BYTES;
            index = c.firstIndex + r;
            int st = state[r] & 0xFF;
            // states: zero into pass 0; what a pass gives, the next must be given back (sums)
            if (first && st != 0) throw new BadAnswer("record " + index + " has a state in pass 0");
            long head = RecordRules.head(buf, off), tail = RecordRules.tail(buf, off);
            if (first) c.contentSum += RecordRules.recordHash(index, head, tail, 0);
            else c.stateInSum += RecordRules.stateHash(index, head, tail, st);
            if (!first) {
                // Its form was checked in pass 0 (the sums say the record is the one it had).
                if ((st & BAD) == 0) {
                    PeerFormat.decodeKey(buf, off, pos);
                    RecordRules.fields(buf, off, d);
                    st = moves(pos[0], pos[1], d.kind, d.lb, d.ub, st);
                    if (pass.last && (st & BAD) == 0) st = finish(pos[0], pos[1], d.kind, d.lb, st);
                }
            } else {
                String rule = RecordRules.form(rules, buf, off, n, hasPrev, prevKey, pos, d);
                if (rule != null) {
                    String why = RecordRules.message(rules, rule, d, n, prevKey, RECORD_BYTES);
                    boolean at = RecordRules.hasPosition(rule);
                    found(new PeerFinding(rule, n, index, at, d.mover, d.opp, why));
                    st = BAD;
                } else {
                    if ((d.kind & EXACT_KINDS) != 0) c.region++;
                    else c.auxiliary++;
                    kernel.sawRecord(c, n, index, d);
                    st = moves(d.mover, d.opp, d.kind, d.lb, d.ub, st);
                    if (pass.last && (st & BAD) == 0) st = finish(d.mover, d.opp, d.kind, d.lb, st);
                }
                // the next record's PEER-ORDER-1 compares with this one when its key decoded
                if (rule == null || RecordRules.hasPosition(rule)) {
                    hasPrev = true;
                    prevKey = d.key;
                }
            }
            state[r] = (byte) st;
            if (!pass.last) c.stateOutSum += RecordRules.stateHash(index, head, tail, st & 0xFF);
        }
    }

    private void found(PeerFinding f) {
        chunk.finding = PeerFinding.first(chunk.finding, f);
    }

    /** A universal obligation of the record being checked failed (PeerObligations.apply). */
    @Override
    public void fail(String rule, String message) {
        found(new PeerFinding(rule, n, index, true, curMover, curOpp, message));
    }

    /** Applies every move of the record whose child this pass can answer. */
    private int moves(long mover, long opp, int kind, int lb, int ub, int st) {
        curMover = mover;
        curOpp = opp;
        int v = lb; // exact kinds have lb = ub
        boolean pass0 = pass.index == 0;
        boolean childGiven = pass.table.childGiven, terminalNext = pass.table.terminalNext;
        ChildRange range = pass.range;
        long moves = rules.legalMoves(mover, opp);
        int frontierMoves = 0;
        while (moves != 0) {
            int sq = Long.numberOfTrailingZeros(moves);
            moves &= moves - 1;
            long f = rules.flips(mover, opp, sq);
            long m2 = mover | f | (1L << sq), o2 = opp & ~f;
            int sign;
            long cm, co;
            if (!terminalNext && rules.legalMoves(o2, m2) != 0) {
                sign = -1;
                cm = o2;
                co = m2;
            } else if (!terminalNext && rules.legalMoves(m2, o2) != 0) {
                sign = 1;
                cm = m2;
                co = o2;
            } else {
                // the move ends the game: its value is the verifier's own, in pass 0
                if (!pass0) continue;
                int t = rules.terminalValue(m2, o2);
                st = PeerObligations.apply(kind, v, lb, ub, t, t, 1, 1, 1, false, st, sq, this);
                continue;
            }
            int childKind = 0, clb = -MAX_VALUE, cub = MAX_VALUE;
            boolean frontier = false;
            if (!childGiven) {
                if (!pass0) continue;
                frontier = true;
                frontierMoves++;
            } else {
                PeerFormat.canonical(cm, co, can);
                long key = PeerFormat.orderKey(can[0], can[1]);
                if (!range.contains(key)) continue;
                if (lookUp(key, range)) {
                    int inf = answeredInfo;
                    if ((inf & 0x8000) != 0) {
                        childKind = (inf >>> 7) & 7;
                        clb = cub = (inf & 0x7F) - MAX_VALUE;
                    } else {
                        clb = (inf & 0x7F) - MAX_VALUE;
                        cub = ((inf >>> 7) & 0x7F) - MAX_VALUE;
                    }
                }
            }
            int lo, hi, serveA, servePp;
            if (sign < 0) {
                lo = -cub;
                hi = -clb;
                serveA = (childKind & (PV | ALLP)) != 0 ? 1 : 0;
                servePp = (childKind & (PV | PVP)) != 0 ? 1 : 0;
            } else {
                // Through a contracted pass the needs map P→P, A'→P', P'→A'.
                lo = clb;
                hi = cub;
                serveA = (childKind & (PV | PVP)) != 0 ? 1 : 0;
                servePp = (childKind & (PV | ALLP)) != 0 ? 1 : 0;
            }
            int serveP = (childKind & PV) != 0 ? 1 : 0;
            st = PeerObligations.apply(kind, v, lb, ub, lo, hi, serveA, serveP, servePp, frontier,
                    st, sq, this);
        }
        // carried only within this record (pass 0 of a frontier table, its only pass)
        if (frontierMoves > 0) st |= frontierMoves << 8;
        return st;
    }

    /**
     * Asks the engine for the record of key in the range it holds; an answer must carry exactly
     * that key, a valid child info and an index inside the range, else the engine is at fault.
     */
    private boolean lookUp(long key, ChildRange range) {
        if (!pass.lookup.find(key, answer)) return false;
        // read once: an engine thread may change its answer object after the checks below
        long answeredKey = answer.key, at = answer.index;
        int info = answer.info;
        if (answeredKey != key)
            throw new BadAnswer("asked for key " + Long.toHexString(key) + ", answered with key "
                    + Long.toHexString(answeredKey));
        if (at < 0 || at >= range.size)
            throw new BadAnswer("answered index " + at + " outside " + range);
        if ((info & ~0xFFFF) != 0)
            throw new BadAnswer("answered child info " + Integer.toHexString(info));
        if (range.facts[(int) at] != ChildTable.fact(key, info))
            throw new BadAnswer("answered record " + at + " of " + range
                    + " is not the record admitted there (another key or other child facts)");
        answeredInfo = info;
        return true;
    }

    /** The child info of the last answer lookUp took, as it checked it. */
    private int answeredInfo;

    /** After the last pass: existential obligations met, or open on the frontier, or broken. */
    private int finish(long mover, long opp, int kind, int lb, int st) {
        boolean open = (st & OPEN) != 0, mayOpen = (st & OPEN_EX) != 0;
        int frontierMoves = st >>> 8;
        st &= 0xFF;
        String[] unmet = PeerObligations.unmet(kind, lb, st);
        if (unmet != null) {
            if (mayOpen) {
                open = true;
            } else {
                found(new PeerFinding(unmet[0], n, index, true, mover, opp, unmet[1]));
                return st | BAD;
            }
        }
        if (open) {
            chunk.frontierRecords++;
            chunk.frontierChildren += frontierMoves;
        }
        return st;
    }
}

package org.gamecert.verifier.peer.kernel;

import static org.gamecert.verifier.peer.kernel.PeerFormat.ALL;
import static org.gamecert.verifier.peer.kernel.PeerFormat.CUT;
import static org.gamecert.verifier.peer.kernel.PeerFormat.EXACT_KINDS;
import static org.gamecert.verifier.peer.kernel.PeerFormat.MAX_VALUE;
import static org.gamecert.verifier.peer.kernel.PeerFormat.RECORD_BYTES;

import org.gamecert.verifier.kernel.rules.OthelloRules;

/**
 * The rules of one peer record's own form, one pure function per rule id (peer/RULES.md): the
 * record decoded (PEER-REC-1..4), its table (PEER-LAY-1), its order after the record before it
 * (PEER-ORDER-1), its key (PEER-KEY-1) and its position (PEER-POS-1, PEER-POS-2). Each returns
 * whether the rule holds; form gives the first that fails, in the order the rules are listed, and
 * message says why. No state, no I/O: any engine may call them on any thread.
 */
public final class RecordRules {
    private RecordRules() {}

    /** The four centre squares, each of which holds a disc in any legal position. */
    static final long CENTRE = (1L << 14) | (1L << 15) | (1L << 20) | (1L << 21);

    /** One record's fields, decoded (reused: no allocation per record). */
    public static final class Decoded {
        public long mover, opp, key;
        public int kind, lb, ub;
    }

    /** PEER-REC-1: len bytes are a whole record, ending in a newline. */
    public static boolean framed(byte[] buf, int off, int len) {
        return len == RECORD_BYTES && buf[off + 12] == '\n';
    }

    /** PEER-REC-2: the key's characters are in the alphabet; fills mover, opp and key. */
    public static boolean keyDecodes(byte[] buf, int off, long[] pos, Decoded d) {
        if (!PeerFormat.decodeKey(buf, off, pos)) return false;
        d.mover = pos[0];
        d.opp = pos[1];
        d.key = PeerFormat.orderKey(pos[0], pos[1]);
        return true;
    }

    /** The kind and bound fields as stored (checked by PEER-REC-3 and PEER-REC-4). */
    public static void fields(byte[] buf, int off, Decoded d) {
        d.kind = PeerFormat.symbol(buf[off + 9]);
        d.lb = PeerFormat.symbol(buf[off + 10]) - MAX_VALUE;
        d.ub = PeerFormat.symbol(buf[off + 11]) - MAX_VALUE;
    }

    /** PEER-REC-3: kind in 1..31, bounds in −36..36. */
    public static boolean fieldsInRange(int kind, int lb, int ub) {
        return kind >= 1 && kind <= 31 && lb >= -MAX_VALUE && lb <= MAX_VALUE
                && ub >= -MAX_VALUE && ub <= MAX_VALUE;
    }

    /** PEER-REC-4: lower ≤ upper, and equal on a record with PV, ALL' or PV'. */
    public static boolean boundsAgree(int kind, int lb, int ub) {
        return lb <= ub && ((kind & EXACT_KINDS) == 0 || lb == ub);
    }

    /** PEER-LAY-1: the position has the table's disc count. */
    public static boolean inTable(long mover, long opp, int table) {
        return Long.bitCount(mover | opp) == table;
    }

    /** PEER-ORDER-1: the key is greater than the previous record's (unsigned), if any. */
    public static boolean follows(long key, boolean hasPrevious, long previousKey) {
        return !hasPrevious || Long.compareUnsigned(key, previousKey) > 0;
    }

    /** PEER-KEY-1: the key is the peer canonical form of its position. */
    public static boolean canonical(long mover, long opp) {
        return PeerFormat.isCanonical(mover, opp);
    }

    /** PEER-POS-1: no centre square is empty. */
    public static boolean centreFilled(long mover, long opp) {
        return ((mover | opp) & CENTRE) == CENTRE;
    }

    /** PEER-POS-2: the side to move has a legal move. */
    public static boolean moverCanMove(OthelloRules rules, long mover, long opp) {
        return rules.legalMoves(mover, opp) != 0;
    }

    /**
     * A record of a table checked as parent: the first of PEER-REC-1, REC-2, REC-3, REC-4,
     * LAY-1, ORDER-1, KEY-1, POS-1, POS-2 it breaks, or null; d holds what was decoded.
     */
    public static String form(OthelloRules rules, byte[] buf, int off, int table,
            boolean hasPrevious, long previousKey, long[] pos, Decoded d) {
        if (!framed(buf, off, RECORD_BYTES)) return PeerRule.REC_1;
        if (!keyDecodes(buf, off, pos, d)) return PeerRule.REC_2;
        fields(buf, off, d);
        if (!fieldsInRange(d.kind, d.lb, d.ub)) return PeerRule.REC_3;
        if (!boundsAgree(d.kind, d.lb, d.ub)) return PeerRule.REC_4;
        if (!inTable(d.mover, d.opp, table)) return PeerRule.LAY_1;
        if (!follows(d.key, hasPrevious, previousKey)) return PeerRule.ORDER_1;
        if (!canonical(d.mover, d.opp)) return PeerRule.KEY_1;
        if (!centreFilled(d.mover, d.opp)) return PeerRule.POS_1;
        if (!moverCanMove(rules, d.mover, d.opp)) return PeerRule.POS_2;
        return null;
    }

    /**
     * A record of a table loaded as child: the first of PEER-REC-1, REC-2, ORDER-1, REC-3, REC-4
     * it breaks, or null (its other rules are checked when its table is checked as parent).
     */
    public static String childForm(byte[] buf, int off, int len, boolean hasPrevious,
            long previousKey, long[] pos, Decoded d) {
        if (!framed(buf, off, len)) return PeerRule.REC_1;
        if (!keyDecodes(buf, off, pos, d)) return PeerRule.REC_2;
        if (!follows(d.key, hasPrevious, previousKey)) return PeerRule.ORDER_1;
        fields(buf, off, d);
        if (!fieldsInRange(d.kind, d.lb, d.ub)) return PeerRule.REC_3;
        if (!boundsAgree(d.kind, d.lb, d.ub)) return PeerRule.REC_4;
        return null;
    }

    /** Whether a finding of this rule names the record's position (it was decoded). */
    public static boolean hasPosition(String rule) {
        return !PeerRule.REC_1.equals(rule) && !PeerRule.REC_2.equals(rule);
    }

    /** Why a record broke a rule of its form (made only when one fails). */
    public static String message(OthelloRules rules, String rule, Decoded d, int table,
            long previousKey, int len) {
        switch (rule) {
            case PeerRule.REC_1:
                return len < RECORD_BYTES ? "table ends inside a record (size not a multiple of 13)"
                        : "record does not end with a newline";
            case PeerRule.REC_2:
                return "key characters do not encode a 6×6 position";
            case PeerRule.REC_3:
                return "kind or bound character out of range";
            case PeerRule.REC_4:
                return "bounds [" + d.lb + ", " + d.ub + "] for kind "
                        + PeerFormat.kindText(d.kind);
            case PeerRule.LAY_1:
                return "position has " + Long.bitCount(d.mover | d.opp) + " discs, table " + table;
            case PeerRule.ORDER_1:
                return d.key == previousKey ? "same position as the previous record"
                        : "encode_bb not greater than the previous record's";
            case PeerRule.KEY_1: {
                long[] can = new long[2];
                PeerFormat.canonical(d.mover, d.opp, can);
                return "key " + PeerFormat.keyText(d.mover, d.opp)
                        + " is not canonical (canonical: " + PeerFormat.keyText(can[0], can[1])
                        + ")";
            }
            case PeerRule.POS_1:
                return "a centre square is empty";
            default:
                return rules.legalMoves(d.opp, d.mover) == 0 ? "terminal position stored"
                        : "side to move must pass (should be contracted)";
        }
    }

    /**
     * What a parent needs of a child: exact flag, value or bounds, and its PV/ALL'/PV' bits, in
     * 16 bits. A stored bound is evidence only when a kind bit obliges the child to prove it: CUT
     * proves the lower bound, ALL the upper one. The other field of a CUT-only or ALL-only record
     * is never checked, so a parent must not lean on it (it counts as the utility's range).
     */
    public static int childInfo(int kind, int lb, int ub) {
        if ((kind & EXACT_KINDS) != 0)
            return 0x8000 | (kind & EXACT_KINDS) << 7 | (lb + MAX_VALUE);
        int provenLb = (kind & CUT) != 0 ? lb : -MAX_VALUE;
        int provenUb = (kind & ALL) != 0 ? ub : MAX_VALUE;
        return (provenUb + MAX_VALUE) << 7 | (provenLb + MAX_VALUE);
    }

    /**
     * A record at its place in its table (state 0): the sum over a table's records is the
     * fingerprint by which the kernel knows that table n+1 as loaded (ChildTable) is the table
     * checked as parent in its pass 0 (the states from pass to pass: stateHash). Unkeyed, since
     * the sums are compared across JVMs (slices) and runs (--state): it guards against an
     * engine's mistakes, not against a forger searching for collisions.
     */
    public static long recordHash(long index, byte[] buf, int off, int state) {
        return recordHash(index, head(buf, off), tail(buf, off), state);
    }

    /** recordHash of the record whose bytes 0..7 are head and 8..12 tail (little-endian). */
    public static long recordHash(long index, long head, long tail, int state) {
        long h = mix(head ^ index * 0x9E3779B97F4A7C15L ^ (state & 0xFFL) * 0x5851F42D4C957F2DL);
        // the tail through a second mix, so that a sum of hashes is linear in no field: a change
        // of +d in one record's byte and -d in another's no longer leaves the sum as it was
        return mix(h ^ tail * 0xD6E8FEB86659FD93L);
    }

    /**
     * A record at its place with the state it carries from one pass to the next, hashed from a
     * secret drawn when the verifier starts (the states' sums are compared within one kernel):
     * no engine can give back other states or records with the same sum.
     */
    static long stateHash(long index, long head, long tail, int state) {
        long h = mix(STATE_KEY ^ index * 0x9E3779B97F4A7C15L);
        h = mix(h ^ head);
        return mix(h ^ (tail << 8 | (state & 0xFF))); // tail: 40 bits
    }

    // the JDK's own random bytes, not a provider's an engine registered (SECURITY.md GC-2026-20)
    private static final long STATE_KEY = org.gamecert.verifier.kernel.TrustedJdk.randomLong();

    public static long head(byte[] buf, int off) {
        long head = 0;
        for (int i = 7; i >= 0; i--) head = head << 8 | (buf[off + i] & 0xFF);
        return head;
    }

    public static long tail(byte[] buf, int off) {
        long tail = 0;
        for (int i = 12; i >= 8; i--) tail = tail << 8 | (buf[off + i] & 0xFF);
        return tail;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}

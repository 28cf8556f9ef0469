package org.gamecert.producer.mutate.peer;

import org.gamecert.producer.export.PeerTables;
import org.gamecert.producer.game.Game;
import org.gamecert.producer.search.Oracle;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.gamecert.producer.mutate.peer.PeerTableSet.RECORD;
import static org.gamecert.producer.mutate.peer.PeerTableSet.kind;
import static org.gamecert.producer.mutate.peer.PeerTableSet.lower;
import static org.gamecert.producer.mutate.peer.PeerTableSet.records;
import static org.gamecert.producer.mutate.peer.PeerTableSet.upper;

/**
 * The peer-format mutation classes (`produce mutate --class peer-...`), applied to a directory of
 * peer 6×6 tables. Rule ids are those of verifier/.../peer/RULES.md. The bound classes make a
 * claim false for sure: the truth comes from an exact solve of the record's position.
 */
public final class PeerMutations {
    /** Kind bits of the format: PV, ALL', PV', ALL, CUT. */
    static final int PV = 1, ALLP = 2, PVP = 4, ALL = 8, CUT = 16, EXACT = PV | ALLP | PVP;
    static final int MAX = 36;

    private static final String[] SERVE_RULES = {"PEER-PV-1", "PEER-PV-2", "PEER-PV-3", "PEER-AP-1", "PEER-AP-2",
            "PEER-PP-1", "PEER-PP-2", "PEER-PP-3", "PEER-CUT-1", "PEER-ALL-1", "PEER-ROOT-1"};

    public static final List<PeerMutationClass> ALL_CLASSES = List.of(
            new PeerMutationClass("peer-cut-lb-raised", "CUT record's lower bound raised above the position's true value",
                    false, PeerMutations::cutLowerRaised, "PEER-CUT-1"),
            new PeerMutationClass("peer-all-ub-lowered", "ALL record's upper bound lowered below the position's true value",
                    false, PeerMutations::allUpperLowered, "PEER-ALL-1"),
            new PeerMutationClass("peer-cut-lb-raised-unbacked-child", "CUT lower bound raised above the truth, made to look "
                    + "proven by a new CUT-only child record whose upper bound (backed by no ALL bit) is just as false",
                    false, PeerMutations::cutRaisedUnbackedChild, "PEER-CUT-1", "PEER-REC-4"),
            new PeerMutationClass("peer-exact-value-changed", "exact (PV/ALL'/PV') record's value moved by 2 (so no longer true)",
                    false, PeerMutations::exactChanged, SERVE_RULES),
            new PeerMutationClass("peer-kind-bit-removed", "an exact kind bit removed from a record that has several bits",
                    true, PeerMutations::kindBitRemoved, SERVE_RULES),
            new PeerMutationClass("peer-record-deleted", "a record above the lowest table deleted (parents lose a child)",
                    true, PeerMutations::recordDeleted, SERVE_RULES),
            new PeerMutationClass("peer-record-duplicated", "a record written twice in a row",
                    false, PeerMutations::recordDuplicated, "PEER-ORDER-1"),
            new PeerMutationClass("peer-order-broken", "two neighbouring records swapped",
                    false, PeerMutations::orderBroken, "PEER-ORDER-1"),
            // Table n is checked against n+1 before n+1 is checked itself, so a parent that no longer
            // finds its child under the canonical key usually fires first; PEER-KEY-1 when no parent needs it.
            new PeerMutationClass("peer-key-non-canonical", "a record's key replaced by another symmetry of its position (table re-sorted)",
                    false, PeerMutations::keyNonCanonical, withKey()),
            new PeerMutationClass("peer-record-malformed", "a key character outside the alphabet, or a kind/bound symbol out of range",
                    false, PeerMutations::recordMalformed, "PEER-REC-2", "PEER-REC-3"),
            new PeerMutationClass("peer-table-truncated", "a table cut in the middle of a record",
                    false, PeerMutations::tableTruncated, "PEER-REC-1"),
            new PeerMutationClass("peer-root-value-changed", "the root record's (lowest table) value moved by 2",
                    false, PeerMutations::rootChanged, "PEER-PV-2", "PEER-PV-3", "PEER-ROOT-1"));

    private PeerMutations() {}

    private static String[] withKey() {
        String[] r = java.util.Arrays.copyOf(SERVE_RULES, SERVE_RULES.length + 1);
        r[SERVE_RULES.length] = "PEER-KEY-1";
        return r;
    }

    public static PeerMutationClass byName(String name) {
        for (PeerMutationClass m : ALL_CLASSES) if (m.name.equals(name)) return m;
        return null;
    }

    /** An exact solver of 6×6 positions for the truth of a record (small TT: the inputs are small endgames). */
    public static Oracle oracle() { return new Oracle(Game.parse("othello:6x6"), 16); }

    /** Records (table, index) whose kind matches, in random order. */
    private static List<int[]> candidates(PeerTableSet s, Random rnd, java.util.function.IntPredicate kindOk, boolean skipLowest) {
        List<int[]> l = new ArrayList<>();
        int lowest = s.tables.firstKey();
        for (Map.Entry<Integer, byte[]> e : s.tables.entrySet()) {
            if (skipLowest && e.getKey() == lowest) continue;
            byte[] t = e.getValue();
            for (int r = 0; r < records(t); r++) if (kindOk.test(kind(t, r))) l.add(new int[]{e.getKey(), r});
        }
        java.util.Collections.shuffle(l, rnd);
        return l;
    }

    private static String where(int n, int r, byte[] t) {
        return "record " + r + " of table " + n + " (" + new String(t, r * RECORD, 12, java.nio.charset.StandardCharsets.US_ASCII) + ")";
    }

    private static int truth(Oracle o, byte[] t, int r) {
        long[] p = PeerTableSet.position(t, r);
        return o.value(p[0], p[1]);
    }

    private static String cutLowerRaised(PeerTableSet s, Random rnd, Oracle o) {
        int tries = 0;
        for (int[] c : candidates(s, rnd, k -> (k & CUT) != 0 && (k & EXACT) == 0, false)) {
            if (++tries > 40) break;
            byte[] t = s.tables.get(c[0]);
            int v = truth(o, t, c[1]), ub = upper(t, c[1]);
            // Strictly above the truth, and still ≤ the record's upper bound (else PEER-REC-4 would hide the lie).
            int hi = Math.min(ub, MAX);
            if (v + 2 > hi) continue;
            int nv = v + 2 + 2 * rnd.nextInt((hi - v - 2) / 2 + 1);
            String w = where(c[0], c[1], t);
            int old = lower(t, c[1]);
            PeerTableSet.setLower(t, c[1], nv);
            return w + ": CUT lower bound " + old + " -> " + nv + " (true value " + v + ")";
        }
        return null;
    }

    /**
     * The lie of peer-cut-lb-raised, plus the evidence a lax checker would take for it: a record for
     * one child (normal move, no record yet) of kind CUT with the trivial lower bound −36 and an upper
     * bound −L. Only an ALL bit would oblige that upper bound to be proven.
     */
    private static String cutRaisedUnbackedChild(PeerTableSet s, Random rnd, Oracle o) {
        Game g = o.game();
        Game.Child ch = new Game.Child();
        long[] can = new long[2];
        int tries = 0;
        for (int[] c : candidates(s, rnd, k -> (k & CUT) != 0 && (k & EXACT) == 0, false)) {
            if (++tries > 40) break;
            byte[] t = s.tables.get(c[0]);
            byte[] next = s.tables.get(c[0] + 1);
            if (next == null) continue;
            int v = truth(o, t, c[1]), ub = upper(t, c[1]);
            int nv = v + 2;
            if (nv > Math.min(ub, MAX)) continue;
            long[] p = PeerTableSet.position(t, c[1]);
            long moves = g.moves(p[0], p[1]);
            while (moves != 0) {
                int mv = Long.numberOfTrailingZeros(moves);
                moves &= moves - 1;
                g.child(p[0], p[1], mv, ch);
                if (ch.sign != -1) continue; // a normal move: the parent's move value is −(child's upper bound)
                PeerTables.peerCanonical(g, ch.mover, ch.opponent, can);
                long key = PeerTables.encodeBb(can[0], can[1]);
                int at = 0, n = records(next);
                boolean present = false;
                while (at < n) {
                    int cmp = Long.compareUnsigned(PeerTableSet.orderKey(next, at), key);
                    if (cmp == 0) { present = true; break; }
                    if (cmp > 0) break;
                    at++;
                }
                if (present) continue;
                byte[] rec = new byte[RECORD];
                PeerTables.writeKey(can[0], can[1], rec, 0);
                rec[9] = PeerTables.ALPHABET[CUT];
                rec[10] = PeerTables.ALPHABET[0]; // −36: needs no child
                rec[11] = PeerTables.ALPHABET[36 - nv];
                rec[12] = '\n';
                byte[] out = new byte[next.length + RECORD];
                System.arraycopy(next, 0, out, 0, at * RECORD);
                System.arraycopy(rec, 0, out, at * RECORD, RECORD);
                System.arraycopy(next, at * RECORD, out, (at + 1) * RECORD, next.length - at * RECORD);
                s.tables.put(c[0] + 1, out);
                String w = where(c[0], c[1], t);
                PeerTableSet.setLower(t, c[1], nv);
                return w + ": CUT lower bound -> " + nv + " (true value " + v + "), child record " + at + " of table "
                        + (c[0] + 1) + " inserted as CUT [-36, " + (-nv) + "] (its true value is above " + (-nv) + ")";
            }
        }
        return null;
    }

    private static String allUpperLowered(PeerTableSet s, Random rnd, Oracle o) {
        int tries = 0;
        for (int[] c : candidates(s, rnd, k -> (k & ALL) != 0 && (k & EXACT) == 0, false)) {
            if (++tries > 40) break;
            byte[] t = s.tables.get(c[0]);
            int v = truth(o, t, c[1]), lb = lower(t, c[1]);
            int lo = Math.max(lb, -MAX);
            if (v - 2 < lo) continue;
            int nv = v - 2 - 2 * rnd.nextInt((v - 2 - lo) / 2 + 1);
            String w = where(c[0], c[1], t);
            int old = upper(t, c[1]);
            PeerTableSet.setUpper(t, c[1], nv);
            return w + ": ALL upper bound " + old + " -> " + nv + " (true value " + v + ")";
        }
        return null;
    }

    private static String exactChanged(PeerTableSet s, Random rnd, Oracle o) {
        for (int[] c : candidates(s, rnd, k -> (k & EXACT) != 0, true)) {
            byte[] t = s.tables.get(c[0]);
            int v = lower(t, c[1]);
            int nv = v + (rnd.nextBoolean() ? 2 : -2);
            if (nv > MAX || nv < -MAX) nv = v - (nv - v);
            int tv = truth(o, t, c[1]);
            if (nv == tv) continue; // cannot happen for a valid input; keeps the claim false for sure
            String w = where(c[0], c[1], t);
            PeerTableSet.setLower(t, c[1], nv);
            PeerTableSet.setUpper(t, c[1], nv);
            return w + ": exact value " + v + " -> " + nv + " (true value " + tv + ")";
        }
        return null;
    }

    private static String kindBitRemoved(PeerTableSet s, Random rnd, Oracle o) {
        for (int[] c : candidates(s, rnd, k -> Integer.bitCount(k) >= 2 && (k & EXACT) != 0, false)) {
            byte[] t = s.tables.get(c[0]);
            int k = kind(t, c[1]);
            int[] bits = new int[3];
            int nb = 0;
            for (int b = 1; b <= PVP; b <<= 1) if ((k & b) != 0) bits[nb++] = b;
            int bit = bits[rnd.nextInt(nb)];
            String w = where(c[0], c[1], t);
            PeerTableSet.setKind(t, c[1], k & ~bit);
            return w + ": kind " + k + " -> " + (k & ~bit);
        }
        return null;
    }

    private static String recordDeleted(PeerTableSet s, Random rnd, Oracle o) {
        for (int[] c : candidates(s, rnd, k -> true, true)) {
            byte[] t = s.tables.get(c[0]);
            String w = where(c[0], c[1], t);
            s.tables.put(c[0], PeerTableSet.without(t, c[1]));
            return "deleted " + w;
        }
        return null;
    }

    private static String recordDuplicated(PeerTableSet s, Random rnd, Oracle o) {
        for (int[] c : candidates(s, rnd, k -> true, false)) {
            byte[] t = s.tables.get(c[0]);
            byte[] out = new byte[t.length + RECORD];
            int at = (c[1] + 1) * RECORD;
            System.arraycopy(t, 0, out, 0, at);
            System.arraycopy(t, c[1] * RECORD, out, at, RECORD);
            System.arraycopy(t, at, out, at + RECORD, t.length - at);
            s.tables.put(c[0], out);
            return "duplicated " + where(c[0], c[1], t);
        }
        return null;
    }

    private static String orderBroken(PeerTableSet s, Random rnd, Oracle o) {
        for (int[] c : candidates(s, rnd, k -> true, false)) {
            byte[] t = s.tables.get(c[0]);
            if (c[1] + 1 >= records(t)) continue;
            byte[] tmp = new byte[RECORD];
            int a = c[1] * RECORD, b = a + RECORD;
            System.arraycopy(t, a, tmp, 0, RECORD);
            System.arraycopy(t, b, t, a, RECORD);
            System.arraycopy(tmp, 0, t, b, RECORD);
            return "swapped records " + c[1] + " and " + (c[1] + 1) + " of table " + c[0];
        }
        return null;
    }

    private static String keyNonCanonical(PeerTableSet s, Random rnd, Oracle o) {
        Game g = o.game();
        for (int[] c : candidates(s, rnd, k -> true, false)) {
            byte[] t = s.tables.get(c[0]);
            long[] p = PeerTableSet.position(t, c[1]);
            int start = 1 + rnd.nextInt(7);
            for (int i = 0; i < 7; i++) {
                int sym = 1 + (start - 1 + i) % 7;
                long m = g.transform(sym, p[0]), op = g.transform(sym, p[1]);
                if (m == p[0] && op == p[1]) continue; // symmetric position: this variant is the key itself
                byte[] copy = t.clone();
                int rec = c[1];
                String w = where(c[0], rec, t);
                PeerTableSet.setPosition(copy, rec, m, op);
                if (!PeerTableSet.resort(copy)) continue;
                s.tables.put(c[0], copy);
                return w + ": key replaced by symmetry " + sym + " of its position";
            }
        }
        return null;
    }

    private static String recordMalformed(PeerTableSet s, Random rnd, Oracle o) {
        for (int[] c : candidates(s, rnd, k -> true, false)) {
            byte[] t = s.tables.get(c[0]);
            String w = where(c[0], c[1], t);
            int at = c[1] * RECORD;
            switch (rnd.nextInt(4)) {
                case 0: { // a key character outside the alphabet
                    byte[] bad = {'~', ' ', ',', '0', '1', '4', '"', '|'};
                    byte b = bad[rnd.nextInt(bad.length)];
                    int ch = rnd.nextInt(9);
                    t[at + ch] = b;
                    return w + ": key character " + ch + " -> '" + (char) b + "'";
                }
                case 1: { // kind outside 1..31: no bit, or an unknown symbol index
                    int k = rnd.nextBoolean() ? 0 : 32 + rnd.nextInt(49);
                    PeerTableSet.setKind(t, c[1], k);
                    return w + ": kind symbol index " + k;
                }
                case 2: { // a bound symbol beyond +36 (index 73..80)
                    int idx = 73 + rnd.nextInt(8);
                    t[at + 11] = PeerTables.ALPHABET[idx];
                    return w + ": upper bound symbol index " + idx + " (value " + (idx - 36) + ")";
                }
                default: { // a bound character outside the alphabet
                    t[at + 10] = (byte) '~';
                    return w + ": lower bound character '~'";
                }
            }
        }
        return null;
    }

    private static String tableTruncated(PeerTableSet s, Random rnd, Oracle o) {
        List<Integer> ns = new ArrayList<>(s.tables.keySet());
        java.util.Collections.shuffle(ns, rnd);
        for (int n : ns) {
            byte[] t = s.tables.get(n);
            if (t.length == 0) continue;
            int cut = 1 + rnd.nextInt(RECORD - 1); // never a whole record: the size is no multiple of 13
            int keep = Math.max(0, t.length - RECORD * rnd.nextInt(Math.max(1, records(t))) - cut);
            s.tables.put(n, java.util.Arrays.copyOf(t, keep));
            return "table " + n + " cut from " + t.length + " to " + keep + " bytes";
        }
        return null;
    }

    private static String rootChanged(PeerTableSet s, Random rnd, Oracle o) {
        int n = s.tables.firstKey();
        byte[] t = s.tables.get(n);
        for (int r = 0; r < records(t); r++) {
            if ((kind(t, r) & PV) == 0) continue;
            int v = lower(t, r);
            int nv = v + (rnd.nextBoolean() ? 2 : -2);
            if (nv > MAX || nv < -MAX) nv = v - (nv - v);
            String w = where(n, r, t);
            PeerTableSet.setLower(t, r, nv);
            PeerTableSet.setUpper(t, r, nv);
            return "root " + w + ": value " + v + " -> " + nv;
        }
        return null;
    }
}

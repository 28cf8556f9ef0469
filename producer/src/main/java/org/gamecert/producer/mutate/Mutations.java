package org.gamecert.producer.mutate;

import org.gamecert.producer.game.ConnectFour;
import org.gamecert.producer.game.NoGo;
import org.gamecert.producer.game.Game;
import org.gamecert.producer.game.Othello;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.gamecert.producer.mutate.Ctx.Ref;
import static org.gamecert.producer.mutate.Ctx.at;
import static org.gamecert.producer.mutate.Ctx.pick;

/**
 * The mutation classes. Semantic ones edit entries or header fields and re-seal (so the hash chain
 * is right and the verifier must find the lie itself); container ones break the framing or the
 * chain and are written as they are. Each names the rule ids that SPEC §9's order of checks makes
 * fire first.
 */
public final class Mutations {
    private Mutations() {}

    private static final String SERVE = "R-SERVE-1";

    /** Values of a u32 field where a signed 32-bit reading goes wrong: the largest int, its successor, all ones. */
    private static final long[] U32_EDGES = {0x7FFFFFFFL, 0x80000000L, 0xFFFFFFFFL};

    public static final List<MutationClass> ALL = List.of(
        // ---- values and bounds ----
        new MutationClass("exact-value-shift", "an exact value (P, A', P') changed by -2..+2, within the utility range; re-sealed",
            false, (c, r, x) -> {
                Ref ref = pick(x.refs(c, Entry::exact), r);
                if (ref == null) return null;
                Entry e = at(c, ref);
                int[] deltas = {-2, -1, 1, 2};
                List<Integer> ok = new ArrayList<>();
                for (int d : deltas) if (e.v1 + d >= x.game.uMin && e.v1 + d <= x.game.uMax) ok.add(d);
                int d = pick(ok, r);
                e.v1 += d;
                return seal(c, x, "value " + (e.v1 - d) + " -> " + e.v1 + " at " + where(c, ref));
            }, "R-P-1", "R-AP-1", "R-PP-1"),
        new MutationClass("lower-bound-raised", "a C lower bound raised by 1 or 2 (kept <= U_max and <= its upper bound); re-sealed",
            true, (c, r, x) -> {
                Ref ref = pick(x.refs(c, e -> (e.kinds & Entry.C) != 0 && e.v1 < ((e.kinds & Entry.A) != 0 ? e.v2 : x.game.uMax)), r);
                if (ref == null) return null;
                Entry e = at(c, ref);
                int max = (e.kinds & Entry.A) != 0 ? e.v2 : x.game.uMax;
                e.v1 = Math.min(max, e.v1 + 1 + r.nextInt(2));
                return seal(c, x, "lower bound raised to " + e.v1 + " at " + where(c, ref));
            }, "R-CUT-1", "R-LEAF-2"),
        new MutationClass("upper-bound-lowered", "an A upper bound lowered by 1 or 2 (kept >= U_min and >= its lower bound); re-sealed",
            true, (c, r, x) -> {
                Ref ref = pick(x.refs(c, e -> (e.kinds & Entry.A) != 0 && e.v2 > ((e.kinds & Entry.C) != 0 ? e.v1 : x.game.uMin)), r);
                if (ref == null) return null;
                Entry e = at(c, ref);
                int min = (e.kinds & Entry.C) != 0 ? e.v1 : x.game.uMin;
                e.v2 = Math.max(min, e.v2 - 1 - r.nextInt(2));
                return seal(c, x, "upper bound lowered to " + e.v2 + " at " + where(c, ref));
            }, "R-ALL-1", "R-LEAF-2"),
        new MutationClass("bounds-crossed", "a {C,A} entry given a lower bound above its upper bound; re-sealed",
            false, (c, r, x) -> {
                Ref ref = pick(x.refs(c, e -> e.kinds == (Entry.C | Entry.A) && e.v2 < x.game.uMax), r);
                if (ref == null) return null;
                Entry e = at(c, ref);
                e.v1 = e.v2 + 1;
                return seal(c, x, "lb " + e.v1 + " > ub " + e.v2 + " at " + where(c, ref));
            }, "R-VAL-0"),
        new MutationClass("value-out-of-range", "a stored value set outside [U_min, U_max]; re-sealed",
            false, (c, r, x) -> {
                Ref ref = pick(x.refs(c, e -> true), r);
                Entry e = at(c, ref);
                int bad = r.nextBoolean() ? x.game.uMax + 1 : x.game.uMin - 1;
                if ((e.kinds & Entry.A) != 0 && !e.exact() && (e.kinds & Entry.C) == 0) e.v2 = bad; else e.v1 = bad;
                return seal(c, x, "value " + bad + " at " + where(c, ref));
            }, "R-VAL-0"),
        // ---- kinds ----
        new MutationClass("kind-bit-removed", "one kind dropped from a two-kind set ({A',P'} or {C,A}), value bytes following the new set; re-sealed",
            true, (c, r, x) -> {
                Ref ref = pick(x.refs(c, e -> e.kinds == (Entry.AP | Entry.PP) || e.kinds == (Entry.C | Entry.A)), r);
                if (ref == null) return null;
                Entry e = at(c, ref);
                int before = e.kinds;
                if (e.kinds == (Entry.AP | Entry.PP)) e.kinds = r.nextBoolean() ? Entry.AP : Entry.PP;
                else if (r.nextBoolean()) e.kinds = Entry.C;
                else { e.kinds = Entry.A; }
                return seal(c, x, "kinds " + before + " -> " + e.kinds + " at " + where(c, ref));
            }, SERVE, "R-CUT-1", "R-ALL-1", "R-TB-1", "R-AP-2", "R-ROOT-2", "R-ROOT-3", "R-LEAF-2"),
        new MutationClass("child-ap-for-pp", "a P' entry relabelled A' (A' where P' is needed); re-sealed",
            false, (c, r, x) -> relabel(c, r, x, Entry.PP, new int[]{Entry.AP}), SERVE),
        new MutationClass("child-pp-for-ap", "an A' entry relabelled P' (P' where A' is needed); re-sealed",
            false, (c, r, x) -> relabel(c, r, x, Entry.AP, new int[]{Entry.PP}), SERVE),
        new MutationClass("child-not-p", "a P entry relabelled A', P' or {A',P'} (not P where P is needed); re-sealed",
            false, (c, r, x) -> relabel(c, r, x, Entry.P, new int[]{Entry.AP, Entry.PP, Entry.AP | Entry.PP}), SERVE, "R-ROOT-2"),
        new MutationClass("kind-invalid", "a kind byte set to an invalid set (e.g. {P,A'} or 0); re-sealed",
            false, (c, r, x) -> {
                Ref ref = pick(x.refs(c, e -> true), r);
                int[] bad = {0x00, 0x03, 0x05, 0x09, 0x11, 0x20, 0x80, 0xFF};
                Entry e = at(c, ref);
                int k = bad[r.nextInt(bad.length)];
                // The kinds section precedes the values, so the set is written byte-exact into the payload.
                Cert.Block b = c.blocks.get(ref.block());
                String w = where(c, ref);
                byte[] raw = b.raw.clone();
                raw[Entry.keysLength(raw, b.count) + ref.entry()] = (byte) k;
                b.entries = null;
                Cert.setRaw(b, raw);
                return seal(c, x, "kind byte 0x" + Integer.toHexString(k) + " at " + w + " (was " + e.kinds + ")");
            }, "R-KIND-1"),
        new MutationClass("kind-exact-in-weak", "a weak certificate's {C} entry relabelled P (exact kinds are not allowed in weak mode); re-sealed",
            false, (c, r, x) -> {
                if (!c.weak()) return null;
                Ref ref = pick(x.refs(c, e -> e.kinds == Entry.C), r);
                if (ref == null) return null;
                at(c, ref).kinds = Entry.P;
                return seal(c, x, "{C} -> {P} at " + where(c, ref));
            }, "R-KIND-2"),
        // ---- moves ----
        new MutationClass("tb-later-maximizer", "the canonical move of a P, P' or A' entry replaced by a later move of the same value (tie-break violation); re-sealed",
            false, (c, r, x) -> {
                List<Object[]> cand = new ArrayList<>();
                for (Ref ref : x.refs(c, Entry::exact)) {
                    Entry e = at(c, ref);
                    for (int m : x.moves(e.mover, e.opponent)) {
                        if (x.game.tbRank(m) <= x.game.tbRank(e.move)) continue;
                        int[] b = x.moveBounds(e, m);
                        boolean tie = (e.kinds & Entry.P) != 0 || e.kinds == Entry.PP ? b[0] == e.v1 && b[1] == e.v1 : b[1] == e.v1;
                        if (tie) cand.add(new Object[]{ref, m});
                    }
                }
                Object[] p = pick(cand, r);
                if (p == null) return null;
                Entry e = at(c, (Ref) p[0]);
                int old = e.move;
                e.move = (Integer) p[1];
                return seal(c, x, "move " + x.game.moveName(old) + " -> later tie " + x.game.moveName(e.move) + " at " + where(c, (Ref) p[0]));
            }, "R-TB-1", SERVE),
        new MutationClass("best-move-non-maximizer", "the move of a P, P' or A' entry replaced by a legal move of lower value; re-sealed",
            false, (c, r, x) -> {
                List<Object[]> cand = new ArrayList<>();
                for (Ref ref : x.refs(c, Entry::exact)) {
                    Entry e = at(c, ref);
                    for (int m : x.moves(e.mover, e.opponent)) if (x.moveBounds(e, m)[1] < e.v1) cand.add(new Object[]{ref, m});
                }
                Object[] p = pick(cand, r);
                if (p == null) return null;
                Entry e = at(c, (Ref) p[0]);
                int old = e.move;
                e.move = (Integer) p[1];
                return seal(c, x, "move " + x.game.moveName(old) + " -> worse " + x.game.moveName(e.move) + " at " + where(c, (Ref) p[0]));
            }, SERVE, "R-TB-1", "R-AP-1"),
        new MutationClass("cut-move-replaced", "the cut move of a C entry replaced by another legal move; re-sealed",
            true, (c, r, x) -> {
                Ref ref = pick(x.refs(c, e -> (e.kinds & Entry.C) != 0 && x.moves(e.mover, e.opponent).size() > 1), r);
                if (ref == null) return null;
                Entry e = at(c, ref);
                List<Integer> ms = x.moves(e.mover, e.opponent);
                ms.remove((Integer) e.move);
                int old = e.move;
                e.move = pick(ms, r);
                return seal(c, x, "cut move " + x.game.moveName(old) + " -> " + x.game.moveName(e.move) + " at " + where(c, ref));
            }, "R-CUT-1", "R-LEAF-2"),
        new MutationClass("move-illegal", "a stored move replaced by an illegal move code (occupied square, full column, or code >= M); re-sealed",
            false, (c, r, x) -> {
                Ref ref = pick(x.refs(c, Entry::hasMove), r);
                Entry e = at(c, ref);
                long legal = x.game.moves(e.mover, e.opponent);
                List<Integer> bad = new ArrayList<>();
                for (int m = 0; m < 256; m++) if (m >= 64 || (legal & (1L << m)) == 0) bad.add(m);
                int old = e.move;
                e.move = pick(bad, r);
                return seal(c, x, "move " + old + " -> illegal code " + e.move + " at " + where(c, ref));
            }, "R-MOVE-1"),
        // ---- entries, order, layers ----
        new MutationClass("entry-deleted", "an entry deleted (block count and payload re-encoded); re-sealed",
            false, (c, r, x) -> {
                Ref ref = pick(x.refs(c, e -> true), r);
                String w = where(c, ref);
                Cert.Block b = c.blocks.get(ref.block());
                b.entries.remove(ref.entry());
                if (b.entries.isEmpty()) c.blocks.remove(ref.block());
                return seal(c, x, "deleted " + w);
            }, SERVE, "R-CUT-1", "R-ALL-1", "R-TB-1", "R-AP-2", "R-ROOT-1", "R-CENSUS-1"),
        new MutationClass("entry-duplicated", "an entry repeated, with a conflicting value, as the first entry of a new next block of its layer (inside a block, delta coding cannot express a duplicate); re-sealed",
            false, (c, r, x) -> {
                Ref ref = pick(x.refs(c, e -> true), r);
                Cert.Block b = c.blocks.get(ref.block());
                Entry dup = b.entries.get(ref.entry()).copy();
                if (dup.exact()) dup.v1 = dup.v1 == x.game.uMax ? dup.v1 - 1 : dup.v1 + 1;
                else if ((dup.kinds & Entry.C) != 0) dup.v1 = dup.v1 == x.game.uMin ? dup.v1 + 1 : dup.v1 - 1;
                else dup.v2 = dup.v2 == x.game.uMax ? dup.v2 - 1 : dup.v2 + 1;
                Cert.Block nb = new Cert.Block();
                nb.layer = b.layer;
                nb.raw = new byte[0];
                nb.entries = new ArrayList<>();
                nb.entries.add(dup);
                nb.entries.addAll(b.entries.subList(ref.entry() + 1, b.entries.size()));
                String w = where(c, ref);
                b.entries = new ArrayList<>(b.entries.subList(0, ref.entry() + 1));
                c.blocks.add(ref.block() + 1, nb);
                return seal(c, x, "duplicated " + w + " with a conflicting value");
            }, "R-LAY-3"),
        new MutationClass("entry-wrong-layer", "an entry moved, as a block of its own, to the start of the next deeper or shallower layer; re-sealed",
            false, (c, r, x) -> {
                Ref ref = pick(x.refs(c, e -> true), r);
                String w = where(c, ref);
                Cert.Block b = c.blocks.get(ref.block());
                Entry e = b.entries.remove(ref.entry());
                if (b.entries.isEmpty()) c.blocks.remove(ref.block());
                int target = e.discs() + (r.nextBoolean() ? 1 : -1);
                if (target < 1 || target > x.game.cells) target = e.discs() + (target < 1 ? 1 : -1);
                Cert.Block nb = new Cert.Block();
                nb.layer = target;
                nb.raw = new byte[0];
                nb.entries = new ArrayList<>(List.of(e));
                int at = 0; // before the first block of a layer <= target: the start of the target layer
                while (at < c.blocks.size() && c.blocks.get(at).layer > target) at++;
                c.blocks.add(at, nb);
                return seal(c, x, "moved " + w + " to layer " + target);
            }, "R-LAY-2"),
        new MutationClass("layers-swapped", "the blocks of two adjacent layers swapped; re-sealed (SPEC 9 checks a block's entries before the next block's record, so the shallower layer's entries, checked against a deeper layer not yet read, may fail an obligation before R-LAY-1)",
            false, (c, r, x) -> {
                List<Integer> layers = layers(c);
                if (layers.size() < 2) return null;
                int i = r.nextInt(layers.size() - 1);
                List<Cert.Block> deep = c.blocksOf(layers.get(i)), shallow = c.blocksOf(layers.get(i + 1));
                int at = c.blocks.indexOf(deep.get(0));
                c.blocks.removeAll(deep);
                c.blocks.removeAll(shallow);
                c.blocks.addAll(at, shallow);
                c.blocks.addAll(at + shallow.size(), deep);
                return seal(c, x, "layers " + layers.get(i) + " and " + layers.get(i + 1) + " swapped");
            }, "R-LAY-1", SERVE, "R-CUT-1", "R-ALL-1", "R-TB-1", "R-AP-2", "R-P-1", "R-PP-1", "R-AP-1"),
        new MutationClass("key-order-broken", "two neighbouring entries of a layer put in blocks of their own, in reversed order (inside a block the order is fixed by delta coding); re-sealed",
            false, (c, r, x) -> {
                List<Integer> ok = new ArrayList<>();
                for (int l : layers(c)) if (Ctx.layerEntries(c, l).size() >= 2) ok.add(l);
                Integer layer = pick(ok, r);
                if (layer == null) return null;
                List<Entry> es = Ctx.layerEntries(c, layer);
                int i = r.nextInt(es.size() - 1);
                List<Cert.Block> old = c.blocksOf(layer);
                int at = c.blocks.indexOf(old.get(0));
                c.blocks.removeAll(old);
                List<List<Entry>> parts = new ArrayList<>();
                if (i > 0) parts.add(es.subList(0, i));
                parts.add(List.of(es.get(i + 1)));
                parts.add(List.of(es.get(i)));
                if (i + 2 < es.size()) parts.add(es.subList(i + 2, es.size()));
                for (List<Entry> p : parts) {
                    Cert.Block nb = new Cert.Block();
                    nb.layer = layer;
                    nb.raw = new byte[0];
                    nb.entries = new ArrayList<>(p);
                    c.blocks.add(at++, nb);
                }
                return seal(c, x, "layer " + layer + " entries " + i + " and " + (i + 1) + " reversed across a block boundary");
            }, "R-LAY-3"),
        new MutationClass("non-canonical-key", "an Othello entry replaced by a symmetric variant of its position (move mapped along), layer re-sorted; re-sealed",
            false, (c, r, x) -> {
                if (x.game.symmetryCount() < 2) return null;
                List<Object[]> cand = new ArrayList<>();
                for (Ref ref : x.refs(c, e -> true)) {
                    Entry e = at(c, ref);
                    for (int g = 1; g < x.game.symmetryCount(); g++) {
                        long tm = x.game.transform(g, e.mover), to = x.game.transform(g, e.opponent);
                        if (tm != e.mover || to != e.opponent) { cand.add(new Object[]{ref, g}); break; }
                    }
                }
                Object[] p = pick(cand, r);
                if (p == null) return null;
                Ref ref = (Ref) p[0];
                Entry e = at(c, ref);
                int g = (Integer) p[1];
                List<Entry> layer = Ctx.layerEntries(c, e.discs());
                String w = where(c, ref);
                e.mover = x.game.transform(g, e.mover);
                e.opponent = x.game.transform(g, e.opponent);
                if (e.hasMove()) e.move = x.game.transformMove(g, e.move);
                Ctx.sortKeys(layer);
                Ctx.relayer(c, e.discs(), layer);
                return seal(c, x, "symmetry " + g + " applied to " + w);
            }, "R-POS-3"),
        new MutationClass("illegal-position", "an entry's position made illegal at the same disc count: a Connect Four disc lifted to float or recoloured to impossible counts, an Othello centre disc moved off the centre or a disc moved off the board, a NoGo stone recoloured, moved off the board or to where a block has no liberty; layer re-sorted; re-sealed",
            false, (c, r, x) -> illegalPosition(c, r, x), "R-POS-1"),
        new MutationClass("terminal-entry", "an entry added for a terminal position (the end position after a terminal move), claiming P (weak: {C,A}) with a wrong value; re-sealed",
            false, (c, r, x) -> {
                List<long[]> cand = new ArrayList<>();
                Game.Child ch = new Game.Child();
                for (Ref ref : x.refs(c, e -> true)) {
                    Entry e = at(c, ref);
                    for (int m : x.moves(e.mover, e.opponent)) {
                        x.game.child(e.mover, e.opponent, m, ch);
                        if (ch.sign != 0) continue;
                        long[] k = x.canonical(ch.termMover, ch.termOpponent);
                        if (!x.index.containsKey(new Ctx.Key(k[0], k[1]))) cand.add(new long[]{k[0], k[1], -ch.terminalValue});
                    }
                }
                long[] t = pick(cand, r);
                if (t == null) return null;
                Entry e = new Entry();
                e.mover = t[0]; e.opponent = t[1]; e.kinds = c.weak() ? Entry.C | Entry.A : Entry.P;
                e.v1 = t[2] == x.game.uMax ? (int) t[2] - 1 : (int) t[2] + 1;
                e.v2 = e.v1;
                e.move = 0;
                insert(c, e);
                return seal(c, x, "terminal position entry with value " + e.v1 + " (true " + t[2] + ") in layer " + e.discs());
            }, "R-POS-2", "R-LEAF-1"),
        new MutationClass("leaf-entry", "mode 3 (SPEC 9.1): an entry added for a leaf, the non-terminal child of an entry next to the leaves, with a true bound ({A}, U_max); re-sealed",
            false, (c, r, x) -> {
                int l = c.leafEmpties();
                if (l == 0) return null;
                List<long[]> cand = new ArrayList<>();
                Game.Child ch = new Game.Child();
                for (Ref ref : x.refs(c, e -> x.game.cells - e.discs() == l + 1)) {
                    Entry e = at(c, ref);
                    for (int m : x.moves(e.mover, e.opponent)) {
                        x.game.child(e.mover, e.opponent, m, ch);
                        if (ch.sign == 0) continue;
                        long[] k = x.canonical(ch.mover, ch.opponent);
                        if (!x.index.containsKey(new Ctx.Key(k[0], k[1]))) cand.add(k);
                    }
                }
                long[] t = pick(cand, r);
                if (t == null) return null;
                Entry e = new Entry();
                e.mover = t[0]; e.opponent = t[1]; e.kinds = Entry.A; e.v2 = x.game.uMax; e.move = 0;
                insert(c, e);
                return seal(c, x, "entry for a leaf with " + (x.game.cells - e.discs()) + " empty cells");
            }, "R-LEAF-1"),
        new MutationClass("leaf-empties-changed", "mode 3 (SPEC 9.1): the header's leaf_empties set out of 1..6, or one more (entries become leaves) or one less (leaves need entries); re-sealed",
            false, (c, r, x) -> {
                int l = c.leafEmpties();
                if (l == 0) return null;
                int[] options = {0, 7 + r.nextInt(249), l + 1, l - 1};
                int nl = options[r.nextInt(options.length)];
                if (nl == l + 1 && nl > 6) nl = 0;
                c.header[12] = (byte) nl;
                return seal(c, x, "leaf_empties " + l + " -> " + nl);
            }, "R-HDR-1", "R-HDR-2", "R-LEAF-1", "R-CUT-1", "R-ALL-1", "R-LEAF-2"),
        // ---- header ----
        new MutationClass("root-value-changed", "the header's root value changed by -2..+2 within the utility range; re-sealed",
            false, (c, r, x) -> {
                int v = c.rootValue(), nv;
                do nv = v + (r.nextBoolean() ? 1 : -1) * (1 + r.nextInt(2)); while (nv == v || nv < x.game.uMin || nv > x.game.uMax);
                c.header[c.rootValueOffset()] = (byte) nv;
                return seal(c, x, "root value " + v + " -> " + nv);
            }, "R-ROOT-2", "R-ROOT-3"),
        new MutationClass("root-kind-changed", "the root entry's kinds changed: P to A', P' or {A',P'} (semi-strong), {C,A} to {C} or {A} (weak); re-sealed",
            true, (c, r, x) -> {
                long[] k = x.canonical(c.rootMover(), c.rootOpponent());
                Ref ref = pick(x.refs(c, e -> e.mover == k[0] && e.opponent == k[1]), r);
                if (ref == null) return null;
                Entry e = at(c, ref);
                int old = e.kinds;
                if (e.kinds == Entry.P) e.kinds = new int[]{Entry.AP, Entry.PP, Entry.AP | Entry.PP}[r.nextInt(3)];
                else if (e.kinds == (Entry.C | Entry.A)) e.kinds = r.nextBoolean() ? Entry.C : Entry.A;
                else return null;
                return seal(c, x, "root kinds " + old + " -> " + e.kinds);
            }, "R-ROOT-2", "R-ROOT-3"),
        new MutationClass("root-overlapping-discs", "the header root given a square owned by both sides (overlapping discs cannot be written in an entry key, only in the header); re-sealed",
            false, (c, r, x) -> {
                long m = c.rootMover(), o = c.rootOpponent();
                List<Integer> bits = new ArrayList<>();
                for (long y = o; y != 0; y &= y - 1) bits.add(Long.numberOfTrailingZeros(y));
                if (bits.isEmpty()) for (long y = m; y != 0; y &= y - 1) bits.add(Long.numberOfTrailingZeros(y));
                if (bits.isEmpty()) return null;
                int b = pick(bits, r);
                Cert.le(c.header).putLong(c.rootMoverOffset(), m | 1L << b).putLong(c.rootMoverOffset() + 8, o | 1L << b);
                return seal(c, x, "root square " + b + " owned by both sides");
            }, "R-HDR-2"),
        new MutationClass("header-game-changed", "the header's family or width changed to name another game (tb_len or utility then disagree); re-sealed",
            false, (c, r, x) -> {
                int choice = r.nextInt(2);
                if (choice == 0) c.header[6] = (byte) (c.family() == 1 ? 2 : 1);
                else c.header[7] = (byte) (c.family() == 1 ? (c.width() == 4 ? 6 : 4) : c.width() + (c.width() > 2 ? -1 : 1));
                return seal(c, x, choice == 0 ? "family changed" : "width changed to " + c.header[7]);
            }, "R-HDR-1"),
        new MutationClass("header-tb-changed", "two move codes swapped in the header's tie-breaking order; re-sealed",
            true, (c, r, x) -> {
                int n = c.tbLen();
                int i = r.nextInt(n), j = r.nextInt(n - 1);
                if (j >= i) j++;
                int tb = c.tbOffset();
                byte t = c.header[tb + i];
                c.header[tb + i] = c.header[tb + j];
                c.header[tb + j] = t;
                return seal(c, x, "tb positions " + i + " and " + j + " swapped");
            }, "R-TB-1", SERVE, "R-AP-2"),
        new MutationClass("version-unknown", "the header's format version set to an unknown value; re-sealed",
            false, (c, r, x) -> {
                int v = 2 + r.nextInt(65534);
                Cert.le(c.header).putShort(4, (short) v);
                return seal(c, x, "version " + v);
            }, "R-HDR-1"),
        // ---- trailer ----
        new MutationClass("trailer-counts", "the trailer's block or entry count off by one or more (commitment recomputed over it)",
            false, (c, r, x) -> {
                boolean blocks = r.nextBoolean();
                int d = r.nextBoolean() ? 1 + r.nextInt(3) : -1;
                c.seal(false);
                Cert.le(c.trailer).putLong(blocks ? 0 : 8, Cert.le(c.trailer).getLong(blocks ? 0 : 8) + d);
                x.result = c.seal(true);
                return (blocks ? "block" : "entry") + " count " + (d > 0 ? "+" : "") + d;
            }, "R-HASH-2"),
        new MutationClass("census-altered", "a trailer census count changed (commitment recomputed over it)",
            false, (c, r, x) -> {
                int rows = c.censusRows();
                if (rows == 0) return null;
                int row = r.nextInt(rows);
                int off = 20 + 20 * row + (r.nextBoolean() ? 4 : 12);
                long v = Cert.le(c.trailer).getLong(off);
                long nv = v == 0 ? 1 : v + (r.nextBoolean() ? 1 : -1);
                Cert.le(c.trailer).putLong(off, nv);
                return seal(c, x, "census row " + row + (off % 20 == 4 ? " region " : " aux ") + v + " -> " + nv);
            }, "R-CENSUS-1"),
        // ---- payload encoding ----
        new MutationClass("varint-overflow", "the first key varint of a block replaced by a 10-byte varint whose value is >= 2^64; re-sealed",
            false, (c, r, x) -> varintEdit(c, r, x, true), "R-ENC-1"),
        new MutationClass("varint-non-minimal", "the first key varint of a block given a redundant 0x00 continuation byte; re-sealed",
            false, (c, r, x) -> varintEdit(c, r, x, false), "R-ENC-1"),
        new MutationClass("payload-extra-byte", "a byte appended to a block's payload (raw_len grows with it); re-sealed",
            false, (c, r, x) -> {
                Cert.Block b = pick(c.blocks, r);
                if (b == null) return null;
                byte[] raw = Arrays.copyOf(b.raw, b.raw.length + 1);
                raw[raw.length - 1] = (byte) r.nextInt(256);
                b.entries = null;
                Cert.setRaw(b, raw);
                return seal(c, x, "payload of a layer-" + b.layer + " block one byte longer");
            }, "R-ENC-2"),
        // ---- container (written as they are, no re-sealing) ----
        new MutationClass("frame-bit-flip", "one bit flipped inside a block's compressed zstd frame (after its magic); chain not re-sealed",
            false, (c, r, x) -> {
                Cert.Block b = pick(c.blocks, r);
                if (b == null) return null;
                int at = 4 + r.nextInt(b.comp.length - 4), bit = r.nextInt(8);
                b.comp[at] ^= (byte) (1 << bit);
                x.result = c.writeAsIs();
                return "bit " + bit + " of byte " + at + " of a layer-" + b.layer + " data frame";
            }, "R-CON-3", "R-HASH-1"),
        new MutationClass("truncated", "the file cut at a random point after its first 12 bytes",
            false, (c, r, x) -> {
                byte[] all = c.writeAsIs();
                int n = 12 + r.nextInt(all.length - 12);
                x.result = Arrays.copyOf(all, n);
                return "cut to " + n + " of " + all.length + " bytes";
            }, "R-CON-1"),
        new MutationClass("bytes-after-trailer", "bytes appended after the trailer",
            false, (c, r, x) -> {
                byte[] all = c.writeAsIs();
                byte[] out = Arrays.copyOf(all, all.length + 1 + r.nextInt(16));
                for (int i = all.length; i < out.length; i++) out[i] = (byte) r.nextInt(256);
                x.result = out;
                return (out.length - all.length) + " bytes appended";
            }, "R-CON-1"),
        new MutationClass("block-dropped", "one block (record and data frame) removed; chain not re-sealed",
            false, (c, r, x) -> {
                if (c.blocks.isEmpty()) return null;
                int i = r.nextInt(c.blocks.size());
                c.blocks.remove(i);
                x.result = c.writeAsIs();
                return "block " + i + " dropped";
            }, "R-HASH-1", "R-HASH-2"),
        new MutationClass("blocks-swapped", "two blocks swapped; chain not re-sealed",
            false, (c, r, x) -> {
                int n = c.blocks.size();
                if (n < 2) return null;
                int i = r.nextInt(n), j = r.nextInt(n - 1);
                if (j >= i) j++;
                Cert.Block t = c.blocks.get(i);
                c.blocks.set(i, c.blocks.get(j));
                c.blocks.set(j, t);
                x.result = c.writeAsIs();
                return "blocks " + i + " and " + j + " swapped";
            }, "R-LAY-1", "R-HASH-1"),
        new MutationClass("block-spliced", "a block replaced by one of another certificate (--donor, else the same entries sealed under another header); chain not re-sealed",
            false, (c, r, x) -> {
                Cert donor = x.donor;
                if (donor == null) { // same entries, another header: every chain value differs
                    donor = x.original.copy();
                    donor.header[donor.rootValueOffset() + 5] ^= 1; // low bit of max_block_entries: another valid header
                    donor.seal(false);
                }
                if (c.blocks.isEmpty() || donor.blocks.isEmpty()) return null;
                int i = r.nextInt(c.blocks.size());
                Cert.Block d = pick(donor.blocks, r).copy();
                c.blocks.set(i, d);
                x.result = c.writeAsIs();
                return "block " + i + " replaced by a layer-" + d.layer + " block of another certificate";
            }, "R-HASH-1", "R-LAY-1", "R-CON-2"),
        new MutationClass("chain-altered", "one byte of a BLOCK record's chain value changed; not re-sealed",
            false, (c, r, x) -> {
                Cert.Block b = pick(c.blocks, r);
                if (b == null) return null;
                b.chain[r.nextInt(32)] ^= (byte) (1 + r.nextInt(255));
                x.result = c.writeAsIs();
                return "chain value of a layer-" + b.layer + " block altered";
            }, "R-HASH-1"),
        new MutationClass("commitment-altered", "one byte of the trailer's commitment changed",
            false, (c, r, x) -> {
                c.trailer[c.trailer.length - 1 - r.nextInt(32)] ^= (byte) (1 + r.nextInt(255));
                x.result = c.writeAsIs();
                return "commitment altered";
            }, "R-HASH-3"),
        new MutationClass("block-size-over-limit", "a BLOCK record's count, raw_len or comp_len declared far above the header's limits (to be refused before any allocation)",
            false, (c, r, x) -> {
                Cert.Block b = pick(c.blocks, r);
                if (b == null) return null;
                int f = r.nextInt(3);
                int huge = (1 << 24) + 1 + r.nextInt(Integer.MAX_VALUE - (1 << 24) - 1);
                if (f == 0) b.count = huge; else if (f == 1) b.rawLen = huge; else b.compLen = huge;
                x.result = c.writeAsIs();
                return new String[]{"count", "raw_len", "comp_len"}[f] + " = " + huge;
            }, "R-CON-2"),
        new MutationClass("frame-size-huge", "the size field of the header, a BLOCK or the TRAILER skippable frame set far above its table value",
            false, (c, r, x) -> {
                byte[] all = c.writeAsIs();
                List<Integer> sizeFields = new ArrayList<>();
                sizeFields.add(4);
                int p = 8 + c.header.length;
                for (Cert.Block b : c.blocks) { sizeFields.add(p + 4); p += 8 + 48 + b.comp.length; }
                sizeFields.add(p + 4);
                int at = pick(sizeFields, r);
                if (at == 4) return headerSize(all, r, x);
                Cert.le(all).putInt(at, 0x10000000 + r.nextInt(0x6FFFFFFF));
                x.result = all;
                return "frame size at byte " + at + " set huge";
            }, "R-CON-1"),
        // ---- u32 fields at the edges of int (a reader must not narrow, clamp or wrap them) ----
        new MutationClass("layer-at-2-31-minus-1", "the first block's layer field set to 2^31 - 1 (0x7FFFFFFF); re-sealed, the chain over u32(layer) as SPEC 3 says",
            false, (c, r, x) -> hugeLayer(c, x, 0x7FFFFFFFL), "R-LAY-2"),
        new MutationClass("layer-at-2-32-minus-1", "the first block's layer field set to 2^32 - 1 (0xFFFFFFFF); re-sealed, the chain over u32(layer) as SPEC 3 says",
            false, (c, r, x) -> hugeLayer(c, x, 0xFFFFFFFFL), "R-LAY-2"),
        new MutationClass("block-field-u32-edge", "a BLOCK record's count, raw_len or comp_len set to 2^31 - 1, 2^31 or 2^32 - 1 (to be refused before any allocation); not re-sealed",
            false, (c, r, x) -> {
                Cert.Block b = pick(c.blocks, r);
                if (b == null) return null;
                int f = r.nextInt(3);
                long v = U32_EDGES[r.nextInt(U32_EDGES.length)];
                if (f == 0) b.count = (int) v; else if (f == 1) b.rawLen = (int) v; else b.compLen = (int) v;
                x.result = c.writeAsIs();
                return new String[]{"count", "raw_len", "comp_len"}[f] + " = " + v + " in a layer-" + b.layer + " block";
            }, "R-CON-2"),
        new MutationClass("trailer-rows-u32-edge", "the trailer's census row count set to 2^31 - 1, 2^31 or 2^32 - 1 (its frame size unchanged); commitment recomputed over it",
            false, (c, r, x) -> {
                long v = U32_EDGES[r.nextInt(U32_EDGES.length)];
                Cert.le(c.trailer).putInt(16, (int) v);
                return seal(c, x, "trailer rows = " + v);
            }, "R-CON-1"),
        new MutationClass("census-discs-u32-edge", "a trailer census row's disc count set to 2^31 - 1, 2^31 or 2^32 - 1; commitment recomputed over it",
            false, (c, r, x) -> {
                int rows = c.censusRows();
                if (rows == 0) return null;
                int row = r.nextInt(rows);
                long v = U32_EDGES[r.nextInt(U32_EDGES.length)];
                Cert.le(c.trailer).putInt(20 + 20 * row, (int) v);
                return seal(c, x, "census row " + row + " discs = " + v);
            }, "R-CENSUS-1")
    );

    /** The first block's layer set to v; re-sealed, so that only R-LAY-2 can reject it (SPEC 9 order). */
    private static String hugeLayer(Cert c, Ctx x, long v) {
        if (c.blocks.isEmpty()) return null;
        Cert.Block b = c.blocks.get(0);
        int was = b.layer;
        b.layer = (int) v; // written as the u32 v
        return seal(c, x, "layer of block 0 " + was + " -> " + v);
    }

    /** The header frame's own size is checked against the header content rules: R-CON-1 (SPEC §2 table). */
    private static String headerSize(byte[] all, Random r, Ctx x) {
        Cert.le(all).putInt(4, 4201 + r.nextInt(0x7FFFFFFF - 4201));
        x.result = all;
        return "header frame size set huge";
    }

    private static long nthBit(long x, int n) {
        for (int i = 0; i < n; i++) x &= x - 1;
        return Long.lowestOneBit(x);
    }

    public static MutationClass byName(String name) {
        for (MutationClass m : ALL) if (m.name.equals(name)) return m;
        return null;
    }

    // ---- helpers ----

    private static String seal(Cert c, Ctx x, String detail) {
        x.result = c.seal(false);
        return detail;
    }

    private static String where(Cert c, Ref ref) {
        Entry e = at(c, ref);
        return "entry " + ref.entry() + " of block " + ref.block() + " (layer " + c.blocks.get(ref.block()).layer
                + ", kinds 0x" + Integer.toHexString(e.kinds) + ")";
    }

    private static List<Integer> layers(Cert c) {
        List<Integer> l = new ArrayList<>();
        for (Cert.Block b : c.blocks) if (l.isEmpty() || l.get(l.size() - 1) != b.layer) l.add(b.layer);
        return l;
    }

    private static String relabel(Cert c, Random r, Ctx x, int from, int[] to) {
        Ref ref = pick(x.refs(c, e -> e.kinds == from), r);
        if (ref == null) return null;
        Entry e = at(c, ref);
        e.kinds = to[r.nextInt(to.length)];
        return seal(c, x, "kinds 0x" + Integer.toHexString(from) + " -> 0x" + Integer.toHexString(e.kinds) + " at " + where(c, ref));
    }

    /** Inserts an entry into its layer in key order, creating the layer's block if it has none. */
    private static void insert(Cert c, Entry e) {
        int layer = e.discs();
        if (c.blocksOf(layer).isEmpty()) {
            Cert.Block nb = new Cert.Block();
            nb.layer = layer;
            nb.raw = new byte[0];
            nb.entries = new ArrayList<>(List.of(e));
            int at = 0;
            while (at < c.blocks.size() && c.blocks.get(at).layer > layer) at++;
            c.blocks.add(at, nb);
            return;
        }
        List<Entry> l = Ctx.layerEntries(c, layer);
        l.add(e);
        Ctx.sortKeys(l);
        Ctx.relayer(c, layer, l);
    }

    private static String illegalPosition(Cert c, Random r, Ctx x) {
        Game g = x.game;
        List<Object[]> cand = new ArrayList<>();
        for (Ref ref : x.refs(c, e -> true)) {
            Entry e = at(c, ref);
            long m = e.mover, o = e.opponent, occ = m | o;
            List<long[]> variants = new ArrayList<>();
            if (g instanceof ConnectFour) {
                ConnectFour cf = (ConnectFour) g;
                for (int col = 0; col < cf.w; col++) {
                    long colOcc = occ & cf.columnMask(col);
                    if (colOcc == 0) continue;
                    long top = Long.highestOneBit(colOcc);
                    long up = top << 1; // one cell higher: floats when the top disc was not the column's only free path
                    if ((up & cf.boardMask) != 0 && Long.bitCount(colOcc) >= 1) {
                        // lift the top disc two cells if possible, so that a gap appears
                        long up2 = top << 2;
                        if ((up2 & cf.boardMask & cf.columnMask(col)) != 0)
                            variants.add((m & top) != 0 ? new long[]{(m & ~top) | up2, o} : new long[]{m, (o & ~top) | up2});
                    }
                    // onto the sentinel row: off the board
                    long sentinel = 1L << (col * cf.h1 + cf.h);
                    variants.add((m & top) != 0 ? new long[]{(m & ~top) | sentinel, o} : new long[]{m, (o & ~top) | sentinel});
                }
                // recolour one disc: counts differ by 2 or -1
                for (long y = m; y != 0; y &= y - 1) { long b = y & -y; variants.add(new long[]{m & ~b, o | b}); break; }
                for (long y = o; y != 0; y &= y - 1) { long b = y & -y; variants.add(new long[]{m | b, o & ~b}); break; }
            } else if (g instanceof NoGo) {
                NoGo ng = (NoGo) g;
                // recolour one stone: counts differ by 2 or -1
                for (long y = m; y != 0; y &= y - 1) { long b = y & -y; variants.add(new long[]{m & ~b, o | b}); break; }
                for (long y = o; y != 0; y &= y - 1) { long b = y & -y; variants.add(new long[]{m | b, o & ~b}); break; }
                // a stone moved off the board
                if (ng.n < 64 && occ != 0) {
                    long from = Long.highestOneBit(occ), off = 1L << ng.n;
                    variants.add((m & from) != 0 ? new long[]{(m & ~from) | off, o} : new long[]{m, (o & ~from) | off});
                }
                // a stone moved to an empty point where it or a neighbour block loses its last liberty
                long empty = ng.boardMask & ~occ;
                for (long y = occ; y != 0 && variants.size() < 6; y &= y - 1) {
                    long from = y & -y;
                    for (long z = empty; z != 0; z &= z - 1) {
                        long to = z & -z;
                        long[] v = (m & from) != 0 ? new long[]{(m & ~from) | to, o} : new long[]{m, (o & ~from) | to};
                        if (!ng.isLegalPosition(v[0], v[1])) { variants.add(v); break; }
                    }
                }
            } else {
                Othello ot = (Othello) g;
                int h = ot.n / 2, n = ot.n;
                long centre = (1L << ((h - 1) * n + h - 1)) | (1L << ((h - 1) * n + h)) | (1L << (h * n + h - 1)) | (1L << (h * n + h));
                long empty = ot.board & ~occ;
                if (empty != 0) {
                    long to = nthBit(empty, r.nextInt(Long.bitCount(empty)));
                    long from = Long.lowestOneBit(occ & centre);
                    variants.add((m & from) != 0 ? new long[]{(m & ~from) | to, o} : new long[]{m, (o & ~from) | to});
                }
                if (ot.board != -1L) {
                    long off = 1L << (n * n + r.nextInt(64 - n * n));
                    long from = Long.lowestOneBit(occ & ~centre);
                    if (from != 0) variants.add((m & from) != 0 ? new long[]{(m & ~from) | off, o} : new long[]{m, (o & ~from) | off});
                }
            }
            for (long[] v : variants)
                if (!g.isLegalPosition(v[0], v[1]) && Long.bitCount(v[0] | v[1]) == e.discs()
                        && !x.index.containsKey(new Ctx.Key(v[0], v[1]))) cand.add(new Object[]{ref, v});
        }
        Object[] p = pick(cand, r);
        if (p == null) return null;
        Ref ref = (Ref) p[0];
        long[] v = (long[]) p[1];
        Entry e = at(c, ref);
        String w = where(c, ref);
        List<Entry> layer = Ctx.layerEntries(c, e.discs());
        e.mover = v[0];
        e.opponent = v[1];
        Ctx.sortKeys(layer);
        Ctx.relayer(c, e.discs(), layer);
        return seal(c, x, "illegal position written at " + w);
    }

    private static String varintEdit(Cert c, Random r, Ctx x, boolean overflow) {
        Cert.Block b = pick(c.blocks, r);
        if (b == null) return null;
        int[] pos = {0};
        long first = Entry.varint(b.raw, pos);
        int len = pos[0];
        byte[] rep;
        if (overflow) {
            rep = new byte[10];
            for (int i = 0; i < 9; i++) rep[i] = (byte) 0xFF;
            rep[9] = (byte) (0x02 + r.nextInt(0x7E)); // a 10th byte > 1: the value is >= 2^64
        } else {
            java.io.ByteArrayOutputStream o = new java.io.ByteArrayOutputStream();
            Entry.varint(o, first);
            byte[] min = o.toByteArray();
            rep = Arrays.copyOf(min, min.length + 1);
            rep[min.length - 1] |= (byte) 0x80;
            rep[min.length] = 0;
        }
        byte[] raw = new byte[b.raw.length - len + rep.length];
        System.arraycopy(rep, 0, raw, 0, rep.length);
        System.arraycopy(b.raw, len, raw, rep.length, b.raw.length - len);
        b.entries = null;
        Cert.setRaw(b, raw);
        return seal(c, x, (overflow ? "overflowing" : "non-minimal") + " first varint in a layer-" + b.layer + " block");
    }
}

package org.gamecert.producer.mutate;

import org.gamecert.producer.game.Loa;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * Mutation classes for weak-ranked Lines of Action certificates (SPEC §7.7, §9.2, issue 20): each
 * edits the proof so that one of LOA's rules or the rank rule is broken, re-seals the file, and
 * names the rule the verifier must report. They apply only to family 4, mode 4 certificates.
 */
public final class LoaMutations {
    private LoaMutations() {}

    /** One class: name, description, expected rule ids, and what it does (null: nothing to mutate). */
    public static final class Kind {
        public final String name, description;
        public final java.util.Set<String> expectedRules;
        final Op op;
        Kind(String name, String description, Op op, String... rules) {
            this.name = name; this.description = description; this.op = op; this.expectedRules = java.util.Set.of(rules);
        }

        /** The mutant's bytes and what was changed, or null when the class does not apply. */
        public String[] apply(byte[] file, long seed, byte[][] out) throws IOException {
            Cert c = Cert.parse(file);
            if (c.family() != Loa.FAMILY || c.header[11] != 4) return null;
            c.decodeAll();
            Random rnd = new Random(seed * 0x9E3779B97F4A7C15L + name.hashCode());
            String detail = op.apply(c, new Loa(c.width()), rnd);
            if (detail == null) return null;
            out[0] = c.seal(false);
            return new String[] {detail};
        }
    }

    interface Op { String apply(Cert c, Loa g, Random rnd); }

    /** A located entry: rank and the entry. */
    private record At(int rank, Entry e) {}

    private static List<At> entries(Cert c) {
        List<At> l = new ArrayList<>();
        for (Cert.Block b : c.blocks) for (Entry e : b.entries) l.add(new At(b.layer, e));
        return l;
    }

    private static Map<String, At> index(Cert c) {
        Map<String, At> m = new java.util.HashMap<>();
        for (At a : entries(c)) m.put(a.e.mover + "/" + a.e.opponent, a);
        return m;
    }

    /** The entries of the non-terminal successors of an entry's consulted moves. */
    private static List<At> childEntries(Map<String, At> index, Loa g, Entry e) {
        List<At> r = new ArrayList<>();
        int[] mv = new int[64];
        long[] out = new long[3];
        int count = g.moves(e.mover, e.opponent, mv);
        for (int i = 0; i < count; i++) {
            if (e.kinds == Entry.C && (mv[i] >>> 16) != e.move) continue;
            if (g.play(e.mover, e.opponent, mv[i] >>> 8 & 0xFF, mv[i] & 0xFF, out) == Loa.TERMINAL) continue;
            At a = index.get(out[0] + "/" + out[1]);
            if (a != null) r.add(a);
        }
        return r;
    }

    /** Rewrites the blocks: one block per rank (split at the writer's limit), keys sorted. */
    private static void rebuild(Cert c, List<At> all) {
        TreeMap<Integer, List<Entry>> byRank = new TreeMap<>();
        for (At a : all) byRank.computeIfAbsent(a.rank, k -> new ArrayList<>()).add(a.e);
        c.blocks.clear();
        for (Map.Entry<Integer, List<Entry>> r : byRank.entrySet()) {
            List<Entry> l = r.getValue();
            l.sort((x, y) -> {
                int k = Long.compareUnsigned(x.occ(), y.occ());
                return k != 0 ? k : Long.compareUnsigned(x.mover, y.mover);
            });
            for (int from = 0; from < l.size(); from += 1 << 18) {
                Cert.Block b = new Cert.Block();
                b.layer = r.getKey();
                b.entries = new ArrayList<>(l.subList(from, Math.min(l.size(), from + (1 << 18))));
                b.raw = new byte[0];
                c.blocks.add(b);
            }
        }
    }

    private static String where(Loa g, At a) {
        return g.boardText(a.e.mover, a.e.opponent) + " (rank " + a.rank + ")";
    }

    /** A win entry's move replaced by a (piece, direction) code that the filter accepts; null if none. */
    private static String badMove(Cert c, Loa g, Random rnd, String what, MoveFilter f) {
        List<At> wins = new ArrayList<>();
        List<Integer> codes = new ArrayList<>();
        for (At a : entries(c)) {
            if (a.e.kinds != Entry.C) continue;
            int place = 0;
            for (long x = a.e.mover; x != 0; x &= x - 1, place++)
                for (int d = 0; d < 8; d++)
                    if (f.accept(g, a.e.mover, a.e.opponent, Long.numberOfTrailingZeros(x), d)) {
                        wins.add(a);
                        codes.add(place * 8 + d);
                    }
        }
        if (wins.isEmpty()) return null;
        int i = rnd.nextInt(wins.size());
        At a = wins.get(i);
        int before = a.e.move;
        a.e.move = codes.get(i);
        return what + ": move code " + before + " -> " + a.e.move + " at " + where(g, a);
    }

    interface MoveFilter { boolean accept(Loa g, long m, long o, int from, int d); }

    public static final List<Kind> ALL = List.of(
        new Kind("loa-rank-not-decreasing", "a loss entry's child entry moved to the loss's own rank (a proof edge that does not lower the rank); re-sealed",
            (c, g, rnd) -> {
                List<At[]> pairs = new ArrayList<>();
                Map<String, At> index = index(c);
                for (At a : entries(c))
                    if (a.e.kinds == Entry.A) for (At ch : childEntries(index, g, a.e)) pairs.add(new At[] {a, ch});
                if (pairs.isEmpty()) return null;
                At[] p = pairs.get(rnd.nextInt(pairs.size()));
                List<At> all = entries(c);
                all.replaceAll(x -> x.e == p[1].e ? new At(p[0].rank, x.e) : x);
                rebuild(c, all);
                return "child " + where(g, p[1]) + " moved to rank " + p[0].rank + ", the rank of its parent " + where(g, p[0]);
            }, "R-RANK-1"),
        new Kind("loa-loss-child-missing", "the entry of one child of a loss entry removed (the loss no longer covers every move); re-sealed",
            (c, g, rnd) -> {
                List<At[]> pairs = new ArrayList<>();
                Map<String, At> index = index(c);
                for (At a : entries(c))
                    if (a.e.kinds == Entry.A) for (At ch : childEntries(index, g, a.e)) pairs.add(new At[] {a, ch});
                if (pairs.isEmpty()) return null;
                At[] p = pairs.get(rnd.nextInt(pairs.size()));
                List<At> all = entries(c);
                all.removeIf(x -> x.e == p[1].e);
                rebuild(c, all);
                return "child " + where(g, p[1]) + " of the loss " + where(g, p[0]) + " removed";
            }, "R-ALL-1", "R-CUT-1"),
        new Kind("loa-own-capture", "a win entry's move replaced by one that lands on the mover's own piece; re-sealed",
            (c, g, rnd) -> badMove(c, g, rnd, "own capture", (gg, m, o, from, d) -> {
                int to = gg.reach(m, o, from, d);
                return to >= 0 && (m >>> to & 1) != 0 && !gg.jumpsEnemy(m, o, from, d);
            }), "R-MOVE-1"),
        new Kind("loa-jump-enemy", "a win entry's move replaced by one that jumps over an opponent's piece; re-sealed",
            (c, g, rnd) -> badMove(c, g, rnd, "jump over an enemy", (gg, m, o, from, d) -> {
                int to = gg.reach(m, o, from, d);
                return to >= 0 && (m >>> to & 1) == 0 && gg.jumpsEnemy(m, o, from, d);
            }), "R-MOVE-1"),
        new Kind("loa-draw-as-win", "a win entry's move replaced by a move that connects both sides at once (a draw, claimed as a win); re-sealed",
            (c, g, rnd) -> {
                List<At> wins = new ArrayList<>();
                List<Integer> codes = new ArrayList<>();
                int[] mv = new int[64];
                long[] out = new long[3];
                for (At a : entries(c)) {
                    if (a.e.kinds != Entry.C) continue;
                    int count = g.moves(a.e.mover, a.e.opponent, mv);
                    for (int i = 0; i < count; i++)
                        if (g.play(a.e.mover, a.e.opponent, mv[i] >>> 8 & 0xFF, mv[i] & 0xFF, out) == Loa.TERMINAL && out[2] == 0) {
                            long m = (a.e.mover & ~(1L << (mv[i] >>> 8 & 0xFF))) | 1L << (mv[i] & 0xFF);
                            if (g.connected(m) && g.connected(a.e.opponent & ~(1L << (mv[i] & 0xFF)))) {
                                wins.add(a);
                                codes.add(mv[i] >>> 16);
                            }
                        }
                }
                if (wins.isEmpty()) return null;
                int i = rnd.nextInt(wins.size());
                At a = wins.get(i);
                a.e.move = codes.get(i);
                return "win " + where(g, a) + " by move code " + a.e.move + ", which connects both sides (a draw)";
            }, "R-CUT-1"));

    public static Kind byName(String name) {
        for (Kind k : ALL) if (k.name.equals(name)) return k;
        return null;
    }
}

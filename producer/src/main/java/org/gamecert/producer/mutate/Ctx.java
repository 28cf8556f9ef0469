package org.gamecert.producer.mutate;

import org.gamecert.producer.game.Game;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** A valid certificate prepared for mutation: parsed, decoded, with a key index for child look-ups. */
public final class Ctx {
    final Cert original;
    final Game game;
    final Cert donor;
    /** Every entry of the original by canonical key. */
    final Map<Key, Entry> index;
    /** Set by each mutation: the working copy and the bytes written. */
    Cert current;
    byte[] result;

    record Key(long mover, long opponent) {}

    /** Location of an entry in a (working) certificate. */
    record Ref(int block, int entry) {}

    private Ctx(Ctx shared) {
        this.original = shared.original;
        this.donor = shared.donor;
        this.game = shared.game;
        this.index = shared.index;
    }

    /** A context sharing the parsed certificate, for one mutation on another thread. */
    Ctx fork() { return new Ctx(this); }

    private Ctx(Cert original, Cert donor) {
        this.original = original;
        this.donor = donor;
        this.game = original.game();
        this.index = new HashMap<>();
        original.decodeAll();
        for (Cert.Block b : original.blocks) for (Entry e : b.entries) index.put(new Key(e.mover, e.opponent), e);
    }

    /** Loads a valid certificate; {@code donor} (may be null) is a second one to splice blocks from. */
    public static Ctx load(byte[] file, byte[] donor) throws IOException {
        try {
            return new Ctx(Cert.parse(file), donor == null ? null : Cert.parse(donor));
        } catch (RuntimeException e) {
            throw new IOException("cannot read the certificate: " + e.getMessage(), e);
        }
    }

    public int family() { return original.family(); }
    /** A weak-ranked certificate (mode 4, SPEC 9.2): its layers are ranks, which the generic classes do not know. */
    public boolean ranked() { return original.mode() == 4; }
    public boolean weak() { return original.weak(); }

    // ---- helpers for the mutation classes ----

    interface EntryFilter { boolean test(Entry e); }

    /** All entries of the working copy satisfying f, as references. */
    List<Ref> refs(Cert c, EntryFilter f) {
        c.decodeAll();
        List<Ref> r = new ArrayList<>();
        for (int b = 0; b < c.blocks.size(); b++) {
            List<Entry> es = c.blocks.get(b).entries;
            for (int i = 0; i < es.size(); i++) if (f.test(es.get(i))) r.add(new Ref(b, i));
        }
        return r;
    }

    static <T> T pick(List<T> list, Random rnd) { return list.isEmpty() ? null : list.get(rnd.nextInt(list.size())); }

    static Entry at(Cert c, Ref r) { return c.blocks.get(r.block()).entries.get(r.entry()); }

    /** Legal moves of a position as a list of codes. */
    List<Integer> moves(long m, long o) {
        List<Integer> r = new ArrayList<>();
        for (long x = game.moves(m, o); x != 0; x &= x - 1) r.add(Long.numberOfTrailingZeros(x));
        return r;
    }

    /** Bounds {lo, hi} of a move from the original certificate (SPEC §9), trivial when no entry. */
    int[] moveBounds(Entry e, int move) {
        Game.Child ch = new Game.Child();
        game.child(e.mover, e.opponent, move, ch);
        if (ch.sign == 0) return new int[]{ch.terminalValue, ch.terminalValue};
        long[] k = new long[2];
        game.canonical(ch.mover, ch.opponent, k);
        Entry c = index.get(new Key(k[0], k[1]));
        int lo = game.uMin, hi = game.uMax;
        if (c != null) {
            if (c.exact()) { lo = hi = c.v1; }
            else {
                if ((c.kinds & Entry.C) != 0) lo = c.v1;
                if ((c.kinds & Entry.A) != 0) hi = c.v2;
            }
        }
        return ch.sign < 0 ? new int[]{-hi, -lo} : new int[]{lo, hi};
    }

    /** Canonical form of a position. */
    long[] canonical(long m, long o) {
        long[] k = new long[2];
        game.canonical(m, o, k);
        return k;
    }

    /**
     * Replaces the entries of one layer by {@code sorted} (in key order), cut into blocks of the
     * layer's original sizes (the last takes the rest), so that the blocks stay well-formed.
     */
    static void relayer(Cert c, int layer, List<Entry> sorted) {
        List<Cert.Block> old = c.blocksOf(layer);
        int at = c.blocks.indexOf(old.get(0));
        c.blocks.removeAll(old);
        int from = 0;
        for (int i = 0; i < old.size() && from < sorted.size(); i++) {
            int n = i == old.size() - 1 ? sorted.size() - from : Math.min(old.get(i).count, sorted.size() - from);
            Cert.Block b = new Cert.Block();
            b.layer = layer;
            b.entries = new ArrayList<>(sorted.subList(from, from + n));
            b.raw = new byte[0];
            c.blocks.add(at++, b);
            from += n;
        }
    }

    /** All entries of a layer of the working copy, in order. */
    static List<Entry> layerEntries(Cert c, int layer) {
        List<Entry> r = new ArrayList<>();
        for (Cert.Block b : c.blocksOf(layer)) r.addAll(b.entries);
        return r;
    }

    static void sortKeys(List<Entry> l) {
        l.sort((a, b) -> Game.compareKeys(a.mover, a.opponent, b.mover, b.opponent));
    }
}

package org.gamecert.producer.mutate.composite;

import org.gamecert.producer.cert.CertificateReader;
import org.gamecert.producer.cert.CertificateWriter;
import org.gamecert.producer.cert.Claim;
import org.gamecert.producer.cert.Extractor;
import org.gamecert.producer.cert.Kinds;
import org.gamecert.producer.cert.LayerEntries;
import org.gamecert.producer.compose.SplitDir;
import org.gamecert.producer.game.Game;
import org.gamecert.producer.search.Oracle;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * The composite mutation classes (`produce mutate --class comp-...`, SPEC §15.3), applied to a
 * composite's directory. Each keeps every part a valid certificate on its own and re-seals the
 * manifest (but comp-manifest-edited), so that only the composition's lie is left to find.
 */
public final class CompositeMutations {
    /** Not a rule id: the verdict a composite with a part not given must get (SPEC §15.3). */
    public static final String INCOMPLETE = "incomplete";

    /** One class: name, description, what must fire first (a rule id, or {@link #INCOMPLETE}). */
    public static final class Kind {
        public final String name, description;
        public final Set<String> expectedRules;
        final Op op;

        Kind(String name, String description, Op op, String... rules) {
            this.name = name; this.description = description; this.op = op; this.expectedRules = Set.of(rules);
        }

        /** A mutated copy and what was done, or null when the composite offers nothing to mutate this way. */
        public Result apply(CompositeSet original, long seed) {
            CompositeSet copy = original.copy();
            Random rnd = new Random(seed * 0x9E3779B97F4A7C15L + name.hashCode());
            try {
                String detail = op.apply(copy, rnd);
                return detail == null ? null : new Result(copy, detail);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    public static final class Result {
        public final CompositeSet composite;
        public final String detail;
        Result(CompositeSet composite, String detail) { this.composite = composite; this.detail = detail; }
    }

    interface Op { String apply(CompositeSet c, Random rnd) throws IOException; }

    public static final List<Kind> ALL = List.of(
            new Kind("comp-part-swapped", "two links exchange their parts: an open entry discharged by the part of another position",
                    CompositeMutations::swapped, "R-COMP-4"),
            new Kind("comp-weaker-kind", "an exact open entry discharged by a true part of a kind that does not serve it "
                    + "(P by A', A' by P', P' by A')", CompositeMutations::weakerKind, "R-COMP-5"),
            new Kind("comp-wrong-bound", "a bound open entry discharged by a true part of a looser bound (lower bound - 1, upper + 1)",
                    CompositeMutations::wrongBound, "R-COMP-5"),
            new Kind("comp-part-missing", "a part's file removed: the composite is incomplete, naming the entries left open",
                    CompositeMutations::missing, INCOMPLETE),
            new Kind("comp-part-duplicated", "a part listed twice in the manifest", CompositeMutations::duplicated, "R-MAN-1"),
            new Kind("comp-part-unused", "a valid extra part listed that discharges nothing", CompositeMutations::unused, "R-COMP-6"),
            new Kind("comp-cyclic", "a part given an open entry at the root part's root, discharged by the root part: a cycle",
                    CompositeMutations::cyclic, "R-COMP-7"),
            new Kind("comp-manifest-edited", "a link's part changed in the manifest without re-sealing it",
                    CompositeMutations::edited, "R-MAN-2"),
            new Kind("comp-other-tie-breaking", "a part made under the reversed tie-breaking order replaces one",
                    CompositeMutations::otherTieBreaking, "R-COMP-2"));

    private CompositeMutations() {}

    public static Kind byName(String name) {
        for (Kind k : ALL) if (k.name.equals(name)) return k;
        return null;
    }

    // ------------------------------------------------------------------ the classes

    private static String swapped(CompositeSet c, Random rnd) {
        List<int[]> pairs = new ArrayList<>();
        for (int i = 0; i < c.links.size(); i++)
            for (int j = i + 1; j < c.links.size() && pairs.size() < 4096; j++)
                if (c.links.get(i)[3] != c.links.get(j)[3]) pairs.add(new int[] {i, j});
        if (pairs.isEmpty()) return null;
        int[] p = pairs.get(rnd.nextInt(pairs.size()));
        long t = c.links.get(p[0])[3];
        c.links.get(p[0])[3] = c.links.get(p[1])[3];
        c.links.get(p[1])[3] = t;
        c.seal();
        return "links " + p[0] + " and " + p[1] + " exchanged their parts";
    }

    private static String weakerKind(CompositeSet c, Random rnd) throws IOException {
        int li = pickLink(c, rnd, true);
        if (li < 0) return null;
        Open e = openEntry(c, li);
        int k = e.claim.kinds;
        int weaker = (k & Kinds.P) != 0 ? Kinds.AP : (k & Kinds.AP) != 0 && (k & Kinds.PP) == 0 ? Kinds.PP : Kinds.AP;
        Claim w = new Claim(weaker, e.claim.lo, e.claim.hi);
        replacePart(c, li, makePart(e.game, e.leafEmpties, e.mover, e.opponent, w, "weaker"));
        return "link " + li + ": open entry " + e.claim + " discharged by a part proving " + w;
    }

    private static String wrongBound(CompositeSet c, Random rnd) throws IOException {
        List<Integer> ok = new ArrayList<>();
        for (int i = 0; i < c.links.size(); i++) {
            Open e = openEntry(c, i);
            if (e.claim.exact()) continue;
            boolean lowerLoosens = (e.claim.kinds & Kinds.C) != 0 && e.claim.lo - 1 > e.game.uMin;
            boolean upperLoosens = (e.claim.kinds & Kinds.A) != 0 && e.claim.hi + 1 < e.game.uMax;
            if (lowerLoosens || upperLoosens) ok.add(i);
        }
        if (ok.isEmpty()) return null;
        int li = ok.get(rnd.nextInt(ok.size()));
        Open e = openEntry(c, li);
        boolean lower = (e.claim.kinds & Kinds.C) != 0 && e.claim.lo - 1 > e.game.uMin;
        Claim w = lower ? new Claim(e.claim.kinds, e.claim.lo - 1, e.claim.hi) : new Claim(e.claim.kinds, e.claim.lo, e.claim.hi + 1);
        replacePart(c, li, makePart(e.game, e.leafEmpties, e.mover, e.opponent, w, "looser"));
        return "link " + li + ": open entry " + e.claim + " discharged by a part proving " + w;
    }

    private static String missing(CompositeSet c, Random rnd) {
        if (c.parts.size() < 2) return null;
        int p = 1 + rnd.nextInt(c.parts.size() - 1);
        c.files.remove(c.parts.get(p));
        return "part " + p + " (" + c.parts.get(p) + ".gsc) removed";
    }

    private static String duplicated(CompositeSet c, Random rnd) {
        if (c.parts.size() < 2) return null;
        int p = 1 + rnd.nextInt(c.parts.size() - 1);
        c.parts.add(p + 1, c.parts.get(p));
        for (long[] l : c.links) {
            if (l[0] > p) l[0]++;
            if (l[3] > p) l[3]++;
        }
        c.seal();
        return "part " + p + " listed twice";
    }

    private static String unused(CompositeSet c, Random rnd) throws IOException {
        if (c.links.isEmpty()) return null;
        int li = rnd.nextInt(c.links.size());
        Open e = openEntry(c, li);
        Part extra = makePart(e.game, e.leafEmpties, e.mover, e.opponent, e.claim, "an extra copy");
        c.files.put(extra.hex, extra.bytes);
        insertPart(c, extra.hex);
        c.seal();
        return "an extra part for the position of link " + li + " (" + extra.hex + ") listed, no link to it";
    }

    private static String cyclic(CompositeSet c, Random rnd) throws IOException {
        if (c.links.isEmpty()) return null;
        int li = rnd.nextInt(c.links.size());
        int q = (int) c.links.get(li)[3];
        CertificateReader root = CertificateReader.read(c.files.get(c.parts.get(0)));
        CertificateReader part = CertificateReader.read(c.files.get(c.parts.get(q)));
        long[] key = new long[2];
        root.game.canonical(root.rootMover, root.rootOpponent, key);
        int rootLayer = root.game.discs(key[0], key[1]);
        if (part.layers.containsKey(rootLayer)) return null; // the part already has that layer: keep it simple
        Claim claim = root.part ? new Claim(root.rootKinds, root.rootValue, root.rootUpper)
                : root.mode == 1 || root.mode == 5 ? new Claim(Kinds.P, root.rootValue, root.rootValue)
                : new Claim(Kinds.C | Kinds.A, root.rootValue, root.rootValue);
        // A weak part holds bounds only (R-KIND-2): it asks the root for the bounds of its exact claim.
        if (part.mode != 1 && part.mode != 5 && claim.exact()) claim = new Claim(Kinds.C | Kinds.A, claim.lo, claim.lo);
        LayerEntries open = new LayerEntries(rootLayer, 1);
        open.mover[0] = key[0];
        open.opponent[0] = key[1];
        open.kinds[0] = (byte) (Kinds.OPEN | claim.kinds);
        open.value1[0] = (byte) claim.lo;
        open.value2[0] = (byte) claim.hi;
        List<LayerEntries> layers = new ArrayList<>(part.layers.values());
        layers.add(0, open); // fewer discs than the part's root: written last (SPEC §10.2: unreached)
        Part cyc = rewrite(part, layers);
        String old = c.parts.get(q);
        boolean shared = false;
        for (int i = 0; i < c.links.size(); i++) if (i != li && c.links.get(i)[3] == q) shared = true;
        if (shared) return null;
        c.files.remove(old);
        c.files.put(cyc.hex, cyc.bytes);
        c.parts.set(q, cyc.hex);
        int at = resort(c, q);
        c.links.add(new long[] {at, key[0] | key[1], key[0], 0});
        sortLinks(c);
        c.seal();
        return "the part of link " + li + " holds an open entry at the root, discharged by the root part";
    }

    private static String edited(CompositeSet c, Random rnd) {
        List<Integer> ok = new ArrayList<>();
        for (int i = 0; i < c.links.size(); i++) if (c.parts.size() > 2) ok.add(i);
        if (ok.isEmpty()) return null;
        int li = ok.get(rnd.nextInt(ok.size()));
        long[] l = c.links.get(li);
        long other = 1 + (l[3] % (c.parts.size() - 1)); // another part index, never 0
        l[3] = other;
        // Rebuild the bytes as they are, then put the old commitment back: an edit without re-sealing.
        byte[] before = c.manifest.clone();
        c.seal();
        System.arraycopy(before, before.length - 32, c.manifest, c.manifest.length - 32, 32);
        return "link " + li + " now names part " + other + "; the manifest's commitment left as it was";
    }

    private static String otherTieBreaking(CompositeSet c, Random rnd) throws IOException {
        if (c.links.isEmpty()) return null;
        int li = rnd.nextInt(c.links.size());
        Open e = openEntry(c, li);
        int[] tb = e.game.tbOrder();
        int[] rev = new int[tb.length];
        for (int i = 0; i < tb.length; i++) rev[i] = tb[tb.length - 1 - i];
        Game other = Game.fromHeader(e.game.family, e.game.width, e.game.height, rev);
        replacePart(c, li, makePart(other, e.leafEmpties, e.mover, e.opponent, e.claim, "reversed tie-breaking"));
        return "link " + li + ": its part made under the reversed tie-breaking order";
    }

    // ------------------------------------------------------------------ helpers

    /** An open entry named by a link, with what is needed to make a part for it. */
    private static final class Open {
        Game game;
        int leafEmpties;
        long mover, opponent;
        Claim claim;
    }

    private static Open openEntry(CompositeSet c, int li) throws IOException {
        long[] l = c.links.get(li);
        CertificateReader parent = CertificateReader.read(c.files.get(c.parts.get((int) l[0])));
        long mover = l[2], opponent = l[1] & ~l[2];
        int layer = Long.bitCount(l[1]);
        LayerEntries le = parent.layers.get(layer);
        int i = le == null ? -1 : le.find(mover, opponent);
        if (i < 0) throw new IOException("link " + li + " names no entry of its parent");
        Open e = new Open();
        e.game = parent.game;
        e.leafEmpties = parent.leafEmpties;
        e.mover = mover;
        e.opponent = opponent;
        e.claim = Claim.ofEntry(le.kinds[i] & 0xFF, le.value1[i], le.value2[i], parent.game.uMin, parent.game.uMax);
        return e;
    }

    private static int pickLink(CompositeSet c, Random rnd, boolean exact) throws IOException {
        List<Integer> ok = new ArrayList<>();
        for (int i = 0; i < c.links.size(); i++) if (openEntry(c, i).claim.exact() == exact) ok.add(i);
        return ok.isEmpty() ? -1 : ok.get(rnd.nextInt(ok.size()));
    }

    private static final class Part {
        final String hex;
        final byte[] bytes;
        Part(String hex, byte[] bytes) { this.hex = hex; this.bytes = bytes; }
    }

    /** A true part for (mover, opponent) proving {@code claim}, made by the producer. */
    static Part makePart(Game game, int leafEmpties, long mover, long opponent, Claim claim, String note) throws IOException {
        Oracle oracle = new Oracle(game, 16);
        Extractor ex = new Extractor(oracle, 1);
        Extractor.Result r;
        try {
            if (claim.mode() == Extractor.Mode.WEAK) ex.endgameLeaves(leafEmpties);
            r = ex.run(mover, opponent, claim.mode(), claim);
        } finally {
            ex.shutdown();
        }
        int leaves = claim.mode() == Extractor.Mode.WEAK ? leafEmpties : 0;
        byte[] header = CertificateWriter.header(game, claim.mode(), leaves, mover, opponent, claim, claim.lo,
                CertificateWriter.INFO_PRODUCER + "; " + game.name() + "; part (mutant: " + note + ")");
        Path tmp = Files.createTempFile("gamecert-part-", ".gsc");
        try {
            CertificateWriter.Written w = CertificateWriter.write(tmp, header, r.layers, r.region, r.aux, r.rootLayer);
            return new Part(SplitDir.hexOf(w.commitmentId), Files.readAllBytes(tmp));
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** The same certificate with other layers (same header and census), re-sealed. */
    private static Part rewrite(CertificateReader r, List<LayerEntries> layersAscending) throws IOException {
        int rows = r.census.length;
        long[] region = new long[rows], aux = new long[rows];
        for (int i = 0; i < rows; i++) { region[i] = r.census[i][1]; aux[i] = r.census[i][2]; }
        int rootLayer = rows == 0 ? 0 : (int) r.census[0][0];
        Path tmp = Files.createTempFile("gamecert-part-", ".gsc");
        try {
            CertificateWriter.Written w = CertificateWriter.write(tmp, r.headerBytes, layersAscending, region, aux, rootLayer);
            return new Part(SplitDir.hexOf(w.commitmentId), Files.readAllBytes(tmp));
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Link li's part becomes {@code p} (the old one dropped when no other link uses it). */
    private static void replacePart(CompositeSet c, int li, Part p) {
        int old = (int) c.links.get(li)[3];
        boolean shared = false;
        for (int i = 0; i < c.links.size(); i++) if (i != li && c.links.get(i)[3] == old) shared = true;
        c.files.put(p.hex, p.bytes);
        if (!shared) {
            c.files.remove(c.parts.get(old));
            c.parts.set(old, p.hex);
            resort(c, old);
        } else {
            int at = insertPart(c, p.hex);
            c.links.get(li)[3] = at;
        }
        sortLinks(c);
        c.seal();
    }

    /** Inserts a part in commitment order (after part 0); shifts the links' indices; returns its index. */
    private static int insertPart(CompositeSet c, String hex) {
        int at = 1;
        while (at < c.parts.size() && c.parts.get(at).compareTo(hex) < 0) at++;
        c.parts.add(at, hex);
        for (long[] l : c.links) {
            if (l[0] >= at) l[0]++;
            if (l[3] >= at) l[3]++;
        }
        return at;
    }

    /** Part {@code i} changed its commitment: move it to its place in the order; returns its new index. */
    private static int resort(CompositeSet c, int i) {
        if (i == 0) return 0;
        String hex = c.parts.remove(i);
        for (long[] l : c.links) {
            if (l[0] == i) l[0] = -1; else if (l[0] > i) l[0]--;
            if (l[3] == i) l[3] = -1; else if (l[3] > i) l[3]--;
        }
        int at = insertPart(c, hex);
        for (long[] l : c.links) {
            if (l[0] == -1) l[0] = at;
            if (l[3] == -1) l[3] = at;
        }
        return at;
    }

    private static void sortLinks(CompositeSet c) {
        Collections.sort(c.links, (a, b) -> {
            if (a[0] != b[0]) return Long.compare(a[0], b[0]);
            if (a[1] != b[1]) return Long.compareUnsigned(a[1], b[1]);
            return Long.compareUnsigned(a[2], b[2]);
        });
    }
}

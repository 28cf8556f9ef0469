package org.gamecert.verifier.kernel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.gamecert.verifier.kernel.format.Header;
import org.gamecert.verifier.kernel.format.Payload;
import org.gamecert.verifier.kernel.rules.Game;

/**
 * The reading kernel's second half (SPEC §11.1): it takes the slices' reports layer by layer,
 * shallowest first, each layer once, and accepts a layer only when its slices tile it (its blocks
 * from first to last, each once, with the entries the records count, against this file's map),
 * each slice's assumed previous key is the last key of the slice before, and the child facts the
 * layer's slices took sum to those the layer above sent. Then it tallies §10 and, at the end,
 * decides: the earliest violation in the order of SPEC §9, else the trailer's, the root's, the
 * census's, R-REACH-1; else VERIFIED. Sequential; one thread; calls no engine code.
 */
public final class Combiner {
    private final FileMap map;
    private final byte[] fingerprint;
    private final Header h;
    private final Game game;
    private final int rootDiscs;
    private final boolean strict;
    private int nextLayer;
    /** The child facts the layer above sent to each layer (by layer in file order). */
    private final long[] sentTo;
    private final boolean[] sentAny;
    private Violation found;
    private final long[] region = new long[67], aux = new long[67], proofOnly = new long[67];
    private long unreached;
    private Violation firstUnreached;
    private SliceReport root;
    /** Every layer's reports, by layer (a part's open entries are put in file order at the end). */
    private final List<List<SliceReport>> reports = new ArrayList<>();
    /** A part checked for a composite: only the open entries its links name are kept (§15.3). */
    private org.gamecert.verifier.kernel.format.Manifest keptFor;
    private int keptForPart = -1;
    private boolean regionKeysAsked;
    private final PairSet regionKeys = new PairSet();
    private boolean regionKeysOver;

    /** --all: every violation, at most maxPerRule kept a rule (the earliest), all counted. */
    private final boolean all;
    private final int maxPerRule;

    public Combiner(FileMap map, boolean strict) {
        this(map, strict, false, 1);
    }

    public Combiner(FileMap map, boolean strict, boolean all, int maxPerRule) {
        this.all = all;
        this.maxPerRule = Math.max(1, maxPerRule);
        this.map = map;
        fingerprint = map.fingerprint();
        h = map.header();
        game = FileMap.gameOf(h);
        rootDiscs = Long.bitCount(h.rootMover | h.rootOpponent);
        this.strict = strict;
        nextLayer = map.layers() - 1;
        sentTo = new long[map.layers()];
        sentAny = new boolean[map.layers()];
        found = map.readingViolation();
    }

    /**
     * A part checked as part partIndex of composite m (its slices were told the same: the
     * Combiner filters their open entries again); regionKeys: the slices keep keys of R.
     */
    public void partOf(org.gamecert.verifier.kernel.format.Manifest m, int partIndex,
            boolean regionKeys) {
        notFaulted();
        if (nextLayer != map.layers() - 1 || keptForPart >= 0 || regionKeysAsked)
            throw fault("a part's setup after its first layer, or twice");
        keptFor = m;
        keptForPart = m == null ? -1 : partIndex;
        regionKeysAsked = regionKeys;
    }

    /** The layer due next: shallowest first (file order is deepest first), or -1 when done. */
    public int nextLayer() {
        return nextLayer;
    }

    /** Layer li's slices' reports, in any order (the engine's array is copied first). */
    public void layer(int li, SliceReport[] given) {
        layer(li, given, new TerminalCount.Report[0]);
    }

    /**
     * Layer li's slices' reports and, when its slices counted their terminal keys in partitions
     * (SliceCheck.partitionTerminals), the reports of the TerminalCounts of its partitions, each
     * once, in any order (SPEC §10.3, §11.1). Both arrays are copied first: no engine code runs.
     */
    public void layer(int li, SliceReport[] given, TerminalCount.Report[] givenCounts) {
        notFaulted();
        SliceReport[] copy = given.clone();
        TerminalCount.Report[] counts = givenCounts.clone();
        for (SliceReport r : copy)
            if (r == null) throw fault("a null report for layer " + li);
        for (TerminalCount.Report r : counts)
            if (r == null) throw fault("a null terminal count for layer " + li);
        if (li != nextLayer)
            throw fault("layer " + li + " given where layer " + nextLayer
                    + " was due");
        nextLayer--;
        List<SliceReport> slices = new ArrayList<>(Arrays.asList(copy)); // the JDK's, on our copy
        slices.sort(Comparator.comparingInt((SliceReport r) -> r.firstBlock));
        int discs = map.discs(li), below = map.below(li);
        int nextBlock = map.firstBlock(li);
        long entries = 0, taken = 0, sent = 0;
        Violation best = null;
        SliceReport before = null;
        boolean cut = false;
        byte[] sealKey = map.sealKey();
        byte[] setup = SliceReport.setupTag(all, maxPerRule, keptFor, keptForPart,
                regionKeysAsked);
        for (SliceReport r : slices) {
            if (!r.sealedWith(sealKey)) // made by this map's slices, as they made it
                throw fault("a report of layer " + discs + " that no slice of"
                        + " this check made (or one changed since)");
            if (!r.setUpAs(setup))
                throw fault("a report of layer " + discs + " from a slice set up otherwise"
                        + " (--all, or the composite and part) than this check");
            long count = 0;
            for (int b = r.firstBlock; b < r.endBlock && b < map.endBlock(li); b++)
                count += map.record(b).count;
            if (!Arrays.equals(r.map(), fingerprint) || r.li != li || r.firstBlock != nextBlock
                    || r.endBlock <= r.firstBlock || r.endBlock > map.endBlock(li)
                    || r.base != entries || r.count != count)
                throw fault("the slices of layer " + discs + " do not tile it"
                        + " (blocks " + r.firstBlock + ".." + (r.endBlock - 1) + " where block "
                        + nextBlock + " was due), or one was checked against another file");
            // R-LAY-3 across slices: the key a slice assumed before it is the last of the one
            // before (none for the first); after a violation in the layer nothing later counts
            boolean previousHolds = before == null ? !r.hasPrevious
                    : best != null || cut || (r.hasPrevious && r.previousOcc == before.lastOcc
                            && r.previousMover == before.lastMover);
            if (!previousHolds)
                throw fault("a slice of layer " + discs + " assumed another key"
                        + " before its first entry than the slice before ended with (blocks "
                        + r.firstBlock + ".." + (r.endBlock - 1) + ")");
            nextBlock = r.endBlock;
            entries += count;
            if (r.first != null && (best == null || Violation.before(r.first, best)))
                best = r.first;
            taken = FactHash.add(taken, FactHash.reduce(r.takenSum));
            sent = FactHash.add(sent, FactHash.reduce(r.sentSum));
            before = r;
            cut |= !r.decodedAll; // a block that failed to decode ends the layer's check
        }
        if (nextBlock != map.endBlock(li) || entries != map.size(li))
            throw fault("the slices of layer " + discs + " end at block "
                    + nextBlock + ", the layer at " + map.endBlock(li));
        if (best != null && (found == null || earlier(best, found))) found = best;
        // What the layer above sent must be what this layer's slices took. A slice cut by a
        // violation still took every fact for its decoded entries, and a parent cut by one sent
        // facts only for the entries it checked: the sums are partial only where a block of
        // this layer failed to decode (and the verdict is then a rejection anyway).
        boolean decodedAll = true;
        for (SliceReport r : slices) decodedAll &= r.decodedAll;
        if (decodedAll && taken != sentTo[li])
            throw fault("the child facts layer " + discs + " took are not those"
                    + " the layer above sent (dropped, repeated, moved or altered)");
        if (below >= 0) {
            sentTo[below] = FactHash.add(sentTo[below], sent);
            sentAny[below] = true;
        } else if (found == null && sent != 0) {
            throw fault("layer " + discs + " was given records of a layer"
                    + " below that has no entries");
        }
        tally(li, discs, slices, new ArrayList<>(Arrays.asList(counts)));
        reports.add(slices);
        for (SliceReport r : slices) {
            long[] keys = r.regionKeys();
            if (regionKeysAsked && (keys == null || r.regionKeysOver)) regionKeysOver = true;
            if (regionKeysAsked && !regionKeysOver && keys != null) regionKeys.addPairs(keys);
        }
    }

    /**
     * x comes before y in the order of checks (SPEC §9): by block, then entry; a reading
     * violation comes where its block was due, after every entry of the blocks before it.
     */
    private boolean earlier(Violation x, Violation y) {
        return Violation.before(x.block() < 0 && x == map.readingViolation() ? atBlock(x) : x,
                y.block() < 0 && y == map.readingViolation() ? atBlock(y) : y);
    }

    private Violation atBlock(Violation v) {
        return new Violation(v.rule(), map.blocks(), v.layer(), -1, false, 0, 0, v.message());
    }

    /** SPEC §10: region, auxiliary entries, unreached entries, terminal positions. */
    private void tally(int li, int discs, List<SliceReport> slices,
            List<TerminalCount.Report> counts) {
        int partitions = slices.isEmpty() ? 0 : slices.get(0).terminalPartitions;
        long sentKeys = 0, takenKeys = 0, distinct = 0, proofOnlyKeys = 0;
        for (SliceReport r : slices) {
            if (r.terminalPartitions != partitions)
                throw fault("the slices of layer " + discs + " counted their"
                        + " terminal keys in different partitions");
            sentKeys = FactHash.add(sentKeys, FactHash.reduce(r.terminalSum));
        }
        if (counts.size() != partitions)
            throw fault(counts.size() + " terminal counts for layer " + discs
                    + ", whose slices sent their keys to " + partitions + " partitions");
        boolean[] seen = new boolean[partitions];
        byte[] sealKey = map.sealKey();
        for (TerminalCount.Report c : counts) {
            if (!c.sealedWith(sealKey) || !c.of(fingerprint) || c.li != li
                    || c.partitions != partitions || c.partition < 0
                    || c.partition >= partitions || seen[c.partition])
                throw fault("a terminal count of layer " + discs + " that no"
                        + " counter of this check made for it, or a partition counted twice");
            seen[c.partition] = true;
            takenKeys = FactHash.add(takenKeys, FactHash.reduce(c.takenSum));
            distinct += c.distinct;
            proofOnlyKeys += c.proofOnly;
        }
        // every key a slice sent was taken by its partition's counter, once (SPEC §11.1)
        if (sentKeys != takenKeys)
            throw fault("the terminal keys the partitions of layer " + discs
                    + " took are not those its slices sent (dropped, repeated, moved or altered)");
        long listed = 0, proofListed = 0; // at most so many distinct keys: room for them
        for (SliceReport r : slices) {
            listed += r.terminals().length / 2;
            proofListed += r.proofTerminals().length / 2;
        }
        PairSet terminals = new PairSet(listed), proof = new PairSet(proofListed);
        for (SliceReport r : slices) {
            if (discs < region.length) {
                region[discs] += r.region;
                aux[discs] += r.aux;
            }
            if (r.unreached > 0 && firstUnreached == null)
                firstUnreached = new Violation(Rule.REACH_1, -1, discs, r.firstUnreached, true,
                        r.unreachedMover, r.unreachedOpponent, "");
            unreached += r.unreached;
            terminals.addPairs(r.terminals());
            if (r.hasRoot) root = r;
        }
        for (SliceReport r : slices) {
            long[] pairs = r.proofTerminals();
            for (int i = 0; i + 1 < pairs.length; i += 2)
                if (!terminals.contains(pairs[i], pairs[i + 1])) proof.add(pairs[i], pairs[i + 1]);
        }
        if (discs + 1 < region.length) { // one of the two is 0: listed or partitioned keys
            region[discs + 1] += terminals.size() + distinct;
            proofOnly[discs + 1] += proof.size() + proofOnlyKeys;
        }
    }

    /**
     * The verdict (SPEC §9 order of checks, §10.4, §11): the earliest violation of the blocks, or
     * the trailer's, the root's (R-ROOT-1, R-ROOT-2, R-ROOT-3), the census's (R-CENSUS-1), and
     * R-REACH-1 when strict; else VERIFIED with the commitment computed.
     */
    public Result conclude() {
        notFaulted();
        if (nextLayer != -1 && map.readingViolation() == null && found == null)
            throw fault("concluded before every layer was checked");
        Result res = new Result();
        res.header = h;
        res.entries = map.entries();
        res.blocks = map.blocks();
        OpenEntries open = new OpenEntries();
        long[][] rows = censusRows();
        if (all) { // every layer was checked: the counts are reported, verified or not
            tallyInto(res, rows);
            if (everyViolation(res, open, rows))
                return Result.withVerdict(res, Result.Verdict.REJECTED);
        } else {
            Violation v = openEntries(open);
            if (v == null) v = map.trailerViolation();
            if (v == null) v = rootViolation();
            if (v == null) { // the census is counted (and reported) before it is compared
                tallyInto(res, rows);
                v = endViolation(rows);
            }
            if (v != null) {
                res.violations.add(v);
                res.violationCounts.put(v.rule(), 1L);
                return Result.withVerdict(res, Result.Verdict.REJECTED);
            }
        }
        res.rootKind = root.rootKind;
        res.rootMove = rootMoveAsGiven(root.rootMove);
        byte[] commitment = map.commitment();
        long[] rootKey = rootKey();
        open.freeze();
        RegionKeys keys = !regionKeysAsked ? null
                : RegionKeys.of(regionKeys.toPairs(), regionKeysOver);
        PartConclusion c = PartConclusion.of(h, h.tb.clone(), commitment, rootKey[0], rootKey[1],
                root.rootKind, map.entries(), open, keptFor, keptForPart, rows, keys);
        if (open.total() > 0) return Result.openPart(res, c);
        return Result.verified(res, "sha256:" + Chain.hex(commitment), c);
    }

    private void tallyInto(Result res, long[][] rows) {
        res.unreached = unreached;
        long total = 0;
        for (long[] row : rows) {
            res.census.add(row.clone());
            total += row[1];
        }
        res.region = total;
    }

    /** The trailer's, the root's, the census's or R-REACH-1's violation, or null (in order). */
    private Violation endViolation(long[][] rows) {
        Violation v = map.trailerViolation();
        if (v == null) v = rootViolation();
        if (v == null) v = censusViolation(rows);
        if (v == null && strict && unreached > 0)
            v = new Violation(Rule.REACH_1, -1, firstUnreached.layer(), firstUnreached.entry(),
                    true, firstUnreached.mover(), firstUnreached.opponent(), unreached
                    + " entries are unreached (--strict)");
        return v;
    }

    /**
     * --all: every entry's violations up to the first that ends the check (a block that could
     * not be read or decoded, in file order; else the trailer's, the root's, the census's), in
     * file order, at most maxPerRule kept a rule; all counted. True when there is any.
     */
    private boolean everyViolation(Result res, OpenEntries open, long[][] rows) {
        Violation fatal = map.readingViolation();
        for (List<SliceReport> layer : reports)
            for (SliceReport r : layer)
                if (r.fatal != null && (fatal == null || earlier(r.fatal, fatal))) fatal = r.fatal;
        long fatalBlock = fatal == null ? Long.MAX_VALUE
                : fatal == map.readingViolation() ? map.blocks() : fatal.block();
        List<Violation> found = new ArrayList<>();
        java.util.Map<String, Long> counts = new java.util.TreeMap<>();
        for (List<SliceReport> layer : reports)
            for (SliceReport r : layer) {
                if (r.firstBlock > fatalBlock) continue; // after the check ended
                found.addAll(r.kept());
                String[] rules = r.countedRules();
                long[] n = r.counts();
                for (int i = 0; i < rules.length; i++) counts.merge(rules[i], n[i], Long::sum);
            }
        if (fatal == null) {
            fatal = openEntries(open);
            if (fatal == null) fatal = endViolation(rows);
        }
        found.sort((x, y) -> earlier(x, y) ? -1 : earlier(y, x) ? 1 : 0);
        if (fatal != null) {
            found.add(fatal);
            counts.merge(fatal.rule(), 1L, Long::sum);
        }
        java.util.Map<String, Integer> keptOf = new java.util.HashMap<>();
        for (Violation x : found)
            if (keptOf.merge(x.rule(), 1, Integer::sum) <= maxPerRule) res.violations.add(x);
        res.violationCounts.putAll(counts);
        return !found.isEmpty();
    }

    /**
     * A part's open entries in file order (deepest layer first): the first violation stands as
     * found; else each slice's count before it must be the open entries of the slices before
     * (R-OPEN-2 was decided with it), and the entries kept are filtered by the links again.
     */
    private Violation openEntries(OpenEntries open) {
        if (found != null) return found;
        long before = 0;
        boolean unnamedKept = false;
        for (int j = reports.size() - 1; j >= 0; j--) // reports: shallowest layer first
            for (SliceReport r : reports.get(j)) {
                if (r.openBefore != before)
                    throw fault("a slice assumed " + r.openBefore + " open"
                            + " entries before it; the slices before hold " + before);
                before += r.openCount;
                int kept = r.open.size();
                for (int i = 0; i < kept; i++) {
                    long o = r.open.occ(i), m = r.open.mover(i);
                    boolean named = keptFor == null || keptFor.findLink(keptForPart, o, m) >= 0;
                    if (named || !unnamedKept)
                        open.add(o, m, r.open.kind(i), r.open.lo(i), r.open.hi(i));
                    else open.skip();
                    unnamedKept |= !named;
                }
                for (long s = kept; s < r.open.total(); s++) open.skip();
            }
        return null;
    }

    private Violation rootViolation() {
        long rm = h.rootMover, ro = h.rootOpponent;
        boolean weak = h.baseMode != Header.SEMI_STRONG;
        if (root == null)
            return new Violation(Rule.ROOT_1, -1, rootDiscs, -1, true, rm, ro,
                    "no entry for the root's canonical form");
        int k = root.rootKind;
        if (Payload.isOpen(k))
            return new Violation(Rule.OPEN_1, -1, rootDiscs, -1, true, rm, ro, "the root's entry"
                    + " is open " + Kinds.kindName(k) + ": a part proves its own root");
        if (h.part) return partClaim(rm, ro);
        if (!weak && ((k & Kinds.P) == 0 || root.rootLo != h.rootValue))
            return new Violation(Rule.ROOT_2, -1, rootDiscs, -1, true, rm, ro, "root entry has"
                    + " kinds " + Kinds.kindName(k) + " and value " + root.rootLo
                    + "; the header claims P with value " + h.rootValue);
        if (weak && (root.rootLo != h.rootValue || root.rootHi != h.rootValue))
            return new Violation(Rule.ROOT_3, -1, rootDiscs, -1, true, rm, ro, "root entry"
                    + " bounds [" + root.rootLo + ", " + root.rootHi + "] are not ["
                    + h.rootValue + ", " + h.rootValue + "]");
        return null;
    }

    /**
     * R-PART-1 (SPEC §15.1): the root's entry proves the part's claim: it serves every exact
     * kind of root_kinds with the value root_value; its bounds meet those of C and A.
     */
    private Violation partClaim(long rm, long ro) {
        int claim = h.rootKinds, k = root.rootKind;
        boolean holds = true;
        for (int need : new int[] {Kinds.P, Kinds.AP, Kinds.PP})
            if ((claim & need) != 0) holds &= Kinds.serves(k, need) && root.rootLo == h.rootValue;
        if ((claim & Kinds.C) != 0) holds &= root.rootLo >= h.rootValue;
        if ((claim & Kinds.A) != 0) holds &= root.rootHi <= h.rootUpper;
        if (holds) return null;
        return new Violation(Rule.PART_1, -1, rootDiscs, -1, true, rm, ro, "root entry has kinds "
                + Kinds.kindName(k) + " and bounds [" + root.rootLo + ", " + root.rootHi
                + "]; the header claims " + Kinds.kindName(claim) + " with [" + h.rootValue
                + ", " + h.rootUpper + "]");
    }

    /** The census as counted: per disc count, region, auxiliary entries, term_d (SPEC §10.3). */
    private long[][] censusRows() {
        long[][] rows = new long[game.cells - rootDiscs + 1][];
        for (int d = rootDiscs; d <= game.cells; d++)
            rows[d - rootDiscs] = new long[] {d, region[d], aux[d], proofOnly[d]};
        return rows;
    }

    /** R-CENSUS-1: the trailer's rows are the census counted. */
    private Violation censusViolation(long[][] rows) {
        if (map.trailerRows() != rows.length)
            return Violation.general(Rule.CENSUS_1, "trailer has " + map.trailerRows()
                    + " census rows, expected " + rows.length + " (discs " + rootDiscs + ".."
                    + game.cells + ")");
        for (int r = 0; r < rows.length; r++) {
            long[] mine = rows[r], theirs = map.trailerRow(r);
            if (mine[0] != theirs[0] || mine[1] != theirs[1] || mine[2] != theirs[2])
                return new Violation(Rule.CENSUS_1, -1, (int) mine[0], -1, false, 0, 0,
                        "census row " + r + ": trailer says discs " + theirs[0] + " region "
                        + Long.toUnsignedString(theirs[1]) + " auxiliary "
                        + Long.toUnsignedString(theirs[2]) + "; counted region " + mine[1]
                        + " auxiliary " + mine[2]);
        }
        return null;
    }

    private long[] rootKey() {
        long[] scratch = new long[9];
        int group = h.symmetry == 0 ? 1 : game.symmetryCount;
        long occ = game.canonical(h.rootMover, h.rootOpponent, group, scratch);
        return new long[] {occ, scratch[8]};
    }

    /** The root entry's stored move stated in the root's own orientation (SPEC §7.4); or -1. */
    private int rootMoveAsGiven(int storedMove) {
        if (storedMove < 0) return -1;
        int group = h.symmetry == 0 ? 1 : game.symmetryCount;
        long[] key = rootKey();
        int g = 0;
        for (; g < group; g++)
            if (game.transform(h.rootMover | h.rootOpponent, g) == key[0]
                    && game.transform(h.rootMover, g) == key[1]) break;
        return game.mapMove(storedMove, game.inverse(g));
    }

    /** The engine fault seen, if any: once faulted, every later call is refused (no verdict). */
    private String faulted;

    /** Records an engine fault (SPEC §11.1) and returns it to throw. */
    private EngineFault fault(String message) {
        EngineFault e = new EngineFault(message);
        if (faulted == null) faulted = e.getMessage();
        return e;
    }

    /** Refuses a call after an engine fault: an engine that caught it cannot go on. */
    private void notFaulted() {
        if (faulted != null) throw new EngineFault("a call after " + faulted);
    }
}

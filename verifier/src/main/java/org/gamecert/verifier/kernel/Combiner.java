package org.gamecert.verifier.kernel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
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
 *
 * <p>In one JVM the Combiner makes the layer's kernels itself ({@link #slice},
 * {@link #terminalCount}) and takes a report only when it is the very object one of them made
 * for the layer: the engine moves reports, it cannot make, copy or change one that is taken.
 * Across JVMs (a map read for a cluster) reports arrive as serial forms and are taken as given:
 * the guarantee is then against faults (SPEC §11.1).
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
    private Violation found;
    private final long[] region = new long[67], aux = new long[67], proofOnly = new long[67];
    private long unreached;
    private Violation firstUnreached;
    private SliceReport root;
    /** Every layer's reports, by layer (a part's open entries are put in file order at the end). */
    private final List<List<SliceReport>> reports = new ArrayList<>();
    /** A part (SPEC §15.1): its setup, region keys, open entries; null: not a part. */
    private final PartTally part;
    /** --all: every violation, at most maxPerRule kept a rule (the earliest); null: the first. */
    private final EveryViolation every;
    private final FaultLatch latch = new FaultLatch();
    /** Conclude with a PartConclusion (a part's, or one a composite's engine asked for). */
    private boolean forComposition, concluded;
    /** Where each kernel made for a layer not yet taken leaves its report (by layer). */
    private final List<List<Made>> made = new ArrayList<>();

    /**
     * Where a kernel this Combiner made (SliceCheck, TerminalCount) leaves its report, once: the
     * Combiner keeps this, not the kernel and its arrays. Read in another thread than the one
     * that wrote it, it is null or the whole report (whose fields are all final).
     */
    static final class Made {
        Object report;
    }

    /** strict: R-REACH-1; all: every violation (at most maxPerRule kept a rule, all counted). */
    public Combiner(FileMap map, boolean strict, boolean all, int maxPerRule) {
        every = all ? new EveryViolation(maxPerRule) : null;
        map.requireWhole();
        this.map = map;
        fingerprint = map.fingerprint();
        h = map.header();
        if (h.mode == Header.WEAK_RANKED) // SPEC §9.2: RankedKernel's rules, not these
            throw latch.fault("a mode-4 file given to the Combiner (RankedKernel checks it)");
        part = h.part ? new PartTally() : null;
        game = FileMap.gameOf(h);
        rootDiscs = Long.bitCount(h.rootMover | h.rootOpponent);
        this.strict = strict;
        nextLayer = map.layers() - 1;
        sentTo = new long[map.layers()];
        found = map.readingViolation();
        for (int li = 0; li < map.layers(); li++) made.add(new ArrayList<>());
    }

    /**
     * A kernel for blocks [firstBlock, endBlock) of layer li, set up as this check is (--all)
     * and as setup says: the one way to make a slice whose report this Combiner takes in one
     * JVM. Before li's turn.
     */
    public SliceCheck slice(int li, int firstBlock, int endBlock, SliceCheck.Setup setup) {
        latch.begin();
        if (li < 0 || li > nextLayer)
            throw latch.fault("a slice of layer " + li + " after its turn, or of none");
        SliceCheck s = new SliceCheck(map, li, firstBlock, endBlock, every != null,
                every == null ? 0 : every.maxPerRule(), setup);
        made.get(li).add(s.made);
        return latch.done(s);
    }

    /** The counter of one partition of layer li's terminal keys (TerminalCount), as slice. */
    public TerminalCount terminalCount(int li, int partition, int partitions,
            int expectedTerminals, int expectedProof) {
        latch.begin();
        if (li < 0 || li > nextLayer)
            throw latch.fault("a terminal count of layer " + li + " after its turn, or of none");
        TerminalCount c = new TerminalCount(map, li, partition, partitions, expectedTerminals,
                expectedProof);
        made.get(li).add(c.made);
        return latch.done(c);
    }

    /**
     * A part checked as part partIndex of composite m (its slices were told the same: the
     * Combiner filters their open entries again); regionKeys: the slices keep keys of R.
     */
    public void partOf(org.gamecert.verifier.kernel.format.Manifest m, int partIndex,
            boolean regionKeys) {
        latch.begin();
        if (part == null) throw latch.fault("a part's setup for a certificate that is not a part");
        if (nextLayer != map.layers() - 1 || part.setUp())
            throw latch.fault("a part's setup after its first layer, or twice");
        part.setup(m, partIndex, regionKeys);
        latch.done();
    }

    /**
     * The check is for a composite (SPEC §15.3): conclude with a PartConclusion, the statement
     * Composition.decide takes. A part's check always does; any other certificate's only when
     * asked, so that checking a certificate alone never runs the composition's code.
     */
    public void forComposition() {
        latch.begin();
        forComposition = true;
        latch.done();
    }

    /**
     * Layer li's slices' reports and the reports of the TerminalCounts of the partitions its
     * slices counted their terminal keys in (SliceCheck.Setup's partitions; none in Othello),
     * each once, in any order (SPEC §10.3, §11.1). Both arrays are copied first: no engine code
     * runs.
     */
    public void layer(int li, SliceReport[] given, TerminalCount.Report[] givenCounts) {
        latch.begin();
        if (given == null || givenCounts == null)
            throw latch.fault("no array of reports for layer " + li);
        SliceReport[] copy = given.clone();
        TerminalCount.Report[] counts = givenCounts.clone();
        if (li < 0 || li != nextLayer)
            throw latch.fault("layer " + li + " given where layer " + nextLayer
                    + " was due");
        Set<Object> madeHere = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Made m : made.set(li, null)) if (m.report != null) madeHere.add(m.report);
        List<Object> all = new ArrayList<>(Arrays.asList(copy));
        all.addAll(Arrays.asList(counts));
        for (Object r : all) // in one JVM: made by this check's kernels of the layer, as made
            if (r == null || !map.cluster && !madeHere.contains(r))
                throw latch.fault("a report of layer " + map.discs(li) + " that is missing or"
                        + " was not made by a kernel this Combiner made for that layer");
        nextLayer--;
        List<SliceReport> slices = new ArrayList<>(Arrays.asList(copy)); // the JDK's, on our copy
        slices.sort(Comparator.comparingInt((SliceReport r) -> r.firstBlock));
        int discs = map.discs(li), below = map.below(li);
        int nextBlock = map.firstBlock(li);
        long entries = 0, taken = 0, sent = 0;
        Violation best = null;
        SliceReport before = null;
        boolean cut = false;
        byte[] setup = SliceReport.setupTag(every, part == null ? null : part.setupTag());
        for (SliceReport r : slices) {
            if (!r.setUpAs(setup))
                throw latch.fault("a report of layer " + discs + " from a slice set up otherwise"
                        + " (--all, or the composite and part) than this check");
            long count = 0;
            for (int b = r.firstBlock; b < r.endBlock && b < map.endBlock(li); b++)
                count += map.record(b).count;
            if (!Arrays.equals(r.map(), fingerprint) || r.li != li || r.firstBlock != nextBlock
                    || r.endBlock <= r.firstBlock || r.endBlock > map.endBlock(li)
                    || r.base != entries || r.count != count)
                throw latch.fault("the slices of layer " + discs + " do not tile it"
                        + " (blocks " + r.firstBlock + ".." + (r.endBlock - 1) + " where block "
                        + nextBlock + " was due), or one was checked against another file");
            // R-LAY-3 across slices: the key a slice assumed before it is the last of the one
            // before (none for the first); after a violation in the layer nothing later counts
            boolean previousHolds = before == null ? !r.hasPrevious
                    : best != null || cut || (r.hasPrevious && r.previousOcc == before.lastOcc
                            && r.previousMover == before.lastMover);
            if (!previousHolds)
                throw latch.fault("a slice of layer " + discs + " assumed another key"
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
            // and only such a block: a slice that stopped short names the violation it met
            boolean named = r.first != null || r.every != null && r.every.decodeFailure() != null;
            if (!r.decodedAll && !named)
                throw latch.fault("a slice of layer " + discs + " that decoded only some of its"
                        + " blocks and met no violation");
        }
        if (nextBlock != map.endBlock(li) || entries != map.size(li))
            throw latch.fault("the slices of layer " + discs + " end at block "
                    + nextBlock + ", the layer at " + map.endBlock(li));
        if (best != null && (found == null || map.earlier(best, found))) found = best;
        // What the layer above sent must be what this layer's slices took. A slice cut by a
        // violation still took every fact for its decoded entries, and a parent cut by one sent
        // facts only for the entries it checked: the sums are partial only where a block of
        // this layer failed to decode (and the verdict is then a rejection anyway).
        if (!cut && taken != sentTo[li])
            throw latch.fault("the child facts layer " + discs + " took are not those"
                    + " the layer above sent (dropped, repeated, moved or altered)");
        if (below >= 0) sentTo[below] = FactHash.add(sentTo[below], sent); // else none: no answers
        tally(li, discs, slices, new ArrayList<>(Arrays.asList(counts)));
        reports.add(slices);
        if (part != null) part.take(slices);
        latch.done();
    }

    /** SPEC §10: region, auxiliary entries, unreached entries, terminal positions. */
    private void tally(int li, int discs, List<SliceReport> slices,
            List<TerminalCount.Report> counts) {
        int partitions = slices.isEmpty() ? 0 : slices.get(0).terminalPartitions;
        for (SliceReport r : slices)
            if (r.terminalPartitions != partitions)
                throw latch.fault("the slices of layer " + discs + " counted their"
                        + " terminal keys in different partitions");
        // terminal keys counted in partitions: {distinct, proof only}; none in Othello
        long[] counted = partitions == 0 && counts.isEmpty() ? new long[2]
                : TerminalCount.combine(map, li, slices, counts, partitions, latch);
        for (SliceReport r : slices) {
            region[discs] += r.region; // discs <= 65 (FileMap)
            aux[discs] += r.aux;
            if (r.unreached > 0 && firstUnreached == null)
                firstUnreached = new Violation(Rule.REACH_1, -1, discs, r.firstUnreached, true,
                        r.unreachedMover, r.unreachedOpponent, "");
            unreached += r.unreached;
            if (r.hasRoot) root = r;
        }
        region[discs + 1] += counted[0];
        proofOnly[discs + 1] += counted[1];
    }

    /**
     * The verdict (SPEC §9 order of checks, §10.4, §11): the earliest violation of the blocks, or
     * the trailer's, the root's (R-ROOT-1, R-ROOT-2, R-ROOT-3), the census's (R-CENSUS-1), and
     * R-REACH-1 when strict; else VERIFIED with the commitment computed. Once: every later call
     * is refused.
     */
    public Result conclude() {
        latch.begin();
        if (concluded) throw latch.fault("concluded twice");
        concluded = true;
        return latch.done(verdict());
    }

    private Result verdict() {
        if (nextLayer != -1 && map.readingViolation() == null && found == null)
            throw latch.fault("concluded before every layer was checked");
        Result res = new Result();
        res.header = map.header(); // a copy: the engine's to keep
        res.entries = map.entries();
        res.blocks = map.blocks();
        OpenEntries open = part == null ? null : new OpenEntries(); // a part's open entries
        long[][] rows = censusRows();
        if (every != null) { // every layer was checked: the counts are reported, verified or not
            tallyInto(res, rows);
            Violation fatal = EveryViolation.fatal(map, reports);
            Violation end = fatal != null ? null : openEntries(open);
            if (fatal == null && end == null) end = endViolation(rows);
            if (every.collect(res, map, reports, fatal, end))
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
        // the root entry's stored move stated in the root's own orientation (SPEC §7.4)
        res.rootMove = root.rootMove < 0 ? -1 : game.moveAsGiven(root.rootMove, h.rootMover,
                h.rootOpponent, map.rootOcc, map.rootMover, map.group);
        byte[] commitment = map.commitment();
        String id = "sha256:" + Chain.hex(commitment);
        if (part == null && !forComposition) return Result.verified(res, id, null, map.cluster);
        // for a composite (SPEC §15.3): what Composition.decide takes of this certificate
        if (open == null) open = new OpenEntries();
        open.freeze();
        PartConclusion c = new PartConclusion(h, h.tb.clone(), commitment, map.rootOcc,
                map.rootMover, root.rootKind, map.entries(), open,
                part == null ? null : part.keptFor(), part == null ? -1 : part.keptForPart(),
                rows, part == null ? null : part.regionKeys(), map.cluster);
        if (open.total() > 0) return Result.openPart(res, c, map.cluster);
        return Result.verified(res, id, c, map.cluster);
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
     * The first violation found, which stands; else a part's open entries in file order
     * (PartTally.openEntries: R-OPEN-2's counts across slices, the entries kept), and null.
     */
    private Violation openEntries(OpenEntries open) {
        if (found != null) return found;
        if (part != null) part.openEntries(reports, open, latch);
        return null;
    }

    private Violation rootViolation() {
        long rm = h.rootMover, ro = h.rootOpponent;
        boolean weak = !h.semiStrong;
        if (root == null)
            return new Violation(Rule.ROOT_1, -1, rootDiscs, -1, true, rm, ro,
                    "no entry for the root's canonical form");
        int k = root.rootKind;
        if (Payload.isOpen(k))
            return new Violation(Rule.OPEN_1, -1, rootDiscs, -1, true, rm, ro, "the root's entry"
                    + " is open " + Kinds.kindName(k) + ": a part proves its own root");
        if (h.part) return PartTally.claim(h, root, rootDiscs);
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
}

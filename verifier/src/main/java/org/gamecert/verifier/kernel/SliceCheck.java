package org.gamecert.verifier.kernel;

import java.util.Arrays;
import org.gamecert.verifier.kernel.format.BlockRecord;
import org.gamecert.verifier.kernel.format.DataFrame;
import org.gamecert.verifier.kernel.format.FormatException;
import org.gamecert.verifier.kernel.format.Header;
import org.gamecert.verifier.kernel.format.Payload;
import org.gamecert.verifier.kernel.rules.Game;

/**
 * One slice of one layer (consecutive blocks of it) checked against the layer below, sequentially,
 * by one thread (SPEC §9, §10, §11.1). An engine makes it with its setup ({@link Setup}: the key
 * before the slice, the terminal partitions, a part's) and drives it through four steps in order
 * (the blocks each once, the counts once, the requests once and their keys and records as the
 * engine likes, the check once), and gives it only data, which it copies or reads once:
 * <ol>
 * <li>{@link #decode}, block by block: R-CON-3, R-HASH-1 and the payload's rules, into the
 * slice's own columns;
 * <li>{@link #takeCounts}, after the blocks: what the layer above sent to this slice's entries:
 * per entry, how many facts (answers a parent was given) named it and how many carried each
 * flag (§10.1 needs, §10.2 reached); none for the shallowest layer;
 * <li>{@link #makeRequests}: the entries' own rules (R-LAY-2, R-LAY-3, R-LEAF-1, R-POS-1..3,
 * R-MOVE-1); makes the canonical key of every child the obligations consult, in the order the
 * obligations will consult them, which the engine copies out ({@link #requestKeys});
 * <li>{@link #check}: after the records of the layer below for those keys ({@link #answer}, one
 * by one; a request not answered is absent); the obligations (R-SERVE-1 .. R-ALL-1, R-LEAF-2);
 * returns the SliceReport.
 * </ol>
 * Nothing here calls an engine. A record an engine delivers is a fact the check uses and the
 * kernel of the child's slice confirms: both add FactHash of (index, key, kinds, bounds, flags)
 * to a sum, which the Combiner compares layer by layer (SPEC §11.1).
 */
public final class SliceCheck {
    static final int P = Payload.P, AP = Payload.AP, PP = Payload.PP, A = Payload.A, C = Payload.C;
    static final int NEEDS = P | AP | PP, REACHED = 0x08;
    private static final int TERMINAL = 0x100, MISSING = -1;

    final FileMap map;
    private final Header h;
    private final Game game;
    private final int[] tb;
    private final int[] tbPlace = new int[64];
    private final int leafEmpties, rootNeeds, rootDiscs;
    /** optimal: mode 5, an A' entry's move is optimal, not necessarily the earliest (§9). */
    private final boolean weak, optimal, countTerminals;
    private final LeafSearch leaves;

    final int li, firstBlock, endBlock, discs;
    /** The slice's entries are entries base .. base + count - 1 of its layer. */
    final long base;
    final int count;
    private final long sizeBelow;
    final boolean hasPrevious;
    final long previousOcc, previousMover;
    private boolean countsTaken;

    // the entries decoded, in file order (occ .. move are the columns' arrays, decoded into),
    // made at the first block: a slice made ahead of its thread (Combiner.slice) holds none yet
    private Payload columns;
    long[] occ, mover;
    byte[] kind, lo, hi, move, flags;
    int decoded, nextBlock;
    /**
     * Entries [0, checked) are checked (first-violation mode: up to the first that broke a rule);
     * the first violation, or null; a block that failed to decode (it ends the slice).
     */
    int checked;
    Violation first, decodeFailure;
    /** --all: every violation, each entry's, counted and the earliest kept; null: the first. */
    final EveryViolation every;
    private java.util.BitSet ownFailed;
    /** A part of a composite (SPEC §15): open entries, region keys; null: not a part. */
    final PartSlice part;
    /** Terminal keys counted in partitions (TerminalCount); null: none (Setup.partitions 0). */
    final TerminalCount.Routes routes;

    /** Counts an entry: the facts that named it, then those with flag q, q = 0 .. FLAGS - 1. */
    private static final int PER = 1 + FactHash.FLAGS;
    private final int[] entryCounts = new int[PER];
    long takenSum;

    /**
     * Requests: the children's keys, entry after entry; and each consulted move's child type
     * (Game's, or LEAF). check reads both in the order they were made (rNext, tNext: the entry's
     * first request and move): each entry checked consults the moves it made them for.
     */
    private long[] reqOcc = new long[0], reqMover = new long[0];
    private int nReq, rNext, tNext;
    private byte[] moveType;
    /**
     * The moves each entry's obligations consult, as places in TB order (moveOrder of the legal
     * moves its own rules found, R-POS-2): computed once, read for its requests and its check.
     * Only entries whose obligations are checked (own rules held, not open) have it; the others'
     * values are never read.
     */
    private long[] consults;
    private int nMoves, terminalMoves;
    private static final byte LEAF = -1;
    private int step;
    private final FaultLatch latch = new FaultLatch();
    /** Where the report is left for the Combiner that made this slice (Combiner.slice). */
    final Combiner.Made made = new Combiner.Made();

    // scratch for one entry's moves, in TB order
    private final int[] mCode = new int[64], mType = new int[64], mKind = new int[64];
    private final int[] mLo = new int[64], mHi = new int[64];
    private final boolean[] mLeaf = new boolean[64];
    private final long[] out = new long[3], images = new long[9];
    private long cOcc, cMover;

    /**
     * How an engine sets a slice up, with it. The key of the entry before the slice in its layer
     * (R-LAY-3), as the engine read it (hasPrevious false for a layer's first slice; the Combiner
     * holds the engine to it: the last key of the slice before). The partitions the census's
     * terminal keys (SPEC §10.3) are counted in (TerminalCount): after check,
     * {@link #terminalKeys} gives them with their routes, and the report carries the multiset
     * hash of what they send each partition; 0 (none) only in Othello, whose census counts none.
     * A part's (SPEC §15; PartSlice): openBefore, the open entries of the file's blocks before
     * the slice (the engine's count, which the Combiner compares with the slices before);
     * keptFor, partIndex: the composite it is checked for (null: alone, every open entry kept);
     * regionKeyBudget: keys of R kept for a union census (-1: none). Immutable (so is a Manifest).
     */
    public record Setup(boolean hasPrevious, long previousOcc, long previousMover, int partitions,
            long openBefore, org.gamecert.verifier.kernel.format.Manifest keptFor, int partIndex,
            int regionKeyBudget) {
        /** For a certificate that is not a part, or a part checked alone with no open before. */
        public Setup(boolean hasPrevious, long previousOcc, long previousMover, int partitions) {
            this(hasPrevious, previousOcc, previousMover, partitions, 0, null, 0, -1);
        }
    }

    /**
     * Blocks [firstBlock, endBlock) of layer li of the map, set up as setup says; all: every
     * violation, not only the first (at most maxPerRule kept a rule, all counted).
     */
    public SliceCheck(FileMap map, int li, int firstBlock, int endBlock, boolean all,
            int maxPerRule, Setup setup) {
        map.requireWhole();
        every = all ? new EveryViolation(maxPerRule) : null;
        if (li < 0 || li >= map.layers() || firstBlock < map.firstBlock(li)
                || endBlock <= firstBlock || endBlock > map.endBlock(li))
            throw latch.fault("a slice outside layer " + li + " of the file");
        this.map = map;
        h = map.header();
        if (h.mode == Header.WEAK_RANKED) // SPEC §9.2: RankedKernel's rules, not these
            throw latch.fault("a mode-4 file given to a SliceCheck (RankedKernel checks it)");
        game = FileMap.gameOf(h);
        tb = h.tb.clone();
        for (int t = 0; t < tb.length; t++) tbPlace[tb[t]] = t;
        leafEmpties = h.leafEmpties;
        weak = !h.semiStrong;
        optimal = h.baseMode == Header.SEMI_STRONG_OPTIMAL;
        part = h.part ? new PartSlice() : null;
        rootNeeds = weak ? 0 : h.rootKinds & NEEDS; // a certificate that is not a part: P
        countTerminals = h.family != Header.OTHELLO;
        rootDiscs = Long.bitCount(h.rootMover | h.rootOpponent);
        leaves = new LeafSearch(game);
        this.li = li;
        this.firstBlock = firstBlock;
        this.endBlock = endBlock;
        discs = map.discs(li);
        long before = 0, in = 0;
        for (int b = map.firstBlock(li); b < endBlock; b++)
            if (b < firstBlock) before += map.record(b).count;
            else in += map.record(b).count;
        if (in > (Integer.MAX_VALUE - 8) / PER) // its counts are PER ints an entry in one array
            throw latch.fault("a slice of " + in + " entries");
        base = before;
        count = (int) in;
        int below = map.below(li);
        sizeBelow = below < 0 ? 0 : map.size(below);
        nextBlock = firstBlock;
        hasPrevious = setup.hasPrevious;
        previousOcc = setup.previousOcc;
        previousMover = setup.previousMover;
        int partitions = setup.partitions;
        if (partitions < 0 || partitions > TerminalCount.MAX_PARTITIONS
                || countTerminals && partitions == 0)
            throw latch.fault("slice of layer " + discs + ": " + partitions + " terminal"
                    + " partitions");
        routes = partitions == 0 ? null : new TerminalCount.Routes(map, li, partitions);
        if (part != null) {
            if (!part.setup(setup.openBefore, setup.keptFor, setup.partIndex,
                    setup.regionKeyBudget))
                throw latch.fault("slice of layer " + discs + ": a part's setup out of range");
        } else if (setup.openBefore != 0 || setup.keptFor != null || setup.partIndex != 0
                || setup.regionKeyBudget != -1) { // only the four-value form's defaults
            throw latch.fault("slice of layer " + discs + ": a part's setup for a certificate"
                    + " that is not a part");
        }
    }

    /**
     * After check, with terminal partitions: the terminal keys the slice names, each once a set,
     * as {occ, mover, route}: the engine sends each to the TerminalCount of partition
     * TerminalCount.partitionOf(route) of this layer, route and all (arrays the kernel reads no
     * more).
     */
    public long[][] terminalKeys() {
        latch.begin();
        if (step != 4 || routes == null)
            throw latch.fault("terminal keys before the check, or not partitioned");
        return latch.done(routes.keys());
    }

    // ------------------------------------------------------------ 1. the blocks

    /**
     * Block b, the slice's next, as its data frame's bytes (copied): R-CON-3, R-HASH-1 against
     * the chain value before it, then the payload's rules (SPEC §5, §9 order of checks). After a
     * violation the slice ends there: later blocks are taken and ignored.
     */
    public void decode(int b, byte[] frame) {
        latch.begin();
        if (step < 2) step = 2;
        if (step != 2 || b != nextBlock || b >= endBlock)
            throw latch.fault("slice of layer " + discs + ": block " + b
                    + " where block " + nextBlock + " was due");
        nextBlock++;
        if (columns == null) {
            columns = new Payload(count);
            occ = columns.occ;
            mover = columns.mover;
            kind = columns.kind;
            lo = columns.lo;
            hi = columns.hi;
            move = columns.move;
            flags = new byte[count];
        }
        if (decodeFailure == null) decodeBlock(b, frame);
        latch.done();
    }

    /** Block b's frame (the engine's array) copied, checked and decoded into the columns. */
    private void decodeBlock(int b, byte[] frame) {
        BlockRecord rec = map.record(b);
        byte[] own = frame.clone();
        if (!map.storedFrame(b, own))
            throw latch.fault("slice of layer " + discs + ": block " + b + " given as other"
                    + " bytes than its data frame in the file");
        int layerIndexOfBlock = (int) (decoded + base);
        try {
            byte[] raw = rawOf(map, b, own);
            int n = Math.toIntExact(rec.count);
            long open = part == null ? 0 : part.openBeforeBlock();
            // into the slice's own columns: entries past decoded are not read if it fails
            Payload.decodeAt(raw, n, weak, h.part, open, game.uMin, game.uMax, columns, decoded);
            if (part != null) part.countOpen(kind, decoded, n);
            decoded += n;
        } catch (FormatException e) {
            decodeFailure = formatViolation(e, rec, layerIndexOfBlock);
        }
    }

    /**
     * Block b's payload from its data frame (the caller's copy): decompressed (R-CON-3), its chain
     * value computed from the map's h_(b-1) and compared with the stored one (R-HASH-1).
     * RankedKernel reads its blocks with it too.
     */
    static byte[] rawOf(FileMap map, int b, byte[] frame) throws FormatException {
        BlockRecord rec = map.record(b);
        int rawLen = Math.toIntExact(rec.rawLen); // R-CON-2 held: below 2^25
        byte[] raw = DataFrame.decompress(frame, rawLen, rec.index);
        byte[] chain = Chain.chain(map.chainBefore(b), rec, raw);
        byte[] stored = rec.chain();
        if (!Arrays.equals(chain, stored))
            throw new FormatException(Rule.HASH_1, "block " + rec.index
                    + ": stored chain value " + Chain.hex(stored) + " != computed "
                    + Chain.hex(chain));
        return raw;
    }

    /**
     * A block's violation of a format rule, where it is: the entry's index in its layer (base:
     * the layer's index of the block's first entry), or the block. RankedKernel's too.
     */
    static Violation formatViolation(FormatException e, BlockRecord rec, long base) {
        long entry = e instanceof Payload.EntryFormatException ef && ef.entry >= 0
                ? ef.entry + base : -1;
        boolean named = entry >= 0 || e.getMessage().startsWith("block ");
        return new Violation(e.rule(), rec.index, rec.layer, entry, false, 0, 0,
                (named ? "" : "block " + rec.index + ": ") + e.getMessage());
    }

    // ------------------------------------------------------------ 2. facts from the layer above

    /**
     * What the layer above sent this slice, per entry of the slice: how many facts (records the
     * parents were given) named it, and how many of those carried each flag bit (P, A', P',
     * reached), PER ints an entry in that order, this slice's first entry's at index at of the
     * engine's array (its counts of the whole layer, or of the slice with at = 0). After the
     * blocks; counted in the taken sum with this slice's own records at once. Not copied: each
     * int is read once (takeFacts), and only the value read is used.
     */
    public void takeCounts(int[] counts, long at) {
        latch.begin();
        if (countsTaken || step != 2 || (decodeFailure == null && nextBlock != endBlock))
            throw latch.fault("slice of layer " + discs + ": counts before its blocks, after its"
                    + " requests, or twice");
        countsTaken = true;
        if (at < 0 || at > counts.length || (long) PER * count > counts.length - at)
            throw latch.fault("counts of " + counts.length + " ints, for a slice of " + count
                    + " entries from " + at);
        takeFacts(counts, (int) at);
        latch.done();
    }

    /**
     * The counts of the decoded entries, from c at index at, each int read once into
     * entryCounts: each at least 0 and no flag above the facts (else an engine fault); the flags
     * sent, OR-ed into the entries; every fact counted in the taken sum (FactHash).
     */
    private void takeFacts(int[] c, int at) {
        for (int i = 0; i < decoded; i++) {
            for (int q = 0; q < PER; q++) entryCounts[q] = c[at + PER * i + q];
            for (int q = 0; q < PER; q++)
                if (entryCounts[q] < 0 || q > 0 && entryCounts[q] > entryCounts[0])
                    throw latch.fault("a negative count of facts, or more facts with a flag"
                            + " than facts");
            // the record's term, for the facts not reached and for those reached, then the needs'
            int facts = entryCounts[0], reachedFacts = entryCounts[1 + FactHash.REACHED];
            for (int reached = 0; reached <= 1; reached++) {
                int n = reached == 1 ? reachedFacts : facts - reachedFacts;
                if (n != 0)
                    takenSum = FactHash.add(takenSum, FactHash.times(n,
                            FactHash.record(map.factKey0, map.factKey1, base + i, occ[i], mover[i],
                                    kind[i] & 0xFF, lo[i], hi[i], reached)));
            }
            for (int q = 0; q < FactHash.FLAGS; q++)
                if (entryCounts[1 + q] != 0) {
                    flags[i] |= (byte) (1 << q);
                    if (q != FactHash.REACHED)
                        takenSum = FactHash.add(takenSum, FactHash.times(entryCounts[1 + q],
                                FactHash.flag(map.factKey0, map.factKey1, base + i, q)));
                }
        }
        // entries after a block that failed to decode take nothing: the verdict is a rejection
    }

    // ------------------------------------------------------------ 3. the entries' own rules

    /**
     * The facts taken (flags and the taken sum), then each entry's own rules in order, up to the
     * first that fails; the keys of the children the obligations consult, in the order check will
     * want their records. Returns how many there are: the engine copies their keys out with
     * {@link #requestKeys} and gives their records with {@link #answer}.
     */
    public int makeRequests() {
        latch.begin();
        if (step > 2 || (decodeFailure == null && nextBlock != endBlock))
            throw latch.fault("slice of layer " + discs + ": requests before its"
                    + " blocks, or twice");
        if (decodeFailure == null && decoded != count)
            throw latch.fault("slice of layer " + discs + ": a block not decoded");
        step = 3;
        if (discs == rootDiscs) // the seeds of R and of reachability (SPEC §10.1, §10.2)
            for (int i = 0; i < decoded; i++)
                if (occ[i] == map.rootOcc && mover[i] == map.rootMover)
                    flags[i] |= (byte) (REACHED | rootNeeds);
        consults = new long[decoded];
        checked = decoded;
        ownFailed = new java.util.BitSet();
        long consulted = 0; // the moves the obligations will consult: room for their requests
        for (int i = 0; i < decoded; i++) {
            Violation v = ownRules(i);
            if (v != null) {
                ownFailed.set(i); // no obligation of it is checked
                if (found(v)) { // an entry before any block that failed to decode
                    checked = i;
                    break;
                }
                continue;
            }
            if (Payload.isOpen(kind[i])) continue;
            consults[i] = moveOrder(i, consults[i]);
            consulted += Long.bitCount(consults[i]);
        }
        if (consulted > Integer.MAX_VALUE - 8)
            throw latch.fault("a slice of layer " + discs + " too large: " + consulted + " moves");
        reqOcc = new long[(int) consulted];
        reqMover = new long[(int) consulted];
        moveType = new byte[(int) consulted];
        for (int i = 0; i < checked; i++) {
            if (ownFailed.get(i)) continue;
            if (Payload.isOpen(kind[i])) part.keepOpen(occ[i], mover[i], kind[i], lo[i], hi[i]);
            else addRequests(i);
        }
        ansIndex = new long[nReq];
        Arrays.fill(ansIndex, MISSING); // absent unless answered
        ansKind = new byte[nReq];
        ansLo = new byte[nReq];
        ansHi = new byte[nReq];
        latch.done();
        return nReq;
    }

    /**
     * The requests' keys, copied into the engine's arrays (at least as long as makeRequests
     * said): request j's is (occ[j], mover[j]). After makeRequests, before check.
     */
    public void requestKeys(long[] occOut, long[] moverOut) {
        latch.begin();
        if (step != 3 || occOut.length < nReq || moverOut.length < nReq)
            throw latch.fault("slice of layer " + discs + ": request keys before the requests,"
                    + " after the check, or into arrays too short");
        System.arraycopy(reqOcc, 0, occOut, 0, nReq);
        System.arraycopy(reqMover, 0, moverOut, 0, nReq);
        latch.done();
    }

    /**
     * Records a violation (null: none); true when the slice stops there (first-violation mode).
     * With --all, it goes to every (EveryViolation.add) and the slice goes on.
     */
    private boolean found(Violation x) {
        if (x == null) return false;
        if (every == null) {
            first = x;
            return true;
        }
        every.add(x);
        return false;
    }

    /** R-LAY-2, R-LAY-3, R-LEAF-1, R-POS-1, R-POS-3, R-POS-2, R-MOVE-1 of entry i; or null. */
    private Violation ownRules(int i) {
        long o = occ[i], m = mover[i], opp = o & ~m;
        int k = kind[i] & 0xFF;
        if (Long.bitCount(o) != discs)
            return at(i, Rule.LAY_2, "entry has " + Long.bitCount(o) + " discs in a block of"
                    + " layer " + map.record(blockOf(i)).layer);
        boolean hasLast = i > 0 || hasPrevious;
        long lastOcc = i > 0 ? occ[i - 1] : previousOcc;
        long lastMover = i > 0 ? mover[i - 1] : previousMover;
        if (hasLast && !keyAfter(o, m, lastOcc, lastMover))
            return at(i, Rule.LAY_3, o == lastOcc && m == lastMover
                    ? "the key repeats the previous entry's"
                    : "the key is smaller than the previous entry's");
        if (isLeaf(discs))
            return at(i, Rule.LEAF_1, "an entry with " + (game.cells - discs) + " empty cells: at"
                    + " most leaf_empties = " + leafEmpties + ", a leaf has no entry");
        // A reached entry was named by a parent's canonical key (a fact the Combiner confirms).
        Violation v = positionRules(game, map.group, o, m, k, move[i] & 0xFF,
                (flags[i] & REACHED) != 0, out, images);
        consults[i] = out[0]; // the legal moves, made the moves consulted once the rules hold
        return v == null ? null : at(i, v.rule(), v.message());
    }

    /**
     * R-POS-1, R-POS-3 (unless named: a key a parent's canonical key named, which the fact sums
     * bind), R-POS-2, R-MOVE-1 of the key (o, m) with kind set k and stored move mv, in that
     * order: the first broken (Violation.general: the caller places it), or null. legal[0]: the
     * position's legal moves once R-POS-1 held. RankedKernel's entries (mode 4) too.
     */
    static Violation positionRules(Game game, int group, long o, long m, int k, int mv,
            boolean named, long[] legal, long[] images) {
        long opp = o & ~m;
        if (!game.isLegalPosition(m, opp)) return Violation.general(Rule.POS_1,
                "not a legal position");
        if (!named && (game.canonical(m, opp, group, images) != o || images[8] != m))
            return Violation.general(Rule.POS_3, "the key is not the canonical form of its"
                    + " position");
        legal[0] = game.legalMoveCodes(m, opp);
        if (!game.storable(m, opp, legal[0]))
            return Violation.general(Rule.POS_2, game.isTerminal(m, opp)
                    ? "the position is terminal" : "the mover must pass");
        if (Payload.hasMove(k) && (mv >= game.moveCodes || ((legal[0] >>> mv) & 1) == 0))
            return Violation.general(Rule.MOVE_1, "stored move " + (mv >= game.moveCodes
                    ? "code " + mv : game.moveName(mv)) + " is not legal");
        return null;
    }

    /**
     * The children entry i's obligations consult that the layer below may hold; the type of each
     * move's child, for check (which then computes again only terminal and leaf children).
     */
    private void addRequests(int i) {
        long m = mover[i], opp = occ[i] & ~m;
        for (long order = consults[i]; order != 0; order &= order - 1) {
            int code = tb[Long.numberOfTrailingZeros(order)];
            int type = game.child(m, opp, code, out);
            boolean leaf = type != Game.TERMINAL && isLeaf(Long.bitCount(out[0] | out[1]));
            moveType[nMoves++] = (byte) (leaf ? LEAF : type);
            if (type == Game.TERMINAL) terminalMoves++;
            if (type == Game.TERMINAL || leaf) continue;
            canonical(out[0], out[1]);
            reqOcc[nReq] = cOcc; // room for every consulted move was made (requests)
            reqMover[nReq++] = cMover;
        }
    }

    /** The moves entry i consults, as places in TB order: a lone C only its cut move. */
    private long moveOrder(int i, long legal) {
        int k = kind[i] & 0xFF;
        long order = 0;
        for (long bits = k == C ? 1L << (move[i] & 0xFF) : legal; bits != 0; bits &= bits - 1)
            order |= 1L << tbPlace[Long.numberOfTrailingZeros(bits)];
        return order;
    }

    // ------------------------------------------------------------ 4. the obligations

    // the answers, the kernel's copies
    private long[] ansIndex;
    private byte[] ansKind, ansLo, ansHi;
    // what check sends down and counts: per request, SENT | the flags once sent (at most once);
    // then the marks, one per fact sent in request order, made once the entries are checked
    private static final int SENT = 0x80;
    private byte[] sent;
    private long[] outIndex = new long[0];
    private byte[] outFlags = new byte[0];
    private int nOut;
    long sentSum;
    // the entry being checked
    private int e, k, n, star, entryFlags, v, vHi;
    private long eMover, eOpp, eConsults;
    private int eMove;

    /**
     * Request j's record in the layer below: its index there, its kind byte and bounds as stored.
     * After makeRequests, before check; a request not answered is absent, one answered twice has
     * the later record.
     */
    public void answer(int j, long index, byte kindByte, byte recordLo, byte recordHi) {
        latch.begin();
        if (step != 3 || j < 0 || j >= nReq)
            throw latch.fault("slice of layer " + discs + ": an answer to request " + j + " of "
                    + nReq + ", or before the requests or after the check");
        if (index < 0 || index >= sizeBelow || recordLo < game.uMin || recordLo > game.uMax
                || recordHi < game.uMin || recordHi > game.uMax)
            throw latch.fault("an answer with index " + index + " and bounds [" + recordLo
                    + ", " + recordHi + "], not a record of the layer below");
        ansIndex[j] = index;
        ansKind[j] = kindByte;
        ansLo[j] = recordLo;
        ansHi[j] = recordHi;
        latch.done();
    }

    /**
     * Checks every entry's obligations (SPEC §9, in the order P, A', P', C, A) up to the first
     * that fails, from the records answer gave (the others absent), and returns the slice's
     * report. The facts it sends the layer below: {@link #marksIndex}, {@link #marksFlags}.
     */
    public SliceReport check() {
        latch.begin();
        if (step != 3) throw latch.fault("slice of layer " + discs
                + ": the check before the requests, or twice");
        step = 4;
        sent = new byte[nReq];
        if (routes != null) routes.reserve(terminalMoves); // a key at most a terminal move
        for (e = 0; e < checked; e++) {
            if (Payload.isOpen(kind[e]) || ownFailed.get(e)) continue;
            if (obligations()) {
                checked = e; // the entries after it are not the slice's to tally
                break;
            }
        }
        outIndex = new long[nOut];
        outFlags = new byte[nOut];
        for (int r = 0, j = 0; r < nReq; r++)
            if (sent[r] != 0) {
                outIndex[j] = ansIndex[r];
                outFlags[j++] = (byte) (sent[r] & ~SENT);
            }
        SliceReport report = report();
        made.report = report;
        // The working arrays are let go here: a kernel that outlived a collection sits in the old
        // generation, and until a full collection it would keep the young arrays it points to.
        consults = reqOcc = reqMover = ansIndex = null;
        moveType = ansKind = ansLo = ansHi = sent = null;
        ownFailed = null;
        return latch.done(report);
    }

    /**
     * The facts for the layer below, one per record given: the child's index and the flags it
     * carries (the engine counts them per child entry for takeCounts there). Handed over, not
     * copied: the kernel reads them no more (its sum of them is taken).
     */
    public long[] marksIndex() {
        latch.begin();
        return latch.done(outIndex);
    }

    public byte[] marksFlags() {
        latch.begin();
        return latch.done(outFlags);
    }

    /** Entry e's obligations, each violation to found(); true: the slice stops there. */
    private boolean obligations() {
        eMover = mover[e];
        eOpp = occ[e] & ~eMover;
        k = kind[e] & 0xFF;
        eMove = move[e] & 0xFF;
        v = lo[e];
        vHi = hi[e];
        entryFlags = flags[e] & 0xFF;
        eConsults = consults[e];
        children();
        if ((k & P) != 0) {
            for (int j = 0; j < n; j++) if (found(serve(j, j == star ? P : AP, "P"))) return true;
            if (found(maxIs("P", Rule.P_1)) || found(tieBreak("P"))) return true;
        }
        if ((k & AP) != 0) {
            if (found(serve(star, PP, "A'"))) return true;
            if ((mLo[star] != v || mHi[star] != v)
                    && found(at(e, Rule.AP_1, "A' value " + v + " but its move "
                            + game.moveName(eMove) + " is worth " + range(star))))
                return true;
            // mode 5: no R-TB-1 here, R-AP-2 covers the earlier moves too
            for (int j = 0; j < star && !optimal; j++)
                if (mHi[j] >= v && found(at(e, Rule.TB_1, "A' move " + game.moveName(eMove)
                        + ": the earlier move " + game.moveName(mCode[j]) + " may be worth "
                        + mHi[j] + " >= " + v)))
                    return true;
            for (int j = optimal ? 0 : star + 1; j < n; j++)
                if (j != star && mHi[j] > v && found(at(e, Rule.AP_2, "A' value " + v + ": the "
                        + (j < star ? "earlier" : "later") + " move " + game.moveName(mCode[j])
                        + " is not refuted, it may be worth " + mHi[j])))
                    return true;
        }
        if ((k & PP) != 0) {
            for (int j = 0; j < n; j++) if (found(serve(j, AP, "P'"))) return true;
            if (found(maxIs("P'", Rule.PP_1)) || found(tieBreak("P'"))) return true;
        }
        if ((k & C) != 0 && mLo[star] < v
                && found(mLeaf[star]
                        ? at(e, Rule.LEAF_2, "lower bound " + v + " but the cut move "
                                + game.moveName(eMove) + " leads to a leaf that the verifier's"
                                + " search finds worth less")
                        : at(e, Rule.CUT_1, "lower bound " + v + " but the cut move "
                                + game.moveName(eMove) + " is only known to be worth "
                                + range(star))))
            return true;
        if ((k & A) != 0)
            for (int j = 0; j < n; j++)
                if (mHi[j] > vHi && found(mLeaf[j]
                        ? at(e, Rule.LEAF_2, "upper bound " + vHi + " but move "
                                + game.moveName(mCode[j]) + " leads to a leaf that the"
                                + " verifier's search finds worth more")
                        : at(e, Rule.ALL_1, "upper bound " + vHi + " but move "
                                + game.moveName(mCode[j]) + " may be worth " + mHi[j])))
                    return true;
        return false;
    }

    /**
     * The terminal child in out, of R or read for a bound only (proof): routed to its partition
     * as met; a part keeps its keys of R for a union census (PartSlice).
     */
    private void terminalKey(boolean proof) {
        canonical(out[0], out[1]);
        routes.add(cOcc, cMover, proof);
        if (part != null && !proof) part.keepRegionKey(cOcc, cMover);
    }

    /**
     * What is known of each consulted move's child, in TB order: its terminal value, a leaf's
     * bound decided by search (R-LEAF-2), the record delivered, or MISSING. The entry's flags go
     * to the children it consults (SPEC §10.2) with the needs of §10.1, one fact per record.
     */
    private void children() {
        n = 0;
        star = -1;
        int r = rNext, t = tNext;
        for (long order = eConsults; order != 0; order &= order - 1) {
            int code = tb[Long.numberOfTrailingZeros(order)];
            int stored = moveType[t++];
            // the child's position is needed again only for a terminal value or a leaf's search
            int type = stored == Game.TERMINAL || stored == LEAF
                    ? game.child(eMover, eOpp, code, out) : stored;
            mCode[n] = code;
            mType[n] = type;
            if (code == eMove) star = n;
            int need = (entryFlags & P) != 0 ? (code == eMove ? P : AP) : 0;
            if ((entryFlags & AP) != 0 && code == eMove) need |= PP;
            if ((entryFlags & PP) != 0) need |= AP;
            int ck = MISSING, clo = game.uMin, chi = game.uMax;
            boolean leaf = false;
            if (type == Game.TERMINAL) {
                ck = TERMINAL;
                clo = chi = (int) out[2];
                // a terminal of R is never proof-only (SPEC §10.3), so it goes to one set alone
                if (countTerminals && need != 0) terminalKey(false);
                else if (countTerminals && consultedForBound(code)) terminalKey(true);
            } else if (stored == LEAF) {
                leaf = true;
                ck = TERMINAL; // decided here, like a terminal move: R-LEAF-2
                clo = (k & C) != 0 && code == eMove && leafMoveAtLeast(type, v) ? v : game.uMin;
                chi = (k & A) != 0 && !leafMoveAtLeast(type, vHi + 1) ? vHi : game.uMax;
            } else {
                if (r >= nReq) throw new IllegalStateException("a child without its request");
                long at = ansIndex[r]; // each of the record's values read once, here
                if (at >= 0) {
                    ck = ansKind[r] & 0xFF;
                    int alo = ansLo[r], ahi = ansHi[r];
                    clo = type == Game.CHILD ? -ahi : alo;
                    chi = type == Game.CHILD ? -alo : ahi;
                    int needs = type == Game.PASS_CHILD ? Kinds.passNeeds(need) : need;
                    send(r, at, ck, alo, ahi, needs | (entryFlags & REACHED));
                }
                r++;
            }
            mKind[n] = ck;
            mLo[n] = clo;
            mHi[n] = chi;
            mLeaf[n] = leaf;
            n++;
        }
        rNext = r;
        tNext = t;
    }

    /**
     * One fact for the layer below: the record delivered for request r (index at, kind byte ck,
     * bounds alo, ahi: as the obligations read it), and the flags.
     */
    private void send(int r, long at, int ck, int alo, int ahi, int bits) {
        if (sent[r] != 0) throw new IllegalStateException("request " + r + " sent twice");
        sent[r] = (byte) (SENT | bits);
        nOut++;
        sentSum = FactHash.add(sentSum, FactHash.of(map.factKey0, map.factKey1, at,
                reqOcc[r], reqMover[r], ck, alo, ahi, bits));
    }

    /**
     * The move's value is read for a bound (SPEC §10.3 term_d): every move of A, the cut move of
     * C, and the refuted moves of an A' entry that is neither P nor P' — in mode 5 only when its
     * value is below U_max (at U_max, hi ≤ v asks nothing).
     */
    private boolean consultedForBound(int code) {
        return (k & A) != 0 || ((k & C) != 0 && code == eMove)
                || ((k & AP) != 0 && (k & (P | PP)) == 0 && code != eMove
                        && !(optimal && v == game.uMax));
    }

    /** R-LEAF-2: the move to the leaf in out is worth at least b (w = -V, or V after a pass). */
    private boolean leafMoveAtLeast(int type, int b) {
        return type == Game.CHILD ? !leaves.atLeast(out[0], out[1], -b + 1)
                : leaves.atLeast(out[0], out[1], b);
    }

    /** R-SERVE-1: the child after move j has an entry of a kind that serves the need. */
    private Violation serve(int j, int need, String claim) {
        int ck = mKind[j];
        if (ck == TERMINAL) return null;
        boolean pass = mType[j] == Game.PASS_CHILD;
        int eff = pass ? Kinds.passNeeds(need) : need;
        if (ck != MISSING && Kinds.serves(ck, eff)) return null;
        return at(e, Rule.SERVE_1, claim + " entry: the child after " + game.moveName(mCode[j])
                + (pass ? " (and a pass)" : "") + " needs " + Kinds.kindName(eff) + ", found "
                + (ck == MISSING ? "no entry" : "kinds " + Kinds.kindName(ck)));
    }

    /** R-P-1 and R-PP-1: the exact value is the maximum over the moves. */
    private Violation maxIs(String claim, String rule) {
        int best = Integer.MIN_VALUE;
        for (int j = 0; j < n; j++) best = Math.max(best, mLo[j]);
        if (best == v) return null;
        StringBuilder sb = new StringBuilder(claim + " value " + v
                + " is not the maximum over the moves, " + best + "; found move values");
        for (int j = 0; j < n; j++)
            sb.append(' ').append(game.moveName(mCode[j])).append('=').append(range(j));
        return at(e, rule, sb.toString());
    }

    /** R-TB-1: the stored move is worth the value and no earlier move is. */
    private Violation tieBreak(String claim) {
        if (mLo[star] != v || mHi[star] != v)
            return at(e, Rule.TB_1, claim + " move " + game.moveName(eMove) + " is worth "
                    + range(star) + ", not the value " + v);
        for (int j = 0; j < star; j++)
            if (mLo[j] == v && mHi[j] == v)
                return at(e, Rule.TB_1, claim + " move " + game.moveName(eMove) + " is not"
                        + " canonical: the earlier move " + game.moveName(mCode[j])
                        + " is also worth " + v);
        return null;
    }

    private String range(int j) {
        return mLo[j] == mHi[j] ? Integer.toString(mLo[j]) : "[" + mLo[j] + ", " + mHi[j] + "]";
    }

    // ------------------------------------------------------------ the report

    // the tally of SPEC §10 over the entries checked, which report() makes and SliceReport reads
    long region, aux, unreached;
    int firstUnreached = -1, root = -1;

    private SliceReport report() {
        for (int i = 0; i < checked; i++) {
            int f = flags[i], kk = kind[i] & 0xFF;
            boolean isOpen = Payload.isOpen(kk);
            if ((f & NEEDS) != 0 && !isOpen) {
                region++;
                if (part != null) part.keepRegionKey(occ[i], mover[i]);
            }
            if (!isOpen && !Payload.isExact(kk)) aux++;
            if ((f & REACHED) == 0 && unreached++ == 0) firstUnreached = i;
            if (discs == rootDiscs && occ[i] == map.rootOcc && mover[i] == map.rootMover) root = i;
        }
        if (first == null && every == null) first = decodeFailure; // entries come before its block
        return new SliceReport(this);
    }

    // ------------------------------------------------------------ helpers

    private Violation at(int i, String rule, String msg) {
        long m = mover[i];
        int b = blockOf(i);
        return new Violation(rule, b, map.record(b).layer, base + i, true, m, occ[i] & ~m, msg);
    }

    /** The block that holds the slice's entry i. */
    private int blockOf(int i) {
        long at = i;
        int b = firstBlock;
        while (b + 1 < endBlock && at >= map.record(b).count) at -= map.record(b++).count;
        return b;
    }

    private boolean isLeaf(int d) {
        return leafEmpties > 0 && game.cells - d <= leafEmpties;
    }

    private void canonical(long m, long opp) {
        cOcc = game.canonical(m, opp, map.group, images);
        cMover = images[8];
    }

    /** Key (occ, mover) comes strictly after key (o, m): unsigned occ, then unsigned mover (§6). */
    static boolean keyAfter(long occ, long mover, long o, long m) {
        return occ == o ? Long.compareUnsigned(mover, m) > 0 : Long.compareUnsigned(occ, o) > 0;
    }
}

package org.gamecert.verifier.kernel;

import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.gamecert.verifier.kernel.format.BlockRecord;
import org.gamecert.verifier.kernel.format.Bytes;
import org.gamecert.verifier.kernel.format.Container;
import org.gamecert.verifier.kernel.format.DataFrame;
import org.gamecert.verifier.kernel.format.FormatException;
import org.gamecert.verifier.kernel.format.Header;
import org.gamecert.verifier.kernel.format.KindsBefore;
import org.gamecert.verifier.kernel.format.Manifest;
import org.gamecert.verifier.kernel.format.Payload;
import org.gamecert.verifier.kernel.rules.ConnectFourRules;
import org.gamecert.verifier.kernel.rules.Game;
import org.gamecert.verifier.kernel.rules.LoaRules;
import org.gamecert.verifier.kernel.rules.NoGoRules;
import org.gamecert.verifier.kernel.rules.OthelloRules;

/**
 * The one place that decides VERIFIED. It reads the header, takes the blocks in file order
 * (pass 1: framing, hash chain, decoding, layer and key order, counts), then each layer against
 * the layer below (pass 2, LayerCheck: SPEC §9 and the tally of §10), the trailer and the census.
 * An engine drives it: it reads, decodes on its threads with {@link #decode}, holds the layer
 * below and answers lookups; the kernel checks what the engine hands it (block order and chain,
 * entry order and counts, every answer's key, that key ranges tile each layer) and concludes
 * VERIFIED only when every entry of every layer was checked against every child.
 */
public final class Kernel {
    static final int P = Payload.P, AP = Payload.AP, PP = Payload.PP, A = Payload.A, C = Payload.C;
    /** The region needs among a pass-2 flags byte (SPEC §10.1). */
    static final int NEEDS = P | AP | PP;
    /** R-OPEN-2 (SPEC §15.1): a part holds at most 2^24 open entries. */
    static final int MAX_OPEN = 1 << 24;

    final Result res;
    final boolean all, strict;
    final int maxViolationsPerRule;
    /** Run by the engine before a violation found while reading is reported (see violation). */
    private final Runnable checkReadSoFar;

    Header h;
    Game game;
    int[] tb;
    final int[] tbPlace = new int[64];
    int group;
    boolean weak;
    /** Mode 4 (SPEC §9.2): layers are ranks, lowest first; RankedKernel checks the entries. */
    boolean ranked;
    /** A part of a composite (SPEC §15): open entries allowed, its root's claim in the header. */
    boolean part;
    /** The region's seeds at the root: the exact kinds of its claim (SPEC §10.1, §15.1). */
    int rootNeeds;
    /** Mode 3: positions with at most this many empty cells are leaves (SPEC §9.1); else 0. */
    int leafEmpties;
    int rootDiscs;
    long rootOcc, rootMover; // the root's canonical key
    private byte[] headerContent, firstChain;
    private boolean headerRead;

    // pass 1: the file read in order
    private long lastLayer = -1;
    private byte[] lastStoredChain;   // of the last block record read
    private byte[] lastAcceptedChain; // of the last block accepted (its R-HASH-1 held)
    /**
     * Each block's entries digest (entriesDigest) as pass 1 took them from decode, sealed: pass
     * 2 takes a block only with the same digest, however the engine kept or made its columns.
     */
    private long[] blockDigests = new long[64];
    private Payload started; // the block startBlock took, which acceptBlock must be given
    private Payload startedCopy; // and the kernel's copy of it, which pass 1 reads
    long entries, blocks;
    final long[] layerAux = new long[65];
    /** Open kind bytes read (R-OPEN-2), and the open entries kept, in file order. */
    private long openRead;
    final OpenEntries openEntries = new OpenEntries();
    /** The composite this file is part partIndex of, or null: checked alone (keepOpen). */
    private Manifest composite;
    private int partIndex = -1;
    private boolean unnamedKept;
    /** The keys of R, kept on request for a composite's union census (SPEC §15.4); or null. */
    LegacyRegionKeys regionKeys;
    boolean rootFound;
    int rootKind, rootLo, rootHi, rootStoredMove;
    long rootIndex;
    private boolean streaming = true, hasLast, inBlock;
    boolean checkingReadSoFar;
    private int curDiscs = -1;
    private long curCount, lastOcc, lastMover;
    // layers in file order: disc count, blocks [first, end), entries kept
    int nLayers;
    final int[] lDiscs = new int[67], lFirst = new int[67], lEnd = new int[67];
    final long[] lSize = new long[67];
    /** Entries skipped (--all), or off the board, or a move code the engine's table cuts. */
    final boolean[] lReread = new boolean[67];
    final List<BlockRecord> blockList = new ArrayList<>();
    boolean anyViolation;

    // pass 2: the tally of SPEC §10, and which layers were checked in full
    final long[] region = new long[67];
    /** Connect Four: terminal positions outside R that the proof reaches (§10.3 term_d). */
    final long[] proofTerminals = new long[67];
    long unreached, firstUnreachedIndex = -1;
    int firstUnreachedLayer = -1;
    byte[] flagsOfNextLayer; // the flags the layer just checked gave its children
    long answerSumOfNextLayer; // and the sum of its answers' hashes (LayerCheck.mark)
    long[] wrapsOfNextLayer = new long[0]; // the entries whose count of answers wrapped, sorted
    private int nextWhole = -1; // the layer due next in pass 2 (shallowest first)
    private final boolean[] layerChecked = new boolean[67];
    Violation found; // the first violation of pass 2, reported when it ends
    /** Layers checked in slices (JoinedLayer): the next one due, the marks sent to each. */
    private int nextJoined = -1;
    private boolean joined, wholeLayerBegun;
    final long[][] sentTo = new long[67][2];
    /** The fingerprint of the Layout this kernel made (layout) or adopted (adopt); or null. */
    byte[] adopted;
    private Layout ownLayout;
    private boolean sliceBegun;
    private boolean pass2Begun, pass2Ended;
    // the steps an engine must take, each in its turn (an engine that skips one cannot verify)
    private boolean pass1Ended, trailerRead, censusTaken;
    /** The layer being checked (LayerCheck or JoinedLayer) until it finishes; or null. */
    Object openLayer;
    /** Where the next frame must start: after the header, then after each block taken. */
    private long nextFrameAt = -1;
    /** Block records admitted (admitBlockRecord) and not yet started, in file order. */
    private final java.util.ArrayDeque<BlockRecord> admitted = new java.util.ArrayDeque<>();
    /** Numbers each block handed to a pass (LayerPass), so that a checker's range names one. */
    long blockSerial;
    /** The checkers made for this run (their terminal positions are gathered per layer). */
    final List<EntryChecker> checkers = new ArrayList<>();
    private String engineFault;

    // the trailer
    private long[][] trailerCensus;
    long trailerRows;
    private String commitmentHex;
    private byte[] commitment;

    public Kernel(Result res, boolean all, boolean strict, int maxViolationsPerRule,
            Runnable checkReadSoFar) {
        this.res = res;
        this.all = all;
        this.strict = strict;
        this.maxViolationsPerRule = maxViolationsPerRule;
        this.checkReadSoFar = checkReadSoFar;
    }

    public Header header() {
        return h;
    }

    public Game game() {
        return game;
    }

    /**
     * Keeps the keys of the region, as far as the engine's allowance grants room, for a
     * composite's union census (SPEC §15.4, informative); called before pass 2.
     */
    public void keepRegionKeys(org.gamecert.verifier.engine.Options.Allowance allowance) {
        regionKeys = new LegacyRegionKeys(allowance);
    }

    /**
     * The file is checked as part i of the composite m (SPEC §15.3): of its open entries, only
     * those m's links name, and the first that none names, are kept (keepOpen). Before pass 1.
     */
    public void partOf(Manifest m, int i) {
        if (blocks > 0 || i < 0 || i >= m.partCount())
            throw new IllegalArgumentException("part " + i + " of a manifest, before pass 1");
        composite = m;
        partIndex = i;
    }

    // ------------------------------------------------------------------ violations

    /** Thrown after a violation that ends the check (the first one, or a fatal one with --all). */
    public static final class Stop extends RuntimeException {
        Stop() {
            super(null, null, false, false);
        }
    }

    /** The engine broke its contract: the verdict can only be an error. */
    public static final class EngineFault extends RuntimeException {
        EngineFault(String message) {
            super("engine fault: " + message, null, false, false);
        }
    }

    /** Whether an engine fault or a violation was recorded (a slice's kernel must have neither). */
    boolean faultedOrViolated() {
        return engineFault != null || anyViolation;
    }

    /** Records an engine fault (so that no later step can verify) and returns it to throw. */
    EngineFault engineFault(String message) {
        EngineFault fault = new EngineFault(message);
        if (engineFault == null) engineFault = fault.getMessage();
        return fault;
    }

    void violation(String rule, long block, long layer, long entry, boolean pos, long mover,
            long opp, String msg, boolean fatal) {
        anyViolation = true; // first: whatever the engine's callback below does
        if (streaming && (fatal || !all)) {
            streaming = false;
            if (nLayers > 0) {
                closeLayerReadSoFar();
                checkingReadSoFar = true; // the layer being read is checked only up to here
                try {
                    checkReadSoFar.run();
                } catch (Stop | EngineFault | java.io.UncheckedIOException ended) {
                    throw ended; // the input could not be read again: an I/O error, not a fault
                } catch (RuntimeException e) {
                    throw engineFault("the engine's check of the layers read so far failed: " + e);
                }
            }
        }
        long n = res.violationCounts.merge(rule, 1L, Long::sum);
        Violation v = new Violation(rule, block, layer, entry, pos, mover, opp, msg);
        if (n <= maxViolationsPerRule || res.violations.isEmpty()) {
            res.violations.add(v);
        } else if (block >= 0) { // over the cap: keep the first in the file
            int last = -1;
            for (int i = 0; i < res.violations.size(); i++) {
                Violation x = res.violations.get(i);
                boolean later = last < 0 || before(res.violations.get(last), x);
                if (x.rule().equals(rule) && x.block() >= 0 && later) last = i;
            }
            if (last >= 0 && before(v, res.violations.get(last))) res.violations.set(last, v);
        }
        if (fatal || !all) throw new Stop();
    }

    void violation(Violation v, boolean fatal) {
        violation(v.rule(), v.block(), v.layer(), v.entry(), v.hasPosition(), v.mover(),
                v.opponent(), v.message(), fatal);
    }

    /** x's entry comes before y's in the file (stable for violations of one entry). */
    static boolean before(Violation x, Violation y) {
        return x.block() != y.block() ? x.block() < y.block() : x.entry() < y.entry();
    }

    void fatal(String rule, String msg) {
        violation(rule, -1, -1, -1, false, 0, 0, msg, true);
    }

    /** A violation found while reading: the layers read so far are checked first (SPEC §9). */
    private void closeLayerReadSoFar() {
        int li = nLayers - 1;
        lEnd[li] = (int) blocks + (inBlock ? 1 : 0);
        lSize[li] = curCount;
    }

    /** Pass 2 begins: a violation found from now on is reported as found. */
    public void endStreaming() {
        streaming = false;
    }

    // ------------------------------------------------------------------ header

    /** R-HDR-1 (the content), R-HDR-2 (the root); the chain's start h_0 (SPEC §3). */
    public void header(Container ct) throws IOException {
        if (headerRead) throw engineFault("the header read twice");
        headerRead = true;
        Header parsed = null;
        try {
            headerContent = ct.readHeaderContent();
            parsed = Header.parse(headerContent);
        } catch (FormatException e) {
            fatal(e.rule(), e.getMessage()); // throws
        }
        // The kernel's copy of the tie-breaking order first: no engine can reach the header
        // (header(), res.header) before the kernel took what it decides by (R-TB-1, the moves).
        tb = parsed.tb.clone();
        h = parsed;
        res.header = h;
        game = h.family == Header.OTHELLO ? new OthelloRules(h.width)
                : h.family == Header.NOGO ? new NoGoRules(h.width)
                : h.family == Header.LOA ? new LoaRules(h.width)
                : new ConnectFourRules(h.width, h.height);
        for (int t = 0; t < tb.length; t++) tbPlace[tb[t]] = t;
        group = h.symmetry == 0 ? 1 : game.symmetryCount;
        weak = h.baseMode != Header.SEMI_STRONG;
        ranked = h.mode == Header.WEAK_RANKED;
        part = h.part;
        rootNeeds = weak ? 0 : h.rootKinds & NEEDS; // a certificate that is not a part: P
        leafEmpties = h.leafEmpties;
        long rm = h.rootMover, ro = h.rootOpponent;
        if ((rm & ro) != 0) rootFault(rm, ro, false, "root_mover and root_opponent overlap");
        if (!game.isLegalPosition(rm, ro))
            rootFault(rm, ro, true, "the root is not a legal position (R-POS-1)");
        if (game.isTerminal(rm, ro)) rootFault(rm, ro, true, "the root is terminal");
        if (game.legalMoveCodes(rm, ro) == 0) rootFault(rm, ro, true, "the root's mover must pass");
        if (isLeaf(Long.bitCount(rm | ro)))
            rootFault(rm, ro, true, "the root has at most leaf_empties = " + leafEmpties
                    + " empty cells");
        rootDiscs = Long.bitCount(rm | ro);
        long[] scratch = new long[9];
        rootOcc = game.canonical(rm, ro, group, scratch);
        rootMover = scratch[8];
        firstChain = lastStoredChain = sha(new byte[] {0}, headerContent);
        nextFrameAt = 8 + headerContent.length;
    }

    /** A position with this many discs is a leaf of mode 3 (SPEC §9.1): at most L empty cells. */
    boolean isLeaf(int discs) {
        return leafEmpties > 0 && game.cells - discs <= leafEmpties;
    }

    private void rootFault(long rm, long ro, boolean position, String msg) {
        violation(Rule.HDR_2, -1, -1, -1, position, rm, ro, msg, true);
    }

    // ------------------------------------------------------------------ pass 1

    /**
     * R-LAY-1 and R-CON-2 of the next block record in file order; returns the chain value before
     * it (h_{i-1}), with which {@link #decode} checks the block.
     */
    public byte[] admitBlockRecord(BlockRecord rec) throws FormatException {
        if (lastLayer >= 0 && (ranked ? rec.layer < lastLayer : rec.layer > lastLayer))
            throw new FormatException(Rule.LAY_1, "block " + rec.index + " has layer " + rec.layer
                    + " after a block of layer " + lastLayer
                    + (ranked ? " (ranks come lowest first, SPEC §9.2)" : ""));
        lastLayer = rec.layer;
        if (rec.count < 1 || rec.count > h.maxBlockEntries)
            throw new FormatException(Rule.CON_2, "block " + rec.index + ": count " + rec.count
                    + " outside 1.." + h.maxBlockEntries);
        if (rec.rawLen > h.maxBlockBytes)
            throw new FormatException(Rule.CON_2, "block " + rec.index + ": raw_len " + rec.rawLen
                    + " > max_block_bytes " + h.maxBlockBytes);
        if (rec.compLen > rec.rawLen + (rec.rawLen >> 8) + 128)
            throw new FormatException(Rule.CON_2, "block " + rec.index + ": comp_len " + rec.compLen
                    + " > raw_len + raw_len/256 + 128");
        if (adopted != null) throw engineFault("a block record admitted by a slice's kernel");
        byte[] prevChain = lastStoredChain;
        lastStoredChain = rec.chain();
        admitted.add(rec);
        return prevChain.clone(); // the engine's copy: the kernel's stays as it is
    }

    /**
     * R-CON-3 (the frame), R-HASH-1 (h_i from prevChain), then the payload's encoding rules.
     * Pure: the engine may call it on any thread. The payload is stamped with the block and the
     * chain values it was checked with, which acceptBlock and LayerPass compare with the file's.
     * It decodes into its thread's columns, which no engine can reach, and copies them into reuse
     * (when long enough) once sealed: decoding into the engine's columns would let an engine
     * thread change an entry between its checks and its seal.
     */
    public Payload decode(BlockRecord rec, byte[] frame, byte[] prevChain, Payload reuse)
            throws FormatException {
        int rawLen = Math.toIntExact(rec.rawLen); // R-CON-2 held: below 2^25
        byte[] raw = DataFrame.decompress(frame, rawLen, rec.index);
        byte[] prev = prevChain.clone(); // read once: the seal binds the block to it
        byte[] chain = chain(prev, rec, raw);
        byte[] stored = rec.chain();
        if (!Arrays.equals(chain, stored))
            throw new FormatException(Rule.HASH_1, "block " + rec.index + ": stored chain value "
                    + hex(stored) + " != computed " + hex(chain));
        int count = Math.toIntExact(rec.count);
        Payload[] scratch = DECODED.get();
        Payload own;
        try { // uncapped: this kernel counts open entries in file order (countOpen)
            own = scratch[0] = Payload.decode(raw, count, weak, part, Long.MIN_VALUE, game.uMin,
                    game.uMax, scratch[0]);
        } catch (Payload.EntryFormatException x) {
            if (part) KindsBefore.note(raw, count, x); // for R-OPEN-2 (blockFailure)
            throw x;
        }
        long seal = seal(prev, chain, entriesDigest(own, count));
        Payload p = LayerPass.copy(own, reuse);
        Stamp stamp = Stamp.of(p);
        stamp.block = rec.index;
        stamp.chainBefore = prev;
        stamp.seal = seal;
        return p;
    }

    /** Each thread's columns that decode decodes into (never handed to an engine). */
    private static final ThreadLocal<Payload[]> DECODED = ThreadLocal.withInitial(
            () -> new Payload[1]);

    /** A block whose record, frame or payload broke a rule. */
    public void blockFailure(BlockRecord rec, FormatException e) {
        if (rec == null) fatal(e.rule(), e.getMessage());
        byte[] kindsBefore = KindsBefore.of(e);
        if (kindsBefore != null) countOpen(rec, kindsBefore, kindsBefore.length);
        long entry = -1;
        if (e instanceof Payload.EntryFormatException ef && ef.entry >= 0)
            entry = ef.entry + (rec.layer == curDiscs ? curCount : 0);
        boolean named = entry >= 0 || e.getMessage().startsWith("block ");
        violation(e.rule(), rec.index, rec.layer, entry, false, 0, 0,
                (named ? "" : "block " + rec.index + ": ") + e.getMessage(), true);
    }

    /**
     * Takes the next block in file order, decoded by {@link #decode}: it must be the next one
     * (no block dropped, repeated or moved) and chained to the one before. Returns its layer.
     */
    public int startBlock(BlockRecord rec, Payload p) {
        if (ranked || pass1Ended || admitted.peekFirst() != rec)
            throw engineFault("block " + rec.index + " started without its record admitted in"
                    + " turn (or in mode 4, or after pass 1)");
        admitted.removeFirst();
        if (rec.index != blocks || Stamp.of(p).block != rec.index || p.count != rec.count)
            throw engineFault("block " + rec.index + " handed over as block " + blocks
                    + " of the file");
        byte[] before = lastAcceptedChain == null ? firstChain : lastAcceptedChain;
        byte[] chainBefore = Stamp.of(p).chainBefore;
        if (chainBefore != before && !Arrays.equals(chainBefore, before))
            throw engineFault("block " + rec.index + " was decoded against another chain value");
        // Pass 1 reads the kernel's own copy, which no engine thread can change meanwhile; the
        // copy must be what decode made of the block (its seal).
        Payload given = p;
        p = startedCopy = LayerPass.copy(given, startedCopy);
        long digest = entriesDigest(p, p.count);
        // chained to the kernel's h_(i-1)
        if (Stamp.of(given).seal != seal(before, rec.chain(), digest))
            throw engineFault("block " + rec.index + " handed over with other entries than the"
                    + " file's (not as decode made them)");
        if (blocks == blockDigests.length)
            blockDigests = Arrays.copyOf(blockDigests, 2 * (int) blocks);
        blockDigests[(int) blocks] = digest;
        started = given;
        if (part) countOpen(rec, p.kind, p.count);
        // No entry has more discs than 64, so a block of a higher layer fails R-LAY-2 at its
        // first entry. It is the file's first block (R-LAY-1 held, and an earlier block of a
        // layer above 64 ended the check), so that entry is entry 0 of the layer. This is
        // decided before the layer is kept: the layers kept are 0..64, d + 1 cannot overflow.
        if (rec.layer > 64)
            violation(Rule.LAY_2, rec.index, rec.layer, 0, true, p.mover[0], p.occ[0] & ~p.mover[0],
                    "entry has " + Long.bitCount(p.occ[0]) + " discs in a block of layer "
                    + rec.layer, true);
        int layer = (int) rec.layer;
        if (layer != curDiscs) {
            if (nLayers > 0) endLayer();
            lDiscs[nLayers] = curDiscs = layer;
            lFirst[nLayers++] = (int) blocks;
            curCount = 0;
            hasLast = false;
        }
        return layer;
    }

    /**
     * R-OPEN-2 (SPEC §15.1) for the kinds of a block that decoded (or decoded as far as kinds):
     * it comes after the block's kinds rules and before its values and its entries' rules.
     */
    private void countOpen(BlockRecord rec, byte[] kinds, int n) {
        for (int i = 0; i < n; i++) {
            if (!Payload.isOpen(kinds[i]) || ++openRead <= MAX_OPEN) continue;
            long entry = i + (rec.layer == curDiscs ? curCount : 0);
            violation(Rule.OPEN_2, rec.index, rec.layer, entry, false, 0, 0, "more than 2^24 = "
                    + MAX_OPEN + " open entries in the part", true);
        }
    }

    /** R-LAY-2 and R-LAY-3 of the block's entries (the other rules: pass 2); the counts. */
    public void acceptBlock(BlockRecord rec, Payload given) {
        if (given != started || rec.index != blocks)
            throw engineFault("block " + rec.index + " accepted without being started");
        started = null;
        Payload p = startedCopy; // the kernel's copy that startBlock took
        blockList.add(rec);
        lastAcceptedChain = rec.chain(); // equal to the computed value: R-HASH-1 held
        nextFrameAt = rec.frameOffset + rec.compLen;
        inBlock = true;
        for (int i = 0; i < p.count; i++) checkEntryOrder(rec, p, i);
        inBlock = false;
        entries += p.count;
        blocks++;
        res.entries = entries;
        res.blocks = blocks;
    }

    /** True for a weak-ranked certificate (mode 4): the engine hands it to RankedKernel. */
    public boolean ranked() {
        return ranked;
    }

    /** The file's blocks are all read (the trailer comes next). */
    public void endPass1() {
        if (pass1Ended || ranked || adopted != null)
            throw engineFault("pass 1 ended twice, in mode 4 or by a slice's kernel");
        pass1Ended = true;
        if (nLayers > 0) endLayer();
        streaming = false;
    }

    private void endLayer() {
        lEnd[nLayers - 1] = (int) blocks;
        lSize[nLayers - 1] = curCount;
    }

    private void checkEntryOrder(BlockRecord rec, Payload p, int i) {
        long occ = p.occ[i], mover = p.mover[i], opp = occ & ~mover;
        int k = p.kind[i] & 0xFF, d = (int) rec.layer; // <= 64: startBlock
        boolean wrongDiscs = Long.bitCount(occ) != d;
        boolean outOfOrder = hasLast && !KeyRange.after(occ, mover, lastOcc, lastMover);
        boolean badMove = Payload.hasMove(k) && (p.move[i] & 0xFF) >= game.moveCodes;
        lReread[nLayers - 1] |= wrongDiscs || outOfOrder || (occ & ~game.boardMask) != 0 || badMove
                || isLeaf(d);
        if (wrongDiscs) {
            violation(Rule.LAY_2, rec.index, d, curCount, true, mover, opp,
                    "entry has " + Long.bitCount(occ) + " discs in a block of layer " + d, false);
            return;
        }
        if (outOfOrder) {
            String what = occ == lastOcc && mover == lastMover
                    ? "the key repeats the previous entry's"
                    : "the key is smaller than the previous entry's";
            violation(Rule.LAY_3, rec.index, d, curCount, true, mover, opp, what, false);
            return;
        }
        if (isLeaf(d)) {
            violation(Rule.LEAF_1, rec.index, d, curCount, true, mover, opp, "an entry with "
                    + (game.cells - d) + " empty cells: at most leaf_empties = " + leafEmpties
                    + ", a leaf has no entry", false);
            return;
        }
        hasLast = true;
        lastOcc = occ;
        lastMover = mover;
        long index = curCount++;
        if (Payload.isOpen(k)) keepOpen(occ, mover, k & ~Payload.O, p.lo[i], p.hi[i]);
        else if (!Payload.isExact(k)) layerAux[d]++; // an open entry is not counted (SPEC §10.3)
        if (d == rootDiscs && occ == rootOcc && mover == rootMover) {
            rootFound = true;
            rootKind = k;
            rootLo = p.lo[i];
            rootHi = p.hi[i];
            rootIndex = index;
            rootStoredMove = Payload.hasMove(k) ? p.move[i] & 0xFF : -1;
        }
    }

    /**
     * Keeps an open entry for R-COMP-3..5 (SPEC §15.3). A part of a composite keeps those its
     * links name, and the first that none names: R-COMP-3 fails at that one, so the rest cannot
     * matter. What the parts keep is then bounded by the links (at most 2^24 and one per part),
     * not by 2^24 per part (R-OPEN-2). Checked alone, a part keeps them all.
     */
    private void keepOpen(long occ, long mover, int k, int lo, int hi) {
        boolean named = composite == null || composite.findLink(partIndex, occ, mover) >= 0;
        if (named || !unnamedKept) openEntries.add(occ, mover, k, lo, hi);
        else openEntries.skip();
        unnamedKept |= !named;
    }

    /**
     * Whether pass 1 read the entry with this key as open. An entry not kept was open only if
     * kind (the engine's copy of its kind byte) says so: taken on trust only in a part that
     * left some open entry unkept, which has one no link names and so cannot compose (R-COMP-3)
     * nor verify alone.
     */
    boolean wasOpen(long occ, long mover, int kind) {
        if (openEntries.indexOf(occ, mover) >= 0) return true;
        return openEntries.size() < openEntries.total() && Payload.isOpen(kind);
    }

    // ------------------------------------------------------------------ the layers, for pass 2

    public long entriesRead() {
        return entries;
    }

    public int layers() {
        return nLayers;
    }

    public int discs(int li) {
        return lDiscs[li];
    }

    public long size(int li) {
        return lSize[li];
    }

    public int firstBlock(int li) {
        return lFirst[li];
    }

    public int endBlock(int li) {
        return lEnd[li];
    }

    /** Whether re-reading layer li renumbers or drops entries (the engine may not reuse a copy). */
    public boolean reread(int li) {
        return lReread[li];
    }

    /** The layer that layer li's children are in (one more disc), or -1. */
    public int below(int li) {
        return li > 0 && lDiscs[li - 1] == lDiscs[li] + 1 ? li - 1 : -1;
    }

    public BlockRecord block(int b) {
        return blockList.get(b);
    }

    /** Block b read again (checked against its chain value: the file must not change). */
    public Payload reload(Container ct, int b, Payload reuse) throws IOException {
        BlockRecord r = blockList.get(b);
        try {
            byte[] frame = ct.read(r.frameOffset, Math.toIntExact(r.compLen));
            return decode(r, frame, b == 0 ? firstChain.clone() : blockList.get(b - 1).chain(),
                    reuse);
        } catch (FormatException e) {
            throw new IOException("the file changed while it was being read (block " + b + ")");
        }
    }

    /** A checker for one thread; worker: it keeps its first violation for the pass to pick from. */
    public EntryChecker newChecker(boolean worker) {
        EntryChecker c = new EntryChecker(this, worker);
        checkers.add(c);
        return c;
    }

    /**
     * Pass 2, shallowest layer first: each layer is checked against the layer below (LayerCheck),
     * so a layer's flags are final once the layer above it was checked. Layers come deepest first
     * in the file, so a violation found in a layer is earlier in the order of checks than any
     * found before it: the last one found is reported (with --all: each as found, sorted).
     */
    public void beginPass2() {
        if (pass2Begun) throw engineFault("pass 2 begun twice"); // found is kept once found
        if ((!pass1Ended && !checkingReadSoFar) || (adopted != null && ownLayout == null))
            throw engineFault("pass 2 begun before pass 1 ended, or by a slice's kernel");
        pass2Begun = true;
        nextWhole = nLayers - 1;
        flagsOfNextLayer = null;
        answerSumOfNextLayer = 0;
        wrapsOfNextLayer = new long[0];
        found = null;
    }

    /** Pass 2 of layer li: its entries against the layer below (see LayerCheck). */
    public LayerCheck beginLayer(int li) {
        if (joined || !pass2Begun || pass2Ended)
            throw engineFault("a whole layer outside pass 2 or after layers checked in slices");
        // shallowest first, each once: a layer's flags and answers are those of the layer above
        if (li != nextWhole || openLayer != null)
            throw engineFault("layer " + li + " begun out of order or before the one above ended");
        nextWhole--;
        wholeLayerBegun = true;
        LayerCheck lc = new LayerCheck(this, li, flagsOfNextLayer);
        openLayer = lc;
        return lc;
    }

    // ------------------------------------------------------------------ slices (SPEC §11.1)

    /**
     * The file's layout after pass 1, for kernels in other JVMs that check slices of its layers
     * (adopt, beginSlice); this kernel then tallies each layer from their results (JoinedLayer).
     * Only for a file whose pass 1 found nothing, checked for its first violation: not a part,
     * not mode 4, no entry that pass 2 would number otherwise than pass 1.
     */
    public Layout layout() {
        if (ownLayout != null) return ownLayout;
        if (!pass1Ended || !sliceable() || adopted != null)
            throw engineFault("this check cannot be made in slices");
        ownLayout = new Layout(this);
        adopted = ownLayout.fingerprint(firstChain);
        return ownLayout;
    }

    /** Whether pass 2 can be made in slices (layout). */
    public boolean sliceable() {
        boolean ok = !streaming && !anyViolation && !all && !part && !ranked && regionKeys == null
                && engineFault == null && !wholeLayerBegun;
        for (int li = 0; li < nLayers; li++) ok &= !lReread[li];
        return ok;
    }

    /** Another kernel's layout of this file (read its header first): to check one slice. */
    public void adopt(Layout l) {
        if (h == null || blocks > 0 || nLayers > 0 || all || part || ranked || regionKeys != null
                || ownLayout != null || adopted != null || pass1Ended || pass2Begun
                || !admitted.isEmpty())
            throw engineFault("a layout adopted by a kernel that is not fresh");
        nLayers = l.layers;
        for (int li = 0; li < nLayers; li++) {
            lDiscs[li] = l.discs[li];
            lFirst[li] = l.first[li];
            lEnd[li] = l.end[li];
            lSize[li] = l.size[li];
        }
        blockList.addAll(l.blockList());
        rootFound = l.rootFound;
        rootIndex = l.rootIndex;
        streaming = false;
        adopted = l.fingerprint(firstChain);
    }

    /**
     * Pass 2 of blocks [firstBlock, endBlock) of layer li, in a kernel that adopted the layout:
     * flags come as marks (LayerCheck.receive) and go as marks (LayerCheck.marks); the result is
     * LayerCheck.endSlice. One slice per kernel.
     */
    public LayerCheck beginSlice(int li, int firstBlock, int endBlock) {
        if (adopted == null || ownLayout != null || sliceBegun || li < 0 || li >= nLayers
                || firstBlock < lFirst[li] || endBlock <= firstBlock || endBlock > lEnd[li])
            throw engineFault("a slice outside the layout, or a second slice for one kernel");
        sliceBegun = true;
        return new LayerCheck(this, li, firstBlock, endBlock, null, true);
    }

    /** Pass 2 of layer li from its slices' results; the layers shallowest first, each once. */
    public JoinedLayer beginJoinedLayer(int li) {
        layout();
        if (!pass2Begun || pass2Ended) throw engineFault("a layer joined outside pass 2");
        if (!joined && !wholeLayerBegun) nextJoined = nLayers - 1;
        joined = true;
        if (li < 0 || li != nextJoined || openLayer != null || wholeLayerBegun)
            throw engineFault("layer " + li + " joined out of order, after whole layers or before"
                    + " the one above ended");
        nextJoined--;
        JoinedLayer jl = new JoinedLayer(this, li);
        openLayer = jl;
        return jl;
    }

    /** Whether layer li's flags come from the layer above it (else the engine reserves them). */
    public boolean hasFlagsFor(int li) {
        return flagsOfNextLayer != null && flagsOfNextLayer.length == lSize[li];
    }

    public void endPass2() {
        if (!pass2Begun || pass2Ended || openLayer != null)
            throw engineFault("pass 2 ended twice, before it began or with a layer open");
        pass2Ended = true;
        flagsOfNextLayer = null;
        answerSumOfNextLayer = 0;
        wrapsOfNextLayer = new long[0];
        // --all: in the order of checks
        res.violations.sort((x, y) -> before(x, y) ? -1 : before(y, x) ? 1 : 0);
        if (found != null) violation(found, false);
    }

    /** Called by LayerCheck once every entry of layer li was checked against every child. */
    void layerChecked(int li) {
        layerChecked[li] = true;
    }

    // ------------------------------------------------------------------ trailer and root

    /** R-CON-1, R-HASH-2, R-HASH-3 of the trailer; R-ROOT-1, R-OPEN-1, R-ROOT-2/3 or R-PART-1. */
    public void trailer(Container ct) throws IOException {
        if (trailerRead || (adopted != null && ownLayout == null) || (!ranked && !pass2Ended))
            throw engineFault("the trailer read twice, before pass 2 ended or by a slice's kernel");
        if (ct.position() != nextFrameAt)
            throw engineFault("the trailer read at offset " + ct.position() + ", not after the"
                    + " last block taken (offset " + nextFrameAt + ")");
        trailerRead = true;
        long size;
        try {
            size = ct.trailerContentSize(true);
        } catch (FormatException e) {
            fatal(e.rule(), e.getMessage());
            return;
        }
        long start = ct.position();
        byte[] head = ct.read(start, 20);
        long blockCount = Bytes.u64(head, 0), entryCount = Bytes.u64(head, 8);
        long rows = Bytes.u32(head, 16);
        if (rows != (size - 52) / 20)
            fatal(Rule.CON_1, "TRAILER rows " + rows + " but its size holds " + (size - 52) / 20);
        MessageDigest md = sha256();
        md.update((byte) 2);
        md.update(lastAcceptedChain == null ? lastStoredChain : lastAcceptedChain);
        md.update(head);
        long[][] census = rows <= 65 ? new long[(int) rows][3] : null;
        long off = start + 20, end = start + size - 32;
        int row = 0;
        while (off < end) {
            int len = (int) Math.min(20 * 4096, end - off);
            byte[] chunk = ct.read(off, len);
            md.update(chunk);
            if (census != null)
                for (int q = 0; q + 20 <= len; q += 20, row++) {
                    census[row][0] = Bytes.u32(chunk, q);
                    census[row][1] = Bytes.u64(chunk, q + 4);
                    census[row][2] = Bytes.u64(chunk, q + 12);
                }
            off += len;
        }
        byte[] stored = ct.read(end, 32);
        byte[] commitment = md.digest();
        if (blockCount != blocks || entryCount != entries)
            fatal(Rule.HASH_2, "trailer counts " + Long.toUnsignedString(blockCount) + " blocks, "
                    + Long.toUnsignedString(entryCount) + " entries; read " + blocks + " blocks, "
                    + entries + " entries");
        if (!Arrays.equals(stored, commitment))
            fatal(Rule.HASH_3, "stored commitment " + hex(stored) + " != computed "
                    + hex(commitment));
        long rm = h.rootMover, ro = h.rootOpponent;
        if (!rootFound)
            violation(Rule.ROOT_1, -1, rootDiscs, -1, true, rm, ro,
                    "no entry for the root's canonical form", true);
        if (Payload.isOpen(rootKind))
            violation(Rule.OPEN_1, -1, rootDiscs, -1, true, rm, ro, "the root's entry is open "
                    + kindName(rootKind) + ": a part proves its own root", true);
        if (part) {
            checkPartClaim(rm, ro);
        } else if (!weak && ((rootKind & P) == 0 || rootLo != h.rootValue)) {
            violation(Rule.ROOT_2, -1, rootDiscs, -1, true, rm, ro, "root entry has kinds "
                    + kindName(rootKind) + " and value " + rootLo
                    + "; the header claims P with value " + h.rootValue, true);
        } else if (weak && (rootLo != h.rootValue || rootHi != h.rootValue)) {
            violation(Rule.ROOT_3, -1, rootDiscs, -1, true, rm, ro, "root entry bounds ["
                    + rootLo + ", "
                    + rootHi + "] are not [" + h.rootValue + ", " + h.rootValue + "]", true);
        }
        trailerCensus = census;
        trailerRows = rows;
        this.commitment = commitment;
        commitmentHex = "sha256:" + hex(commitment);
    }

    /**
     * R-PART-1 (SPEC §15.1): the root's entry proves the part's claim: it serves every exact
     * kind of root_kinds with the value root_value; its bounds meet those of C and A.
     */
    private void checkPartClaim(long rm, long ro) {
        int claim = h.rootKinds;
        boolean holds = true;
        for (int need : new int[] {P, AP, PP})
            if ((claim & need) != 0) holds &= serves(rootKind, need) && rootLo == h.rootValue;
        if ((claim & C) != 0) holds &= rootLo >= h.rootValue;
        if ((claim & A) != 0) holds &= rootHi <= h.rootUpper;
        if (!holds)
            violation(Rule.PART_1, -1, rootDiscs, -1, true, rm, ro, "root entry has kinds "
                    + kindName(rootKind) + " and bounds [" + rootLo + ", " + rootHi
                    + "]; the header claims " + kindName(claim) + " with [" + h.rootValue + ", "
                    + h.rootUpper + "]", true);
    }

    /** The root entry's stored move stated in the root's own orientation (SPEC §7.4); or -1. */
    int rootMoveAsGiven(int storedMove) {
        if (storedMove < 0) return -1;
        int g = 0;
        for (; g < group; g++)
            if (game.transform(h.rootMover | h.rootOpponent, g) == rootOcc
                    && game.transform(h.rootMover, g) == rootMover) break;
        return game.mapMove(storedMove, game.inverse(g));
    }

    /** A kind set serves a region need (SPEC §9): P by P; A' by P or A'; P' by P or P'. */
    static boolean serves(int kinds, int need) {
        int serving = need == P ? P : need == AP ? P | AP : P | PP;
        return (kinds & serving) != 0;
    }

    // ------------------------------------------------------------------ census and verdict

    /** R-CENSUS-1 and R-REACH-1 (SPEC §10) from pass 2's tally. */
    public void census(Container ct) throws IOException {
        if (!trailerRead || censusTaken || ranked || !pass2Ended)
            throw engineFault("the census taken before pass 2 ended or the trailer, twice, or in"
                    + " mode 4");
        censusTaken = true;
        res.unreached = unreached;
        int rowsExpected = game.cells - rootDiscs + 1;
        // The trailer is compared with the kernel's own rows; the engine's Result gets copies.
        long[][] rows = censusRows();
        long total = 0;
        res.census.clear();
        for (long[] row : rows) {
            res.census.add(row.clone());
            total += row[1];
        }
        res.region = total;
        if (trailerRows != rowsExpected)
            fatal(Rule.CENSUS_1, "trailer has " + trailerRows + " census rows, expected "
                    + rowsExpected
                    + " (discs " + rootDiscs + ".." + game.cells + ")");
        for (int r = 0; r < rowsExpected; r++) {
            long[] mine = rows[r], theirs = trailerCensus[r];
            if (mine[0] != theirs[0] || mine[1] != theirs[1] || mine[2] != theirs[2])
                violation(Rule.CENSUS_1, -1, (int) mine[0], -1, false, 0, 0, "census row " + r
                        + ": trailer says discs " + theirs[0]
                        + " region " + Long.toUnsignedString(theirs[1])
                        + " auxiliary " + Long.toUnsignedString(theirs[2])
                        + "; counted region " + mine[1]
                        + " auxiliary " + mine[2], true);
        }
        if (strict && unreached > 0) reportUnreached(ct);
    }

    /** The census as counted: per disc count, region, auxiliary entries, term_d (SPEC §10.3). */
    private long[][] censusRows() {
        long[][] rows = new long[game.cells - rootDiscs + 1][];
        for (int d = rootDiscs; d <= game.cells; d++)
            rows[d - rootDiscs] = new long[] {d, region[d], d < layerAux.length ? layerAux[d] : 0,
                proofTerminals[d]};
        return rows;
    }

    /** R-REACH-1 at the first unreached entry (shallowest layer first). */
    private void reportUnreached(Container ct) throws IOException {
        int li = firstUnreachedLayer, b = lFirst[li];
        long base = 0;
        Keep keep = new Keep(lDiscs[li]);
        while (true) {
            Payload p = reload(ct, b++, null);
            int m = keep.apply(p);
            if (firstUnreachedIndex < base + m) {
                int i = (int) (firstUnreachedIndex - base);
                violation(Rule.REACH_1, -1, lDiscs[li], firstUnreachedIndex, true, p.mover[i],
                        p.occ[i] & ~p.mover[i], unreached + " entries are unreached (--strict)",
                        true);
            }
            base += m;
        }
    }

    /**
     * The verdict: VERIFIED only when no rule was broken, the engine kept its contract and every
     * layer read was checked in full against the layer below; else the verdict the result has.
     * A part with open entries that passed everything is INCOMPLETE (SPEC §11, §15.1). Either
     * way the result carries the kernel's PartConclusion, what composition takes (§15.3).
     */
    public Result conclude(Result from) {
        if (engineFault != null)
            throw new EngineFault(engineFault.substring("engine fault: ".length()));
        if (!pass2Ended && !anyViolation) throw engineFault("pass 2 did not end");
        if (!anyViolation && (!trailerRead || !censusTaken || ranked || found != null))
            throw engineFault("concluded without the trailer or the census, in mode 4, or with"
                    + " a violation found after pass 2 ended");
        for (int li = 0; li < nLayers; li++)
            if (!layerChecked[li] && !anyViolation)
                throw engineFault("layer " + lDiscs[li] + " was not checked in full");
        if (anyViolation) throw new Stop();
        res.rootKind = rootKind;
        res.rootMove = rootMoveAsGiven(rootStoredMove);
        openEntries.freeze();
        if (regionKeys != null) regionKeys.freeze();
        PartConclusion c = new PartConclusion(h, tb, commitment, rootOcc, rootMover, rootKind,
                entries, openEntries, composite, partIndex, censusRows(),
                regionKeys == null ? null : regionKeys.regionKeys(), false);
        if (openEntries.total() > 0) return Result.openPart(from, c, false);
        return Result.verified(from, commitmentHex, c, false);
    }

    // ------------------------------------------------------------------ helpers

    /**
     * The entries of a layer that pass 1 kept (R-LAY-2 and R-LAY-3 held: with --all the others
     * are skipped), so that a re-read numbers the entries as pass 1 did.
     */
    public static final class Keep {
        final int discs;
        boolean any;
        long occ, mover;

        public Keep(int discs) {
            this.discs = discs;
        }

        /** Moves the kept entries of p to its front; returns how many. */
        public int apply(Payload p) {
            int m = 0;
            for (int i = 0; i < p.count; i++) {
                long o = p.occ[i], mv = p.mover[i];
                if (Long.bitCount(o) != discs || (any && !KeyRange.after(o, mv, occ, mover)))
                    continue;
                any = true;
                occ = o;
                mover = mv;
                p.occ[m] = o;
                p.mover[m] = mv;
                p.kind[m] = p.kind[i];
                p.lo[m] = p.lo[i];
                p.hi[m] = p.hi[i];
                p.move[m] = p.move[i];
                m++;
            }
            return m;
        }
    }

    /**
     * Whether p holds block b's entries as the file has them: the digest pass 1 took of them, or,
     * in a kernel that adopted a layout (no pass 1 of its own), p's seal with b's chain value.
     */
    boolean isFilesBlock(int b, Payload p, long digest) {
        if (b < blocks || (b == blocks && inBlock)) return blockDigests[b] == digest;
        byte[] before = b == 0 ? firstChain : blockList.get(b - 1).chain();
        return ownLayout == null && adopted != null
                && Stamp.of(p).seal == seal(before, blockList.get(b).chain(), digest);
    }

    /**
     * A digest of entries [0, n) of p as the kernel checks them (key, kind, bounds, move), to
     * catch an engine that alters, mixes or swaps columns: from a secret start, so that an engine
     * using the kernel's API cannot find other entries with the same digest (SPEC §11.1).
     */
    static long entriesDigest(Payload p, int n) {
        long h = DIGEST_KEY ^ n; // secret: no engine can find other entries with this digest
        for (int i = 0; i < n; i++) {
            // each field times an odd constant (a bijection), so one changed field changes x
            long rest = (p.kind[i] & 0xFF) | (p.lo[i] & 0xFF) << 8 | (p.hi[i] & 0xFF) << 16
                    | (p.move[i] & 0xFF) << 24; // a move is -1 where the kind has none (decode)
            long x = p.occ[i] * 0x9E3779B97F4A7C15L ^ p.mover[i] * 0xC2B2AE3D27D4EB4FL
                    ^ rest * 0x165667B19E3779F9L;
            h = (h ^ x) * 0xFF51AFD7ED558CCDL;
            h ^= h >>> 29;
        }
        return h ^ (h >>> 32);
    }

    /**
     * A block's seal: its entries' digest bound to the chain values h_(i-1) it was decoded from
     * and h_i (SPEC §3) by a keyed SHA-256, so that no engine can make one for entries that decode
     * did not make from this file's chain, although it sees the seals decode makes (Stamp.seal
     * is the engine's to hold).
     */
    static long seal(byte[] before, byte[] chain, long digest) {
        MessageDigest md = sha256();
        md.update(SEAL_KEY);
        md.update(before);
        md.update(chain);
        for (int i = 0; i < 8; i++) md.update((byte) (digest >>> 8 * i));
        return Bytes.u64(md.digest(), 0);
    }

    /** The keys of the entries' digests and of the seals: drawn when the verifier starts. */
    private static final long DIGEST_KEY = new java.security.SecureRandom().nextLong();
    private static final byte[] SEAL_KEY = new byte[32];

    static {
        new java.security.SecureRandom().nextBytes(SEAL_KEY);
    }

    /** f of SPEC §7.2 on one need: P stays, A' and P' swap. */
    static int passNeed(int need) {
        return need == AP ? PP : need == PP ? AP : need;
    }

    static int passNeeds(int needs) {
        return (needs & P) | ((needs & AP) != 0 ? PP : 0) | ((needs & PP) != 0 ? AP : 0);
    }

    public static String kindName(int k) {
        java.util.StringJoiner names = new java.util.StringJoiner(", ", "{", "}");
        String[] kinds = {"P", "A'", "P'", "A", "C"};
        for (int i = 0; i < 5 && k > 0; i++) if ((k & (1 << i)) != 0) names.add(kinds[i]);
        return names.toString();
    }

    // SHA-256, the chain of SPEC §3 and hex: the main kernel's own (Chain), not a copy
    static MessageDigest sha256() {
        return Chain.sha256();
    }

    static byte[] sha(byte[] prefix, byte[] data) {
        return Chain.sha(prefix, data);
    }

    public static byte[] chain(byte[] prev, BlockRecord rec, byte[] raw) {
        return Chain.chain(prev, rec, raw);
    }

    public static String hex(byte[] b) {
        return Chain.hex(b);
    }
}

package org.gamecert.verifier.kernel;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import org.gamecert.verifier.kernel.format.Container;
import org.gamecert.verifier.kernel.format.Payload;

/**
 * Pass 2 of one layer: its entries checked against the layer below (SPEC §9) and their needs
 * (§10.1) and reachability (§10.2) passed to their children there: a byte of flags per entry,
 * which also counts the answers its record was given (childFlags); a sum of a salted hash of
 * every answer binds the records answered to the file's (compareAnswers).
 * The engine holds the layer below whole or in key ranges; for each range it runs one LayerPass
 * over this layer's entries. The kernel requires the ranges to tile the layer below (the first
 * from the start, each after the one before, the last to the end, sizes adding up) and each pass
 * to see every entry of this layer once, in key order.
 */
public final class LayerCheck {
    private static final VarHandle BYTES = MethodHandles.arrayElementVarHandle(byte[].class);
    /** A flags byte: the flags (P, A', P', REACHED) below, the answers counted modulo 16 above. */
    static final int FLAG_BITS = 0x0F, ONE_ANSWER = 0x10;
    /** Drawn when the class loads (one per JVM), so that no engine can aim at a sum of answers. */
    private static final long SALT = new java.security.SecureRandom().nextLong();
    private static final List<String> POSITION_RULES = List.of(Rule.POS_1, Rule.POS_2, Rule.POS_3,
            Rule.MOVE_1);

    final Kernel kernel;
    final int li, below, discs;
    final long size;
    /**
     * The blocks [firstBlock, endBlock) this check covers, entries base .. base + count - 1 of
     * the layer: the whole layer, or one slice of it (a cluster engine, beginSlice).
     */
    final int firstBlock, endBlock;
    final long base, count;
    final boolean sliced;
    /** This check's entries' flags, given by the layer above (or fresh at the top). */
    final byte[] flags;
    /**
     * The layer below's flags, one byte an entry (null in a slice): the flags this layer's
     * entries pass to it (FLAG_BITS), and above them how many answers gave its record, modulo 16
     * (a checker notes each wrap in its wrapped list). Each checker sums a salted hash of the
     * index and record of every answer it was given (answerSum); when the layer below is
     * checked, each entry adds its count times the hash of the file's record there, and the sums
     * must agree (compareAnswers, finish): so an engine that cannot see the salt cannot answer
     * with another record than the file's, nor another index. One byte an entry, as the flags
     * alone took: an answer costs one random access into an array a ninth the size of a digest
     * per entry. A slice sends its answers' digests as marks (Marks) instead.
     */
    final byte[] childFlags;
    /** Whether the layer above's answers for this layer are to be compared (not at the top). */
    private final boolean answered;
    /** The sum of the hashes of those answers, and the indexes whose count wrapped, sorted. */
    private final long answerSum;
    private final long[] wraps;
    /** The file's side of that sum so far, the entries compared, the next wrap (compareAnswers). */
    private long fileSum, compared;
    private int nextWrap;
    /** A slice: the marks its entries were sent by the layer above (SPEC §11.1), by index. */
    private long[] inIndex = new long[0], inDigest = new long[0];
    private byte[] inFlags = new byte[0];
    private int inSize, inNext;
    private final Marks taken = new Marks();
    byte[] carry;            // layer below in ranges: the maximum over the moves of earlier ranges
    BitSet tbReported;       // --all, in ranges: entries whose R-TB-1 was reported
    /** Open entries with a region need: not counted in region_d (SPEC §10.3), LayerPass. */
    long openInRegion;
    /** The earliest violation the passes found (first-violation mode). */
    Violation best;
    private final Tiling tiling = new Tiling();
    /** The checkers of this layer's rechecks (their answers are counted as the others'). */
    private final List<EntryChecker> recheckers = new ArrayList<>();
    private boolean everyPassComplete = true, finished;
    private int passesOpen;

    /** The whole layer li, with the flags the layer above gave (null: fresh). */
    LayerCheck(Kernel kernel, int li, byte[] flagsFromAbove) {
        this(kernel, li, kernel.lFirst[li], kernel.lEnd[li], flagsFromAbove, false);
    }

    /**
     * Blocks [firstBlock, endBlock) of layer li; a slice (sliced) takes its flags as marks
     * (take) and sends its own as marks, else the flags are arrays over whole layers.
     */
    LayerCheck(Kernel kernel, int li, int firstBlock, int endBlock, byte[] flagsFromAbove,
            boolean sliced) {
        this.kernel = kernel;
        this.li = li;
        this.below = kernel.below(li);
        this.discs = kernel.lDiscs[li];
        this.size = kernel.lSize[li];
        this.firstBlock = firstBlock;
        this.endBlock = endBlock;
        long before = 0, in = 0; // the layer's entries in blocks before the slice, in it
        for (int b = kernel.lFirst[li]; b < endBlock; b++)
            if (b < firstBlock) before += kernel.blockList.get(b).count;
            else in += kernel.blockList.get(b).count;
        this.sliced = sliced;
        base = sliced ? before : 0;
        count = sliced ? in : size;
        flags = flagsFromAbove != null ? flagsFromAbove : new byte[(int) count];
        if (flags.length != count) throw kernel.engineFault("flags of another layer");
        int rootFlags = EntryChecker.REACHED | kernel.rootNeeds; // the seeds of R (SPEC §10.1)
        long root = kernel.rootIndex - base;
        if (kernel.rootFound && discs == kernel.rootDiscs && root >= 0 && root < count)
            flags[(int) root] |= (byte) rootFlags;
        childFlags = below >= 0 && !sliced ? new byte[(int) kernel.lSize[below]] : null;
        answered = flagsFromAbove != null;
        answerSum = kernel.answerSumOfNextLayer;
        wraps = answered ? kernel.wrapsOfNextLayer : new long[0];
        for (EntryChecker c : kernel.checkers) {
            c.terminals.clear();
            c.proofTerminals.clear();
            c.answerSum = 0;
            c.takeWrapped(new long[0]);
        }
    }

    /** The flags of entry index of the layer (SPEC §10.1, §10.2). */
    byte flagOf(long index) {
        return (byte) (flags[(int) (index - base)] & FLAG_BITS);
    }

    /** Marks flags for the layer below's entry at, whose record the answer a gave. */
    void mark(EntryChecker c, long at, int bits, ChildLookup.Answer a) {
        if (finished) throw kernel.engineFault("layer " + discs + ": a lookup after it finished");
        if (sliced) { // a slice: every answer is sent, the layer below checks it
            c.marks.add(at, Marks.digest(a.occ, a.mover, a.kind, a.lo, a.hi), bits);
            return;
        }
        int v = (byte) BYTES.getOpaque(childFlags, (int) at);
        while (true) { // counts the answer and ORs the flags, atomically (checkers run on threads)
            int want = (v + ONE_ANSWER) & 0xF0 | v & FLAG_BITS | bits;
            int witness = (byte) BYTES.compareAndExchange(childFlags, (int) at, (byte) v,
                    (byte) want);
            if (witness == v) break;
            v = witness;
        }
        if ((v & 0xF0) == 0xF0) c.wrapped(at); // 15 + 1: the count went round to 0
        c.answerSum += answerHash(at, a.occ, a.mover, a.kind, a.lo, a.hi);
    }

    /**
     * A salted hash of an answer: the index it named and the record it gave, in full (the kind
     * is a byte and the bounds lie in [U_min, U_max], EntryChecker.lookUp, so w is one-to-one).
     * One field a round, the index first, each round one-to-one (an odd multiplier): the state
     * that the key meets is a function of the index that depends on the salt, so no engine can
     * pick two entries whose (index, key) give one state and swap their records (a review found
     * that with the index and the key XORed into one round).
     */
    private static long answerHash(long at, long occ, long mover, int kind, int lo, int hi) {
        long w = (long) (kind & 0xFF) << 48 ^ (long) (lo & 0xFFFFFF) << 24 ^ (hi & 0xFFFFFF);
        long h = (SALT ^ at) * 0xD6E8FEB86659FD93L;
        h = (h ^ h >>> 32 ^ occ) * 0x9E3779B97F4A7C15L;
        h = (h ^ h >>> 32 ^ mover) * 0xC2B2AE3D27D4EB4FL;
        h = (h ^ h >>> 32 ^ w) * 0x165667B19E3779F9L;
        return h ^ h >>> 32;
    }

    /**
     * The layer above's answers for the m entries of p, entries from .. from + m - 1 of this
     * layer: each must have been the file's record (SPEC §11.1).
     */
    void compareAnswers(Payload p, long from, int m) {
        if (!answered) return;
        if (from != compared) throw kernel.engineFault("layer " + discs + "'s entries compared"
                + " out of order");
        for (int i = 0; i < m; i++) {
            long at = from + i;
            long n = (flags[(int) at] & 0xFF) >>> 4;
            while (nextWrap < wraps.length && wraps[nextWrap] == at) {
                n += 16;
                nextWrap++;
            }
            if (n != 0) fileSum += n * answerHash(at, p.occ[i], p.mover[i], p.kind[i], p.lo[i],
                    p.hi[i]);
        }
        compared += m;
    }

    /**
     * A slice: the marks the layer above sent to it (Marks), in increasing order of index; taken
     * block by block (take) before the block's entries are checked.
     */
    public void receive(long[] index, long[] digest, byte[] bits, int n) {
        if (!sliced || inSize > 0 || passesOpen > 0 || tiling.previous != null)
            throw kernel.engineFault("marks given to a check that is not a fresh slice");
        if (n < 0 || n > index.length || n > digest.length || n > bits.length)
            throw kernel.engineFault(n + " marks given in shorter arrays");
        for (int i = 1; i < n; i++)
            if (index[i] < index[i - 1])
                throw kernel.engineFault("the marks for layer " + discs + " are not in order");
        inIndex = index.clone();
        inDigest = digest.clone();
        inFlags = bits.clone();
        inSize = n;
    }

    /**
     * A slice: the marks for the m entries of p, entries from .. from + m - 1 of the layer. Each
     * must name one of them by index and carry the digest of its record: an answer the layer
     * above was given is then this record, the file's (SPEC §11.1).
     */
    void take(Payload p, long from, int m) {
        while (inNext < inSize && inIndex[inNext] < from + m) {
            long at = inIndex[inNext];
            if (at < from)
                throw kernel.engineFault("a mark for entry " + at + " of layer " + discs
                        + " that is not in its slice");
            int i = (int) (at - from);
            long digest = Marks.digest(p.occ[i], p.mover[i], p.kind[i], p.lo[i], p.hi[i]);
            if (digest != inDigest[inNext])
                throw kernel.engineFault("the layer above was answered for entry " + at
                        + " of layer " + discs + " with another record than the file's");
            flags[(int) (at - base)] |= inFlags[inNext];
            taken.count(at, digest, inFlags[inNext]);
            inNext++;
        }
    }

    /** The layer below will come in several key ranges: the maximum over the moves is carried. */
    public void inRanges() {
        if (carry != null || passesOpen > 0 || tiling.previous != null)
            throw kernel.engineFault("layer " + discs + ": ranges announced twice or too late");
        carry = new byte[(int) size];
        Arrays.fill(carry, Byte.MIN_VALUE);
        tbReported = kernel.all ? new BitSet((int) size) : null;
    }

    /**
     * One pass over this layer's entries against range of the layer below, whose records the
     * engine answers through lookup (with no layer below: KeyRange.whole(0), no lookup).
     */
    public LayerPass pass(KeyRange range, ChildLookup lookup) {
        if (passesOpen > 0) // one at a time: R-P-1 and R-PP-1 are decided in the last range's
            throw kernel.engineFault("layer " + discs + ": a pass begun before the last ended");
        tiling.next(range, "layer " + discs + "'s layer below");
        if (sliced && !(range.first() && range.last()))
            throw kernel.engineFault("a slice of layer " + discs + " checked against key ranges");
        if (!(range.first() && range.last()) && carry == null)
            throw kernel.engineFault("layer " + discs
                    + " checked in ranges without carrying the maximum");
        passesOpen++;
        return new LayerPass(this, range, below >= 0 ? lookup : null);
    }

    boolean isFinished() {
        return finished;
    }

    /** Checks (LayerPass.check, Recheck.gather) begun and not yet ended, on any thread. */
    private volatile int checksRunning;
    private static final VarHandle RUNNING;

    static {
        try {
            RUNNING = MethodHandles.lookup().findVarHandle(LayerCheck.class, "checksRunning",
                    int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    void checkStarted() {
        RUNNING.getAndAdd(this, 1);
    }

    void checkEnded() {
        RUNNING.getAndAdd(this, -1);
    }

    /**
     * An engine's lookup runs inside a check and may call the kernel: nothing that ends or
     * replaces what a running check reads (its block, its pass, its layer) is allowed meanwhile.
     */
    void refuseWhileChecking(String what) {
        if (checksRunning != 0)
            throw kernel.engineFault("layer " + discs + ": " + what + " while a check was running");
    }

    void passEnded(boolean complete) {
        passesOpen--;
        everyPassComplete &= complete;
    }

    /**
     * Whether the first violation found is to be checked once more with all its children
     * gathered from every range (Recheck), so that it is named as when the layer below is held
     * whole. A position rule needs no recheck: it is decided without the children.
     */
    public boolean needsRecheck() {
        return best != null && !POSITION_RULES.contains(best.rule());
    }

    /** The entry of the violation found, read again, to be rechecked range by range. */
    public Recheck recheck(Container ct) throws IOException {
        if (!needsRecheck() || finished)
            throw kernel.engineFault("a recheck with no violation to recheck, or after finish");
        int b = kernel.lFirst[li];
        long base = 0; // no entry of this layer was skipped: a skip ends the run first
        while (base + kernel.blockList.get(b).count <= best.entry())
            base += kernel.blockList.get(b++).count;
        Payload p = kernel.reload(ct, b, null);
        return new Recheck(b, p, (int) (best.entry() - base));
    }

    /** The checks of one entry once more, its children gathered over every range. */
    public final class Recheck {
        private final Tiling recheckTiling = new Tiling();
        private final EntryChecker checker = new EntryChecker(kernel, true);
        private final long block, mover, opp;
        private final int k, lo, hi, mv;

        Recheck(int b, Payload p, int i) {
            recheckers.add(checker); // its lookups are answers too (finish)
            block = b;
            mover = p.mover[i];
            opp = p.occ[i] & ~mover;
            k = p.kind[i] & 0xFF;
            lo = p.lo[i];
            hi = p.hi[i];
            mv = p.move[i] & 0xFF;
        }

        public void gather(KeyRange range, ChildLookup lookup) {
            if (!checker.enter()) throw kernel.engineFault("a recheck used by two threads at once");
            checkStarted();
            try {
                recheckTiling.next(range, "the recheck's layer below");
                LayerPass pass = new LayerPass(LayerCheck.this, range, below >= 0 ? lookup : null);
                checker.gather(pass, block, discs, best.entry(), mover, opp, k, lo, hi, mv);
            } finally {
                checker.leave();
                checkEnded();
            }
        }

        /** The rule the entry breaks first (the violation found stands if none is found). */
        public void conclude() {
            if (!recheckTiling.done) throw kernel.engineFault("the recheck's ranges end early");
            if (!checker.enter()) throw kernel.engineFault("a recheck used by two threads at once");
            Violation v;
            try {
                v = checker.recheck();
            } finally {
                checker.leave();
            }
            if (v != null) best = v;
        }
    }

    /**
     * The layer's tally (SPEC §10): its region and unreached entries, and the terminal positions of
     * R among its children (Connect Four). The flags this layer gave go to the next layer checked.
     */
    public void finish() {
        refuseWhileChecking("the layer finished");
        if (finished || sliced) throw kernel.engineFault("layer " + discs + " finished twice,"
                + " or a slice finished as a layer");
        finished = true;
        boolean complete = tiling.done && everyPassComplete && passesOpen == 0;
        if (complete) kernel.layerChecked(li);
        else if (best == null && !kernel.anyViolation && !kernel.checkingReadSoFar)
            throw kernel.engineFault("layer " + discs
                    + " was not checked in full (an entry or a key range left out)");
        // Every answer the layer above got for this layer gave the file's record (SPEC §11.1);
        // known once every entry was compared (not when a violation ended the passes early).
        if (answered && compared == count && fileSum != answerSum)
            throw kernel.engineFault("the layer above was answered for layer " + discs
                    + " with other records than the file's");
        if (best != null)
            kernel.found = best; // a shallower layer's comes later in the order of checks
        for (byte f : flags) {
            if ((f & Kernel.NEEDS) != 0) kernel.region[discs]++;
        }
        kernel.region[discs] -= openInRegion;
        for (int i = 0; i < flags.length; i++)
            if ((flags[i] & EntryChecker.REACHED) == 0 && kernel.unreached++ == 0) {
                kernel.firstUnreachedLayer = li;
                kernel.firstUnreachedIndex = i;
            }
        List<KeyBag> inR = new ArrayList<>(), proof = new ArrayList<>();
        for (EntryChecker c : kernel.checkers) {
            inR.add(c.terminals);
            proof.add(c.proofTerminals);
        }
        // Terminal positions of R, and those only the proof reaches (SPEC §10.3 term_d).
        long[] terminals;
        checkStarted(); // the region keys' allowance is engine code (see LayerPass.block)
        try {
            terminals = KeyBag.census(inR, proof, kernel.regionKeys);
        } finally {
            checkEnded();
        }
        if (discs + 1 < kernel.region.length) kernel.region[discs + 1] += terminals[0];
        if (discs + 1 < kernel.proofTerminals.length)
            kernel.proofTerminals[discs + 1] += terminals[1];
        for (EntryChecker c : kernel.checkers) {
            c.terminals.clear();
            c.proofTerminals.clear();
        }
        long sum = 0;
        long[] wrapped = new long[0];
        List<EntryChecker> answeredBy = new ArrayList<>(kernel.checkers);
        answeredBy.addAll(recheckers); // a recheck's lookups are answers too
        for (EntryChecker c : answeredBy) {
            sum += c.answerSum;
            c.answerSum = 0;
            wrapped = c.takeWrapped(wrapped);
        }
        Arrays.sort(wrapped);
        if (childFlags == null && (sum != 0 || wrapped.length > 0))
            throw kernel.engineFault("layer " + discs + ": answers with no layer below to compare");
        kernel.flagsOfNextLayer = childFlags;
        kernel.answerSumOfNextLayer = sum;
        kernel.wrapsOfNextLayer = wrapped;
        kernel.openLayer = null;
    }

    /**
     * A slice's pass 2 is over: what the kernel that read the file needs to tally the layer
     * (JoinedLayer), made here from this kernel's own checks. The marks to send are the
     * checkers' (marks).
     */
    public SliceResult endSlice() {
        if (!sliced || kernel.faultedOrViolated()) // a slice's violations are its checkers'
            throw kernel.engineFault("a whole layer ended as a slice, or a slice's kernel that"
                    + " recorded a fault or a violation");
        boolean complete = tiling.done && everyPassComplete && passesOpen == 0;
        if (best == null && !complete)
            throw kernel.engineFault("the slice of layer " + discs + " in blocks " + firstBlock
                    + ".." + (endBlock - 1) + " was not checked in full");
        if (best == null && inNext != inSize)
            throw kernel.engineFault("a mark for an entry after the slice of layer " + discs
                    + " in blocks " + firstBlock + ".." + (endBlock - 1));
        long region = 0, unreached = 0, firstUnreached = -1;
        for (int i = 0; i < count; i++) {
            if ((flags[i] & Kernel.NEEDS) != 0) region++;
            if ((flags[i] & EntryChecker.REACHED) == 0 && unreached++ == 0)
                firstUnreached = base + i;
        }
        List<KeyBag> terminals = new ArrayList<>(), proofTerminals = new ArrayList<>();
        long sentA = 0, sentB = 0;
        for (EntryChecker c : kernel.checkers) {
            terminals.add(c.terminals);
            proofTerminals.add(c.proofTerminals);
            sentA += c.marks.sumA;
            sentB += c.marks.sumB;
        }
        return new SliceResult(kernel.adopted, li, firstBlock, endBlock, base, count, best,
                region, unreached, firstUnreached, KeyBag.distinctPairs(terminals),
                KeyBag.distinctPairs(proofTerminals),
                new long[] {sentA, sentB, taken.sumA, taken.sumB});
    }

    /** A slice: the marks its entries send to the layer below (one Marks per checker). */
    public java.util.List<Marks> marks() {
        java.util.List<Marks> out = new java.util.ArrayList<>();
        for (EntryChecker c : kernel.checkers) out.add(c.marks);
        return out;
    }

    /** That the key ranges an engine gives for a layer tile it: nothing missing, nothing twice. */
    private final class Tiling {
        KeyRange previous;
        boolean done;

        void next(KeyRange r, String what) {
            long layerSize = below >= 0 ? kernel.lSize[below] : 0;
            boolean ok;
            if (done) ok = false;
            else if (previous == null) ok = r.first() && r.base() == 0;
            else ok = !r.first() && r.afterOcc() == previous.upOcc()
                    && r.afterMover() == previous.upMover()
                    && r.base() == previous.base() + previous.size();
            ok &= r.size() >= 0 && r.base() + r.size() <= layerSize;
            // each range ends at or after its start, so that the ranges are in key order
            boolean bounded = !r.first() && !r.last();
            ok &= !bounded || !KeyRange.after(r.afterOcc(), r.afterMover(), r.upOcc(), r.upMover());
            if (r.last()) ok &= r.base() + r.size() == layerSize;
            if (!ok)
                throw kernel.engineFault("the key ranges of " + what + " do not tile it (" + r
                        + " after "
                    + previous + ", " + layerSize + " entries)");
            previous = r;
            done = r.last();
        }
    }
}

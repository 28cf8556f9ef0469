package org.gamecert.verifier.kernel;

import org.gamecert.verifier.kernel.format.Header;
import org.gamecert.verifier.kernel.format.Manifest;

/**
 * What the kernel concluded of one certificate for which every rule held, its open entries (a
 * part's, SPEC §15) being the only claims it does not prove itself: the facts composition needs
 * (§15.3). Made only by the kernel (Combiner.conclude, RankedKernel.run: a package-private
 * constructor) and immutable, so a composition can take no part result that the kernel did not
 * produce; its commitment is the one the kernel computed for the file it checked.
 */
public final class PartConclusion implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private final byte[] commitment;
    public final int family, width, height, utility, symmetry, baseMode;
    public final boolean part;
    private final int[] tb;
    /** The header's root, as given, and its canonical key (SPEC §7.4). */
    public final long rootMover, rootOpponent, rootOcc, rootCanonicalMover;
    /** The claim about the root (SPEC §15.1; §15.3 for a certificate that is not a part). */
    public final int claimKinds, claimLo, claimHi;
    /** The root entry's kind set. */
    public final int rootKind;
    public final long entries;
    private final OpenEntries open;
    /** The composite and part index its open entries were kept for (Combiner.partOf), or null. */
    private final Manifest keptFor;
    private final int keptForPart;
    private final long[][] census;
    private final RegionKeys regionKeys;
    /**
     * SHA-256 keyed by a secret of this JVM over every field: a conclusion read back from a serial
     * form (which an engine can write as it likes) is not one the kernel made here, and
     * Composition takes it only from another JVM (a cluster, where trust is in the code the
     * executors run: SPEC §11.1).
     */
    private final byte[] seal;
    private static final byte[] SEAL_KEY = new byte[32];

    static {
        System.arraycopy(TrustedJdk.randomBytes(32), 0, SEAL_KEY, 0, 32);
    }

    /**
     * Combiner.conclude and RankedKernel.run only: open and keys are frozen, census is the
     * kernel's own copy; keptFor, keptForPart, keys: a part's setup and region keys (null, -1,
     * null otherwise).
     */
    PartConclusion(Header h, int[] tb, byte[] commitment, long rootOcc, long rootCanonicalMover,
            int rootKind, long entries, OpenEntries open, Manifest keptFor, int keptForPart,
            long[][] census, RegionKeys keys, boolean acrossJvms) {
        this.commitment = commitment.clone();
        family = h.family;
        width = h.width;
        height = h.height;
        utility = h.utility;
        symmetry = h.symmetry;
        baseMode = h.baseMode;
        part = h.part;
        this.tb = tb.clone(); // the kernel's copy (the engine holds h)
        rootMover = h.rootMover;
        rootOpponent = h.rootOpponent;
        this.rootOcc = rootOcc;
        this.rootCanonicalMover = rootCanonicalMover;
        claimKinds = h.rootKinds;
        claimLo = h.rootValue;
        claimHi = h.rootUpper;
        this.rootKind = rootKind;
        this.entries = entries;
        this.open = open;
        this.keptFor = keptFor;
        this.keptForPart = keptForPart;
        this.census = census;
        this.regionKeys = keys;
        // a map read for a cluster gave its keys away (SPEC §11.1): its conclusion is not this
        // JVM's kernel's, and a composite takes it only as given (Composition.decide)
        this.seal = acrossJvms ? new byte[0] : seal();
    }

    private byte[] seal() {
        Seal s = new Seal(5, SEAL_KEY).bytes(commitment).longs(family, width, height, utility,
                symmetry, baseMode, part ? 1 : 0, rootMover, rootOpponent, rootOcc,
                rootCanonicalMover, claimKinds, claimLo, claimHi, rootKind, entries, keptForPart)
                .array(tb).flags(keptFor != null, regionKeys != null).longs(census.length);
        if (keptFor != null) s.bytes(keptFor.commitment());
        for (long[] row : census) s.array(row);
        open.sealInto(s);
        if (regionKeys != null) {
            s.flags(regionKeys.complete()).longs(regionKeys.size());
            for (int i = 0; i < regionKeys.size(); i++)
                s.longs(regionKeys.occ(i), regionKeys.mover(i));
        }
        return s.digest();
    }

    /** A deep copy, its seal included: Composition.decide's own (copyOf). */
    private PartConclusion(PartConclusion c) {
        commitment = c.commitment.clone();
        family = c.family;
        width = c.width;
        height = c.height;
        utility = c.utility;
        symmetry = c.symmetry;
        baseMode = c.baseMode;
        part = c.part;
        tb = c.tb.clone();
        rootMover = c.rootMover;
        rootOpponent = c.rootOpponent;
        rootOcc = c.rootOcc;
        rootCanonicalMover = c.rootCanonicalMover;
        claimKinds = c.claimKinds;
        claimLo = c.claimLo;
        claimHi = c.claimHi;
        rootKind = c.rootKind;
        entries = c.entries;
        open = c.open.copy();
        keptFor = c.keptFor; // immutable, and never in a serial form (Manifest is not Serializable)
        keptForPart = c.keptForPart;
        census = c.census.clone();
        for (int r = 0; r < census.length; r++) census[r] = census[r].clone();
        regionKeys = c.regionKeys == null ? null : c.regionKeys.copy();
        seal = c.seal.clone();
    }

    /**
     * The kernel's own copy of c (null: null), made before its seal is checked: arrays an engine
     * holds (a stream that replaced objects as it wrote c was handed them) can then change
     * nothing a check of the copy reads.
     */
    static PartConclusion copyOf(PartConclusion c) {
        return c == null ? null : new PartConclusion(c);
    }

    /** Whether the kernel made this conclusion in this JVM, as it is now. */
    boolean madeInThisJvm() {
        return Seal.holds(seal, seal());
    }

    /** The commitment id the kernel computed (SPEC §3). */
    public String commitmentId() {
        return "sha256:" + Chain.hex(commitment);
    }

    boolean hasCommitment(byte[] c) {
        return java.util.Arrays.equals(commitment, c);
    }

    /** R-COMP-2: the same game (family, board, utility, symmetry) and tie-breaking order. */
    boolean sameGame(PartConclusion o) {
        return family == o.family && width == o.width && height == o.height
                && utility == o.utility && symmetry == o.symmetry
                && java.util.Arrays.equals(tb, o.tb);
    }

    /**
     * Whether the open entries kept serve as part i of m (R-COMP-3..5): all of them were kept
     * (checked alone), or those for part i of this very manifest.
     */
    boolean openEntriesFor(Manifest m, int i) {
        return keptFor == null || (keptFor == m && keptForPart == i);
    }

    /** How many open entries the part holds. */
    public int openCount() {
        return open.total();
    }

    /**
     * How many were kept, in file order: all of them when the part was checked alone; as a
     * part of a composite, those its links name and the first that none names.
     */
    public int openKept() {
        return open.size();
    }

    public long openOcc(int i) {
        return open.occ(i);
    }

    public long openMover(int i) {
        return open.mover(i);
    }

    /** The kind set of open entry i, without O. */
    public int openKind(int i) {
        return open.kind(i);
    }

    public int openLo(int i) {
        return open.lo(i);
    }

    public int openHi(int i) {
        return open.hi(i);
    }

    /** The index of the open entry kept with this key, or -1. */
    public int openIndexOf(long occ, long mover) {
        return open.indexOf(occ, mover);
    }

    /** Census rows (SPEC §10.3) from the root's disc count: {discs, region, aux, term}. */
    public int censusRows() {
        return census.length;
    }

    public long census(int row, int column) {
        return census[row][column];
    }

    /** The keys of the region when they were kept (PartSlice.keepRegionKey), else null. */
    public RegionKeys regionKeys() {
        return regionKeys;
    }
}

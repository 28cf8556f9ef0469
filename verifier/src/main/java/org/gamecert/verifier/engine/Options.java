package org.gamecert.verifier.engine;

/** What the user asked for. */
public final class Options implements Cloneable {
    /** Default bound on the memory the verifier's tables may use (bytes): 2 GiB. */
    public static final long DEFAULT_MAX_MEMORY = 2L << 30;

    public long maxMemory = DEFAULT_MAX_MEMORY;
    public int threads = 1;
    /** Reject unreached entries (R-REACH-1) instead of only reporting them. */
    public boolean strict;
    /** Keep going after entry-level violations and report them per rule. */
    public boolean all;
    /** At most this many violations are kept per rule with {@link #all} (all are counted). */
    public int maxViolationsPerRule = 10;
    /** At most this many entries in the engine's table of a layer below; a bigger one is held in runs (tests). */
    public long maxHeldEntries = Long.MAX_VALUE;
    /**
     * Keep the keys of the region for a composite's union census (SPEC §15.4), as far as this
     * allowance (shared by the parts checked at once) grants room; null: none.
     */
    public Allowance regionKeys;
    /** The composite the file is checked as part compositePart of (SliceCheck.Setup), or null. */
    public org.gamecert.verifier.kernel.format.Manifest composite;
    public int compositePart = -1;
    /**
     * Conclude with the kernel's PartConclusion (SPEC §15.3), as a composite's parts need: set
     * for any check with a composite; a part (SPEC §15.1) always has one. Otherwise a result
     * has none, and checking a certificate alone runs no composition code.
     */
    public boolean forComposition;
    /** Told about progress now and then; may be null. */
    public Progress progress;

    /** Grants room for n more region keys (false: none); may be shared by several parts. */
    public interface Allowance {
        boolean grant(int n);
    }

    /** Progress callback (called from the checking thread). */
    public interface Progress {
        void update(long entriesChecked, int layersDone, long bytesRead, long fileSize, int pass);
    }

    /** A copy (a composite's parts are each checked with their own). */
    public Options copy() {
        try {
            return (Options) clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException(e);
        }
    }
}

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
    /** At most this many entries in one layer table; a bigger layer is checked in segments (tests). */
    public long maxHeldEntries = Long.MAX_VALUE;
    /**
     * Keep the keys of the region for a composite's union census (SPEC §15.4), as far as this
     * allowance (shared by the parts checked at once) grants room; null: none.
     */
    public org.gamecert.verifier.kernel.RegionKeys.Allowance regionKeys;
    /** The composite the file is checked as part compositePart of (Kernel.partOf), or null. */
    public org.gamecert.verifier.kernel.format.Manifest composite;
    public int compositePart = -1;
    /**
     * Pass 2 in slices by another engine (Spark; SlicedVerifier), when the kernel allows it
     * (Kernel.sliceable: pass 1 found nothing, no --all, not a part, not mode 4); null: here.
     */
    public SlicedPass2 sliced;

    /** Runs pass 2 as slices (Slices) and gives their results to the kernel (JoinedLayer). */
    public interface SlicedPass2 {
        /** firstOcc/firstMover: each block's first key, noted in pass 1. */
        void run(org.gamecert.verifier.kernel.Kernel kernel, Slices.Job job, long[] firstOcc,
                long[] firstMover) throws java.io.IOException;
    }

    /** Told about progress now and then; may be null. */
    public Progress progress;

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
